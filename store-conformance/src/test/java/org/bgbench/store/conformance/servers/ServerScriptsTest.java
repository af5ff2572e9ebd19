package org.bgbench.store.conformance.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** The private-server support shared by the store modules' test helpers; starts no server, only tiny scripts. */
@Tag("server")
class ServerScriptsTest {
    @TempDir
    Path tmp;

    @Test
    void ciIsSetUnlessEmptyFalseOrZero() {
        assertThat(ServerScripts.ciSet("true")).isTrue();
        assertThat(ServerScripts.ciSet("1")).isTrue();
        assertThat(ServerScripts.ciSet("yes")).isTrue();
        assertThat(ServerScripts.ciSet(" true ")).isTrue();
        assertThat(ServerScripts.ciSet(null)).isFalse();
        assertThat(ServerScripts.ciSet("")).isFalse();
        assertThat(ServerScripts.ciSet("  ")).isFalse();
        assertThat(ServerScripts.ciSet("false")).isFalse();
        assertThat(ServerScripts.ciSet("FALSE")).isFalse();
        assertThat(ServerScripts.ciSet(" 0 ")).isFalse();
    }

    @Test
    void aMissingPrerequisiteFailsWhenRequiredAndSkipsOtherwise() {
        ServerScripts.requireOrSkip(true, true, "nothing");
        ServerScripts.requireOrSkip(true, false, "nothing");
        assertThatThrownBy(() -> ServerScripts.requireOrSkip(false, true, "foo is not installed"))
                .isExactlyInstanceOf(AssertionError.class)
                .hasMessage("foo is not installed; CI is set, so the tests that need it fail instead of being skipped");
        assertThatThrownBy(() -> ServerScripts.requireOrSkip(false, false, "foo is not installed"))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("foo is not installed: skipping the tests that need it");
    }

    private Path script(String name, String body) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("scripts"));
        return Files.writeString(dir.resolve(name), "#!/usr/bin/env bash\n" + body + "\n");
    }

    @Test
    void runReturnsTheExitStatusAndOutputWithTheGivenEnvironment() throws IOException {
        Path s = script("tiny.sh", "echo \"out $1 $BG_TINY\"; echo err >&2; exit 3");
        ServerScripts.Run r = ServerScripts.run(s, 30, Map.of("BG_TINY", "set"), "arg");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.output()).isEqualTo("out arg set\nerr\n");
        assertThat(r.lastLine()).isEqualTo("err");

        assertThatThrownBy(() -> ServerScripts.runOrThrow(s, 30, Map.of(), "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("scripts/tiny.sh x failed (exit 3): out x \nerr");
        Path ok = script("ok.sh", "echo \"fine $1\"");
        assertThat(ServerScripts.runOrThrow(ok, 30, Map.of(), "now")).isEqualTo("fine now\n");
    }

    @Test
    void aScriptPastItsTimeoutIsKilledWithItsChildren() throws IOException {
        Path pidFile = tmp.resolve("child.pid");
        Path s = script("slow.sh", "echo started; sleep 60 & echo $! > " + pidFile + "; wait");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> ServerScripts.run(s, 2, Map.of(), "start"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("scripts/slow.sh start did not finish within 2 s: started");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).isLessThan(15);
        long child = Long.parseLong(Files.readString(pidFile).trim());
        Optional<ProcessHandle> h = ProcessHandle.of(child);
        if (h.isPresent()) {
            h.get().onExit().completeOnTimeout(null, 5, TimeUnit.SECONDS).join();
            assertThat(h.get().isAlive()).as("the script's child %d", child).isFalse();
        }
    }

    @Test
    void aMissingScriptFileIsReportedByItsExitStatus() {
        Path missingDir = tmp.resolve("no-such-dir/scripts/x.sh");
        // bash runs and exits 127 for a missing file: the status is reported, not thrown.
        assertThat(ServerScripts.run(missingDir, 30, Map.of()).exit()).isEqualTo(127);
    }

    @Test
    void scriptIsFoundAboveTheWorkingDirectoryOrNamedWhenMissing() {
        // Maven runs the tests in store-conformance/; the repository's scripts/ is one level up.
        assertThat(ServerScripts.script("cassandra.sh")).isRegularFile().endsWith(Path.of("scripts", "cassandra.sh"));
        assertThatThrownBy(() -> ServerScripts.script("no-such-script.sh"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("scripts/no-such-script.sh not found above ");
    }

    private Path fakeJdk(String name, String version) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("jvm").resolve(name));
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    @Test
    void jdk17Or11IsFoundByTheOverrideOrUnderTheJvmDirectory() throws IOException {
        Path jvm = tmp.resolve("jvm");
        Path j21 = fakeJdk("jdk-21", "21.0.5");
        assertThat(ServerScripts.jdk17or11Found(null, jvm)).isFalse();
        assertThat(ServerScripts.jdk17or11Found(j21.toString(), jvm)).isFalse();
        Path j17 = fakeJdk("jdk-17", "17.0.13");
        assertThat(ServerScripts.jdk17or11Found(null, jvm)).isTrue();
        assertThat(ServerScripts.jdk17or11Found(" ", jvm)).isTrue();
        assertThat(ServerScripts.jdk17or11Found(j17.toString(), jvm)).isTrue();
        // The override wins even when a JDK 17 is under the directory.
        assertThat(ServerScripts.jdk17or11Found(j21.toString(), jvm)).isFalse();
        assertThat(ServerScripts.jdk17or11Found(null, tmp.resolve("no-jvm"))).isFalse();
        assertThat(ServerScripts.isJdk17or11(fakeJdk("jdk-11", "11.0.25"))).isTrue();
    }

    @Test
    void deleteTreeRemovesANestedTree() throws IOException {
        Path root = tmp.resolve("tree");
        Files.createDirectories(root.resolve("a/b/c"));
        Files.writeString(root.resolve("a/b/c/f.txt"), "x");
        Files.writeString(root.resolve("a/g.txt"), "y");
        Files.createDirectories(root.resolve("d"));
        ServerScripts.deleteTree(root);
        assertThat(root).doesNotExist();
        assertThat(tmp).isDirectory();
        ServerScripts.deleteTree(root); // absent: nothing to do
        ServerScripts.deleteTree(null);
    }
}
