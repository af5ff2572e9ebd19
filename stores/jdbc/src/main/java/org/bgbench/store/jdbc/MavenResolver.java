package org.bgbench.store.jdbc;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;
import org.bgbench.model.InvalidParameterException;

/**
 * Finds the jar of one Maven artifact ({@code group:artifact:version}): in the local repository (Maven's
 * {@code ~/.m2/repository}) first, then in BG's download cache, else downloads it from a Maven repository into that
 * cache after checking it against the repository's {@code .sha1}. Only the one jar: no POM is read, no transitive
 * dependency resolved (JDBC drivers are usually one self-contained jar).
 */
final class MavenResolver {
    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_.\\-]+");
    private static final int TIMEOUT_MS = 30_000;

    private final Path localRepository;
    private final Path cache;
    private final URI remote;

    /**
     * @param localRepository Maven's local repository, searched first (never written)
     * @param cache           where downloaded jars are kept, laid out like a repository
     * @param remote          the repository to download from: {@code https://…}, {@code http://…} or {@code file:…}
     */
    MavenResolver(Path localRepository, Path cache, URI remote) {
        this.localRepository = localRepository;
        this.cache = cache;
        String r = remote.toString();
        this.remote = r.endsWith("/") ? remote : URI.create(r + "/");
    }

    /** The repository URI of setting {@code key}: absolute, http, https or file. */
    static URI repository(String key, String value) {
        try {
            URI u = new URI(value.trim());
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http") && !scheme.equals("file")) {
                throw new InvalidParameterException(
                        key,
                        "expected an https://, http:// or file: URL of a Maven " + "repository, got '" + value + "'");
            }
            return u;
        } catch (URISyntaxException e) {
            throw new InvalidParameterException(key, "expected the URL of a Maven repository, got '" + value + "'");
        }
    }

    /** The jar's path inside a repository, e.g. {@code org/xerial/sqlite-jdbc/3.47.2.0/sqlite-jdbc-3.47.2.0.jar}. */
    static String jarPath(String key, String coordinates) {
        String[] p = coordinates.trim().split(":", -1);
        if (p.length != 3
                || !PART.matcher(p[0]).matches()
                || !PART.matcher(p[1]).matches()
                || !PART.matcher(p[2]).matches()
                || p[0].contains("..")
                || p[2].contains("..")) {
            throw new InvalidParameterException(
                    key,
                    "expected Maven coordinates group:artifact:version (several " + "separated by commas), got '"
                            + coordinates.trim() + "'");
        }
        return p[0].replace('.', '/') + "/" + p[1] + "/" + p[2] + "/" + p[1] + "-" + p[2] + ".jar";
    }

    /**
     * The jar of {@code coordinates}.
     *
     * @param key the setting named in errors
     * @throws InvalidParameterException when the coordinates are malformed, the artifact is in neither repository,
     *                                   the download fails or its SHA-1 differs from the repository's
     */
    Path resolve(String key, String coordinates) {
        String path = jarPath(key, coordinates);
        String c = coordinates.trim();
        Path local = localRepository.resolve(path);
        if (Files.isRegularFile(local)) {
            return local;
        }
        Path cached = cache.resolve(path);
        if (Files.isRegularFile(cached)) {
            return cached;
        }
        URI jar = remote.resolve(path);
        String expected;
        try {
            expected = new String(read(jar.toString() + ".sha1"), StandardCharsets.US_ASCII).trim();
        } catch (FileNotFoundException e) {
            throw new InvalidParameterException(
                    key,
                    c + " is neither in " + localRepository + " nor in " + remote + " (no " + jar
                            + ".sha1); check the coordinates or " + JdbcStoreProvider.MAVEN_REPO);
        } catch (IOException e) {
            throw new InvalidParameterException(
                    key,
                    "cannot download " + jar + ".sha1 for " + c + " ("
                            + e.getMessage() + "); check " + JdbcStoreProvider.MAVEN_REPO
                            + " or give the jar with " + JdbcStoreProvider.DRIVER_JAR);
        }
        // "hash" or "hash  file name"
        expected = expected.split("\\s+")[0].toLowerCase(Locale.ROOT);
        if (!expected.matches("[0-9a-f]{40}")) {
            throw new InvalidParameterException(key, jar + ".sha1 holds no SHA-1 ('" + expected + "'); not using " + c);
        }
        byte[] bytes;
        try {
            bytes = read(jar.toString());
        } catch (IOException e) {
            throw new InvalidParameterException(key, "cannot download " + jar + " (" + e.getMessage() + ")");
        }
        String actual = sha1(bytes);
        if (!actual.equals(expected)) {
            throw new InvalidParameterException(
                    key,
                    "checksum mismatch for " + c + " downloaded from " + jar + ": SHA-1 " + actual
                            + ", the repository's .sha1 says " + expected + "; refused");
        }
        try {
            Files.createDirectories(cached.getParent());
            Path tmp = Files.createTempFile(
                    cached.getParent(), cached.getFileName().toString(), ".part");
            try {
                Files.write(tmp, bytes);
                Files.move(tmp, cached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new InvalidParameterException(key, "cannot store " + c + " in the driver cache " + cache + ": " + e);
        }
        return cached;
    }

    private static byte[] read(String url) throws IOException {
        URLConnection conn = URI.create(url).toURL().openConnection();
        conn.setConnectTimeout(TIMEOUT_MS);
        conn.setReadTimeout(TIMEOUT_MS);
        if (conn instanceof HttpURLConnection http) {
            int code = http.getResponseCode();
            if (code == 404 || code == 410) {
                throw new FileNotFoundException(url);
            }
            if (code != 200) {
                throw new IOException("HTTP " + code + " from " + url);
            }
        }
        try (InputStream in = conn.getInputStream()) {
            return in.readAllBytes();
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException(url);
        }
    }

    static String sha1(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
