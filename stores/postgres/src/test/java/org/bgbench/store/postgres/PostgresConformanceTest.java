package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.conformance.ConformanceTarget;
import org.bgbench.store.relational.DesignSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite over every PostgreSQL design in {@link Design}, one nested class each, against one embedded
 * server started for them all: each design's schema replaces the one before.
 */
@Tag("server")
class PostgresConformanceTest {
    @TempDir
    static Path dir;
    /** The store that owns the embedded server; the designs connect to its URL as clients. */
    private static PostgresStore server;

    @BeforeAll
    static void startServer() {
        server = PostgresStore.open(PostgresConfig.embedded().build());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** The designs: friendship rows, how VP gets its counts, the settings changed from the defaults, the graph. */
    enum Design implements DesignSuite.Variant {
        /** The defaults: one friendship row, counts by aggregates, pgJDBC, the pull feed. */
        BASIC(1, PostgresStore.Design.BASIC, c -> c, false),
        /** Two rows per friendship, on the odd graph. */
        TWO_ROWS(2, PostgresStore.Design.BASIC, c -> c, true),
        /**
         * Two friendship tables (CIKM 2013 figure 8) and one row per friendship, VP counting {@code friends} on both
         * columns and {@code pending} by aggregate subqueries.
         */
        TWO_TABLES(1, PostgresStore.Design.BASIC, c -> c.physical(new PhysicalDesign(2, false, false, null)), false),
        /** The push feed, feed rows carrying the resource's content. */
        PUSH(1, PostgresStore.Design.BASIC, c -> c.feed(new FeedDesign(FeedDesign.Kind.PUSH, true)), false),
        /** The sorted push feed, feed rows referencing their resources. */
        SORTED_PUSH(
                1, PostgresStore.Design.BASIC, c -> c.feed(new FeedDesign(FeedDesign.Kind.SORTED_PUSH, false)), false),
        /** The materialized-view design with synchronous refresh: VP counts are never stale. */
        MATVIEW(1, PostgresStore.Design.MATVIEW, c -> c, false),
        /**
         * The materialized view with synchronous refresh and a push feed with two friendship rows: AFR's and TF's
         * feed rows join the transaction that refreshes the view.
         */
        MATVIEW_PUSH(2, PostgresStore.Design.MATVIEW, c -> c.feed(new FeedDesign(FeedDesign.Kind.PUSH, false)), false),
        /**
         * CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per friendship, counts as
         * attributes, profile images in files; on the odd graph.
         */
        BOOSTED(
                2,
                PostgresStore.Design.BASIC,
                c -> c.physical(new PhysicalDesign(2, true, true, dir.resolve("images"))),
                true);

        private final int friendshipRows;
        private final PostgresStore.Design counts;
        private final UnaryOperator<PostgresConfig.Builder> settings;
        private final boolean oddGraph;

        Design(
                int friendshipRows,
                PostgresStore.Design counts,
                UnaryOperator<PostgresConfig.Builder> settings,
                boolean oddGraph) {
            this.friendshipRows = friendshipRows;
            this.counts = counts;
            this.settings = settings;
            this.oddGraph = oddGraph;
        }

        @Override
        public DataStore open() {
            return PostgresStore.open(settings.apply(PostgresConfig.at(server.url())
                            .friendshipRows(friendshipRows)
                            .design(counts))
                    .build());
        }

        @Override
        public boolean oddGraph() {
            return oddGraph;
        }
    }

    @Nested
    class Basic extends DesignSuite {
        Basic() {
            super(Design.BASIC);
        }
    }

    @Nested
    class TwoRows extends DesignSuite {
        TwoRows() {
            super(Design.TWO_ROWS);
        }
    }

    @Nested
    class TwoTables extends DesignSuite {
        TwoTables() {
            super(Design.TWO_TABLES);
        }
    }

    @Nested
    class Push extends DesignSuite {
        Push() {
            super(Design.PUSH);
        }
    }

    @Nested
    class SortedPush extends DesignSuite {
        SortedPush() {
            super(Design.SORTED_PUSH);
        }
    }

    @Nested
    class Matview extends DesignSuite {
        Matview() {
            super(Design.MATVIEW);
        }

        /** Every write refreshes the view over the whole graph: half the graph, a quarter of the refresh work. */
        @Override
        protected GraphSpec spec() {
            return ConformanceTarget.halfGraph();
        }
    }

    @Nested
    class MatviewPush extends DesignSuite {
        MatviewPush() {
            super(Design.MATVIEW_PUSH);
        }

        /** Every write refreshes the view over the whole graph: half the graph, a quarter of the refresh work. */
        @Override
        protected GraphSpec spec() {
            return ConformanceTarget.halfGraph();
        }
    }

    @Nested
    class Boosted extends DesignSuite {
        Boosted() {
            super(Design.BOOSTED);
        }
    }

    @Test
    void everyDesignRunsOnce() {
        assertThat(DesignSuite.designsOf(this)).containsExactlyInAnyOrder(Design.values());
    }
}
