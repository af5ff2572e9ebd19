package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.Share;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.FeedList;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Feed following on a real SQL store, in every feed design: a graph with pages loaded by loaders whose ranges cut
 * fragments in the middle, shares (public, to a list that leaves friends out and names non-friends, by pages),
 * friendships made and thawed, and every member's View News Feed compared with BG's oracle
 * ({@link GraphState#feed}); then clearShares, counts and the database image. A store module extends it and opens its
 * store; every design's store must use the same database, so a store opened for one design sees another's load.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RelationalFeedSuite {
    /** A store on the module's test database, serving feeds with {@code design}; the test closes it. */
    protected abstract DataStore open(FeedDesign design);

    /** M=200, φ=10, ρ=5, P=20 pages in 2 fragments, ϱ=4 (ι=40), 3 resources per page. */
    protected GraphSpec spec() {
        return GraphSpec.builder()
                .members(200)
                .friendsPerMember(10)
                .resourcesPerMember(5)
                .commentsPerResource(2)
                .attributeCount(3)
                .attributeLength(5)
                .commentLength(10)
                .fragments(2)
                .seed(7L)
                .build()
                .withFeed(new FeedSpec(20, 4, 0, 3));
    }

    protected Stream<FeedDesign> designs() {
        return Stream.of(
                FeedDesign.PULL,
                new FeedDesign(FeedDesign.Kind.PUSH, false),
                new FeedDesign(FeedDesign.Kind.PUSH, true),
                new FeedDesign(FeedDesign.Kind.SORTED_PUSH, false),
                new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true));
    }

    /** Loads with loaders over [0, 70), [70, 140), [140, M): the second fragment starts inside the second range. */
    protected static void load(DataStore store, SocialGraph graph) {
        store.createSchema(graph.spec());
        int m = graph.members();
        int[] cuts = {0, Math.min(70, m), Math.min(140, m), m};
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 3; t++) {
            int from = cuts[t];
            int to = cuts[t + 1];
            threads.add(Thread.ofPlatform().start(() -> {
                try (GraphLoader loader = store.newLoader(graph)) {
                    loader.load(from, to, rows -> {});
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        assertThat(failures).isEmpty();
        store.finishLoad(graph);
    }

    @ParameterizedTest
    @MethodSource("designs")
    void feedsFollowSharesAndFriendshipsAsTheOracleSays(FeedDesign design) {
        SocialGraph graph = new SocialGraph(spec());
        assertThat(graph.fragments())
                .as("the test needs a fragment starting inside a loader's range")
                .isEqualTo(2);
        try (DataStore store = open(design)) {
            load(store, graph);
            assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
            StoreCounts loaded = new StoreCounts(
                    new StoreCounts.Social(
                            graph.members(),
                            graph.totalFriendships(),
                            graph.totalPendingInvitations(),
                            graph.totalResources(),
                            graph.totalInitialComments()),
                    new StoreCounts.Feed(graph.pages(), graph.totalFollows(), graph.totalPageResources(), 0));
            assertThat(store.counts()).isEqualTo(loaded);
            assertThat(loaded.pages()).isEqualTo(20);
            assertThat(loaded.follows()).isEqualTo(800);
            assertThat(loaded.pageResources()).isEqualTo(60);

            GraphState state = new GraphState(graph);
            SplittableRandom random = new SplittableRandom(11);
            try (StoreSession s = store.openSession()) {
                compareAll(s, graph, state, "after the load");
                shareSome(s, graph, state, random, 150);
                compareAll(s, graph, state, "after shares");

                // A member whose share named a non-friend: they become friends, then she sees it; a friend pair
                // thaws and both lose each other's shares.
                int[] pair = listedNonFriend(graph, state);
                s.inviteFriend(graph.memberId(pair[0]), graph.memberId(pair[1]));
                state.invite(pair[0], pair[1]);
                compareAll(s, graph, state, "after an invitation");
                s.acceptFriendRequest(graph.memberId(pair[1]), graph.memberId(pair[0]));
                state.accept(pair[1], pair[0]);
                assertThat(ids(state.feed(pair[1], 1000)))
                        .as("the new friend's listed share reaches her")
                        .contains(sharedTo(state, pair[0], pair[1]));
                compareAll(s, graph, state, "after AFR");
                int a = pair[0];
                int b = state.friends(a)[0] == pair[1] && state.friends(a).length > 1
                        ? state.friends(a)[1]
                        : state.friends(a)[0];
                s.thawFriendship(graph.memberId(a), graph.memberId(b));
                state.thaw(a, b);
                compareAll(s, graph, state, "after TF");
                // Friends again: the past shares come back.
                s.inviteFriend(graph.memberId(b), graph.memberId(a));
                state.invite(b, a);
                s.acceptFriendRequest(graph.memberId(a), graph.memberId(b));
                state.accept(a, b);
                compareAll(s, graph, state, "after friends again");
                shareSome(s, graph, state, random, 60);
                compareAll(s, graph, state, "after more shares");

                // A share of a resource the sharer does not own changes nothing.
                long foreign = graph.accountResourceId(5, 0);
                assertThatThrownBy(() -> s.shareResource(graph.memberId(6), foreign, state.newShareId(6), null))
                        .isInstanceOf(StoreException.class);
                compareAll(s, graph, state, "after a refused share");
            }
            // One friendship more than loaded: the AFR of the non-friends.
            StoreCounts befriended = new StoreCounts(
                    new StoreCounts.Social(
                            loaded.members(), loaded.friendships() + 1, 0, loaded.resources(), loaded.comments()),
                    new StoreCounts.Feed(loaded.pages(), loaded.follows(), loaded.pageResources(), 0));
            assertThat(store.counts()).isEqualTo(withShares(befriended, state.shareCount()));
            assertThat(state.shareCount()).isEqualTo(210);

            store.clearShares();
            assertThat(store.counts()).isEqualTo(befriended);
            try (StoreSession s = store.openSession()) {
                FeedList out = new FeedList();
                for (int i = 0; i < graph.members(); i++) {
                    s.viewNewsFeed(graph.memberId(i), 10, out);
                    assertThat(out.size())
                            .as("member %d's feed after clearShares", i)
                            .isZero();
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("designs")
    void anImageHoldsExactlyTheSharesItWasSavedWith(FeedDesign design) {
        SocialGraph graph = new SocialGraph(spec());
        try (DataStore store = open(design)) {
            // Every SQL store BG has keeps an image; one that lost it must fail here, not skip.
            Assertions.assertThat(store.image())
                    .as("the store's database image")
                    .isPresent();
            StoreImage image = store.image().get();
            load(store, graph);
            StoreCounts loaded = store.counts();
            image.save();
            GraphState saved = new GraphState(graph);
            SplittableRandom random = new SplittableRandom(5);
            try (StoreSession s = store.openSession()) {
                shareSome(s, graph, new GraphState(graph), random, 30);
            }
            image.restore();
            assertThat(store.counts()).isEqualTo(loaded);
            try (StoreSession s = store.openSession()) {
                compareAll(s, graph, saved, "restored without shares");
                shareSome(s, graph, saved, random, 40);
            }
            image.save();
            assertThat(image.exists()).isTrue();
            try (StoreSession s = store.openSession()) {
                // Changes after the save: more shares and a thawed friendship, all undone by the restore. Their ids
                // come after the saved shares' (a state that has handed out as many).
                GraphState later = new GraphState(graph);
                for (int i = 0; i < 40; i++) {
                    later.newShareId(0);
                }
                shareSome(s, graph, later, random, 20);
                int a = 3;
                s.thawFriendship(graph.memberId(a), graph.memberId(saved.friends(a)[0]));
            }
            image.restore();
            assertThat(store.counts()).isEqualTo(withShares(loaded, 40));
            try (StoreSession s = store.openSession()) {
                compareAll(s, graph, saved, "restored with 40 shares");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("designs")
    void aStoreLoadedForOneFeedDesignIsNotTakenAsLoadedByAnother(FeedDesign design) {
        SocialGraph graph = new SocialGraph(spec());
        try (DataStore store = open(design)) {
            load(store, graph);
        }
        designs().forEach(other -> {
            try (DataStore again = open(other)) {
                if (other.equals(design)) {
                    assertThat(again.loadedGraph()).contains(graph.spec().fingerprint());
                } else {
                    assertThat(again.loadedGraph())
                            .as("loaded for %s, opened for %s", design, other)
                            .isEmpty();
                }
            }
        });
    }

    /** Without pages: the tables stay empty, counts are the old five, and members' shares reach their friends. */
    @ParameterizedTest
    @MethodSource("designs")
    void aGraphWithoutPagesLoadsAndSharesBetweenFriends(FeedDesign design) {
        SocialGraph graph = new SocialGraph(GraphSpec.builder()
                .members(120)
                .memberIdOffset(1000)
                .friendsPerMember(10)
                .resourcesPerMember(4)
                .commentsPerResource(2)
                .confirmedFraction(0.7)
                .attributeLength(12)
                .commentLength(40)
                .fragments(3)
                .seed(42)
                .build());
        try (DataStore store = open(design)) {
            load(store, graph);
            assertThat(store.counts())
                    .isEqualTo(new StoreCounts(new StoreCounts.Social(
                            graph.members(),
                            graph.totalFriendships(),
                            graph.totalPendingInvitations(),
                            graph.totalResources(),
                            graph.totalInitialComments())));
            GraphState state = new GraphState(graph);
            try (StoreSession s = store.openSession()) {
                shareSome(s, graph, state, new SplittableRandom(3), 80);
                compareAll(s, graph, state, "without pages");
            }
        }
    }

    private static StoreCounts withShares(StoreCounts c, long shares) {
        return new StoreCounts(
                new StoreCounts.Social(c.members(), c.friendships(), c.pending(), c.resources(), c.comments()),
                new StoreCounts.Feed(c.pages(), c.follows(), c.pageResources(), shares));
    }

    /**
     * {@code n} shares: a quarter by pages when there are any; half public, the others to a list of some of the
     * sharer's friends or followers (leaving at least one out) plus a member who is not one.
     */
    static void shareSome(StoreSession s, SocialGraph graph, GraphState state, SplittableRandom random, int n) {
        for (int i = 0; i < n; i++) {
            int account = graph.pages() > 0 && random.nextInt(4) == 0
                    ? graph.pageAccount(random.nextInt(graph.pages()))
                    : random.nextInt(graph.members());
            long rid = graph.accountResourceId(account, random.nextInt(graph.resourcesOf(account)));
            int[] audience = audience(graph, state, account);
            int[] recipients = null;
            if (random.nextBoolean() && audience.length > 1) {
                List<Integer> list = new ArrayList<>();
                for (int j = 1; j < audience.length; j++) {
                    if (random.nextBoolean()) {
                        list.add(audience[j]);
                    }
                }
                int outsider = random.nextInt(graph.members());
                if (outsider != account && Arrays.stream(audience).noneMatch(x -> x == outsider)) {
                    list.add(outsider);
                }
                recipients = list.stream().mapToInt(Integer::intValue).toArray();
            }
            long shareId = state.newShareId(account);
            int[] ids = recipients == null
                    ? null
                    : Arrays.stream(recipients).map(graph::memberId).toArray();
            s.shareResource(graph.accountId(account), rid, shareId, ids);
            state.share(account, shareId, rid, recipients);
        }
    }

    /** Member indexes who may see the account's shares now: a member's friends or a page's followers. */
    private static int[] audience(SocialGraph graph, GraphState state, int account) {
        if (!graph.isPageAccount(account)) {
            return state.friends(account);
        }
        List<Integer> followers = new ArrayList<>();
        graph.forEachFollower(account - graph.members(), followers::add);
        return followers.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A (sharer, member) pair, not related, where the sharer shared to a list naming the member. */
    private static int[] listedNonFriend(SocialGraph graph, GraphState state) {
        for (int a = 0; a < graph.members(); a++) {
            for (Share sh : state.shares(a)) {
                if (sh.recipients() == null) {
                    continue;
                }
                for (int b : sh.recipients()) {
                    if (b != a && state.relation(a, b) == Relation.NONE) {
                        return new int[] {a, b};
                    }
                }
            }
        }
        throw new AssertionError("no share names a non-friend");
    }

    private static long sharedTo(GraphState state, int sharer, int member) {
        for (Share sh : state.shares(sharer)) {
            if (sh.recipients() != null && Arrays.binarySearch(sh.recipients(), member) >= 0) {
                return sh.id();
            }
        }
        throw new AssertionError("no share of " + sharer + " names " + member);
    }

    private static List<Long> ids(Share[] shares) {
        return Arrays.stream(shares).map(Share::id).toList();
    }

    /** Every member's feed, top 10 and whole, against the oracle: ids in order, resources, sharers and content. */
    static void compareAll(StoreSession s, SocialGraph graph, GraphState state, String when) {
        FeedList out = new FeedList();
        int nonEmpty = 0;
        for (int i = 0; i < graph.members(); i++) {
            for (int k : new int[] {10, 1000}) {
                s.viewNewsFeed(graph.memberId(i), k, out);
                Share[] want = state.feed(i, k);
                assertThat(out.shareIds())
                        .as("member %d's top %d %s", i, k, when)
                        .containsExactly(
                                want.length == 0
                                        ? new long[0]
                                        : Arrays.stream(want)
                                                .mapToLong(Share::id)
                                                .toArray());
                for (int r = 0; r < want.length; r++) {
                    FeedList.Row row = out.get(r);
                    long rid = want[r].resource();
                    assertThat(row.resourceId).isEqualTo(rid);
                    assertThat(row.sharerId).isEqualTo(graph.accountId(want[r].account()));
                    assertThat(row.type).isEqualTo(graph.resourceType(rid));
                    assertThat(row.body).isEqualTo(graph.resourceBody(rid));
                    assertThat(row.doc).isEqualTo(graph.resourceDoc(rid));
                }
                if (k == 10 && want.length > 0) {
                    nonEmpty++;
                }
            }
        }
        if (state.shareCount() > 20) {
            assertThat(nonEmpty).as("members with a feed %s", when).isGreaterThan(graph.members() / 2);
        }
    }
}
