package org.bgbench.store.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * One variant of a store in a {@link ConformanceMatrix}: its name, how to open it fresh, how to open a second handle
 * on the same contents (null: the store cannot, and the checks that need one are skipped), the graph its checks start
 * from, what to close after its last check, and checks of its own beyond the suite's.
 *
 * @param name        the variant's name in test reports, e.g. {@code push} or {@code cache=redis}
 * @param opener      opens a fresh, empty store; the matrix creates the schema and closes it
 * @param reopener    given the first store, opens another handle on its contents; null when there is none
 * @param graph       the graph each check starts from
 * @param cleanup     closed after the variant's store (a server started for it); null for none
 * @param extraChecks the variant's own checks, each run like the suite's on a freshly loaded graph
 */
public record ConformanceTarget(
        String name,
        Supplier<DataStore> opener,
        Function<DataStore, DataStore> reopener,
        GraphSpec graph,
        AutoCloseable cleanup,
        List<StoreCheck> extraChecks) {

    /** A check of one variant's own, given its store. */
    public record StoreCheck(String name, ThrowingConsumer<DataStore> body) {}

    public ConformanceTarget {
        extraChecks = List.copyOf(extraChecks);
    }

    /**
     * The graph the suite's checks start from unless a store asks for another: small but with every feature on, 12
     * pages, 4 in each of the 3 fragments, each member following 3 of them, each page owning 3 resources.
     */
    public static GraphSpec suiteGraph() {
        return GraphSpec.builder()
                .members(120)
                .memberIdOffset(1000)
                .friendsPerMember(10)
                .resourcesPerMember(4)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(64)
                .profileImageBytes(256)
                .attributeCount(11)
                .attributeLength(12)
                .commentLength(40)
                .fragments(3)
                .seed(42)
                .build()
                .withFeed(new FeedSpec(12, 3, 0, 3));
    }

    /**
     * The suite's graph at half the size, for a store where each action costs time in proportion to the graph (a
     * query that scans its collection, a view refreshed in full on every write): 60 members in 3 fragments, 2
     * resources each with 2 comments, 6 pages (2 a fragment), each member following 2. The suite scales its random
     * write counts to the graph, so such a store runs as many writes per member as every other.
     */
    public static GraphSpec halfGraph() {
        return GraphSpec.builder()
                .members(60)
                .memberIdOffset(1000)
                .friendsPerMember(10)
                .resourcesPerMember(2)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(64)
                .profileImageBytes(256)
                .attributeCount(11)
                .attributeLength(12)
                .commentLength(40)
                .fragments(3)
                .seed(42)
                .build()
                .withFeed(new FeedSpec(6, 2, 0, 3));
    }

    /** A variant named {@code name} opened by {@code opener}, on the suite's graph, that cannot be opened twice. */
    public static ConformanceTarget of(String name, Supplier<DataStore> opener) {
        return new ConformanceTarget(name, opener, null, suiteGraph(), null, List.of());
    }

    /** This variant, whose second handle is opened as the first (a named instance, a file, a server's database). */
    public ConformanceTarget reopenable() {
        return reopenedBy(first -> opener.get());
    }

    /** This variant, whose second handle {@code reopener} opens given the first store. */
    public ConformanceTarget reopenedBy(Function<DataStore, DataStore> again) {
        return new ConformanceTarget(name, opener, again, graph, cleanup, extraChecks);
    }

    /** This variant on another graph (a smaller one where each action costs more). */
    public ConformanceTarget on(GraphSpec spec) {
        return new ConformanceTarget(name, opener, reopener, spec, cleanup, extraChecks);
    }

    /** This variant, closing {@code after} once its store is closed. */
    public ConformanceTarget closing(AutoCloseable after) {
        return new ConformanceTarget(name, opener, reopener, graph, after, extraChecks);
    }

    /** This variant with one more check of its own. */
    public ConformanceTarget alsoChecking(String checkName, ThrowingConsumer<DataStore> body) {
        List<StoreCheck> more = new ArrayList<>(extraChecks);
        more.add(new StoreCheck(checkName, body));
        return new ConformanceTarget(name, opener, reopener, graph, cleanup, more);
    }
}
