package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The embedded server keeps a Unix socket only where its path fits a socket address (107 bytes): with a long TMPDIR
 * PostgreSQL would refuse to start, so the server then listens on TCP alone.
 */
@Tag("server")
class EmbeddedServerSocketTest {
    @Test
    void aSocketInAShortDirectoryFitsAndInALongOneDoesNot() {
        assertThat(EmbeddedServer.socketFits(Path.of("/tmp/bg-postgres-1234567890123456789"))).isTrue();
        // With "/.s.PGSQL.65535", counted in UTF-8 bytes (é is two): 107 fits, 108 does not.
        assertThat(EmbeddedServer.socketFits(Path.of("/" + "d".repeat(89) + "é"))).isTrue();
        assertThat(EmbeddedServer.socketFits(Path.of("/" + "d".repeat(90) + "é"))).isFalse();
        assertThat(EmbeddedServer.socketFits(Path.of("/" + "d".repeat(120)))).isFalse();
    }
}
