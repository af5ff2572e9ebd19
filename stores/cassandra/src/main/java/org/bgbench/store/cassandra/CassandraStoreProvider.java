package org.bgbench.store.cassandra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;

/** The {@code cassandra} store: Apache Cassandra (or a CQL-compatible store) through the official Java driver. */
public final class CassandraStoreProvider implements StoreProvider {
    static final String CONTACT_POINTS = "cassandra.contact-points";
    static final String DATACENTER = "cassandra.datacenter";
    static final String KEYSPACE = "cassandra.keyspace";
    static final String REPLICATION_FACTOR = "cassandra.replication-factor";
    static final String READ_CONSISTENCY = "cassandra.read-consistency";
    static final String WRITE_CONSISTENCY = "cassandra.write-consistency";
    static final String DURABLE_WRITES = "cassandra.durable-writes";
    static final String TIMEOUT = "cassandra.timeout";
    static final String BATCH = "cassandra.batch";
    static final String DESIGN = "cassandra.design";
    static final String SPECULATIVE_RETRY = "cassandra.speculative-retry";
    static final String READ_REPAIR = "cassandra.read-repair";
    static final String LOAD_IN_FLIGHT = "cassandra.load-in-flight";
    static final String SERVER_DIR = "cassandra.server-dir";

    @Override
    public String name() {
        return "cassandra";
    }

    @Override
    public String description() {
        return "Apache Cassandra (CQL, java-driver 4): members with friend and invitation sets, resources per wall, "
                + "comments per resource; tunable consistency";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                new StoreSetting(
                        CONTACT_POINTS,
                        "127.0.0.1:9042",
                        "nodes to connect to first, host[:port] separated by commas (port 9042 when left out); "
                                + "scripts/cassandra.sh contact DIR prints those of private nodes"),
                new StoreSetting(
                        DATACENTER,
                        "datacenter1",
                        "the local datacenter: the driver sends requests to its nodes and the keyspace is "
                                + "replicated in it"),
                new StoreSetting(KEYSPACE, "bg", "keyspace of BG's tables (letters, digits, _; at most 48)"),
                new StoreSetting(
                        REPLICATION_FACTOR,
                        "1",
                        "replicas of every row in the local datacenter (NetworkTopologyStrategy); at most the "
                                + "datacenter's nodes; applies when bg load creates the keyspace"),
                new StoreSetting(
                        READ_CONSISTENCY,
                        "QUORUM",
                        "consistency level of reads: ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM"),
                new StoreSetting(
                        WRITE_CONSISTENCY,
                        "QUORUM",
                        "consistency level of writes and of the load: as reads, plus EACH_QUORUM and ANY"),
                new StoreSetting(
                        DURABLE_WRITES,
                        "true",
                        "the keyspace's durable_writes: false makes writes skip the commit log (faster, lost when a "
                                + "node dies before flushing)"),
                // No default value: it follows β, as the SQL stores' timeouts do.
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "the driver's request timeout (an action that waits longer fails); at least 1s; default "
                                + "max(10s, 100·β)"),
                new StoreSetting(
                        BATCH,
                        "logged",
                        "how AFR and TF change both members' rows: logged (atomic: both or, after a failure, "
                                + "eventually both), unlogged (one round trip, no such guarantee), separate (one "
                                + "statement after the other, as the Cassandra/NuoDB report)"),
                new StoreSetting(
                        DESIGN,
                        "bg",
                        "bg = comments partitioned by resource, resource count kept in the member row; report = "
                                + "the Cassandra/NuoDB report's: comments keyed by id with a secondary index on the "
                                + "resource, VP counts resources with COUNT(*)"),
                new StoreSetting(
                        SPECULATIVE_RETRY,
                        "99p",
                        "the tables' speculative_retry (Cassandra's default 99p; NONE, ALWAYS, 95p, 50ms...): a slow "
                                + "replica's read goes to another one too, which hides a stale replica"),
                new StoreSetting(
                        READ_REPAIR,
                        "BLOCKING",
                        "the tables' read_repair: BLOCKING (Cassandra's default: a read that sees replicas disagree "
                                + "repairs them) or NONE"),
                new StoreSetting(LOAD_IN_FLIGHT, "256", "asynchronous writes each loading thread keeps in flight"),
                StoreSetting.of(
                        StoreSetting.Kind.DIRECTORY,
                        SERVER_DIR,
                        null,
                        "optional: the scripts/cassandra.sh directory of local nodes: BG reports their CPU and keeps a "
                                + "snapshot image of them (over JMX)")));
        all.addAll(FeedDesign.settings());
        return List.copyOf(all);
    }

    /** 59,000 rows/s into one fresh node, 26,000 into three at RF 3 (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 25_000;
    }

    @Override
    public StoreTraits traits() {
        return StoreTraits.SERVER;
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return CassandraStore.open(config(settings));
    }

    static CassandraConfig config(StoreSettings s) {
        String keyspace = s.get(KEYSPACE, "bg").trim();
        if (!keyspace.matches("[A-Za-z][A-Za-z0-9_]{0,47}")) {
            throw new InvalidParameterException(
                    KEYSPACE, "expected a letter then letters, digits or _ (at most 48), " + "got '" + keyspace + "'");
        }
        int rf = s.getInt(REPLICATION_FACTOR, 1);
        if (rf < 1) {
            throw new InvalidParameterException(REPLICATION_FACTOR, "must be 1 or more, got " + rf);
        }
        int inFlight = s.getInt(LOAD_IN_FLIGHT, 256);
        if (inFlight < 1 || inFlight > 4096) {
            throw new InvalidParameterException(LOAD_IN_FLIGHT, "must be from 1 to 4096, got " + inFlight);
        }
        String dc = s.get(DATACENTER, "datacenter1").trim();
        if (dc.isEmpty()) {
            throw new InvalidParameterException(DATACENTER, "must name the local datacenter, e.g. datacenter1");
        }
        String speculative = s.get(SPECULATIVE_RETRY, "99p").trim();
        if (!speculative.matches("(?i)NONE|ALWAYS|\\d{1,2}(\\.\\d+)?(p|PERCENTILE)|\\d+ms")) {
            throw new InvalidParameterException(
                    SPECULATIVE_RETRY,
                    "expected NONE, ALWAYS, a percentile such as 99p or " + "a time such as 50ms, got '" + speculative
                            + "'");
        }
        String dir = s.get(SERVER_DIR);
        CassandraConfig.Connection connection = new CassandraConfig.Connection(
                CassandraConfig.contactPoints(CONTACT_POINTS, s.get(CONTACT_POINTS, "127.0.0.1:9042")),
                dc,
                keyspace,
                s.timeout(TIMEOUT),
                dir == null || dir.isBlank() ? null : Path.of(dir));
        CassandraConfig.Schema schema = new CassandraConfig.Schema(
                rf,
                s.getBoolean(DURABLE_WRITES, true),
                s.getChoice(DESIGN, "bg", "bg", "report").equals("report")
                        ? CassandraConfig.Design.REPORT
                        : CassandraConfig.Design.BG,
                FeedDesign.from(s),
                speculative,
                s.getChoice(READ_REPAIR, "blocking", "blocking", "none").toUpperCase(Locale.ROOT));
        CassandraConfig.Actions actions = new CassandraConfig.Actions(
                CassandraConfig.consistency(READ_CONSISTENCY, s.get(READ_CONSISTENCY, "QUORUM"), false),
                CassandraConfig.consistency(WRITE_CONSISTENCY, s.get(WRITE_CONSISTENCY, "QUORUM"), true),
                switch (s.getChoice(BATCH, "logged", "logged", "unlogged", "separate")) {
                    case "unlogged" -> CassandraConfig.Batch.UNLOGGED;
                    case "separate" -> CassandraConfig.Batch.SEPARATE;
                    default -> CassandraConfig.Batch.LOGGED;
                },
                inFlight);
        return new CassandraConfig(connection, schema, actions);
    }
}
