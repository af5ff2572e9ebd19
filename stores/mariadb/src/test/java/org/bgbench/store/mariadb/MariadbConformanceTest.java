package org.bgbench.store.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.DesignSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite over every MariaDB design in {@link Design}, one nested class each, against one private
 * server (scripts/mariadb.sh) started for them all: each design's schema replaces the one before in database bg.
 */
@Tag("server")
class MariadbConformanceTest {
    @TempDir
    static Path dir;

    private static MariadbServer server;

    @BeforeAll
    static void startServer() {
        server = MariadbServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** The designs: the settings each changes from the defaults, and the graph. */
    enum Design implements DesignSuite.Variant {
        /** The defaults: one friendship row, LOAD DATA LOCAL INFILE, the pull feed, the Basic physical design. */
        BASIC(c -> c, false),
        /** Two rows per friendship and the JDBC-batch load path, on the odd graph. */
        TWO_ROWS(c -> c.withFriendshipRows(2).withBulk(MariadbStore.Bulk.BATCH), true),
        /** The push feed referencing resources, one friendship row, the infile load path. */
        PUSH(c -> c.withFeed(new FeedDesign(FeedDesign.Kind.PUSH, false)), false),
        /** The sorted push feed carrying content, two friendship rows, the batch load path. */
        SORTED_PUSH(
                c -> c.withFriendshipRows(2)
                        .withBulk(MariadbStore.Bulk.BATCH)
                        .withFeed(new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true)),
                false),
        /**
         * Two friendship tables, one row per friendship, counts as attributes and the push feed, loaded by JDBC
         * batches: AFR and TF change counts, friendship rows and feed rows in one InnoDB transaction.
         */
        TWO_TABLES_PUSH(
                c -> c.withBulk(MariadbStore.Bulk.BATCH)
                        .withFeed(new FeedDesign(FeedDesign.Kind.PUSH, false))
                        .withPhysical(new PhysicalDesign(2, true, false, null)),
                false),
        /**
         * CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per friendship, counts as
         * attributes, profile images in files; loaded by LOAD DATA LOCAL INFILE, on the odd graph.
         */
        BOOSTED(
                c -> c.withFriendshipRows(2).withPhysical(new PhysicalDesign(2, true, true, dir.resolve("images"))),
                true);

        private final UnaryOperator<MariadbStore.Config> settings;
        private final boolean oddGraph;

        Design(UnaryOperator<MariadbStore.Config> settings, boolean oddGraph) {
            this.settings = settings;
            this.oddGraph = oddGraph;
        }

        @Override
        public DataStore open() {
            return MariadbStore.open(settings.apply(MariadbStore.Config.of(server.url(), "bg", "bg")));
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
    class TwoTablesPush extends DesignSuite {
        TwoTablesPush() {
            super(Design.TWO_TABLES_PUSH);
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
