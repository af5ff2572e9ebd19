package org.bgbench.store.casql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;

/**
 * Cache-augmented SQL [CIKM section F, dissertation 6.1.4]: the {@code postgres} store does all SQL; this store puts a cache in front of its
 * read actions (see {@link CasqlSession}). Everything that replaces the database's contents wholesale (schema
 * creation and drop, load, image restore) empties the cache, and so does opening the store: a cache that outlived
 * an earlier BG process may hold entries whose invalidation that process never got to send.
 */
public final class CasqlStore implements DataStore {
    private final DataStore database;
    private final CacheBackend cache;
    private final CasqlConfig config;
    private final FeedAudience audience;
    /** Points of a miss where tests interleave other sessions' actions. */
    enum Stage {
        /** The lookup missed; no lease taken and no SQL run yet. */
        MISSED,
        /** The SQL query ran; its result is not cached yet. */
        QUERIED
    }

    /** Test hook: runs at each {@link Stage} of a miss with the key; null in normal use. */
    private volatile BiConsumer<Stage, String> hook;

    CasqlStore(DataStore database, CacheBackend cache, CasqlConfig config, FeedAudience audience) {
        this.database = database;
        this.cache = cache;
        this.config = config;
        this.audience = audience;
        cache.flush();
    }

    /** The cache settings in effect. */
    public CasqlConfig config() {
        return config;
    }

    /** The PostgreSQL store underneath, which sees every write and every miss. */
    DataStore database() {
        return database;
    }

    CacheBackend cache() {
        return cache;
    }

    /** Member ids who may see a public share of account {@code sharer}, read from PostgreSQL. */
    int[] audience(int sharer) {
        return audience.of(sharer);
    }

    /** Installs (or with null removes) the test hook. */
    void hook(BiConsumer<Stage, String> hook) {
        this.hook = hook;
    }

    void atStage(Stage stage, String key) {
        BiConsumer<Stage, String> h = hook;
        if (h != null) {
            h.accept(stage, key);
        }
    }

    @Override
    public Optional<String> loadedGraph() {
        return database.loadedGraph();
    }

    /** The mark is PostgreSQL's: the cache holds action results only, and writing the mark changes none of them. */
    @Override
    public Optional<String> stateMark() {
        return database.stateMark();
    }

    @Override
    public void writeStateMark(String mark) {
        database.writeStateMark(mark);
    }

    @Override
    public boolean replaceStateMark(String expected, String mark) {
        return database.replaceStateMark(expected, mark);
    }

    @Override
    public void createSchema(GraphSpec spec) {
        try {
            database.createSchema(spec);
        } finally {
            audience.forget();
            cache.flush();
        }
    }

    @Override
    public void dropSchema() {
        try {
            database.dropSchema();
        } finally {
            audience.forget();
            cache.flush();
        }
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        return database.newLoader(graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        finishLoad(graph, FinishProgress.NONE);
    }

    @Override
    public void finishLoad(SocialGraph graph, FinishProgress progress) {
        try {
            database.finishLoad(graph, progress);
        } finally {
            // Reads issued while loading may have cached a partly loaded graph.
            audience.forget();
            cache.flush();
        }
    }

    /**
     * PostgreSQL's shares go, and so does the whole cache: feeds are spread over one key per member and neither
     * memcached nor Caffeine can list keys by prefix, while other entries are merely read again. A rare repair step.
     */
    @Override
    public void clearShares() {
        try {
            database.clearShares();
        } finally {
            cache.flush();
        }
    }

    @Override
    public StoreCounts counts() {
        return database.counts();
    }

    @Override
    public StoreSession openSession() {
        StoreSession db = database.openSession();
        try {
            EntryFormat format = config.cache().remote() ? new BinaryFormat() : SnapshotFormat.INSTANCE;
            return new CasqlSession(
                    this, db, cache.ops(), format, config.consistency() == CasqlConfig.Consistency.INVALIDATE);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** PostgreSQL's image; a restore also empties the cache, whose entries describe the replaced contents. */
    @Override
    public Optional<StoreImage> image() {
        return database.image().map(image -> new StoreImage() {
            @Override
            public void save() {
                audience.closeIdle();
                image.save();
            }

            @Override
            public boolean exists() {
                return image.exists();
            }

            @Override
            public void restore() {
                audience.closeIdle();
                try {
                    image.restore();
                } finally {
                    audience.forget();
                    cache.flush();
                }
            }
        });
    }

    /** PostgreSQL's postmaster and, when it runs on this host, the cache server. */
    @Override
    public List<Long> localServerPids() {
        List<Long> pids = new ArrayList<>(database.localServerPids());
        pids.addAll(cache.localServerPids());
        return pids;
    }

    /**
     * PostgreSQL's, plus {@code cache.timeout} for a cache server: an action waits on one of them at a time, so one
     * that stopped answering fails the action within its own timeout after the other answered.
     */
    @Override
    public Duration callTimeout() {
        Duration db = database.callTimeout();
        return config.cache().remote() ? db.plus(config.timeout()) : db;
    }

    /** False: even with the in-process cache every miss and write goes to the PostgreSQL server. */
    @Override
    public boolean inProcess() {
        return false;
    }

    @Override
    public void close() {
        try {
            audience.close();
            cache.close();
        } finally {
            database.close();
        }
    }
}
