package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;

/**
 * A database image of local nodes started by {@code scripts/cassandra.sh} ({@code cassandra.server-dir}): save flushes
 * the keyspace and takes a snapshot on every node (hard links, no copy); restore truncates BG's tables and imports each
 * node's snapshot back ({@code importNewSSTables} with copied files, so the snapshot stays for the next restore). Both
 * talk JMX to the nodes, on the ports the script recorded, as {@code nodetool} does. A marker file in the server
 * directory names the graph and design of the image; it is written last by save, so an interrupted save leaves no
 * image.
 */
final class CassandraImage implements StoreImage {
    private static final String STORAGE_SERVICE = "org.apache.cassandra.db:type=StorageService";

    private final CassandraStore store;
    private final Path serverDir;
    private final String ks;
    private final String tag;

    CassandraImage(CassandraStore store, Path serverDir) {
        this.store = store;
        this.serverDir = serverDir;
        this.ks = store.config().keyspace();
        this.tag = "bg-image-" + ks;
    }

    /** A node of the server directory: its data directory and JMX port. */
    private record Node(String name, Path data, int jmxPort) {}

    private List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        try (var dirs = Files.list(serverDir.resolve("nodes"))) {
            for (Path n : dirs.sorted().toList()) {
                Path env = n.resolve("node.env");
                if (Files.isRegularFile(env)) {
                    Properties p = new Properties();
                    try (var in = Files.newBufferedReader(env)) {
                        p.load(in);
                    }
                    out.add(new Node(
                            n.getFileName().toString(),
                            n.resolve("data"),
                            Integer.parseInt(p.getProperty("jmx_port").trim())));
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new StoreException(
                    CassandraStoreProvider.SERVER_DIR + "=" + serverDir + " holds no nodes of "
                            + "scripts/cassandra.sh (" + e.getMessage() + ")",
                    e);
        }
        if (out.isEmpty()) {
            throw new StoreException(CassandraStoreProvider.SERVER_DIR + "=" + serverDir + " holds no nodes of "
                    + "scripts/cassandra.sh");
        }
        return out;
    }

    private Path marker() {
        return serverDir.resolve(tag + ".properties");
    }

    @Override
    public void save() {
        String graph = store.loadedGraph()
                .orElseThrow(
                        () -> new StoreException("keyspace " + ks + " holds no " + "loaded graph to save as an image"));
        try {
            Files.deleteIfExists(marker());
        } catch (IOException e) {
            throw new StoreException("cannot remove " + marker() + ": " + e.getMessage(), e);
        }
        onEveryNode("saving the image", (node, jmx) -> {
            ObjectName ss = new ObjectName(STORAGE_SERVICE);
            jmx.invoke(ss, "forceKeyspaceFlush", new Object[] {ks, new String[0]}, new String[] {
                String.class.getName(), String[].class.getName()
            });
            jmx.invoke(ss, "clearSnapshot", new Object[] {tag, new String[] {ks}}, new String[] {
                String.class.getName(), String[].class.getName()
            });
            jmx.invoke(ss, "takeSnapshot", new Object[] {tag, new String[] {ks}}, new String[] {
                String.class.getName(), String[].class.getName()
            });
            return null;
        });
        Properties p = new Properties();
        p.setProperty("graph", graph);
        p.setProperty("design", store.config().describe());
        try (var out = Files.newBufferedWriter(marker())) {
            p.store(out, "the graph and design of BG's snapshot " + tag + " (stores/cassandra CassandraImage)");
        } catch (IOException e) {
            throw new StoreException("cannot write " + marker() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean exists() {
        Optional<String> current = store.loadedGraph();
        if (current.isEmpty() || !Files.isRegularFile(marker())) {
            return false;
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(marker())) {
            p.load(in);
        } catch (IOException e) {
            return false;
        }
        if (!current.get().equals(p.getProperty("graph"))
                || !store.config().describe().equals(p.getProperty("design"))) {
            return false;
        }
        // The snapshot must belong to the tables as they are now (a dropped and recreated keyspace has new ones).
        for (Node n : nodes()) {
            for (String t : CassandraSchema.tables(store.config())) {
                Optional<Path> dir = snapshotDir(n, t);
                if (dir.isEmpty() || !Files.isDirectory(dir.get())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Where {@code node} keeps the snapshot of {@code table}: the table's directory is its name and id. */
    private Optional<Path> snapshotDir(Node node, String table) {
        Optional<TableMetadata> t = store.cql()
                .getMetadata()
                .getKeyspace(CqlIdentifier.fromInternal(ks))
                .flatMap(k -> k.getTable(table));
        return t.flatMap(TableMetadata::getId)
                .map(id -> node.data()
                        .resolve(ks)
                        .resolve(table + "-" + id.toString().replace("-", ""))
                        .resolve("snapshots")
                        .resolve(tag));
    }

    @Override
    public void restore() {
        List<String> tables = CassandraSchema.tables(store.config());
        for (String t : tables) {
            store.truncate(t);
        }
        onEveryNode("restoring the image", (node, jmx) -> {
            for (String t : tables) {
                Path dir = snapshotDir(node, t)
                        .orElseThrow(() ->
                                new StoreException("table " + ks + "." + t + " is gone; the image cannot be restored"));
                ObjectName table = new ObjectName("org.apache.cassandra.db:type=Tables,keyspace=" + ks + ",table=" + t);
                // Copied, not moved, so the snapshot serves the next restore too; no verification: the node took
                // these files of its own data.
                @SuppressWarnings("unchecked")
                List<String> failed = (List<String>) jmx.invoke(
                        table,
                        "importNewSSTables",
                        new Object[] {
                            new HashSet<>(List.of(dir.toString())), true, true, false, false, true, false, true
                        },
                        new String[] {
                            Set.class.getName(),
                            "boolean",
                            "boolean",
                            "boolean",
                            "boolean",
                            "boolean",
                            "boolean",
                            "boolean"
                        });
                if (failed != null && !failed.isEmpty()) {
                    throw new StoreException("node " + node.name() + " could not import " + failed);
                }
            }
            return null;
        });
    }

    private interface NodeWork {
        Object run(Node node, MBeanServerConnection jmx) throws Exception;
    }

    /** Runs {@code work} on every node at once, each over its own JMX connection. */
    private void onEveryNode(String what, NodeWork work) {
        List<Node> nodes = nodes();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Object>> done = new ArrayList<>();
            for (Node n : nodes) {
                done.add(pool.submit(() -> {
                    JMXServiceURL url =
                            new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + n.jmxPort() + "/jmxrmi");
                    try (JMXConnector c = JMXConnectorFactory.connect(url, Map.of())) {
                        return work.run(n, c.getMBeanServerConnection());
                    }
                }));
            }
            for (int i = 0; i < done.size(); i++) {
                try {
                    done.get(i).get();
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    throw c instanceof StoreException s
                            ? s
                            : new StoreException(
                                    what + " failed on node " + nodes.get(i).name() + " (JMX port "
                                            + nodes.get(i).jmxPort() + "): " + c,
                                    c);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new StoreException(what + " was interrupted", e);
                }
            }
        }
    }
}
