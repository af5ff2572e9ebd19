package org.bgbench.store.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.FeedDesign;

/**
 * Everything the {@code cassandra} store was opened with, checked: how to reach the cluster, the keyspace's and tables'
 * shape, and how the actions read and write.
 *
 * @param connection where the nodes are and how long a request may take
 * @param schema     the keyspace's replication and the tables' designs and options
 * @param actions    the actions' consistency levels and how they write
 */
record CassandraConfig(Connection connection, Schema schema, Actions actions) {

    /**
     * How BG reaches the cluster.
     *
     * @param contactPoints nodes the driver first connects to
     * @param datacenter    the local datacenter: requests go to its nodes, the keyspace is replicated in it
     * @param keyspace      the keyspace BG's tables live in
     * @param timeout       the driver's request timeout
     * @param serverDir     a {@code scripts/cassandra.sh} directory of the local nodes (their pids), or null
     */
    record Connection(
            List<InetSocketAddress> contactPoints,
            String datacenter,
            String keyspace,
            Duration timeout,
            Path serverDir) {
        Connection {
            contactPoints = List.copyOf(contactPoints);
        }
    }

    /**
     * The keyspace and its tables.
     *
     * @param replicationFactor replicas of every row in the datacenter (NetworkTopologyStrategy)
     * @param durableWrites     the keyspace's {@code durable_writes} (false: writes skip the commit log)
     * @param design            the physical design
     * @param feed              feed following's design
     * @param speculativeRetry  the tables' {@code speculative_retry} (Cassandra's default 99p)
     * @param readRepair        the tables' {@code read_repair}: BLOCKING (Cassandra's default) or NONE
     */
    record Schema(
            int replicationFactor,
            boolean durableWrites,
            Design design,
            FeedDesign feed,
            String speculativeRetry,
            String readRepair) {}

    /**
     * How the actions and the load read and write.
     *
     * @param readConsistency  consistency level of the actions' reads
     * @param writeConsistency consistency level of the actions' writes and of the load
     * @param batch            how AFR and TF write the two members they change
     * @param loadInFlight     asynchronous writes each loading thread keeps in flight
     */
    record Actions(
            ConsistencyLevel readConsistency, ConsistencyLevel writeConsistency, Batch batch, int loadInFlight) {}

    /** How a write that changes two members' rows (AFR, TF) reaches the store. */
    enum Batch {
        /** A logged batch: both rows change or, after a failure, both eventually do (no isolation). */
        LOGGED,
        /** An unlogged batch: one round trip, no guarantee that both rows change. */
        UNLOGGED,
        /** One statement per row, one after the other, as the Cassandra/NuoDB report's client did. */
        SEPARATE
    }

    /** The physical design (see the module's README). */
    enum Design {
        /**
         * BG's: comments partitioned by resource (VCR reads one partition), the resource count kept in the member row
         * (resources never change after the load).
         */
        BG,
        /**
         * The Cassandra/NuoDB report's: comments keyed by comment id with a secondary index on the resource id, VP
         * counts the wall's resources with COUNT(*).
         */
        REPORT
    }

    /** The same settings with another feed design. */
    CassandraConfig withFeed(FeedDesign f) {
        Schema t = schema;
        return new CassandraConfig(
                connection,
                new Schema(
                        t.replicationFactor(), t.durableWrites(), t.design(), f, t.speculativeRetry(), t.readRepair()),
                actions);
    }

    // The parts' settings, read where they are used.

    List<InetSocketAddress> contactPoints() {
        return connection.contactPoints();
    }

    String datacenter() {
        return connection.datacenter();
    }

    String keyspace() {
        return connection.keyspace();
    }

    Duration timeout() {
        return connection.timeout();
    }

    Path serverDir() {
        return connection.serverDir();
    }

    int replicationFactor() {
        return schema.replicationFactor();
    }

    boolean durableWrites() {
        return schema.durableWrites();
    }

    Design design() {
        return schema.design();
    }

    FeedDesign feed() {
        return schema.feed();
    }

    String speculativeRetry() {
        return schema.speculativeRetry();
    }

    String readRepair() {
        return schema.readRepair();
    }

    ConsistencyLevel readConsistency() {
        return actions.readConsistency();
    }

    ConsistencyLevel writeConsistency() {
        return actions.writeConsistency();
    }

    Batch batch() {
        return actions.batch();
    }

    int loadInFlight() {
        return actions.loadInFlight();
    }

    /**
     * The read consistency of BG's own checks (the load's sanity check, bg verify, RepairDB): the configured one when
     * it already overlaps every write (reads plus writes reach more than RF replicas), else ALL.
     */
    ConsistencyLevel consistentReadLevel() {
        int rf = replicationFactor();
        return replicas(readConsistency(), rf) + replicas(writeConsistency(), rf) > rf
                ? readConsistency()
                : DefaultConsistencyLevel.ALL;
    }

    static int replicas(ConsistencyLevel cl, int rf) {
        return switch (DefaultConsistencyLevel.valueOf(cl.name())) {
            case ANY -> 0;
            case ONE, LOCAL_ONE -> 1;
            case TWO -> 2;
            case THREE -> 3;
            case ALL -> rf;
            default -> rf / 2 + 1;
        };
    }

    /** What a keyspace loaded for this configuration records: another design cannot reuse it. */
    String describe() {
        return "design=" + design().name().toLowerCase(Locale.ROOT) + " " + feed().describe();
    }

    /** Parses {@code host[:port],host[:port]...}; the port defaults to 9042. */
    static List<InetSocketAddress> contactPoints(String key, String value) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String part : value.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            String host = p;
            int port = 9042;
            int colon = p.lastIndexOf(':');
            if (colon > 0 && p.indexOf(':') == colon) {
                host = p.substring(0, colon);
                try {
                    port = Integer.parseInt(p.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65535) {
                    throw new InvalidParameterException(
                            key, "expected host:port with a port from 1 to 65535, got '" + p + "'");
                }
            }
            out.add(InetSocketAddress.createUnresolved(host, port));
        }
        if (out.isEmpty()) {
            throw new InvalidParameterException(
                    key, "expected one or more host[:port] separated by commas, got '" + value + "'");
        }
        return out;
    }

    /** A consistency level by name; writes also accept EACH_QUORUM and ANY. */
    static ConsistencyLevel consistency(String key, String value, boolean write) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        List<String> accepted =
                new ArrayList<>(List.of("ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_ONE", "LOCAL_QUORUM"));
        if (write) {
            // Cassandra refuses reads at these two.
            accepted.add("EACH_QUORUM");
            accepted.add("ANY");
        }
        if (!accepted.contains(v)) {
            throw new InvalidParameterException(
                    key, "expected one of " + String.join(", ", accepted) + ", got '" + value + "'");
        }
        return DefaultConsistencyLevel.valueOf(v);
    }
}
