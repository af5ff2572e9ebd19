package org.bgbench.store.relational;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;

/**
 * The conformance suite on one design of a SQL store's matrix. A store's matrix test lists its designs (an enum that
 * implements {@link Variant}) and runs each as a one-line {@code @Nested} subclass, all against one server the matrix
 * starts; {@link #designsOf} lets the matrix check that every design of the list runs, once.
 */
public abstract class DesignSuite extends StoreConformanceSuite {
    /**
     * A graph with an odd φ (diameter edges), member ids from 0, more attributes than USC BG's eleven columns, and 10
     * pages, 5 per fragment, each member following 3 (ι = 60), 2 resources per page.
     */
    public static final GraphSpec ODD_GRAPH = GraphSpec.builder()
            .members(200)
            .memberIdOffset(0)
            .friendsPerMember(9)
            .resourcesPerMember(5)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .images(true)
            .thumbnailBytes(32)
            .profileImageBytes(128)
            .attributeCount(14)
            .attributeLength(8)
            .commentLength(30)
            .fragments(2)
            .seed(7)
            .build()
            .withFeed(new FeedSpec(10, 3, 0, 2));

    /** One entry of a store's design list. */
    public interface Variant {
        /** A handle on this design's store, a fresh one at each call, on the same contents. */
        DataStore open();

        /** Whether the suite runs on {@link #ODD_GRAPH} instead of its own graph. */
        boolean oddGraph();
    }

    private final Variant design;

    protected DesignSuite(Variant design) {
        this.design = design;
    }

    public Variant design() {
        return design;
    }

    @Override
    protected GraphSpec spec() {
        return design.oddGraph() ? ODD_GRAPH : super.spec();
    }

    @Override
    protected DataStore openStore() {
        return design.open();
    }

    /** Another handle on the same database (file or server), so what the first recorded must be there. */
    @Override
    protected DataStore openAgain() {
        return design.open();
    }

    /** The designs of {@code matrix}'s nested suites, one per nested class (constructed, not run). */
    public static List<Variant> designsOf(Object matrix) {
        return Arrays.stream(matrix.getClass().getDeclaredClasses())
                .filter(c -> DesignSuite.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers()))
                .map(c -> {
                    try {
                        Constructor<?> make = c.getDeclaredConstructor(matrix.getClass());
                        make.setAccessible(true);
                        return ((DesignSuite) make.newInstance(matrix)).design;
                    } catch (ReflectiveOperationException e) {
                        throw new AssertionError("cannot construct " + c.getSimpleName(), e);
                    }
                })
                .toList();
    }
}
