package org.bgbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A primary and an asynchronous replica for a test class, started by {@code scripts/postgres-replica.sh start} or
 * {@code scripts/mariadb-replica.sh start} in a temporary directory (own data directories, sockets, free ports) and
 * stopped, the directory deleted, on close. When the servers' binaries are missing the calling tests fail when the
 * environment variable CI is set, and are skipped otherwise (the rule of the mariadb and casql tests).
 */
final class ReplicaPair implements AutoCloseable {
    private final Path script;
    private final String prefix;
    private final Path dir;
    private final Map<String, String> settings;

    private ReplicaPair(Path script, String prefix, Path dir, Map<String, String> settings) {
        this.script = script;
        this.prefix = prefix;
        this.dir = dir;
        this.settings = settings;
    }

    static boolean postgresInstalled() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.anyMatch(v -> Files.isExecutable(v.resolve("bin/postgres"))
                    && Files.isExecutable(v.resolve("bin/pg_basebackup")));
        } catch (IOException e) {
            return false;
        }
    }

    static boolean mariadbInstalled() {
        List<String> dirs = new ArrayList<>(List.of("/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin"));
        dirs.addAll(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        return dirs.stream().anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, "mariadbd")));
    }

    static boolean ciSet(String value) {
        return value != null
                && !value.isBlank()
                && !value.trim().equalsIgnoreCase("false")
                && !value.trim().equals("0");
    }

    /** Fails the calling test under CI and skips it otherwise, when the servers' binaries are missing. */
    static void require(boolean installed, String missing, boolean required) {
        if (installed) {
            return;
        }
        if (required) {
            throw new AssertionError(
                    missing + "; CI is set, so the tests that need them fail instead of being skipped");
        }
        Assumptions.abort(missing + ": skipping the tests that need them");
    }

    /** A PostgreSQL pair with {@code delay} (e.g. {@code 1s}) as the replica's apply delay. */
    static ReplicaPair postgres(String delay) {
        require(
                postgresInstalled(),
                "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin) are not installed "
                        + "(Debian package postgresql; ./test installs it when run as root, otherwise: sudo apt-get install "
                        + "--no-install-recommends postgresql)",
                ciSet(System.getenv("CI")));
        return start("scripts/postgres-replica.sh", "postgres", delay);
    }

    /** A MariaDB pair with {@code seconds} as the replica's MASTER_DELAY. */
    static ReplicaPair mariadb(int seconds) {
        require(
                mariadbInstalled(),
                "mariadbd is not installed (Debian package mariadb-server; ./test installs it "
                        + "when run as root, otherwise: sudo apt-get install --no-install-recommends mariadb-server "
                        + "mariadb-client)",
                ciSet(System.getenv("CI")));
        return start("scripts/mariadb-replica.sh", "mariadb", Integer.toString(seconds));
    }

    private static ReplicaPair start(String name, String prefix, String delay) {
        Path script = script(name);
        Path dir = null;
        try {
            // Short, so the socket paths fit.
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-" + prefix + "-pair-");
            String out = run(script, "start", dir.toString(), "--delay", delay);
            Map<String, String> settings = new LinkedHashMap<>();
            for (String line : out.split("\n")) {
                int eq = line.indexOf('=');
                if (line.startsWith(prefix + ".") && eq > 0) {
                    settings.put(line.substring(0, eq), line.substring(eq + 1).trim());
                }
            }
            if (!settings.containsKey(prefix + ".url") || !settings.containsKey(prefix + ".read-urls")) {
                throw new IllegalStateException(name + " start printed no URLs: " + out);
            }
            return new ReplicaPair(script, prefix, dir, settings);
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                try {
                    run(script, "stop", dir.toString());
                } catch (IOException | RuntimeException ignored) {
                    // Deleting below still frees the disk.
                }
            }
            delete(dir);
            throw new IllegalStateException(
                    "cannot start the " + prefix + " primary and replica: " + e.getMessage(), e);
        }
    }

    private static String run(Path script, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // Two MariaDB servers for a small test graph: no need for scripts/mariadb.sh's 1 GiB buffer pool each.
        pb.environment().putIfAbsent("MARIADB_BUFFER_POOL", "256M");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(script.getFileName() + " " + args[0] + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return out;
    }

    private static Path script(String name) {
        Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (; d != null; d = d.getParent()) {
            Path s = d.resolve(name);
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException(name + " not found above " + System.getProperty("user.dir"));
    }

    /** The store's key prefix: {@code postgres} or {@code mariadb}. */
    String prefix() {
        return prefix;
    }

    /** The servers' directory (the scripts' argument). */
    Path dir() {
        return dir;
    }

    /** The primary's JDBC URL. */
    String url() {
        return settings.get(prefix + ".url");
    }

    /** The replica's JDBC URL. */
    String readUrl() {
        return settings.get(prefix + ".read-urls");
    }

    /** The servers' pids: primary, replica. */
    List<Long> pids() throws IOException {
        return Stream.of(run(script, "pids", dir.toString()).split("\n"))
                .map(String::trim)
                .map(Long::parseLong)
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
