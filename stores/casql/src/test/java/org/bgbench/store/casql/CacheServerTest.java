package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * A missing cache server fails its tests under CI and skips them elsewhere, saying what to install (what counts as CI
 * being set is ServerScriptsTest's, store-conformance); a server whose test JVM is killed does not outlive it.
 */
@Tag("server")
class CacheServerTest {
    @Test
    void aMissingServerFailsUnderCi() {
        assertThatThrownBy(() -> CacheServer.require(CacheServer.Kind.REDIS, Optional.empty(), true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("redis-server is not installed")
                .hasMessageContaining("apt-get install redis-server memcached")
                .hasMessageContaining("CI is set");
        assertThatThrownBy(() -> CacheServer.require(CacheServer.Kind.MEMCACHED, Optional.empty(), true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("memcached is not installed");
    }

    @Test
    void aMissingServerIsSkippedOutsideCi() {
        assertThatThrownBy(() -> CacheServer.require(CacheServer.Kind.MEMCACHED, Optional.empty(), false))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("memcached is not installed");
    }

    @Test
    void anInstalledServerIsUsed() {
        Path bin = Path.of("/opt/redis/bin/redis-server");
        assertThat(CacheServer.require(CacheServer.Kind.REDIS, Optional.of(bin), true))
                .isEqualTo(bin);
    }

    @Test
    void aServerDiesWithItsKilledTestJvm() throws Exception {
        CacheServer.require(CacheServer.Kind.MEMCACHED, CacheServer.binary(CacheServer.Kind.MEMCACHED), false);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process jvm = new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        CacheServer.class.getName(),
                        CacheServer.Kind.MEMCACHED.name())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String[] started;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).as("the child JVM's server").isNotNull();
            started = line.split(" ", 2);
        } finally {
            jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close
        }
        jvm.waitFor(10, TimeUnit.SECONDS);
        Optional<ProcessHandle> server = ProcessHandle.of(Long.parseLong(started[0]));
        try {
            if (server.isPresent()) {
                // Bounded so that a broken watch fails the test instead of hanging it.
                assertThat(server.get().onExit())
                        .as(
                                "memcached %d after its test JVM was killed",
                                server.get().pid())
                        .succeedsWithin(30, TimeUnit.SECONDS);
            }
        } finally {
            server.ifPresent(ProcessHandle::destroyForcibly);
        }
        Path dir = Path.of(started[1]);
        for (int i = 0; i < 100 && Files.exists(dir); i++) {
            Thread.sleep(100); // the watchdog deletes the directory just after the server exits
        }
        assertThat(dir).as("its directory, deleted by the watchdog").doesNotExist();
    }
}
