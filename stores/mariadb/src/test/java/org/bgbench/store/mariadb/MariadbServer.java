package org.bgbench.store.mariadb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.bgbench.store.conformance.servers.ServerScripts;

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

    /** Fails the calling test under CI and skips it otherwise, when mariadbd is missing. */
    static void require(boolean installed, boolean required) {
        ServerScripts.requireOrSkip(
                installed,
                required,
                BINARY + " is not installed (Debian package mariadb-server;"
                        + " ./test installs it when run as root, otherwise: sudo apt-get install --no-install-recommends"
                        + " mariadb-server mariadb-client)");
    }

    public static MariadbServer start() {
        require(installed(), ServerScripts.ciRequired());
        Path script = ServerScripts.script("mariadb.sh");
        Path dir = null;
        try {
            // Short, so the socket path fits.
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-maria-");
            ServerScripts.Run r = ServerScripts.run(script, 120, Map.of(), "start", dir.toString());
            if (r.exit() != 0) {
                throw new IllegalStateException(
                        "scripts/mariadb.sh start failed: " + r.output().trim());
            }
            return new MariadbServer(script, dir, r.lastLine());
        } catch (IOException e) {
            ServerScripts.deleteTree(dir);
            throw new IllegalStateException("cannot start MariaDB: " + e.getMessage(), e);
        }
    }

    public String url() {
        return url;
    }

    long pid() throws IOException {
        return Long.parseLong(Files.readString(dir.resolve("mysqld.pid")).trim());
    }

    MariadbStore open(int friendshipRows, MariadbStore.Bulk bulk) {
        return MariadbStore.open(MariadbStore.Config.of(url, "bg", "bg")
                .withFriendshipRows(friendshipRows)
                .withBulk(bulk));
    }

    @Override
    public void close() {
        try {
            ServerScripts.run(script, 60, Map.of(), "stop", dir.toString());
        } catch (IllegalStateException e) {
            // Could not run or did not finish (then killed): deleting the directory below still frees the disk.
        } finally {
            ServerScripts.deleteTree(dir);
        }
    }
}
