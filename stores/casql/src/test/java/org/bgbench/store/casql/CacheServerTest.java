package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/**
 * A missing cache server fails its tests under CI and skips them elsewhere, saying what to install (issue 21). What
 * counts as CI being set is ServerScriptsTest's (store-conformance).
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
}
