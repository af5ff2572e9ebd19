package org.bgbench.store.sqlite;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;
import org.bgbench.store.relational.PhysicalDesign;

/** The {@code sqlite} store: an embedded SQLite file with BG's Basic relational design. */
public final class SqliteStoreProvider implements StoreProvider {
    static final String FILE = "sqlite.file";
    static final String BUSY_TIMEOUT = "sqlite.busy_timeout_ms";
    static final String CACHE = "sqlite.cache_mb";
    static final String FRIENDSHIP_ROWS = "friendship.rows";

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String description() {
        return "SQLite file database (sqlite-jdbc, WAL): relational Basic design, one friendship table with status";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> all = new ArrayList<>(List.of(
                StoreSetting.of(
                        StoreSetting.Kind.FILE,
                        FILE,
                        "bg-data/bg.sqlite",
                        "database file, relative to the working directory; parent directories are created"),
                new StoreSetting(
                        BUSY_TIMEOUT, "30000", "milliseconds a statement waits for a lock held by another process"),
                new StoreSetting(CACHE, "64", "page cache per connection, in MiB"),
                new StoreSetting(
                        FRIENDSHIP_ROWS,
                        "1",
                        "rows per confirmed friendship: 1 (USC BG's Basic) or 2 (one per direction)")));
        all.addAll(PhysicalDesign.settings("<sqlite.file>.images, next to the database file"));
        all.addAll(FeedDesign.settings());
        return List.copyOf(all);
    }

    /** one writer in WAL mode: 354,000 rows/s for M = 10,000 (docs/benchmarks.md). */
    @Override
    public double loadRowsPerSecond() {
        return 200_000;
    }

    /** In BG's process; with workers, each has its own database file on its host. */
    @Override
    public StoreTraits traits() {
        return new StoreTraits(true, false, true, null);
    }

    @Override
    public DataStore open(StoreSettings settings) {
        int rows = Integer.parseInt(settings.getChoice(FRIENDSHIP_ROWS, "1", "1", "2"));
        Path file = Path.of(settings.get(FILE, "bg-data/bg.sqlite"));
        return new SqliteStore(
                file,
                nonNegative(settings, BUSY_TIMEOUT, 30_000),
                nonNegative(settings, CACHE, 64),
                rows,
                FeedDesign.from(settings),
                PhysicalDesign.from(settings, SqliteStore.defaultImagesDir(file)));
    }

    private static int nonNegative(StoreSettings settings, String key, int fallback) {
        int v = settings.getInt(key, fallback);
        if (v < 0) {
            throw new InvalidParameterException(key, "must be 0 or more, got " + v);
        }
        return v;
    }
}
