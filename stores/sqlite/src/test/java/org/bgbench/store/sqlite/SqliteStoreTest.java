package org.bgbench.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteStoreTest {
    private static final GraphSpec SPEC = new GraphSpec(200, 500, 10, 5, 2, 0.7, true, 16, 64, 13, 10, 20, 2, 3);

    @TempDir
    Path dir;

    @Test
    void aReopenedStoreKnowsItsGraphAndServesSessions() {
        Path file = dir.resolve("a/b/bg.sqlite");
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            assertThat(store.loadedGraph()).as("no BG tables yet").isEmpty();
            StoreConformanceSuite.load(store, graph, 4);
        }
        assertThat(file).exists();
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1); StoreSession s = store.openSession()) {
            assertThat(store.loadedGraph()).contains(SPEC.fingerprint());
            ProfileView p = new ProfileView(SPEC.attributeCount());
            int id = graph.memberId(17);
            s.viewProfile(id, id, p);
            assertThat(p.attributes[12]).as("attr12 column").isEqualTo(graph.attribute(17, 12));
            assertThat(p.profileImage).isEqualTo(graph.profileImage(17));
            assertThat(p.pendingCount).isEqualTo(graph.initialPendingCount(17));
            assertThat(p.friendCount).isEqualTo(graph.initialFriendCount(17));
        }
    }

    @Test
    void aGraphLoadedWithAnotherFriendshipLayoutIsNotReused() {
        Path file = dir.resolve("bg.sqlite");
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 1)) {
            StoreConformanceSuite.load(store, new SocialGraph(SPEC), 2);
        }
        try (SqliteStore store = new SqliteStore(file, 30_000, 8, 2)) {
            assertThat(store.loadedGraph()).isEmpty();
        }
    }

    @Test
    void loadersReportEveryRowTheyWrite() {
        SocialGraph graph = new SocialGraph(SPEC);
        try (SqliteStore store = new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 8, 1)) {
            store.createSchema(SPEC);
            AtomicLong rows = new AtomicLong();
            try (GraphLoader loader = store.newLoader(graph)) {
                // Uneven ranges, as bg load hands them out.
                loader.load(0, 7, rows::addAndGet);
                loader.load(7, 200, rows::addAndGet);
            }
            store.finishLoad(graph);
            StoreCounts c = store.counts();
            assertThat(c).isEqualTo(new StoreCounts(200, graph.totalFriendships(), graph.totalPendingInvitations(),
                    graph.totalResources(), graph.totalInitialComments()));
            assertThat(rows.get()).isEqualTo(c.members() + c.friendships() + c.pending() + c.resources() + c.comments());
            store.dropSchema();
            assertThat(store.loadedGraph()).isEmpty();
        }
    }

    @Test
    void aFileThatIsNotADatabaseIsRefusedWithItsPath() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "this is not a database, just some text that is long enough to have a header".repeat(20));
        assertThatThrownBy(() -> new SqliteStore(file, 1000, 8, 1))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("cannot open SQLite database " + file.toAbsolutePath());
    }

    @Test
    void sessionsOnAStoreWithoutSchemaSayWhatIsMissing() {
        try (SqliteStore store = new SqliteStore(dir.resolve("empty.sqlite"), 1000, 8, 1)) {
            assertThatThrownBy(store::openSession).isInstanceOf(StoreException.class)
                    .hasMessageContaining("holds no BG schema");
        }
    }

    @Test
    void theProviderIsDiscoveredAndReadsItsSettings() {
        StoreProvider provider = StoreRegistry.discover().get("sqlite");
        Path file = dir.resolve("x/bg.sqlite");
        try (DataStore store = provider.open(StoreSettings.forProvider(provider,
                Map.of("sqlite.file", file.toString(), "friendship.rows", "2")))) {
            assertThat(store).isInstanceOf(SqliteStore.class);
            assertThat(((SqliteStore) store).file()).isEqualTo(file.toAbsolutePath());
        }
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider,
                Map.of("sqlite.file", file.toString(), "friendship.rows", "3"))))
                .isInstanceOf(InvalidParameterException.class);
        assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider,
                Map.of("sqlite.file", file.toString(), "sqlite.cache_mb", "-1"))))
                .isInstanceOf(InvalidParameterException.class);
        // The busy timeout is how long a call may wait: it bounds the end of a run.
        try (DataStore store = provider.open(StoreSettings.forProvider(provider,
                Map.of("sqlite.file", file.toString(), "sqlite.busy_timeout_ms", "2500")))) {
            assertThat(store.callTimeout()).isEqualTo(java.time.Duration.ofMillis(2500));
        }
        for (String bad : new String[] {"-1", "soon"}) {
            assertThatThrownBy(() -> provider.open(StoreSettings.forProvider(provider,
                    Map.of("sqlite.file", file.toString(), "sqlite.busy_timeout_ms", bad))))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("sqlite.busy_timeout_ms: ");
        }
    }
}
