package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an embedded server's BG leaves when it is killed together with the server's watchdog: the next start stops
 * that server and deletes its directory, and leaves the directories of running BGs alone.
 */
@Tag("server")
class OrphanGuardTest {
    @TempDir
    Path tmp;

    @Test
    void onlyTheDirectoriesOfBgsNoLongerRunningAreReaped() throws Exception {
        Path mine = Files.createDirectory(tmp.resolve("bg-postgres-mine"));
        OrphanGuard.claim(mine);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        Path dead = Files.createDirectories(tmp.resolve("bg-postgres-dead/data"));
        Files.writeString(
                dead.resolve("../owner"),
                gone.pid() + " "
                        + gone.info().startInstant().map(Instant::toEpochMilli).orElse(1L) + "\n");
        Path reused = Files.createDirectory(tmp.resolve("bg-postgres-reused"));
        // This process's pid with another start time: a pid reused by a process that is not the owner.
        Files.writeString(
                reused.resolve(OrphanGuard.OWNER), ProcessHandle.current().pid() + " 1\n");
        Path unowned = Files.createDirectory(tmp.resolve("bg-postgres-unowned"));
        Path other = Files.createDirectory(tmp.resolve("other"));
        Files.writeString(other.resolve(OrphanGuard.OWNER), gone.pid() + " 1\n");

        OrphanGuard.reapLeftovers(tmp, EmbeddedServer.PREFIX);
        assertThat(mine).exists();
        assertThat(tmp.resolve("bg-postgres-dead")).doesNotExist();
        assertThat(reused).doesNotExist();
        assertThat(unowned).as("being created, or left by an older BG").exists();
        assertThat(other).exists();
    }

    @Test
    void theNextStartStopsTheServerOfABgKilledWithItsWatchdog() throws Exception {
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName())
                .redirectErrorStream(true)
                .start();
        Path dir;
        ProcessHandle postmaster;
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            String started = null;
            while (started == null && (line = out.readLine()) != null) {
                if (line.startsWith("server ")) {
                    started = line;
                }
            }
            assertThat(started).as("the child started its server").isNotNull();
            String[] parts = started.split(" ");
            dir = Path.of(parts[1]);
            postmaster = ProcessHandle.of(Long.parseLong(parts[2])).orElseThrow();
            // SIGKILL on the watchdog (BG's only child: pg_ctl left the postmaster in a session of its own), then BG.
            List<ProcessHandle> watchdogs = child.children().toList();
            assertThat(watchdogs).as("the watchdog").isNotEmpty();
            watchdogs.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle w : watchdogs) {
                w.onExit().get(10, TimeUnit.SECONDS);
            }
            child.destroyForcibly();
            assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(postmaster.isAlive()).as("nothing else stops the server").isTrue();
        assertThat(dir).exists();

        try (EmbeddedServer next = EmbeddedServer.start()) {
            assertThat(postmaster.isAlive()).as("the dead BG's postmaster").isFalse();
            assertThat(dir).doesNotExist();
            assertThat(next.pid()).isPresent();
        } finally {
            postmaster.destroyForcibly();
        }
    }

    /** Starts an embedded server, says where it is, and waits to be killed. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            EmbeddedServer s = EmbeddedServer.start();
            System.out.println(
                    "server " + s.dataDirectory().getParent() + " " + s.pid().orElseThrow());
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
