package org.bgbench.store.casql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.postgres.PostgresStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the cache behaviour tests share: one real cache and one embedded PostgreSQL per class, casql stores on them,
 * and the read actions' results as strings to compare through the cache and directly. Subclasses name the cache.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CasqlCacheFixture {
    static final GraphSpec SPEC = GraphSpec.builder()
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
            .build();
    /** SPEC with pages: P=6, ϱ=2, so ι=40 followers a page, each page's followers within its fragment. */
    static final GraphSpec FEED_SPEC = SPEC.withFeed(new FeedSpec(6, 2, 0, 2));

    static final int K = 3;
    /** k of the feed tests' VNF: more than one step's shares, so order and cut-off both matter. */
    static final int FEED_K = 4;
    /** Write cycles (7 writes each) every writer of the concurrency test goes through at least. */
    static final int MIN_CYCLES = 5;

    private final CasqlStoreProvider provider = new CasqlStoreProvider();
    final SocialGraph graph = new SocialGraph(SPEC);
    final SocialGraph feedGraph = new SocialGraph(FEED_SPEC);
    private CasqlBackends backends;
    PostgresStore postgres;

    /** The cache server to start, or null for the in-process cache. */
    abstract CacheServer.Kind server();

    @BeforeAll
    void start() {
        backends = CasqlBackends.start(server());
        postgres = backends.postgres();
    }

    @AfterAll
    void stop() {
        if (backends != null) {
            backends.close();
        }
    }

    /** The class's cache server, or null for the in-process cache. */
    CacheServer cacheServer() {
        return backends.server();
    }

    /** A casql store on this class's cache and PostgreSQL ({@code database}, default {@code postgres}). */
    CasqlStore open(String consistency, String... more) {
        Map<String, String> s = backends.cacheSettings();
        s.put("consistency", consistency);
        s.put("postgres.url", postgres.url());
        s.put("postgres.pool", "48");
        // 48 sessions opening connections at once on a busy 2-core machine can take longer than the default 10 s.
        s.put("postgres.timeout", "60s");
        for (int i = 0; i < more.length; i += 2) {
            s.put(more[i], more[i + 1]);
        }
        return (CasqlStore) provider.open(StoreSettings.forProvider(provider, s));
    }

    int id(int index) {
        return graph.memberId(index);
    }

    static boolean isEntry(Object o) {
        return o != null && o != CacheBackend.LEASED;
    }

    static String show(FeedList l) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < l.size(); i++) {
            FeedList.Row r = l.get(i);
            b.append(r.shareId)
                    .append('/')
                    .append(r.resourceId)
                    .append('/')
                    .append(r.sharerId)
                    .append('/')
                    .append(r.type)
                    .append('/')
                    .append(r.body)
                    .append('/')
                    .append(r.doc)
                    .append(';');
        }
        return b.toString();
    }

    Supplier<String> feed(StoreSession s, SocialGraph g, int m, int k) {
        return () -> {
            FeedList l = new FeedList();
            s.viewNewsFeed(g.memberId(m), k, l);
            return show(l);
        };
    }

    /** Two members with no relation, searching from {@code from} within one fragment. */
    int[] unrelatedPair(GraphState state, int from) {
        for (int a = from; a < graph.members(); a++) {
            for (int d = 1; d < graph.members(); d++) {
                int b = (a + d) % graph.members();
                if (graph.fragmentOf(a) == graph.fragmentOf(b) && state.relation(a, b) == Relation.NONE) {
                    return new int[] {a, b};
                }
            }
        }
        throw new AssertionError("no unrelated pair");
    }

    Supplier<String> profile(StoreSession s, int m) {
        return () -> {
            ProfileView p = new ProfileView(graph.attributeCount());
            s.viewProfile(id(m), id(m), p);
            return p.memberId + " " + Arrays.toString(p.attributes.toArray()) + " img="
                    + Arrays.hashCode(p.profileImage) + " friends=" + p.friendCount + " resources=" + p.resourceCount
                    + " pending=" + p.pendingCount;
        };
    }

    Supplier<String> friends(StoreSession s, int m) {
        return () -> {
            MemberList l = new MemberList(graph.attributeCount());
            s.listFriends(id(m), id(m), l);
            return members(l);
        };
    }

    Supplier<String> requests(StoreSession s, int m) {
        return () -> {
            MemberList l = new MemberList(graph.attributeCount());
            s.viewFriendRequests(id(m), l);
            return members(l);
        };
    }

    Supplier<String> top(StoreSession s, int m) {
        return () -> {
            ResourceList l = new ResourceList();
            s.viewTopKResources(id(m), id(m), K, l);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < l.size(); i++) {
                ResourceList.Row r = l.get(i);
                b.append(r.resourceId)
                        .append('/')
                        .append(r.creatorId)
                        .append('/')
                        .append(r.wallUserId)
                        .append('/')
                        .append(r.type)
                        .append('/')
                        .append(r.body)
                        .append('/')
                        .append(r.doc)
                        .append(';');
            }
            return b.toString();
        };
    }

    Supplier<String> comments(StoreSession s, long r) {
        return () -> {
            CommentList l = new CommentList();
            s.viewCommentsOnResource(id(0), id(graph.resourceOwner(r)), r, l);
            List<String> rows = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                CommentList.Row c = l.get(i);
                rows.add(c.commentId + "/" + c.resourceId + "/" + c.creatorId + "/" + c.modifierId + "/" + c.timestampMs
                        + "/" + c.type + "/" + c.content);
            }
            rows.sort(null);
            return rows.toString();
        };
    }

    private static String members(MemberList l) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            MemberList.Row r = l.get(i);
            rows.add(r.memberId + Arrays.toString(r.attributes.toArray()) + Arrays.hashCode(r.thumbnail));
        }
        rows.sort(null);
        return rows.toString();
    }
}
