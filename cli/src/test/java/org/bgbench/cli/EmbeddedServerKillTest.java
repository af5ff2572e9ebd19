package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code bg run --store postgres --embedded} killed with SIGKILL mid-run: the embedded PostgreSQL it started
 * must not outlive it. Its postmaster stops and its throwaway directory is deleted within seconds.
 */
@Tag("server")
class EmbeddedServerKillTest {
    private static final Pattern A_SECOND = Pattern.compile("(?m)^\\s+\\d+s\\s.*act/s");

    @TempDir
    Path dir;

    /** The one directory the child's embedded server made in its own temporary directory, once it has one. */
    private static Optional<Path> serverDir(Path tmp) throws Exception {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, "bg-postgres-*")) {
            for (Path d : dirs) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    private static Optional<ProcessHandle> postmaster(Path serverDir) {
        try {
            String first = Files.readAllLines(serverDir.resolve("data/postmaster.pid"))
                    .get(0)
                    .trim();
            return ProcessHandle.of(Long.parseLong(first)).filter(ProcessHandle::isAlive);
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    @Test
    void aRunKilledWithSigkillLeavesNoServerAndNoDataDirectory() throws Exception {
        // The child's temporary directory is its own, so its server's directory is the only one there; the zonky
        // binaries stay where every other test extracted them.
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        tmp.toFile().setExecutable(true, false);
        tmp.toFile().setReadable(true, false);
        Path log = dir.resolve("run.err");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx512m",
                "--enable-native-access=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + tmp,
                "-Dot.epg.working-dir=" + Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg"),
                "-Dbg.state.dir=" + dir.resolve("state"),
                "-cp",
                System.getProperty("java.class.path"),
                Bg.class.getName(),
                "run",
                "--store",
                "postgres",
                "--embedded",
                "--load",
                "-p",
                "usercount=200",
                "-p",
                "friendcountperuser=10",
                "-p",
                "resourcecountperuser=4",
                "--workload",
                "high",
                "--threads",
                "4",
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "-p",
                "validation=false",
                "--out",
                dir.resolve("r.json").toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve("run.out").toFile())
                .redirectError(log.toFile())
                .start();
        Path server;
        ProcessHandle postmaster;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!A_SECOND.matcher(Files.readString(log)).find()) {
                assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
                assertThat(System.nanoTime())
                        .as("the run reports a measured second")
                        .isLessThan(deadline);
                Thread.sleep(50);
            }
            server = serverDir(tmp).orElseThrow();
            postmaster = postmaster(server).orElseThrow();
            p.destroyForcibly(); // SIGKILL
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).isEqualTo(128 + 9);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((postmaster.isAlive() || Files.exists(server)) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        boolean left = postmaster.isAlive();
        if (left) {
            // Do not leave it running for the other tests: it is what the fix must prevent.
            postmaster.destroyForcibly();
        }
        assertThat(left).as("the postmaster of the killed run is still running").isFalse();
        assertThat(server).as("the killed run's server directory").doesNotExist();
    }
}
