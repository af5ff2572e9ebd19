package org.bgbench.store.hbase;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.client.Durability;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;

/** The {@code hbase} store: Apache HBase through its Java client, the scalability paper's Basic and Manual designs. */
public final class HBaseStoreProvider implements StoreProvider {
    static final String QUORUM = "hbase.zookeeper.quorum";
    static final String ZK_PORT = "hbase.zookeeper.port";
    static final String TABLE_PREFIX = "hbase.table-prefix";
    static final String DESIGN = "hbase.design";
    static final String FETCH = "hbase.fetch";
    static final String WRITE_BUFFER = "hbase.write-buffer";
    static final String TIMEOUT = "hbase.timeout";
    static final String REGIONS = "hbase.regions";
    static final String LOAD_WAL = "hbase.load-wal";
    static final String DURABILITY = "hbase.durability";
    static final String SERVER_DIR = "hbase.server-dir";

    @Override
    public String name() {
        return "hbase";
    }

    @Override
    public String description() {
        return "Apache HBase (Java client 2.6): the scalability paper's extensible-record designs, Basic (counts "
                + "derived at read time) or Manual (counts kept on write)";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                new StoreSetting(
                        QUORUM,
                        "127.0.0.1",
                        "ZooKeeper hosts of the HBase cluster, separated by commas; scripts/hbase.sh quorum DIR prints "
                                + "a private server's"),
                new StoreSetting(ZK_PORT, "2181", "ZooKeeper's client port"),
                new StoreSetting(
                        TABLE_PREFIX,
                        "bg_",
                        "prefix of BG's table names (letters, digits, _ . -; a namespace as ns: first is allowed)"),
                new StoreSetting(
                        DESIGN,
                        "manual",
                        "scalability paper D.1: basic = VP counts friends, invitations and resources from their rows "
                                + "(3-4 gets); manual = the counts are columns of the member row, changed by every "
                                + "write that changes a list (VP is one get)"),
                new StoreSetting(
                        FETCH,
                        "batched",
                        "how LF, VFR, VCR and VTR read the rows a list names: batched = one multi-get (the paper's "
                                + "BatchedGet), single = one get each (SingleGet)"),
                new StoreSetting(
                        WRITE_BUFFER,
                        "4m",
                        "bytes each loading thread's buffered mutators collect before sending (e.g. 512k, 4m, 16m)"),
                // No default value: it follows β, as the other stores' timeouts do.
                new StoreSetting(
                        TIMEOUT,
                        null,
                        "the client's operation timeout (one call, its retries included); at least 1s; default "
                                + "max(10s, 100·β)"),
                new StoreSetting(
                        REGIONS,
                        "8",
                        "regions each member-, resource- and comment-keyed table is pre-split into (1 to 1024)"),
                new StoreSetting(
                        LOAD_WAL,
                        "auto",
                        "false: the load skips the write-ahead log and flushes every table when it ends (nothing is "
                                + "lost once bg load finishes); true: the load writes the log; auto: true for graphs "
                                + "of up to 200,000 rows (flushing ten tables costs more than logging them), else "
                                + "false"),
                new StoreSetting(
                        DURABILITY,
                        "sync",
                        "write-ahead log of the actions' writes: sync (HBase's default, written to the log before "
                                + "acknowledged), fsync (forced to disk), async (written in the background), skip"),
                StoreSetting.of(
                        StoreSetting.Kind.DIRECTORY,
                        SERVER_DIR,
                        null,
                        "optional: the scripts/hbase.sh directory of a local server: BG reports its CPU")));
        all.addAll(FeedDesign.settings());
        return List.copyOf(all);
    }

    /** 84,000–118,000 rows/s into one region server (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 80_000;
    }

    @Override
    public StoreTraits traits() {
        return StoreTraits.SERVER;
    }

    @Override
    public DataStore open(StoreSettings settings) {
        return HBaseStore.open(config(settings));
    }

    static HBaseConfig config(StoreSettings s) {
        List<String> quorum = new ArrayList<>();
        for (String h : s.get(QUORUM, "127.0.0.1").split(",")) {
            String host = h.trim();
            if (host.isEmpty()) {
                continue;
            }
            if (!host.matches("[A-Za-z0-9._\\-]+")) {
                throw new InvalidParameterException(
                        QUORUM,
                        "expected host names or addresses separated by commas " + "(the port goes in " + ZK_PORT
                                + "), got '" + s.get(QUORUM) + "'");
            }
            quorum.add(host);
        }
        if (quorum.isEmpty()) {
            throw new InvalidParameterException(QUORUM, "must name at least one ZooKeeper host, e.g. 127.0.0.1");
        }
        int port = s.getInt(ZK_PORT, 2181);
        if (port < 1 || port > 65535) {
            throw new InvalidParameterException(ZK_PORT, "expected a port from 1 to 65535, got " + port);
        }
        String prefix = s.get(TABLE_PREFIX, "bg_").trim();
        if (!prefix.matches("([A-Za-z0-9_][A-Za-z0-9_.\\-]{0,40}:)?[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,40}")) {
            throw new InvalidParameterException(
                    TABLE_PREFIX,
                    "expected letters, digits, _ . - (at most 41, not "
                            + "starting with . or -), optionally after a namespace and ':', got '" + prefix + "'");
        }
        int regions = s.getInt(REGIONS, 8);
        if (regions < 1 || regions > 1024) {
            throw new InvalidParameterException(REGIONS, "expected 1 to 1024, got " + regions);
        }
        String dir = s.get(SERVER_DIR);
        HBaseConfig.Connection connection = new HBaseConfig.Connection(
                quorum, port, s.timeout(TIMEOUT), dir == null || dir.isBlank() ? null : Path.of(dir));
        HBaseConfig.Schema schema = new HBaseConfig.Schema(
                prefix,
                s.getChoice(DESIGN, "manual", "basic", "manual").equals("basic")
                        ? HBaseConfig.Design.BASIC
                        : HBaseConfig.Design.MANUAL,
                regions,
                FeedDesign.from(s));
        HBaseConfig.Access access = new HBaseConfig.Access(
                s.getChoice(FETCH, "batched", "batched", "single").equals("single")
                        ? HBaseConfig.Fetch.SINGLE
                        : HBaseConfig.Fetch.BATCHED,
                bytes(WRITE_BUFFER, s.get(WRITE_BUFFER, "4m")),
                switch (s.getChoice(LOAD_WAL, "auto", "auto", "true", "false")) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    default -> null;
                },
                switch (s.getChoice(DURABILITY, "sync", "sync", "fsync", "async", "skip")) {
                    case "fsync" -> Durability.FSYNC_WAL;
                    case "async" -> Durability.ASYNC_WAL;
                    case "skip" -> Durability.SKIP_WAL;
                    default -> Durability.SYNC_WAL;
                });
        return new HBaseConfig(connection, schema, access);
    }

    /** A size such as 4m, 512k or 1048576 (bytes), from 64 KiB to 1 GiB. */
    static long bytes(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("k") || v.endsWith("m") || v.endsWith("g")) {
            unit = switch (v.charAt(v.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                default -> 1L << 30;
            };
            v = v.substring(0, v.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(v) * unit;
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, "expected a size such as 512k, 4m or 16m, got '" + value + "'");
        }
        if (n < 64 * 1024 || n > 1L << 30) {
            throw new InvalidParameterException(key, "expected a size from 64k to 1g, got '" + value + "'");
        }
        return n;
    }
}
