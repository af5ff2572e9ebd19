package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule for the paths BG writes, on real files: only BG's own earlier results are moved aside; devices, FIFOs,
 * links, other people's files and the system trees are refused with one line naming the option, and left as they are.
 */
@Tag("server")
class OutputGuardTest {
    private static final String RESULT = "{\"format\":\"bg-run-result/1\",\"partial\":false}";

    @TempDir
    Path dir;

    private static String refusal(Path out) {
        try {
            RunArtifacts.keepEarlier(out);
        } catch (InvalidParameterException e) {
            return e.getMessage();
        }
        throw new AssertionError(out + " was not refused");
    }

    @Test
    void aDeviceIsRefusedAndNotMoved() {
        assertThat(refusal(Path.of("/dev/null"))).startsWith("--out: /dev/null is in /dev, a system directory");
        assertThat(Path.of("/dev/null.1")).doesNotExist();
        assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();
    }

    @Test
    void aFifoIsRefusedAndNotMoved() throws Exception {
        Path fifo = dir.resolve("pipe.json");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0).isTrue();
        assertThat(refusal(fifo))
                .isEqualTo("--out: " + fifo + " is a device, FIFO or socket, not a regular file; "
                        + "BG moves aside or replaces only its own earlier results: give another path");
        assertThat(fifo).exists();
        assertThat(dir.resolve("pipe.1.json")).doesNotExist();
    }

    @Test
    void aSymbolicLinkToADeviceIsRefusedAndNotMoved() throws Exception {
        Path link = Files.createSymbolicLink(dir.resolve("null.json"), Path.of("/dev/null"));
        assertThat(refusal(link))
                .contains(link + " is a symbolic link (to /dev/null), which BG does not write " + "through");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(dir.resolve("null.1.json")).doesNotExist();
    }

    @Test
    void aRegularFileThatIsNotAResultIsRefusedAndKept() throws Exception {
        Path notes = Files.writeString(dir.resolve("notes.json"), "{\"mine\": true}");
        assertThat(refusal(notes))
                .contains(notes + " exists and is not a BG result (BG recognises its own by their " + "content)");
        assertThat(notes).hasContent("{\"mine\": true}");
        // a result's companions count too: a folder of one's own where the run directory would be
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("Main.java"), "class Main {}");
        assertThat(refusal(dir.resolve("src.json")))
                .contains("has beside it the directory src, which holds " + "Main.java, which a run does not write");
        assertThat(src.resolve("Main.java")).exists();
        assertThat(dir.resolve("src.1")).doesNotExist();
    }

    @Test
    void theSystemTreesAreRefusedEvenThroughALink() throws Exception {
        assertThat(refusal(Path.of("/etc/hosts"))).startsWith("--out: /etc/hosts is in /etc, a system directory");
        assertThat(refusal(Path.of("/usr/r.json"))).startsWith("--out: /usr/r.json is in /usr, a system directory");
        assertThat(refusal(Path.of("/r.json"))).startsWith("--out: /r.json is in the root directory");
        Path etc = Files.createSymbolicLink(dir.resolve("etc"), Path.of("/etc"));
        assertThat(refusal(etc.resolve("x.json")))
                .startsWith("--out: " + etc.resolve("x.json") + " (/etc/x.json) is in /etc, a system directory");
        assertThatThrownBy(() -> OutputGuard.directory("--out", Path.of("/var/lib/bg")))
                .hasMessageStartingWith("--out: /var/lib/bg is in /var, a system directory");
        OutputGuard.directory("--out", Path.of("/var/tmp/bg-rating"));
        assertThat(Path.of("/etc/hosts.1")).doesNotExist();
    }

    @Test
    void anEarlierResultWithItsLogAndDirectoryIsMovedAside() throws Exception {
        Path out = Files.writeString(dir.resolve("r.json"), RESULT);
        Files.writeString(dir.resolve("r.hlog"), "#BG per-second latency histograms: tag = …\n");
        Path logs = Files.createDirectories(dir.resolve("r/logs"));
        Files.writeString(logs.resolve("thread-00000.bglog"), "x");
        Files.writeString(logs.resolve("manifest.txt"), "bg-validation-manifest 1\n");
        Files.writeString(dir.resolve("r/expected.state"), "s");

        assertThat(RunArtifacts.keepEarlier(out)).isEqualTo(dir.resolve("r.1.json"));
        assertThat(dir.resolve("r.1.json")).hasContent(RESULT);
        assertThat(dir.resolve("r.1.hlog")).exists();
        assertThat(dir.resolve("r.1/logs/thread-00000.bglog")).exists();
        assertThat(out).doesNotExist();
        assertThat(dir.resolve("r")).doesNotExist();
    }

    @Test
    void aDirectoryOutputMustBeADirectory() throws Exception {
        Path file = Files.writeString(dir.resolve("rating"), "x");
        assertThatThrownBy(() -> OutputGuard.directory("--out", file))
                .hasMessage("--out: " + file + " is a file; give a directory");
        Path link = Files.createSymbolicLink(dir.resolve("ratings"), dir);
        assertThatThrownBy(() -> OutputGuard.directory("--out", link)).hasMessageContaining("is a symbolic link");
        OutputGuard.directory("--out", dir.resolve("new/rating"));
        OutputGuard.directory("--out", dir);
    }
}
