package org.bgbench.store.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bgbench.store.DeathWatch;

/**
 * Keeps an embedded PostgreSQL from outliving the BG that started it. pg_ctl starts the postmaster in a session of
 * its own, so nothing stops it when BG is killed with SIGKILL: a {@link DeathWatch} started with the server waits
 * until BG is gone however it ended, and then stops the server (SIGQUIT, PostgreSQL's immediate shutdown) and deletes
 * its throwaway directory. The directory records its owner (BG's pid and start time), so the next start also removes
 * what a BG left whose watchdog died with it.
 */
final class OrphanGuard {
    /** The file in a server's directory naming the BG that owns it: its pid and start time (epoch ms). */
    static final String OWNER = "owner";
    /** Stops the postmaster of data directory $1 (SIGQUIT, then SIGKILL after 10 s) and deletes $2. */
    private static final String STOP = """
            pid=$(head -n 1 "$1/postmaster.pid" 2>/dev/null)
            if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
              kill -QUIT "$pid"
              i=0
              while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
              kill -KILL "$pid" 2>/dev/null
            fi
            rm -rf "$2"
            """;

    private final DeathWatch watch;

    private OrphanGuard(DeathWatch watch) {
        this.watch = watch;
    }

    /** Records this BG as the owner of {@code dir}, before anything else is put there. */
    static void claim(Path dir) throws IOException {
        ProcessHandle self = ProcessHandle.current();
        Files.writeString(
                dir.resolve(OWNER), self.pid() + " " + startMillis(self).orElse(0L) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * Starts the watchdog of the server whose data directory is {@code data}, inside {@code dir}. Without a POSIX
     * {@code sh} (Windows) there is none, and only the next start's clean-up remains.
     */
    static OrphanGuard watch(Path dir, Path data) {
        try {
            return new OrphanGuard(DeathWatch.start(STOP, data.toString(), dir.toString()));
        } catch (IOException e) {
            return new OrphanGuard(null);
        }
    }

    /** After BG stopped the server and deleted its directory itself. */
    void release() {
        if (watch != null) {
            watch.release();
        }
    }

    /**
     * Stops and deletes the servers in {@code parent}'s {@code prefix*} directories whose owning BG is no longer
     * running. A directory without an owner file (being created, or left by an older BG) is left alone.
     */
    static void reapLeftovers(Path parent, String prefix) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path dir : dirs) {
                if (Files.isRegularFile(dir.resolve(OWNER)) && !ownerAlive(dir)) {
                    postmaster(dir.resolve("data")).ifPresent(OrphanGuard::stop);
                    delete(dir);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // Cannot list the temporary directory: nothing to clean up there.
        }
    }

    private static boolean ownerAlive(Path dir) {
        try {
            String[] owner = Files.readString(dir.resolve(OWNER), StandardCharsets.UTF_8)
                    .trim()
                    .split("\\s+");
            long pid = Long.parseLong(owner[0]);
            long started = owner.length > 1 ? Long.parseLong(owner[1]) : 0;
            // Alive and the same process: a pid reused since has another start time.
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .map(h -> started == 0
                            || startMillis(h).map(s -> s == started).orElse(true))
                    .orElse(false);
        } catch (IOException | RuntimeException e) {
            // Unreadable or half-written: treat it as owned, never delete a live server by mistake.
            return true;
        }
    }

    /** The running postmaster of a data directory (from postmaster.pid), if it is a postgres process. */
    static Optional<ProcessHandle> postmaster(Path data) {
        try (Stream<String> lines = Files.lines(data.resolve("postmaster.pid"))) {
            return lines.findFirst()
                    .map(String::trim)
                    .map(Long::parseLong)
                    .flatMap(ProcessHandle::of)
                    .filter(ProcessHandle::isAlive)
                    .filter(h ->
                            h.info().command().map(c -> c.contains("postgres")).orElse(true));
        } catch (IOException | UncheckedIOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** SIGTERM (its clients are gone with their BG), then SIGKILL if it has not exited within 10 s. */
    private static void stop(ProcessHandle postmaster) {
        List<ProcessHandle> children = postmaster.children().toList();
        postmaster.destroy();
        try {
            postmaster.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            postmaster.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static Optional<Long> startMillis(ProcessHandle h) {
        return h.info().startInstant().map(Instant::toEpochMilli);
    }

    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // A leftover temporary directory is harmless.
        }
    }
}
