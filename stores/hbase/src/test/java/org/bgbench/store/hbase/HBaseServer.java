package org.bgbench.store.hbase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.bgbench.store.conformance.servers.ServerScripts.Run;
import org.bgbench.store.conformance.servers.SharedServer;

/**
 * A private standalone Apache HBase for tests (one HMaster JVM with its in-process RegionServer and ZooKeeper),
 * started by {@code scripts/hbase.sh start DIR} in a directory under /tmp (own free ports, all on 127.0.0.1) and
 * killed, its directory deleted, on close.
 *
 * <p>{@link #single()} is one server per JVM, shared by every test class of that JVM (a start takes about 10 s) and
 * killed by a shutdown hook; {@link #start()} is a new server the caller closes (for tests that stop or kill it). The
 * server jars come through Maven into a per-user cache ({@code ~/.cache/bg/hbase-2.6.4-hadoop3/lib}, unless the
 * environment sets HBASE_LIB), so test JVMs and CI runs copy them once.
 *
 * <p>HBase 2.6 runs on JDK 17 (or 11), not on BG's JDK 21+: when neither is found the calling tests fail when the
 * environment variable CI is set (and not false or 0), and are skipped otherwise (the rule of CassandraServer).
 */
public final class HBaseServer implements AutoCloseable {
    public static final String VERSION = "2.6.4-hadoop3";
    public static final String QUORUM = "127.0.0.1";

    private static final SharedServer<HBaseServer> SINGLE =
            new SharedServer<>("HBase server", HBaseServer::requireJdk, () -> start(true), HBaseServer::destroy);

    private final Path script;
    private final Path dir;
    private final int zkPort;
    private final boolean shared;

    private HBaseServer(Path script, Path dir, int zkPort, boolean shared) {
        this.script = script;
        this.dir = dir;
        this.zkPort = zkPort;
        this.shared = shared;
    }

    /**
     * The server of this JVM, started on the first call; later calls return the same instance. Its {@link #close()}
     * does nothing: a shutdown hook kills it and deletes its directory when the JVM exits. A failed start is
     * remembered, so later calls fail at once instead of waiting again.
     */
    public static HBaseServer single() {
        return SINGLE.get();
    }

    /** A new server of its own; the caller closes it (SIGKILL, directory deleted). */
    public static HBaseServer start() {
        requireJdk();
        return start(false);
    }

    // --- JDK 17 rule ------------------------------------------------------------------------------------------------

    /** Fails the calling test under CI and skips it otherwise, when no JDK 17 or 11 is found. */
    static void require(boolean jdkFound, boolean required) {
        ServerScripts.requireOrSkip(
                jdkFound,
                required,
                "HBase " + VERSION + " needs a JDK 17 (or 11) and none is under"
                        + " /usr/lib/jvm (Debian package openjdk-17-jdk-headless; ./test installs it when run as root,"
                        + " otherwise: sudo apt-get install --no-install-recommends openjdk-17-jdk-headless; or set"
                        + " HBASE_JAVA_HOME)");
    }

    private static void requireJdk() {
        require(jdkFound(), ServerScripts.ciRequired());
    }

    /** A JDK 17 or 11 in HBASE_JAVA_HOME or under /usr/lib/jvm, as scripts/hbase.sh looks for one. */
    static boolean jdkFound() {
        return ServerScripts.jdk17or11Found("HBASE_JAVA_HOME");
    }

    // --- start ------------------------------------------------------------------------------------------------------

    private static HBaseServer start(boolean shared) {
        Path script = ServerScripts.script("hbase.sh");
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-hbase-");
            HBaseServer s = new HBaseServer(script, dir, -1, shared);
            // The script waits up to HBASE_START_TIMEOUT (180 s); the first start may copy the jars through Maven too.
            Run r = s.script(300, "start", dir.toString());
            if (r.exit() != 0) {
                throw new IllegalStateException("scripts/hbase.sh start " + dir + " failed (exit " + r.exit() + "): "
                        + r.output().strip());
            }
            String quorum = r.lastLine();
            if (!quorum.startsWith(QUORUM + ":")) {
                throw new IllegalStateException("scripts/hbase.sh start printed no quorum: " + r.output());
            }
            return new HBaseServer(script, dir, Integer.parseInt(quorum.substring(QUORUM.length() + 1)), shared);
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                new HBaseServer(script, dir, -1, shared).destroy();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot start HBase: " + e.getMessage(), e);
        }
    }

    /** The per-user cache of the server jars, shared by every test JVM. */
    static Path libCache() {
        return Path.of(System.getProperty("user.home"), ".cache", "bg", "hbase-" + VERSION, "lib");
    }

    /**
     * Runs {@code scripts/hbase.sh ARGS} (with HBASE_LIB set to the per-user cache unless the environment sets it) and
     * returns its exit status and output, whatever the status; throws only if it cannot run or outlasts
     * {@code timeoutSeconds} (then it is killed).
     */
    public Run script(long timeoutSeconds, String... args) {
        Map<String, String> env = System.getenv("HBASE_LIB") == null
                ? Map.of("HBASE_LIB", libCache().toString())
                : Map.of();
        return ServerScripts.run(script, timeoutSeconds, env, args);
    }

    // --- accessors
    // ----------------------------------------------------------------------------------------------------

    /** The ZooKeeper quorum host for {@code hbase.zookeeper.quorum}: "127.0.0.1". */
    public String quorum() {
        return QUORUM;
    }

    /** The ZooKeeper client port, for {@code hbase.zookeeper.property.clientPort}. */
    public int zkPort() {
        return zkPort;
    }

    /** The master's RPC port. */
    public int masterPort() {
        return serverEnvPort("master_port");
    }

    /** The RegionServer's RPC port. */
    public int regionServerPort() {
        return serverEnvPort("rs_port");
    }

    public Path dir() {
        return dir;
    }

    /** The server's pid, as the script recorded it at start. */
    public long pid() {
        return readPid().orElseThrow(() -> new IllegalStateException("no pid file in " + dir));
    }

    private Optional<Long> readPid() {
        try {
            return Optional.of(
                    Long.parseLong(Files.readString(dir.resolve("pid")).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private int serverEnvPort(String name) {
        try {
            for (String line : Files.readAllLines(dir.resolve("server.env"))) {
                if (line.startsWith(name + "=")) {
                    return Integer.parseInt(line.substring(name.length() + 1).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException(
                    "cannot read " + name + " from " + dir.resolve("server.env") + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException("no " + name + " in " + dir.resolve("server.env"));
    }

    // --- close
    // --------------------------------------------------------------------------------------------------------

    /** Kills the server and deletes its directory; does nothing for {@link #single()} (a shutdown hook does it). */
    @Override
    public void close() {
        if (!shared) {
            destroy();
        }
    }

    /** Kills the server by its pid file and deletes its directory ({@link ServerScripts#killAndDelete}). */
    private void destroy() {
        ServerScripts.killAndDelete(dir, readPid().map(List::of).orElse(List.of()));
    }

    @Override
    public String toString() {
        return "HBase " + VERSION + " at " + QUORUM + ":" + zkPort + " (" + dir + ")";
    }
}
