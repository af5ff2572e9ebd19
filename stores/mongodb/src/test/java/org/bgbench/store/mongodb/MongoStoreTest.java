package org.bgbench.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.ReadConcern;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.CommentList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the conformance suite does not cover: settings, bad input, the server check, design records. */
@Tag("server")
class MongoStoreTest {
    private static MongoConfig config(Map<String, String> given) {
        return MongoStoreProvider.config(StoreSettings.forProvider(new MongoStoreProvider(), given));
    }

    @Test
    void badSettingsNameTheSettingAndWhatIsAccepted() {
        assertThatThrownBy(() -> config(Map.of("mongodb.uri", "http://localhost")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("mongodb.uri: expected a connection string such as mongodb://host:27017/");
        assertThatThrownBy(() -> config(Map.of("mongodb.database", "bg.x")))
                .hasMessageStartingWith("mongodb.database: expected letters, digits, _ or -");
        assertThatThrownBy(() -> config(Map.of("mongodb.write-concern", "all")))
                .hasMessageStartingWith("mongodb.write-concern: expected 0, 1, a number of members or majority");
        assertThatThrownBy(() -> config(Map.of("mongodb.write-concern", "0", "mongodb.journal", "true")))
                .hasMessageStartingWith("mongodb.journal: true needs an acknowledged write");
        assertThatThrownBy(() -> config(Map.of("mongodb.journal", "maybe")))
                .hasMessageStartingWith("mongodb.journal: expected true or false");
        assertThatThrownBy(() -> config(Map.of("mongodb.read-concern", "snapshot")))
                .hasMessageStartingWith("mongodb.read-concern: expected local, available, majority, linearizable");
        assertThatThrownBy(() -> config(Map.of("mongodb.read-preference", "fastest")))
                .hasMessageStartingWith("mongodb.read-preference: expected primary, primaryPreferred");
        assertThatThrownBy(() ->
                        config(Map.of("mongodb.read-concern", "linearizable", "mongodb.read-preference", "nearest")))
                .hasMessageStartingWith("mongodb.read-concern: linearizable reads only from the primary");
        assertThatThrownBy(() -> config(Map.of("mongodb.images", "files")))
                .hasMessageStartingWith("mongodb.images: expected one of inline, gridfs");
        assertThatThrownBy(() -> config(Map.of("mongodb.load-batch", "0")))
                .hasMessageStartingWith("mongodb.load-batch: must be from 1 to 100000");
        assertThatThrownBy(() -> config(Map.of("feed.design", "pull", "feed.push", "content")))
                .hasMessageStartingWith("feed.push: content applies to feed.design=push");

        MongoConfig c = config(Map.of(
                "mongodb.write-concern",
                "majority",
                "mongodb.journal",
                "false",
                "mongodb.read-concern",
                "majority",
                "mongodb.read-preference",
                "secondaryPreferred"));
        assertThat(c.writeConcern()).isEqualTo(WriteConcern.MAJORITY.withJournal(false));
        assertThat(c.readConcern()).isEqualTo(ReadConcern.MAJORITY);
        assertThat(c.readPreference()).isEqualTo(ReadPreference.secondaryPreferred());
        assertThat(c.timeout()).isEqualTo(StoreSettings.defaultTimeout(StoreSettings.DEFAULT_BETA));
        assertThat(config(Map.of()).writeConcern()).isEqualTo(WriteConcern.W1);
    }

    @Test
    void anUnreachableServerIsOneClearMessage() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        MongoConfig c = config(Map.of("mongodb.uri", "mongodb://127.0.0.1:" + port + "/", "mongodb.timeout", "2s"));
        assertThatThrownBy(() -> MongoStore.open(c))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot reach MongoDB at 127.0.0.1:" + port + " (mongodb.uri) within 2 s: "
                        + "127.0.0.1:" + port + ": Connection refused")
                .hasMessageContaining("scripts/ferretdb.sh start DIR")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aRefusedLoginIsOneClearMessage() {
        assumeFerret();
        // SCRAM: the driver's own authentication step fails.
        String uri = MongoStores.uri(FerretServer.Backend.POSTGRESQL).replace("mongodb://", "mongodb://nouser:bad@");
        assertThatThrownBy(() -> MongoStore.open(config(Map.of("mongodb.uri", uri, "mongodb.timeout", "5s"))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("refused the login of user 'nouser' (mongodb.uri)")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        // PLAIN: FerretDB hands the user to PostgreSQL, whose refusal comes back as a command error.
        String plain = uri + "?authMechanism=PLAIN";
        assertThatThrownBy(() -> MongoStore.open(config(Map.of("mongodb.uri", plain, "mongodb.timeout", "5s"))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("refused the connection of user 'nouser' (mongodb.uri)")
                .hasMessageContaining("role \"nouser\" does not exist")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain(".go:"));
    }

    @Test
    void aWriteConcernTheDeploymentCannotSatisfyIsRefusedAtOpen() {
        assumeFerret();
        String uri = MongoStores.uri(FerretServer.Backend.SQLITE);
        // FerretDB would acknowledge w=2 without a second copy; BG refuses it, as a standalone MongoDB does.
        assertThatThrownBy(() -> MongoStore.open(config(Map.of("mongodb.uri", uri, "mongodb.write-concern", "2"))))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("mongodb.write-concern=2: MongoDB at 127.0.0.1:")
                .hasMessageContaining("the standalone server has 1 data-bearing member (a standalone server "
                        + "acknowledges at most w=1)");
        try (MongoStore s = MongoStore.open(config(Map.of("mongodb.uri", uri, "mongodb.write-concern", "majority")))) {
            assertThat(s.config().writeConcern()).isEqualTo(WriteConcern.MAJORITY);
        }
    }

    @Test
    void ferretDbIsRecognised() {
        assumeFerret();
        try (MongoStore s = MongoStores.open(FerretServer.Backend.SQLITE, "bg_kind", Map.of())) {
            assertThat(s.ferretdb()).isNotNull();
        }
    }

    @Test
    void aGraphLoadedForOneDesignIsNotReusedByAnother() {
        GraphSpec spec = GraphSpec.builder()
                .members(60)
                .memberIdOffset(1000)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(64)
                .profileImageBytes(256)
                .attributeLength(2)
                .commentLength(40)
                .fragments(3)
                .seed(42)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (MongoStore s = MongoStores.open(FerretServer.Backend.SQLITE, "bg_designs", Map.of())) {
            StoreConformanceSuite.load(s, graph, 2);
            assertThat(s.loadedGraph()).contains(spec.fingerprint());
        }
        try (MongoStore s =
                MongoStores.open(FerretServer.Backend.SQLITE, "bg_designs", Map.of("mongodb.comments", "embedded"))) {
            assertThat(s.loadedGraph()).isEmpty();
        }
        try (MongoStore s = MongoStores.open(
                FerretServer.Backend.SQLITE,
                "bg_designs",
                Map.of("mongodb.write-concern", "majority", "mongodb.read-preference", "nearest"))) {
            // Concerns and preferences read and write the same documents.
            assertThat(s.loadedGraph()).contains(spec.fingerprint());
            s.dropSchema();
            assertThat(s.loadedGraph()).isEmpty();
        }
    }

    @Test
    void fetchingOneDocumentAtATimeReturnsWhatTheInQueryReturns() {
        GraphSpec spec = GraphSpec.builder()
                .members(60)
                .memberIdOffset(1000)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(64)
                .profileImageBytes(256)
                .attributeLength(2)
                .commentLength(40)
                .fragments(3)
                .seed(42)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (MongoStore in = MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_each", Map.of())) {
            StoreConformanceSuite.load(in, graph, 2);
        }
        try (MongoStore in = MongoStores.open(FerretServer.Backend.POSTGRESQL, "bg_each", Map.of());
                MongoStore each = MongoStores.open(
                        FerretServer.Backend.POSTGRESQL,
                        "bg_each",
                        Map.of(MongoStoreProvider.FETCH, "each", MongoStoreProvider.TOP_K, "wall"));
                var a = in.openSession();
                var b = each.openSession()) {
            long listed = 0;
            for (int i = 0; i < graph.members(); i++) {
                int id = graph.memberId(i);
                for (boolean friends : new boolean[] {true, false}) {
                    MemberList x = new MemberList(11);
                    MemberList y = new MemberList(11);
                    if (friends) {
                        a.listFriends(id, id, x);
                        b.listFriends(id, id, y);
                    } else {
                        a.viewFriendRequests(id, x);
                        b.viewFriendRequests(id, y);
                    }
                    assertThat(y.sortedIds()).isEqualTo(x.sortedIds());
                    for (int r = 0; r < y.size(); r++) {
                        assertThat(y.get(r).thumbnail).isEqualTo(graph.thumbnail(graph.memberIndex(y.get(r).memberId)));
                        assertThat(y.get(r).attributes.get(2))
                                .isEqualTo(graph.attribute(graph.memberIndex(y.get(r).memberId), 2));
                    }
                    listed += y.size();
                }
                // VTR from the wall's array and one query per resource, against the index's k newest.
                for (int k : new int[] {1, 2, 5}) {
                    ResourceList x = new ResourceList();
                    ResourceList y = new ResourceList();
                    a.viewTopKResources(id, id, k, x);
                    b.viewTopKResources(id, id, k, y);
                    assertThat(y.size())
                            .isEqualTo(Math.min(k, graph.resourcesPerMember()))
                            .isEqualTo(x.size());
                    for (int r = 0; r < y.size(); r++) {
                        assertThat(y.get(r).resourceId).isEqualTo(x.get(r).resourceId);
                        assertThat(y.get(r).body).isEqualTo(x.get(r).body).isNotNull();
                        assertThat(y.get(r).wallUserId).isEqualTo(id);
                    }
                }
            }
            assertThat(listed).isEqualTo(2 * graph.totalFriendships() + graph.totalPendingInvitations());
        }
    }

    @Test
    void imagesInGridFsAreTheGeneratedOnes() {
        GraphSpec spec = GraphSpec.builder()
                .members(40)
                .memberIdOffset(1000)
                .friendsPerMember(6)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .confirmedFraction(0.7)
                .images(true)
                .thumbnailBytes(64)
                .profileImageBytes(256)
                .attributeLength(2)
                .commentLength(40)
                .fragments(2)
                .seed(42)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (MongoStore s = MongoStores.open(
                FerretServer.Backend.POSTGRESQL, "bg_gridfs", Map.of(MongoStoreProvider.IMAGES, "gridfs"))) {
            StoreConformanceSuite.load(s, graph, 2);
            assertThat(s.database()
                            .getCollection(MongoSchema.IMAGE_BUCKET + ".files")
                            .countDocuments())
                    .isEqualTo(2L * graph.members());
            assertThat(s.database().getCollection(MongoSchema.MEMBERS).find().first())
                    .doesNotContainKeys(MongoSchema.PIC, MongoSchema.THUMB)
                    .containsKeys(MongoSchema.PIC_ID, MongoSchema.THUMB_ID);
            try (var session = s.openSession()) {
                for (int i = 0; i < graph.members(); i++) {
                    int id = graph.memberId(i);
                    ProfileView p = new ProfileView(11);
                    session.viewProfile(id, id, p);
                    assertThat(p.profileImage).isEqualTo(graph.profileImage(i)).hasSize(256);
                    MemberList friends = new MemberList(11);
                    session.listFriends(id, id, friends);
                    assertThat(friends.size())
                            .isEqualTo(graph.initialFriendCount(i))
                            .isPositive();
                    for (int r = 0; r < friends.size(); r++) {
                        int f = graph.memberIndex(friends.get(r).memberId);
                        assertThat(friends.get(r).thumbnail)
                                .isEqualTo(graph.thumbnail(f))
                                .hasSize(64);
                    }
                }
            }
            assertThat(s.counts().members()).isEqualTo(graph.members());
        }
    }

    /**
     * Comments embedded in their resource: the graph's comments, then 4 threads posting and deleting comments of the
     * same resources at once (under document locks), each resource's comments read back against what was kept.
     */
    @Test
    void embeddedCommentsArePostedDeletedAndCountedLikeTheCollectionsOnes() throws Exception {
        GraphSpec spec = GraphSpec.builder()
                .members(40)
                .memberIdOffset(1000)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .attributeLength(2)
                .commentLength(40)
                .fragments(2)
                .seed(42)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (MongoStore s = MongoStores.open(
                FerretServer.Backend.POSTGRESQL, "bg_embedded", Map.of(MongoStoreProvider.COMMENTS, "embedded"))) {
            StoreConformanceSuite.load(s, graph, 2);
            assertThat(s.database().listCollectionNames().into(new ArrayList<>()))
                    .doesNotContain(MongoSchema.COMMENTS);
            assertThat(s.counts().comments()).isEqualTo(graph.totalInitialComments());
            int owner = graph.memberId(0);
            long[] rids = {graph.resourceId(0, 0), graph.resourceId(0, 1)};
            Map<Long, Set<Long>> kept = new ConcurrentHashMap<>();
            for (long rid : rids) {
                kept.put(rid, ConcurrentHashMap.newKeySet());
                for (int k = 0; k < 2; k++) {
                    kept.get(rid).add(graph.commentId(rid, k));
                }
            }
            AtomicLong next = new AtomicLong(graph.firstFreeCommentId());
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (var session = s.openSession()) {
                        for (int i = 0; i < 30; i++) {
                            long rid = rids[(thread + i) % 2];
                            long mid = next.getAndIncrement();
                            session.postCommentOnResource(
                                    graph.memberId(thread + 1), owner, rid, mid, 1_000L + i, "c" + mid);
                            if (i % 3 == 0) {
                                session.deleteCommentFromResource(owner, rid, mid);
                            } else {
                                kept.get(rid).add(mid);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            try (var session = s.openConsistentSession()) {
                for (long rid : rids) {
                    CommentList list = new CommentList();
                    session.viewCommentsOnResource(owner, owner, rid, list);
                    assertThat(list.sortedIds())
                            .containsExactly(kept.get(rid).stream()
                                    .sorted()
                                    .mapToLong(Long::longValue)
                                    .toArray());
                    // A deleted generated comment leaves the others.
                    long first = graph.commentId(rid, 0);
                    session.deleteCommentFromResource(owner, rid, first);
                    session.viewCommentsOnResource(owner, owner, rid, list);
                    assertThat(list.sortedIds())
                            .doesNotContain(first)
                            .hasSize(kept.get(rid).size() - 1);
                }
            }
            assertThat(s.counts().comments()).isEqualTo(graph.totalInitialComments() + 4 * 20 - 2);
        }
    }

    @Test
    void oneLineDropsFerretDbsCallSites() {
        assertThat(
                        MongoStore.oneLine(
                                "[msg_ping.go:55 handler.(*Handler).MsgPing] [pool.go:129 pool.(*Pool).Get] "
                                        + "failed to connect:\n\t127.0.0.1:1 (127.0.0.1): server error: FATAL: role \"x\" does not exist"))
                .isEqualTo("failed to connect: 127.0.0.1:1 (127.0.0.1): server error: FATAL: role \"x\" does not "
                        + "exist");
    }

    private static void assumeFerret() {
        assumeTrue(
                System.getenv(MongoStores.REAL_SERVER_ENV) == null,
                "these cases are about FerretDB (" + MongoStores.REAL_SERVER_ENV + " points at another server)");
    }
}
