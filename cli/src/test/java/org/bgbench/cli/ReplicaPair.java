package org.bgbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL primary and asynchronous streaming replica for a test class, started by
 * {@code scripts/postgres-replica.sh start} in a temporary directory (own data directories, sockets, free ports) and
 * stopped, the directory deleted, on close. When Debian's PostgreSQL server binaries are missing the calling tests fail
 * when the environment variable CI is set, and are skipped otherwise (the rule of the mariadb and casql tests).
 */
final class PostgresReplicaPair implements AutoCloseable {
    private final Path script;
    private final Path dir;
    private final Map<String, String> settings;

    private PostgresReplicaPair(Path script, Path dir, Map<String, String> settings) {
        this.script = script;
        this.dir = dir;
        this.settings = settings;
    }

    static boolean installed() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/postgres"))
                    && Files.isExecutable(v.resolve("bin/pg_basebackup")));
        } catch (IOException e) {
            return false;
        }
    }

    static boolean ciSet(String value) {
        return value != null && !value.isBlank() && !value.trim().equalsIgnoreCase("false") && !value.trim().equals("0");
    }

    /** Fails the calling test under CI and skips it otherwise, when PostgreSQL's server binaries are missing. */
    static void require(boolean installed, boolean required) {
        if (installed) {
            return;
        }
        String missing = "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are not installed (Debian package "
                + "postgresql; ./test installs it when run as root, otherwise: sudo apt-get install "
                + "--no-install-recommends postgresql)";
        if (required) {
            throw new AssertionError(missing + "; CI is set, so the tests that need them fail instead of being skipped");
        }
        Assumptions.abort(missing + ": skipping the tests that need them");
    }

    /** Starts the pair with {@code delay} (e.g. {@code 1s}) as the replica's apply delay. */
    static PostgresReplicaPair start(String delay) {
        require(installed(), ciSet(System.getenv("CI")));
        Path script = script();
        Path dir = null;
        try {
            // Short, so the socket paths fit.
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-pgr-");
            String out = run(script, "start", dir.toString(), "--delay", delay);
            Map<String, String> settings = new LinkedHashMap<>();
            for (String line : out.split("\n")) {
                int eq = line.indexOf('=');
                if (line.startsWith("postgres.") && eq > 0) {
                    settings.put(line.substring(0, eq), line.substring(eq + 1).trim());
                }
            }
            if (!settings.containsKey("postgres.url") || !settings.containsKey("postgres.read-urls")) {
                throw new IllegalStateException("scripts/postgres-replica.sh start printed no URLs: " + out);
            }
            return new PostgresReplicaPair(script, dir, settings);
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                try {
                    run(script, "stop", dir.toString());
                } catch (IOException | RuntimeException ignored) {
                    // Deleting below still frees the disk.
                }
            }
            delete(dir);
            throw new IllegalStateException("cannot start the PostgreSQL primary and replica: " + e.getMessage(), e);
        }
    }

    private static String run(Path script, String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("scripts/postgres-replica.sh " + args[0] + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return out;
    }

    private static Path script() {
        Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (; d != null; d = d.getParent()) {
            Path s = d.resolve("scripts/postgres-replica.sh");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("scripts/postgres-replica.sh not found above " + System.getProperty("user.dir"));
    }

    /** The primary's JDBC URL. */
    String url() {
        return settings.get("postgres.url");
    }

    /** The replica's JDBC URL. */
    String readUrl() {
        return settings.get("postgres.read-urls");
    }

    /** The postmasters' pids: primary, replica. */
    List<Long> pids() throws IOException {
        return Stream.of(run(script, "pids", dir.toString()).split("\n")).map(String::trim).map(Long::parseLong)
                .toList();
    }

    /** Changes the replica's apply delay. */
    void delay(String delay) throws IOException {
        run(script, "delay", dir.toString(), delay);
    }

    @Override
    public void close() {
        try {
            run(script, "stop", dir.toString());
        } catch (IOException | RuntimeException e) {
            // Deleting the directory below still frees the disk.
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary directory is harmless.
        }
    }
}
