package org.bgbench.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.ImageFiles;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the physical design settings do to the tables, the answers and the recorded design, on SQLite. */
class SqlitePhysicalDesignTest {
    @TempDir
    Path dir;

    private final GraphSpec spec = GraphSpec.builder()
            .members(60)
            .friendsPerMember(6)
            .resourcesPerMember(3)
            .commentsPerResource(1)
            .confirmedFraction(0.7)
            .images(true)
            .thumbnailBytes(16)
            .profileImageBytes(64)
            .attributeLength(5)
            .commentLength(10)
            .fragments(2)
            .seed(3)
            .build();
    private final SocialGraph graph = new SocialGraph(spec);

    private SqliteStore open(int rows, PhysicalDesign physical) {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, rows, FeedDesign.PULL, physical);
    }

    private List<String> tables() throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("bg.sqlite"));
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private void execute(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("bg.sqlite"));
                Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    private ProfileView profile(DataStore store, int member) {
        ProfileView p = new ProfileView(graph.attributeCount());
        try (StoreSession s = store.openSession()) {
            s.viewProfile(member, member, p);
        }
        return p;
    }

    @Test
    void aStoreLoadedUnderOneDesignReportsNoLoadedGraphUnderAnother() {
        Path images = dir.resolve("images");
        List<PhysicalDesign> designs = List.of(
                PhysicalDesign.BASIC,
                new PhysicalDesign(2, false, false, null),
                new PhysicalDesign(1, true, false, null),
                new PhysicalDesign(1, false, true, images),
                new PhysicalDesign(2, true, true, images));
        for (PhysicalDesign loaded : designs) {
            try (DataStore store = open(1, loaded)) {
                StoreConformanceSuite.load(store, graph, 2);
            }
            for (PhysicalDesign other : designs) {
                try (DataStore again = open(1, other)) {
                    if (other.equals(loaded)) {
                        assertThat(again.loadedGraph()).contains(spec.fingerprint());
                    } else {
                        assertThat(again.loadedGraph())
                                .as("loaded as %s, opened as %s", loaded, other)
                                .isEmpty();
                    }
                }
            }
        }
    }

    @Test
    void twoTablesHoldFriendshipsWithoutStatus() throws Exception {
        try (DataStore store = open(2, new PhysicalDesign(2, false, false, null))) {
            StoreConformanceSuite.load(store, graph, 2);
            assertThat(tables()).contains("friends", "pending").doesNotContain("friendship");
            assertThat(store.counts().friendships()).isEqualTo(graph.totalFriendships());
            assertThat(store.counts().pending()).isEqualTo(graph.totalPendingInvitations());
        }
        // A reload under one table replaces the two.
        try (DataStore store = open(1, PhysicalDesign.BASIC)) {
            StoreConformanceSuite.load(store, graph, 1);
            assertThat(tables()).contains("friendship").doesNotContain("friends", "pending");
        }
    }

    @Test
    void viewProfileReadsTheCountColumnsThatTheWritesKeep() throws Exception {
        try (DataStore store = open(1, new PhysicalDesign(1, true, false, null))) {
            StoreConformanceSuite.load(store, graph, 2);
            int member = graph.memberId(5);
            execute("UPDATE members SET friendcount = 999, pendingcount = 77, resourcecount = 55 WHERE userid = "
                    + member);
            ProfileView p = profile(store, member);
            assertThat(p.friendCount).isEqualTo(999);
            assertThat(p.pendingCount).isEqualTo(77);
            assertThat(p.resourceCount).isEqualTo(55);
        }
    }

    @Test
    void profileImagesAreFilesAndAMissingOneIsAnError() throws Exception {
        Path images = dir.resolve("images");
        try (DataStore store = open(1, new PhysicalDesign(1, false, true, images))) {
            StoreConformanceSuite.load(store, graph, 2);
            int member = graph.memberId(7);
            Path file = images.resolve(ImageFiles.relativePath(member));
            assertThat(file).exists().hasBinaryContent(graph.profileImage(7));
            assertThat(profile(store, member).profileImage).isEqualTo(graph.profileImage(7));
            Files.delete(file);
            assertThatThrownBy(() -> profile(store, member))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(file.toString());
            // A directory that does not vouch for the graph (deleted, half written) means reload.
            Files.delete(images.resolve("bg-images"));
            assertThat(store.loadedGraph()).isEmpty();
        }
    }

    @Test
    void aGraphWithoutImagesLoadsWithImagesInFiles() {
        GraphSpec noImages = GraphSpec.builder()
                .members(60)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(1)
                .confirmedFraction(0.7)
                .attributeLength(5)
                .commentLength(10)
                .fragments(2)
                .seed(3)
                .build();
        try (DataStore store = open(1, new PhysicalDesign(1, false, true, dir.resolve("images")))) {
            StoreConformanceSuite.load(store, new SocialGraph(noImages), 2);
            assertThat(store.loadedGraph()).contains(noImages.fingerprint());
            assertThat(profile(store, 3).profileImage).isNull();
        }
    }

    @Test
    void theProviderListsTheSettingsAndRefusesBadValuesInOneLine() {
        SqliteStoreProvider provider = new SqliteStoreProvider();
        assertThat(provider.settings())
                .extracting(StoreSetting::key)
                .contains("friendship.tables", "counts", "images", "images.dir");
        String file = dir.resolve("p.sqlite").toString();
        assertThatThrownBy(() -> provider.open(StoreSettings.of(Map.of("sqlite.file", file, "counts", "views"))))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("counts: expected one of query, attributes, got 'views'");
        assertThatThrownBy(() -> provider.open(StoreSettings.of(Map.of("sqlite.file", file, "friendship.tables", "0"))))
                .hasMessage("friendship.tables: expected one of 1, 2, got '0'");
        try (DataStore store = provider.open(StoreSettings.of(Map.of("sqlite.file", file, "images", "fs")))) {
            assertThat(((SqliteStore) store).physicalDesign().imagesDir())
                    .isEqualTo(dir.resolve("p.sqlite.images").toAbsolutePath());
            assertThat(((SqliteStore) store).recordedDesign()).contains("images=fs");
        }
    }
}
