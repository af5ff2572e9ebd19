package org.bgbench.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Function;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.DesignSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite over every SQLite design in {@link Design}: each runs the whole suite as one nested class, on
 * a database file of its own in a directory the store has to create.
 */
@Tag("slow")
class SqliteConformanceTest {
    @TempDir
    static Path dir;

    private static final FeedDesign PUSH_REFERENCE = new FeedDesign(FeedDesign.Kind.PUSH, false);

    /** The designs: friendship rows, feed, physical design (from the database file) and the graph. */
    enum Design implements DesignSuite.Variant {
        /** The default: one friendship table and row, pull feed, counts by aggregates, images in rows. */
        BASIC(1, FeedDesign.PULL, file -> PhysicalDesign.BASIC, false),
        /** Two rows per friendship, on the odd graph. */
        TWO_ROWS(2, FeedDesign.PULL, file -> PhysicalDesign.BASIC, true),
        /** Friendships in two tables (CIKM 2013 figure 8), one row per friendship. */
        TWO_TABLES(1, FeedDesign.PULL, file -> new PhysicalDesign(2, false, false, null), false),
        /** Profile images in files (CIKM 2013 section C), in the default directory. */
        FS_IMAGES(
                1,
                FeedDesign.PULL,
                file -> new PhysicalDesign(1, false, true, SqliteStore.defaultImagesDir(file)),
                false),
        /**
         * VP's counts as member attributes (CIKM 2013 E.1, Manual) with the push feed, so AFR and TF change counts,
         * friendships and feed rows in one transaction.
         */
        COUNTS(1, PUSH_REFERENCE, file -> new PhysicalDesign(1, true, false, null), false),
        /** The push feed, feed rows referencing their resources. */
        PUSH(1, PUSH_REFERENCE, file -> PhysicalDesign.BASIC, false),
        /** The sorted push feed, feed rows carrying the resource's content, two friendship rows. */
        SORTED_PUSH(2, new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true), file -> PhysicalDesign.BASIC, false),
        /**
         * CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per friendship, counts as
         * attributes, profile images in files; on the odd graph.
         */
        BOOSTED(2, FeedDesign.PULL, file -> new PhysicalDesign(2, true, true, file.resolveSibling("images")), true);

        private final int friendshipRows;
        private final FeedDesign feed;
        private final Function<Path, PhysicalDesign> physical;
        private final boolean oddGraph;

        Design(int friendshipRows, FeedDesign feed, Function<Path, PhysicalDesign> physical, boolean oddGraph) {
            this.friendshipRows = friendshipRows;
            this.feed = feed;
            this.physical = physical;
            this.oddGraph = oddGraph;
        }

        @Override
        public DataStore open() {
            Path file = dir.resolve(name()).resolve("db/bg.sqlite");
            return new SqliteStore(file, 30_000, 16, friendshipRows, feed, physical.apply(file));
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
    class FsImages extends DesignSuite {
        FsImages() {
            super(Design.FS_IMAGES);
        }
    }

    @Nested
    class Counts extends DesignSuite {
        Counts() {
            super(Design.COUNTS);
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
