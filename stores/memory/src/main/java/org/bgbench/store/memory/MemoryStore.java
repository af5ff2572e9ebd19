package org.bgbench.store.memory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;

/**
 * A handle on a named in-process {@link Instance}. Closing the handle keeps the data, so the next open with the same
 * name finds it; schema changes and restores must not overlap running actions or loads.
 */
final class MemoryStore implements DataStore {
    private final Instance instance;
    private final MemoryImage image;
    private final FeedDesign design;
    private volatile boolean closed;

    /** Fan-outs of push designs run this long after SR on {@link #fanout} (zero: inside SR). */
    private final Duration fanoutDelay;

    private ScheduledExecutorService fanout;

    MemoryStore(Instance instance, FeedDesign design) {
        this(instance, design, Duration.ZERO);
    }

    MemoryStore(Instance instance, FeedDesign design, Duration fanoutDelay) {
        this.fanoutDelay = fanoutDelay;
        this.instance = instance;
        this.design = design;
        this.image = new MemoryImage(instance, design);
    }

    @Override
    public boolean inProcess() {
        return true;
    }

    @Override
    public Optional<String> loadedGraph() {
        Db d = instance.db;
        return d == null ? Optional.empty() : Optional.ofNullable(d.loadedFingerprint);
    }

    @Override
    public void createSchema(GraphSpec spec) {
        open();
        instance.db = new Db(spec, design);
    }

    @Override
    public void dropSchema() {
        open();
        instance.db = null;
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        open();
        Db d = schemaFor(graph, "load");
        // A load in progress holds no finished graph, and no state BG knows.
        d.loadedFingerprint = null;
        d.stateMark = null;
        return new MemoryLoader(d, graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        open();
        Db d = schemaFor(graph, "finish the load of");
        d.stateMark = StateMark.loaded(graph.spec().fingerprint()).text();
        d.loadedFingerprint = graph.spec().fingerprint();
    }

    /** The mark lives in the instance's contents: it outlives this handle, not the JVM (the store forgets on close). */
    @Override
    public Optional<String> stateMark() {
        Db d = instance.db;
        return d == null ? Optional.empty() : Optional.ofNullable(d.stateMark);
    }

    @Override
    public void writeStateMark(String mark) {
        open();
        Db d = instance.db;
        if (d == null) {
            throw new StoreException(
                    "memory store '" + instance.name + "' holds no BG schema; cannot record BG's" + " state mark");
        }
        d.stateMark = mark;
    }

    @Override
    public boolean replaceStateMark(String expected, String mark) {
        open();
        Db d = instance.db;
        if (d == null) {
            throw new StoreException(
                    "memory store '" + instance.name + "' holds no BG schema; cannot record BG's" + " state mark");
        }
        return d.replaceStateMark(expected, mark);
    }

    @Override
    public void clearShares() {
        open();
        instance.requireDb().clearShares();
    }

    @Override
    public StoreCounts counts() {
        open();
        Db d = instance.db;
        return d == null ? StoreCounts.EMPTY : d.counts();
    }

    @Override
    public StoreSession openSession() {
        open();
        Db d = instance.requireDb();
        if (!d.design.equals(design)) {
            // Push designs keep feeds the other designs do not maintain, so one schema serves one design.
            throw new StoreException("memory store '" + instance.name + "' was created with feed design " + d.design
                    + ", this handle asks for " + design + "; open it with the same feed.design and feed.push");
        }
        return new MemorySession(instance, fanoutDelay.isZero() ? null : this::later);
    }

    @Override
    public Optional<StoreImage> image() {
        return Optional.of(image);
    }

    /** Runs {@code task} after the fan-out delay on one background thread (in order of scheduling). */
    private synchronized void later(Runnable task) {
        if (fanout == null) {
            fanout = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "memory-store-fanout");
                t.setDaemon(true);
                return t;
            });
        }
        fanout.schedule(task, fanoutDelay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (fanout != null) {
                fanout.shutdownNow();
            }
        }
        closed = true;
    }

    private void open() {
        if (closed) {
            throw new StoreException("memory store '" + instance.name + "' handle is closed");
        }
    }

    private Db schemaFor(SocialGraph graph, String what) {
        Db d = instance.requireDb();
        if (!d.spec.equals(graph.spec())) {
            throw new StoreException("cannot " + what + " graph " + graph.spec().fingerprint()
                    + ": the schema was created for " + d.spec.fingerprint());
        }
        return d;
    }
}
