package org.bgbench.cluster.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where the shared secret of a coordinator and its workers comes from, and what a usable one is.
 *
 * <p>In order: {@code --secret S} (works, but warns: other users of the host see it in {@code ps}), {@code
 * --secret-file F} (the file's content, surrounding whitespace ignored; warns when the group or others may read the
 * file), the environment variable {@value #ENV}. A secret has at least {@value #MIN_LENGTH} characters and is not
 * trivially weak ({@link #check}). A worker given
 * none of them generates one ({@value #GENERATED_BYTES} random bytes, URL-safe Base64), prints it, and writes it to the
 * {@code --secret-file} when that names a file that does not exist yet (mode 600). A coordinator needs one.
 */
public final class Secrets {

    private Secrets() {}

    /** The shortest secret accepted, in characters. */
    public static final int MIN_LENGTH = 16;

    /** The fewest different characters a secret must have: {@code aaaa…} or {@code abab…} is no secret. */
    public static final int MIN_DISTINCT = 8;

    /** The environment variable that may hold the secret. */
    public static final String ENV = "BG_SECRET";

    /** Random bytes in a generated secret (192 bits; 32 characters). */
    public static final int GENERATED_BYTES = 24;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Which end needs the secret: a worker may generate one, a coordinator must be given one. */
    public enum Side {
        WORKER,
        COORDINATOR
    }

    /**
     * A secret and where it came from.
     *
     * @param secret the secret
     * @param source {@code --secret}, {@code --secret-file <path>}, {@value #ENV} or {@code generated}
     * @param generated true when it was generated here (and so must be handed to the coordinator)
     */
    public record Resolved(String secret, String source, boolean generated) {
        @Override
        public String toString() {
            return "Resolved[source=" + source + ", generated=" + generated + "]"; // never the secret itself
        }
    }

    /**
     * Finds the secret for one end.
     *
     * @param option the value of {@code --secret}, or null
     * @param file the value of {@code --secret-file}, or null
     * @param env how to read the environment ({@code System::getenv})
     * @param say receives warnings and notices, one line each, meant for stderr (a generated secret is said here, once)
     * @throws SecurityOptionException naming the option when the secret is missing (coordinator), too short, or the
     *     file cannot be read or written
     */
    public static Resolved resolve(
            Side side, String option, Path file, Function<String, String> env, Consumer<String> say) {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(say, "say");
        if (option != null && file != null) {
            throw new SecurityOptionException("--secret", "give either --secret or --secret-file, not both");
        }
        if (option != null) {
            say.accept("warning: --secret puts the secret on the command line, where other users of this host can"
                    + " read it (ps); use --secret-file F or " + ENV + " instead");
            check("--secret", option);
            return new Resolved(option, "--secret", false);
        }
        if (file != null) {
            if (Files.exists(file) || side == Side.COORDINATOR) {
                String secret = read(file, say);
                check("--secret-file", secret);
                return new Resolved(secret, "--secret-file " + file, false);
            }
            String secret = generate();
            write(file, secret);
            say.accept("no secret given: generated one and wrote it to " + file + " (mode 600): " + secret);
            return new Resolved(secret, "generated", true);
        }
        String fromEnv = env.apply(ENV);
        if (fromEnv != null && !fromEnv.isEmpty()) {
            check(ENV, fromEnv);
            return new Resolved(fromEnv, ENV, false);
        }
        if (side == Side.COORDINATOR) {
            throw new SecurityOptionException(
                    "--secret-file",
                    "the workers' shared secret is required with"
                            + " --workers: give a file that holds it (--secret-file F) or set " + ENV);
        }
        String secret = generate();
        say.accept("no secret given: generated one for this run: " + secret + " (give it to the coordinator in a"
                + " file, --secret-file F, or in " + ENV + ")");
        return new Resolved(secret, "generated", true);
    }

    /** A new random secret: {@value #GENERATED_BYTES} bytes from {@link SecureRandom}, URL-safe Base64 without padding. */
    public static String generate() {
        byte[] bytes = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Checks that {@code secret} is not trivially weak: at least {@value #MIN_LENGTH} characters, not only whitespace,
     * no control characters, no whitespace at either end (a secret file drops it, so the two ends would disagree),
     * and at least {@value #MIN_DISTINCT} different characters. The message never shows the secret.
     *
     * @param option what to name in the error, e.g. {@code --secret-file}
     * @throws SecurityOptionException when it is not such a secret
     */
    public static void check(String option, String secret) {
        String s = secret == null ? "" : secret;
        int length = s.codePointCount(0, s.length());
        String how = " (start a worker without a secret to have one generated, or use e.g. 'openssl rand -base64 24')";
        if (length > 0 && s.isBlank()) {
            throw new SecurityOptionException(option, "the secret is only whitespace; give a random one" + how);
        }
        if (length < MIN_LENGTH) {
            throw new SecurityOptionException(
                    option, "the secret has " + length + " characters; at least " + MIN_LENGTH + " are needed" + how);
        }
        if (s.codePoints().anyMatch(Character::isISOControl)) {
            throw new SecurityOptionException(option, "the secret holds control characters; give printable ones" + how);
        }
        if (!s.strip().equals(s)) {
            throw new SecurityOptionException(
                    option,
                    "the secret begins or ends with whitespace, which a secret file " + "would drop; give it without"
                            + how);
        }
        long distinct = s.codePoints().distinct().count();
        if (distinct < MIN_DISTINCT) {
            throw new SecurityOptionException(
                    option,
                    "the secret has only " + distinct + " different characters; at " + "least " + MIN_DISTINCT
                            + " are needed" + how);
        }
    }

    /** Reads a secret file: its content without surrounding whitespace, on one line. Warns when others may read it. */
    static String read(Path file, Consumer<String> say) {
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SecurityOptionException("--secret-file", "no such file: " + file);
        } catch (IOException | RuntimeException e) {
            throw new SecurityOptionException("--secret-file", "cannot read " + file + ": " + e.getMessage(), e);
        }
        if (content.isBlank() && !content.replace("\n", "").replace("\r", "").isEmpty()) {
            throw new SecurityOptionException(
                    "--secret-file",
                    file + " holds only whitespace; give a random secret"
                            + " (start a worker without a secret to have one generated, or use e.g."
                            + " 'openssl rand -base64 24')");
        }
        content = content.strip();
        if (content.contains("\n") || content.contains("\r")) {
            throw new SecurityOptionException("--secret-file", file + " must hold the secret on one line");
        }
        warnIfOthersMayRead(file, say);
        return content;
    }

    /** Says one line when the group or others may read {@code file} (POSIX file systems only). */
    static void warnIfOthersMayRead(Path file, Consumer<String> say) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            if (p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)) {
                say.accept("warning: " + file + " can be read by other users (" + PosixFilePermissions.toString(p)
                        + "); chmod 600 " + file);
            }
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system, or gone meanwhile: nothing to say
        }
    }

    /** Creates {@code file} (it must not exist) readable and writable by its owner only, holding {@code secret}. */
    static void write(Path file, String secret) {
        try {
            PemFiles.writePrivate(file, secret + "\n");
        } catch (FileAlreadyExistsException e) {
            throw new SecurityOptionException("--secret-file", file + " appeared while BG was writing it; start again");
        } catch (IOException e) {
            throw new SecurityOptionException(
                    "--secret-file", "cannot write a generated secret to " + file + ": " + e.getMessage(), e);
        }
    }
}
