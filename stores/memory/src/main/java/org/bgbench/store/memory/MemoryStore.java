package org.bgbench.store.memory;

import java.util.Optional;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
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
    private volatile boolean closed;

    MemoryStore(Instance instance) {
        this.instance = instance;
        this.image = new MemoryImage(instance);
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
        instance.db = new Db(spec);
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
        // A load in progress holds no finished graph.
        d.loadedFingerprint = null;
        return new MemoryLoader(d, graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        open();
        schemaFor(graph, "finish the load of").loadedFingerprint = graph.spec().fingerprint();
    }

    @Override
    public StoreCounts counts() {
        open();
        Db d = instance.db;
        return d == null ? new StoreCounts(0, 0, 0, 0, 0) : d.counts();
    }

    @Override
    public StoreSession openSession() {
        open();
        instance.requireDb();
        return new MemorySession(instance);
    }

    @Override
    public Optional<StoreImage> image() {
        return Optional.of(image);
    }

    @Override
    public void close() {
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
