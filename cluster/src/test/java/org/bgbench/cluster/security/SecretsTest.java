package org.bgbench.cluster.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.bgbench.cluster.security.Secrets.Resolved;
import org.bgbench.cluster.security.Secrets.Side;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the secret comes from, what is accepted, and what is said about it. */
class SecretsTest {

    private static final String GOOD = "sixteen-chars-ok";
    private static final Function<String, String> NO_ENV = name -> null;

    @TempDir
    Path dir;

    private final List<String> said = new ArrayList<>();

    private static void assertOption(Throwable t, String option, String text) {
        assertThat(t)
                .isInstanceOfSatisfying(
                        SecurityOptionException.class,
                        e -> assertThat(e.option()).isEqualTo(option))
                .hasMessageContaining(text);
        assertThat(t.getMessage()).doesNotContain("\n");
    }

    private Path file(String name, String content, String mode) throws Exception {
        Path f = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void onTheCommandLineItWorksButWarnsThatPsShowsIt() {
        for (Side side : Side.values()) {
            said.clear();
            Resolved r = Secrets.resolve(side, GOOD, null, NO_ENV, said::add);
            assertThat(r.secret()).isEqualTo(GOOD);
            assertThat(r.generated()).isFalse();
            assertThat(said)
                    .singleElement()
                    .asString()
                    .startsWith("warning: --secret")
                    .contains("other users of this host can read it (ps)")
                    .contains("--secret-file");
            assertThat(r.toString()).doesNotContain(GOOD);
        }
    }

    @Test
    void fromAFileStrippedAndWarnedAboutWhenOthersMayReadIt() throws Exception {
        Path mine = file("mine", "  " + GOOD + "\n", "rw-------");
        assertThat(Secrets.resolve(Side.COORDINATOR, null, mine, NO_ENV, said::add)
                        .secret())
                .isEqualTo(GOOD);
        assertThat(said).isEmpty();

        Path shared = file("shared", GOOD + "\n", "rw-r--r--");
        assertThat(Secrets.resolve(Side.WORKER, null, shared, NO_ENV, said::add).source())
                .isEqualTo("--secret-file " + shared);
        assertThat(said)
                .singleElement()
                .asString()
                .isEqualTo("warning: " + shared + " can be read by other users" + " (rw-r--r--); chmod 600 " + shared);

        // the file wins over the environment
        assertThat(Secrets.resolve(Side.WORKER, null, mine, n -> "from-the-environment-0", s -> {})
                        .secret())
                .isEqualTo(GOOD);
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, GOOD, mine, NO_ENV, s -> {})),
                "--secret",
                "not both");
        assertOption(
                catchThrowable(() -> Secrets.resolve(
                        Side.WORKER, null, file("two", "a".repeat(16) + "\nb", "rw-------"), NO_ENV, s -> {})),
                "--secret-file",
                "on one line");
    }

    @Test
    void fromTheEnvironment() {
        Resolved r = Secrets.resolve(Side.COORDINATOR, null, null, Map.of("BG_SECRET", GOOD)::get, said::add);
        assertThat(r.secret()).isEqualTo(GOOD);
        assertThat(r.source()).isEqualTo("BG_SECRET");
        assertThat(said).isEmpty();
    }

    @Test
    void shorterThanSixteenCharactersIsBadInputNamingWhereItCameFrom() throws Exception {
        String fifteen = "x".repeat(15);
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, "s", null, NO_ENV, s -> {})),
                "--secret",
                "the secret has 1 characters; at least 16 are needed");
        assertOption(
                catchThrowable(() -> Secrets.resolve(
                        Side.COORDINATOR, null, file("short", fifteen + "\n", "rw-------"), NO_ENV, s -> {})),
                "--secret-file",
                "has 15 characters");
        assertOption(
                catchThrowable(
                        () -> Secrets.resolve(Side.WORKER, null, file("empty", "\n", "rw-------"), NO_ENV, s -> {})),
                "--secret-file",
                "has 0 characters");
        assertOption(
                catchThrowable(
                        () -> Secrets.resolve(Side.WORKER, null, null, Map.of("BG_SECRET", fifteen)::get, s -> {})),
                "BG_SECRET",
                "has 15 characters");
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, "", null, NO_ENV, s -> {})),
                "--secret",
                "has 0 characters");
        // sixteen characters, not bytes
        assertThat(Secrets.resolve(Side.WORKER, "éèêëàâäôöûüùïîçñ", null, NO_ENV, s -> {})
                        .secret())
                .hasSize(16);
    }

    @Test
    void whitespaceAndTriviallyWeakSecretsAreRefusedFromEverySource() throws Exception {
        String blank = " ".repeat(16);
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, blank, null, NO_ENV, s -> {})),
                "--secret",
                "the secret is only whitespace");
        assertOption(
                catchThrowable(() -> Secrets.resolve(
                        Side.COORDINATOR, null, file("blank", blank + "\t\n", "rw-------"), NO_ENV, s -> {})),
                "--secret-file",
                "holds only whitespace");
        assertOption(
                catchThrowable(
                        () -> Secrets.resolve(Side.WORKER, null, null, Map.of("BG_SECRET", blank)::get, s -> {})),
                "BG_SECRET",
                "the secret is only whitespace");
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, "é".repeat(16), null, NO_ENV, s -> {})),
                "--secret",
                "only 1 different characters; at least 8");
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, GOOD + " ", null, NO_ENV, s -> {})),
                "--secret",
                "begins or ends with whitespace");
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, GOOD + "\u0007", null, NO_ENV, s -> {})),
                "--secret",
                "control characters");
        // Inner spaces are fine: a passphrase.
        assertThat(Secrets.resolve(Side.WORKER, "correct horse battery staple", null, NO_ENV, s -> {})
                        .secret())
                .isEqualTo("correct horse battery staple");
    }

    @Test
    void aCoordinatorWithoutASecretOrItsFileIsBadInput() {
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.COORDINATOR, null, null, NO_ENV, s -> {})),
                "--secret-file",
                "required with --workers");
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.COORDINATOR, null, dir.resolve("missing"), NO_ENV, s -> {})),
                "--secret-file",
                "no such file: " + dir.resolve("missing"));
        assertThat(dir.resolve("missing")).doesNotExist();
    }

    @Test
    void aWorkerWithoutASecretGeneratesOneAndSaysItOnce() {
        Resolved r = Secrets.resolve(Side.WORKER, null, null, NO_ENV, said::add);
        assertThat(r.generated()).isTrue();
        assertThat(r.secret()).matches("[A-Za-z0-9_-]{32}"); // 24 random bytes, URL-safe Base64
        assertThat(said).singleElement().asString().contains(r.secret());
        assertThat(Secrets.resolve(Side.WORKER, null, null, NO_ENV, s -> {}).secret())
                .isNotEqualTo(r.secret());
        // an empty BG_SECRET counts as none
        assertThat(Secrets.resolve(Side.WORKER, null, null, Map.of("BG_SECRET", "")::get, s -> {})
                        .generated())
                .isTrue();
    }

    @Test
    void aWorkerWritesAGeneratedSecretToASecretFileThatDoesNotExistOwnerOnly() throws Exception {
        Path f = dir.resolve("worker.secret");
        Resolved r = Secrets.resolve(Side.WORKER, null, f, NO_ENV, said::add);
        assertThat(r.generated()).isTrue();
        assertThat(Files.readString(f)).isEqualTo(r.secret() + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                .isEqualTo("rw-------");
        assertThat(said).singleElement().asString().contains(r.secret()).contains(f.toString());
        // The coordinator (and the worker's next start) read it, without a warning.
        said.clear();
        assertThat(Secrets.resolve(Side.COORDINATOR, null, f, NO_ENV, said::add).secret())
                .isEqualTo(r.secret());
        assertThat(Secrets.resolve(Side.WORKER, null, f, NO_ENV, said::add).generated())
                .isFalse();
        assertThat(said).isEmpty();
        // A directory that does not exist is bad input, not a crash.
        assertOption(
                catchThrowable(() -> Secrets.resolve(Side.WORKER, null, dir.resolve("no/such/dir/s"), NO_ENV, s -> {})),
                "--secret-file",
                "cannot write a generated secret");
    }
}
