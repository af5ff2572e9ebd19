package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;

/**
 * What the cache adds, against one real cache and one embedded PostgreSQL per class: which keys each write deletes,
 * stale reads within the TTL in ttl mode, flushes on load and image restore, entries too large to cache and the cache
 * server's pid; with the lease tests of {@link CasqlLeaseBehaviour} and the feed tests of {@link CasqlFeedBehaviour}.
 * Subclasses name the cache.
 */
abstract class CasqlBehaviour extends CasqlLeaseBehaviour {
    // ---- which keys each write deletes [CIKM section F]

    @Test
    void eachWriteDeletesExactlyTheKeysItAffects() {
        try (CasqlStore store = open("invalidate")) {
            StoreConformanceSuite.load(store, graph, 3);
            GraphState state = new GraphState(graph);
            CacheBackend.Ops ops = store.cache().ops();
            int[] pair = unrelatedPair(state, 0);
            int x = pair[0];
            int y = pair[1];
            int bystander = (y + 40) % graph.members();
            long r = graph.resourceId(x, 1);
            try (StoreSession s = store.openSession()) {
                int[] members = {x, y, bystander};
                long[] resources = {r, graph.resourceId(y, 0)};
                assertDeletes(
                        s, ops, members, resources, () -> s.inviteFriend(id(x), id(y)), "vp:" + id(y), "vfr:" + id(y));
                assertDeletes(
                        s,
                        ops,
                        members,
                        resources,
                        () -> s.acceptFriendRequest(id(y), id(x)),
                        "vp:" + id(x),
                        "vp:" + id(y),
                        "lf:" + id(x),
                        "lf:" + id(y),
                        "vfr:" + id(y),
                        "vnf:" + id(x),
                        "vnf:" + id(y));
                assertDeletes(
                        s,
                        ops,
                        members,
                        resources,
                        () -> s.thawFriendship(id(x), id(y)),
                        "vp:" + id(x),
                        "vp:" + id(y),
                        "lf:" + id(x),
                        "lf:" + id(y),
                        "vnf:" + id(x),
                        "vnf:" + id(y));
                s.inviteFriend(id(y), id(x));
                assertDeletes(
                        s,
                        ops,
                        members,
                        resources,
                        () -> s.rejectFriendRequest(id(x), id(y)),
                        "vp:" + id(x),
                        "vfr:" + id(x));
                long mid = graph.firstFreeCommentId() + 1;
                assertDeletes(
                        s,
                        ops,
                        members,
                        resources,
                        () -> s.postCommentOnResource(id(y), id(x), r, mid, 1_700_000_000_000L, "hi"),
                        "vcr:" + r);
                assertDeletes(s, ops, members, resources, () -> s.deleteCommentFromResource(id(x), r, mid), "vcr:" + r);
            }
            // After all that, what the cache serves is what PostgreSQL holds.
            assertCacheMatchesDatabase(store, new int[] {x, y, bystander}, new long[] {r});
        }
    }

    private void assertDeletes(
            StoreSession s, CacheBackend.Ops ops, int[] members, long[] resources, Runnable write, String... expected) {
        List<String> keys = new ArrayList<>();
        for (int m : members) {
            readAll(s, m);
            keys.addAll(
                    List.of("vp:" + id(m), "lf:" + id(m), "vfr:" + id(m), "vtr:" + id(m) + ":" + K, "vnf:" + id(m)));
        }
        CommentList comments = new CommentList();
        for (long rid : resources) {
            s.viewCommentsOnResource(id(members[0]), id(graph.resourceOwner(rid)), rid, comments);
            keys.add("vcr:" + rid);
        }
        for (String k : keys) {
            assertThat(isEntry(ops.get(k)))
                    .as("%s is cached before the write", k)
                    .isTrue();
        }
        write.run();
        Set<String> gone = new LinkedHashSet<>();
        for (String k : keys) {
            if (ops.get(k) == null) {
                gone.add(k);
            }
        }
        assertThat(gone).as("keys the write deleted").containsExactlyInAnyOrder(expected);
    }

    private void readAll(StoreSession s, int m) {
        s.viewProfile(id(m), id(m), new ProfileView(graph.attributeCount()));
        s.listFriends(id(m), id(m), new MemberList(graph.attributeCount()));
        s.viewFriendRequests(id(m), new MemberList(graph.attributeCount()));
        s.viewTopKResources(id(m), id(m), K, new ResourceList());
        s.viewNewsFeed(id(m), K, new FeedList());
    }

    // ---- ttl mode: stale by design

    @Test
    void ttlModeServesStaleResultsUntilTheTtlPasses() throws Exception {
        long ttlMs = 5_000;
        try (CasqlStore store = open("ttl", "ttl", "5s")) {
            StoreConformanceSuite.load(store, graph, 3);
            GraphState state = new GraphState(graph);
            int[] pair = unrelatedPair(state, 0);
            int x = pair[0];
            int y = pair[1];
            long r = graph.resourceId(y, 0);
            CacheBackend.Ops ops = store.cache().ops();
            try (StoreSession s = store.openSession();
                    StoreSession direct = store.database().openSession()) {
                String profileBefore = profile(s, y).get();
                String requestsBefore = requests(s, y).get();
                String commentsBefore = comments(s, r).get();
                long cachedAt = System.nanoTime();
                s.inviteFriend(id(x), id(y));
                s.postCommentOnResource(id(x), id(y), r, graph.firstFreeCommentId() + 3, 1_700_000_000_000L, "new");
                assertThat(profile(direct, y).get()).isNotEqualTo(profileBefore);
                assertThat(isEntry(ops.get("vp:" + id(y))))
                        .as("writes delete nothing in ttl mode")
                        .isTrue();
                // Within the TTL the cache answers with what it held before the writes.
                assertThat(profile(s, y).get()).as("VP within the ttl").isEqualTo(profileBefore);
                assertThat(requests(s, y).get()).as("VFR within the ttl").isEqualTo(requestsBefore);
                assertThat(comments(s, r).get()).as("VCR within the ttl").isEqualTo(commentsBefore);
                assertThat(System.nanoTime() - cachedAt)
                        .as("the stale reads happened well within the ttl")
                        .isLessThan(TimeUnit.MILLISECONDS.toNanos(ttlMs / 2));
                // memcached counts expiry in whole seconds of its own clock: allow it one more second.
                long deadline = cachedAt + TimeUnit.MILLISECONDS.toNanos(ttlMs + 1_500);
                LockSupport.parkNanos(Math.max(0, cachedAt + TimeUnit.MILLISECONDS.toNanos(ttlMs) - System.nanoTime()));
                while (!(profile(s, y).get().equals(profile(direct, y).get())
                                && requests(s, y)
                                        .get()
                                        .equals(requests(direct, y).get())
                                && comments(s, r)
                                        .get()
                                        .equals(comments(direct, r).get()))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(profile(s, y).get())
                        .as("VP after the ttl")
                        .isEqualTo(profile(direct, y).get());
                assertThat(requests(s, y).get())
                        .as("VFR after the ttl")
                        .isEqualTo(requests(direct, y).get());
                assertThat(comments(s, r).get())
                        .as("VCR after the ttl")
                        .isEqualTo(comments(direct, r).get());
            }
        }
    }

    // ---- flushes

    @Test
    void loadingAndRestoringAnImageEmptyTheCache() throws Exception {
        String database = "casql_image";
        try (Connection c = DriverManager.getConnection(postgres.url(), "postgres", "");
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + database + "_bgimage");
            st.execute("DROP DATABASE IF EXISTS " + database);
            st.execute("CREATE DATABASE " + database);
        }
        String url = postgres.url().replaceAll("/postgres$", "/" + database);
        try (CasqlStore store = open("invalidate", "postgres.url", url)) {
            CacheBackend.Ops ops = store.cache().ops();
            Function<String, Boolean> planted = key -> {
                ops.put(key, store.config().cache().remote() ? new byte[] {'P'} : new Object());
                return isEntry(ops.get(key));
            };
            assertThat(planted.apply("vp:1")).isTrue();
            store.createSchema(SPEC);
            assertThat(ops.get("vp:1")).as("createSchema flushes").isNull();
            try (GraphLoader loader = store.newLoader(graph)) {
                loader.load(0, graph.members(), LoadProgress.NONE);
            }
            assertThat(planted.apply("vp:1")).isTrue();
            store.finishLoad(graph);
            assertThat(ops.get("vp:1")).as("finishLoad flushes").isNull();

            StoreImage image = store.image().orElseThrow();
            image.save();
            int[] pair = unrelatedPair(new GraphState(graph), 20);
            int x = pair[0];
            int y = pair[1];
            String original;
            String invited;
            try (StoreSession s = store.openSession()) {
                original = profile(s, y).get();
                s.inviteFriend(id(x), id(y));
                invited = profile(s, y).get();
                assertThat(invited).isNotEqualTo(original);
                assertThat(isEntry(ops.get("vp:" + id(y)))).isTrue();
            }
            image.restore();
            assertThat(ops.get("vp:" + id(y))).as("restore flushes").isNull();
            try (StoreSession s = store.openSession()) {
                assertThat(profile(s, y).get()).as("VP after the restore").isEqualTo(original);
            }
            assertThat(planted.apply("vp:1")).isTrue();
            store.dropSchema();
            assertThat(ops.get("vp:1")).as("dropSchema flushes").isNull();
        }
        try (CasqlStore first = open("invalidate")) {
            first.cache().ops().put("vp:2", first.config().cache().remote() ? new byte[] {'P'} : new Object());
            if (first.config().cache().remote()) {
                // A new store on the same cache server starts empty: the old one's entries cannot be trusted.
                try (CasqlStore second = open("invalidate")) {
                    assertThat(second.cache().ops().get("vp:2"))
                            .as("opening flushes")
                            .isNull();
                }
            }
        }
    }

    // ---- entries too large for the cache

    @Test
    void anEntryTooLargeForTheCacheIsLeftUncached() {
        try (CasqlStore store = open("invalidate")) {
            CacheBackend.Ops ops = store.cache().ops();
            boolean remote = store.config().cache().remote();
            // memcached's default item size limit is 1 MB; Redis and Caffeine take this.
            byte[] big = new byte[3 << 20];
            big[0] = 'P';
            Object entry = remote ? big : new Object();
            Object lease = ops.lease("vp:big");
            assertThat(lease).isNotNull();
            boolean stored = ops.fill("vp:big", lease, entry);
            assertThat(stored).isEqualTo(server() != CacheServer.Kind.MEMCACHED);
            ops.delete("vp:big");
            ops.put("vp:big", entry);
            assertThat(isEntry(ops.get("vp:big"))).isEqualTo(server() != CacheServer.Kind.MEMCACHED);
        }
    }

    // ---- pids

    @Test
    void localServerPidsIncludeTheCacheServer() {
        try (CasqlStore store = open("invalidate")) {
            List<Long> pids = store.localServerPids();
            assertThat(pids).as("PostgreSQL's postmaster").isNotEmpty();
            if (cacheServer() != null) {
                assertThat(pids).contains(cacheServer().pid());
            } else {
                assertThat(pids).containsExactlyElementsOf(store.database().localServerPids());
            }
        }
    }
}
