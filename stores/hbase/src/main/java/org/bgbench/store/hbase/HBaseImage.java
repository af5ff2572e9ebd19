package org.bgbench.store.hbase;

import java.io.IOException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;

/**
 * A database image (DBIL, dissertation 7.2) as HBase snapshots: save flushes and snapshots each of BG's tables (the
 * snapshot references the tables' files, nothing is copied); restore disables each table, restores its snapshot and
 * enables it again. A marker row in the table {@code <prefix>image} names the graph and design of the image; save
 * removes it first and writes it last, so an interrupted save leaves no image. Snapshots and marker outlive
 * {@code bg load}'s drop of the tables, so a reload of the same graph finds its image again.
 */
final class HBaseImage implements StoreImage {
    private static final String MARKER_TABLE = "image";
    private static final byte[] ROW = Bytes.toBytes("image");

    private final HBaseStore store;
    private final HBaseConfig config;

    HBaseImage(HBaseStore store) {
        this.store = store;
        this.config = store.config();
    }

    /** The snapshot of {@code table}: its full name with the namespace separator made legal. */
    private static String snapshot(TableName table) {
        return "bgimage_" + table.getNameAsString().replace(':', '_');
    }

    private TableName markerTable() {
        return TableName.valueOf(config.prefix() + MARKER_TABLE);
    }

    @Override
    public void save() {
        String graph = store.loadedGraph()
                .orElseThrow(() -> new StoreException(
                        "HBase holds no loaded graph under " + "prefix " + config.prefix() + " to save as an image"));
        store.admin("saving the image", a -> {
            ensureMarkerTable(a);
            try (Table m = store.connection().getTable(markerTable())) {
                m.delete(new Delete(ROW));
            }
            return null;
        });
        Set<String> existing = store.admin("listing snapshots", HBaseImage::snapshots);
        store.forEachTable("snapshotting", HBaseSchema.tables(config), (a, n) -> {
            String name = snapshot(n);
            if (existing.contains(name)) {
                a.deleteSnapshot(name);
            }
            // A flushed table's snapshot needs no write-ahead-log replay when restored.
            a.snapshot(name, n, SnapshotType.FLUSH);
        });
        store.admin("saving the image", a -> {
            try (Table m = store.connection().getTable(markerTable())) {
                m.put(new Put(ROW)
                        .addColumn(HBaseSchema.M, HBaseSchema.GRAPH, Bytes.toBytes(graph))
                        .addColumn(HBaseSchema.M, HBaseSchema.DESIGN, Bytes.toBytes(config.describe())));
            }
            return null;
        });
    }

    private void ensureMarkerTable(Admin a) throws IOException {
        if (!a.tableExists(markerTable())) {
            a.createTable(TableDescriptorBuilder.newBuilder(markerTable())
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(HBaseSchema.M))
                    .build());
        }
    }

    private static Set<String> snapshots(Admin a) throws IOException {
        Set<String> names = new HashSet<>();
        for (SnapshotDescription d : a.listSnapshots()) {
            names.add(d.getName());
        }
        return names;
    }

    @Override
    public boolean exists() {
        Optional<String> current = store.loadedGraph();
        if (current.isEmpty()) {
            return false;
        }
        return store.admin("looking for the image", a -> {
            if (!a.tableExists(markerTable())) {
                return false;
            }
            try (Table m = store.connection().getTable(markerTable())) {
                Result r = m.get(new Get(ROW));
                if (!current.get().equals(string(r.getValue(HBaseSchema.M, HBaseSchema.GRAPH)))
                        || !config.describe().equals(string(r.getValue(HBaseSchema.M, HBaseSchema.DESIGN)))) {
                    return false;
                }
            }
            Set<String> existing = snapshots(a);
            for (String t : HBaseSchema.tables(config)) {
                if (!existing.contains(snapshot(HBaseSchema.name(config, t)))) {
                    return false;
                }
            }
            return true;
        });
    }

    private static String string(byte[] b) {
        return b == null ? null : Bytes.toString(b);
    }

    @Override
    public void restore() {
        // Every table at once: each step is a procedure on the master, and they run side by side.
        store.forEachTable("restoring the image of", HBaseSchema.tables(config), (a, n) -> {
            if (a.tableExists(n) && a.isTableEnabled(n)) {
                a.disableTable(n);
            }
            // No fail-safe snapshot of the contents being replaced: they are a run's leftovers.
            a.restoreSnapshot(snapshot(n), false);
            if (!a.isTableEnabled(n)) {
                a.enableTable(n);
            }
        });
    }
}
