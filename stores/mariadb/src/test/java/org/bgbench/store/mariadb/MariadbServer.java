package org.bgbench.store.mariadb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A private MariaDB server for a test class, started by {@code scripts/mariadb.sh start} in a temporary directory (own
 * data directory, socket and free port) and stopped, its directory deleted, on close. When Debian's mariadb-server is
 * not installed the calling tests fail when the environment variable CI is set, and are skipped otherwise (the rule
 * of the casql store's CacheServer).
 */
public final class MariadbServer implements AutoCloseable {
    static final String BINARY = "mariadbd";
    private static final List<String> DIRS = List.of("/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin");

    private final Path script;
    private final Path dir;
    private final String url;

    private MariadbServer(Path script, Path dir, String url) {
        this.script = script;
        this.dir = dir;
        this.url = url;
    }

    static boolean installed() {
        if (DIRS.stream().anyMatch(d -> Files.isExecutable(Path.of(d, BINARY)))) {
            return true;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, BINARY))) {
                return true;
            }
        }
        return false;
    }

    static boolean ciSet(String value) {
        return value != null && !value.isBlank() && !value.trim().equalsIgnoreCase("false") && !value.trim().equals("0");
    }

    /** Fails the calling test under CI and skips it otherwise, when mariadbd is missing. */
    static void require(boolean installed, boolean required) {
        if (installed) {
            return;
        }
        String missing = BINARY + " is not installed (Debian package mariadb-server; ./test installs it when run as "
                + "root, otherwise: sudo apt-get install --no-install-recommends mariadb-server mariadb-client)";
        if (required) {
            throw new AssertionError(missing + "; CI is set, so the tests that need it fail instead of being skipped");
        }
        Assumptions.abort(missing + ": skipping the tests that need it");
    }

    public static MariadbServer start() {
        require(installed(), ciSet(System.getenv("CI")));
        Path script = script();
        Path dir = null;
        try {
            // Short, so the socket path fits.
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-maria-");
            Process p = new ProcessBuilder("bash", script.toString(), "start", dir.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("scripts/mariadb.sh start failed: " + out);
            }
            String[] lines = out.split("\n");
            return new MariadbServer(script, dir, lines[lines.length - 1].trim());
        } catch (IOException e) {
            delete(dir);
            throw new IllegalStateException("cannot start MariaDB: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting MariaDB", e);
        }
    }

    private static Path script() {
        Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (; d != null; d = d.getParent()) {
            Path s = d.resolve("scripts/mariadb.sh");
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("scripts/mariadb.sh not found above " + System.getProperty("user.dir"));
    }

    public String url() {
        return url;
    }

    long pid() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("mysqld.pid")).trim());
    }

    MariadbStore open(int friendshipRows, MariadbStore.Bulk bulk) {
        return MariadbStore.open(new MariadbStore.Config(url, "bg", "bg", 0, friendshipRows, bulk));
    }

    @Override
    public void close() {
        try {
            Process p = new ProcessBuilder("bash", script.toString(), "stop", dir.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            // Deleting the directory below still frees the disk.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
