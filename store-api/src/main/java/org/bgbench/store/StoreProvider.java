package org.bgbench.store;

import java.util.List;
import java.util.OptionalLong;
import org.bgbench.model.generator.SocialGraph;

/**
 * A data-store binding, found with {@link java.util.ServiceLoader}: a module that lists its provider in
 * {@code META-INF/services/org.bgbench.store.StoreProvider} becomes a store {@code bg} can load and run against.
 */
public interface StoreProvider {
    /** Short name users type, e.g. {@code postgres}. */
    String name();

    /** One line: what the store is and which physical design it uses. */
    String description();

    /** Every setting the store reads, with defaults; {@code bg stores} lists them and unknown keys are refused. */
    List<StoreSetting> settings();

    /**
     * Connects to (or starts) the store. Throws {@link StoreException} with a message a user can act on when the
     * store cannot be reached or refuses the credentials.
     */
    DataStore open(StoreSettings settings);

    /**
     * Heap this store needs inside BG's process to hold {@code graph} (a store that keeps the graph in BG's heap, such
     * as the memory store), so a graph that cannot fit is refused before loading; empty for stores elsewhere.
     */
    default OptionalLong heapBytes(SocialGraph graph) {
        return OptionalLong.empty();
    }

    /**
     * Rows a second that {@code bg load} of this store reached at least on a 2-core machine (docs/benchmarks.md), so
     * a long load can be announced with its likely length before it starts. The default is the slowest stores'.
     */
    default double loadRowsPerSecond() {
        return 100_000;
    }

    /** What kind of store this is (in BG's process, forgetful, one per worker, embedded mode). */
    default StoreTraits traits() {
        return StoreTraits.SERVER;
    }
}
