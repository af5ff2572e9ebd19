package org.bgbench.store.cassandra;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.bgbench.store.conformance.servers.SharedServer;

/**
 * Private Apache Cassandra 5.0 nodes for tests, started by {@code scripts/cassandra.sh start DIR [--nodes N]} in a
 * directory under /tmp (own ports; node I on 127.0.0.I) and killed, their directory deleted, on close.
 *
 * <p>{@link #single()} is one single-node server per JVM, shared by every test class of that JVM (a start takes
 * 10-20 s) and stopped by a shutdown hook; {@link #cluster(int)} is a new N-node cluster the caller closes. The
 * server jars come through Maven into a per-user cache ({@code ~/.cache/bg/cassandra-5.0.9/lib}, unless the
 * environment sets CASSANDRA_LIB), so test JVMs and CI runs copy them once.
 *
 * <p>Cassandra 5.0 runs on JDK 17 or 11 only: when neither is found the calling tests fail when the environment
 * variable CI is set (and not false or 0), and are skipped otherwise (the rule of MariadbServer and CacheServer).
 */
public final class CassandraServer implements AutoCloseable {
    public static final String VERSION = "5.0.9";
    public static final String DATACENTER = "datacenter1";

    private static final SharedServer<CassandraServer> SINGLE = new SharedServer<>(
            "Cassandra node", CassandraServer::requireJdk, () -> start(1, Map.of(), true), CassandraServer::destroy);

    private final Path script;
    private final Path dir;
    private volatile int nodes;
    private final Map<String, String> env;
    private volatile String contactPoints;
    private final boolean shared;

    private CassandraServer(
            Path script, Path dir, int nodes, Map<String, String> env, String contactPoints, boolean shared) {
        this.script = script;
        this.dir = dir;
        this.nodes = nodes;
        this.env = env;
        this.contactPoints = contactPoints;
        this.shared = shared;
    }

    /**
     * The single-node server of this JVM, started on the first call; later calls return the same instance. Its
     * {@link #close()} does nothing: a shutdown hook kills it and deletes its directory when the JVM exits. A failed
     * start is remembered, so later calls fail at once instead of waiting again.
     */
    public static CassandraServer single() {
        return SINGLE.get();
    }

    /** A new cluster of {@code nodes} nodes (node I on 127.0.0.I); the caller closes it. */
    public static CassandraServer cluster(int nodes) {
        return cluster(nodes, Map.of());
    }

    /**
     * A new cluster of {@code nodes} nodes started with extra environment for scripts/cassandra.sh, e.g.
     * {@code CASSANDRA_HINTED_HANDOFF=false}, {@code CASSANDRA_PHI=5}, {@code CASSANDRA_DYNAMIC_SNITCH=false} (see the
     * script's header); the caller closes it.
     */
    public static CassandraServer cluster(int nodes, Map<String, String> env) {
        if (nodes < 1 || nodes > 9) {
            throw new IllegalArgumentException("nodes must be from 1 to 9, not " + nodes);
        }
        requireJdk();
        return start(nodes, Map.copyOf(env), false);
    }

    // --- JDK 17/11 rule -------------------------------------------------------------------------------------------

    /** Fails the calling test under CI and skips it otherwise, when no JDK 17 or 11 is found. */
    static void require(boolean jdkFound, boolean required) {
        ServerScripts.requireOrSkip(
                jdkFound,
                required,
                "Cassandra " + VERSION + " needs a JDK 17 (or 11) and none is"
                        + " under /usr/lib/jvm (Debian package openjdk-17-jdk-headless; ./test installs it when run as root,"
                        + " otherwise: sudo apt-get install --no-install-recommends openjdk-17-jdk-headless; or set"
                        + " CASSANDRA_JAVA_HOME)");
    }

    private static void requireJdk() {
        require(jdkFound(), ServerScripts.ciRequired());
    }

    /** A JDK 17 or 11 in CASSANDRA_JAVA_HOME or under /usr/lib/jvm, as scripts/cassandra.sh looks for one. */
    static boolean jdkFound() {
        return ServerScripts.jdk17or11Found("CASSANDRA_JAVA_HOME");
    }

    // --- start ------------------------------------------------------------------------------------------------------

    private static CassandraServer start(int nodes, Map<String, String> env, boolean shared) {
        Path script = ServerScripts.script("cassandra.sh");
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "bg-cass-");
            CassandraServer s = new CassandraServer(script, dir, nodes, env, null, shared);
            String out = s.run(120 + 60L * nodes, "start", dir.toString(), "--nodes", Integer.toString(nodes));
            String[] lines = out.trim().split("\n");
            String contact = lines[lines.length - 1].trim();
            if (!contact.startsWith("127.0.0.1:")) {
                throw new IllegalStateException("scripts/cassandra.sh start printed no contact points: " + out);
            }
            return new CassandraServer(script, dir, nodes, env, contact, shared);
        } catch (IOException | RuntimeException e) {
            if (dir != null) {
                new CassandraServer(script, dir, nodes, env, null, shared).destroy();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot start Cassandra: " + e.getMessage(), e);
        }
    }

    /** The per-user cache of the server jars, shared by every test JVM. */
    static Path libCache() {
        return Path.of(System.getProperty("user.home"), ".cache", "bg", "cassandra-" + VERSION, "lib");
    }

    /**
     * Runs scripts/cassandra.sh ARGS (with CASSANDRA_LIB set to the per-user cache unless the environment sets it,
     * and this server's extra environment); its output (stdout and stderr), or an exception naming the command.
     */
    private String run(long timeoutSeconds, String... args) {
        return ServerScripts.runOrThrow(script, timeoutSeconds, scriptEnv(), args);
    }

    /**
     * The script's environment: CASSANDRA_LIB (unless set), schema changes not flushed (a test node is thrown away,
     * and the suites create and drop schemas by the hundred), then this server's extra environment.
     */
    private Map<String, String> scriptEnv() {
        Map<String, String> e = new HashMap<>();
        if (System.getenv("CASSANDRA_LIB") == null) {
            e.put("CASSANDRA_LIB", libCache().toString());
        }
        e.put("CASSANDRA_SCHEMA_FLUSH", "false");
        e.putAll(env);
        return e;
    }

    /**
     * Runs scripts/cassandra.sh CMD DIR ARGS for this server and returns its exit status and output, whatever the
     * status (e.g. {@code status}, {@code settled}, {@code settings}).
     */
    public ServerScripts.Run script(long timeoutSeconds, String cmd, String... args) {
        List<String> a = new ArrayList<>(List.of(cmd, dir.toString()));
        a.addAll(List.of(args));
        return ServerScripts.run(script, timeoutSeconds, scriptEnv(), a.toArray(String[]::new));
    }

    /**
     * Grows the running cluster by {@code count} nodes ({@code scripts/cassandra.sh add DIR --count K}: one at a
     * time, each bootstrapping until it is UN); the new contact points. Not for {@link #single()}, which other test
     * classes share.
     */
    public String add(int count) {
        if (shared) {
            throw new IllegalStateException("the shared single node is not grown; start a cluster(1) to grow");
        }
        String out = run(60 + 240L * count, "add", dir.toString(), "--count", Integer.toString(count));
        String[] lines = out.trim().split("\n");
        String contact = lines[lines.length - 1].trim();
        if (contact.split(",").length != nodes + count) {
            throw new IllegalStateException(
                    "scripts/cassandra.sh add printed no contact points for " + (nodes + count) + " nodes: " + out);
        }
        nodes += count;
        contactPoints = contact;
        return contact;
    }

    // --- accessors and operations ----------------------------------------------------------------------------------

    /** "127.0.0.1:PORT,127.0.0.2:PORT,...", as scripts/cassandra.sh start prints them. */
    public String contactPoints() {
        return contactPoints;
    }

    /** The contact points as addresses, for CqlSessionBuilder.addContactPoints. */
    public List<InetSocketAddress> contactAddresses() {
        List<InetSocketAddress> a = new ArrayList<>();
        for (String cp : contactPoints.split(",")) {
            int colon = cp.lastIndexOf(':');
            a.add(new InetSocketAddress(cp.substring(0, colon), Integer.parseInt(cp.substring(colon + 1))));
        }
        return a;
    }

    /** The local datacenter of every node. */
    public String datacenter() {
        return DATACENTER;
    }

    public int nodes() {
        return nodes;
    }

    public Path dir() {
        return dir;
    }

    /** The pid of node {@code node} (1-based), as the script recorded it at start. */
    public long pid(int node) {
        checkNode(node);
        try {
            return Long.parseLong(
                    Files.readString(dir.resolve("nodes/n" + node + "/pid")).trim());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException(
                    "no pid for Cassandra node " + node + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The pids of nodes 1..N. */
    public List<Long> pids() {
        List<Long> p = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            p.add(pid(i));
        }
        return p;
    }

    /** SIGSTOP node {@code node}: it keeps its sockets (connects still succeed) but answers nothing. */
    public void freeze(int node) {
        checkNode(node);
        run(30, "freeze", dir.toString(), Integer.toString(node));
    }

    /** SIGCONT node {@code node}. */
    public void thaw(int node) {
        checkNode(node);
        run(30, "thaw", dir.toString(), Integer.toString(node));
    }

    /** Waits (at most 90 s) until another running node's nodetool status shows node {@code node} as DN. */
    public void awaitDown(int node) {
        checkNode(node);
        run(150, "down", dir.toString(), Integer.toString(node));
    }

    /** Waits (at most 90 s) until another running node's nodetool status shows node {@code node} as UN. */
    public void awaitUp(int node) {
        checkNode(node);
        run(150, "up", dir.toString(), Integer.toString(node));
    }

    /** nodetool ARGS against node {@code node} (a JVM start: 3-5 s); its output. */
    public String nodetool(int node, String... args) {
        checkNode(node);
        List<String> a = new ArrayList<>(List.of("nodetool", dir.toString(), "--node", Integer.toString(node)));
        a.addAll(List.of(args));
        return run(120, a.toArray(String[]::new));
    }

    private void checkNode(int node) {
        if (node < 1 || node > nodes) {
            throw new IllegalArgumentException("node must be from 1 to " + nodes + ", not " + node);
        }
    }

    /** Kills the nodes and deletes the directory; does nothing for {@link #single()} (a shutdown hook does it). */
    @Override
    public void close() {
        if (!shared) {
            destroy();
        }
    }

    /** Kills every node by its pid file and deletes the directory ({@link ServerScripts#killAndDelete}). */
    private void destroy() {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> nodeDirs = Files.list(dir.resolve("nodes"))) {
            for (Path n : nodeDirs.toList()) {
                try {
                    pids.add(Long.parseLong(Files.readString(n.resolve("pid")).trim()));
                } catch (IOException | NumberFormatException e) {
                    // No pid: that node never started.
                }
            }
        } catch (IOException e) {
            // No nodes directory: nothing started.
        }
        ServerScripts.killAndDelete(dir, pids);
    }

    @Override
    public String toString() {
        return "Cassandra " + VERSION + " x" + nodes + " at " + contactPoints + " (" + dir + ")";
    }
}
