package org.bgbench.store.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.bgbench.loader.SanityCheck;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.Share;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Feeds of the memory store against BG's oracle ({@link GraphState#feed}) in every design (dissertation 8.4.2). */
class MemoryFeedTest {
    /** 200 members, 20 pages of 30 followers in 2 fragments, 80 % of relationships confirmed so AFR has work. */
    static final GraphSpec SPEC = GraphSpec.builder()
            .members(200)
            .memberIdOffset(10)
            .friendsPerMember(10)
            .resourcesPerMember(3)
            .commentsPerResource(1)
            .confirmedFraction(0.8)
            .attributeCount(2)
            .attributeLength(4)
            .commentLength(10)
            .fragments(2)
            .seed(5)
            .feed(new FeedSpec(20, 3, 0, 2))
            .build();

    static final String[] DESIGNS = {
        "pull", "push/reference", "push/content", "sorted-push/reference", "sorted-push/content"
    };

    private final String name = "feed-" + UUID.randomUUID();

    @AfterEach
    void forget() {
        MemoryStoreProvider.discard(name);
    }

    /** "push/content" as store settings. */
    static DataStore open(String name, String design) {
        String[] p = design.split("/");
        return new MemoryStoreProvider()
                .open(StoreSettings.of(Map.of(
                        MemoryStoreProvider.NAME_KEY,
                        name,
                        FeedDesign.DESIGN_KEY,
                        p[0],
                        FeedDesign.PUSH_KEY,
                        p.length > 1 ? p[1] : "reference")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push/reference", "push/content", "sorted-push/reference", "sorted-push/content"})
    void feedsFollowSharesAndFriendshipsAsTheOracleSays(String design) {
        SocialGraph g = new SocialGraph(SPEC);
        try (DataStore store = open(name, design)) {
            // Three loaders: fragment starts 0 and 100 fall in the second and third range, so pages load there.
            StoreConformanceSuite.load(store, g, 3);
            StoreCounts c = store.counts();
            assertThat(c.pages()).isEqualTo(20);
            assertThat(c.follows()).isEqualTo(g.totalFollows()).isEqualTo(600);
            assertThat(c.pageResources()).isEqualTo(40);
            assertThat(c.shares()).isZero();
            assertThat(SanityCheck.problems(store, g, c, 50)).isEmpty();

            GraphState state = new GraphState(g);
            SplittableRandom rnd = new SplittableRandom(design.hashCode());
            try (StoreSession s = store.openSession()) {
                int afr = 0;
                int tf = 0;
                int excluded = 0;
                for (int step = 0; step < 600; step++) {
                    int roll = rnd.nextInt(10);
                    if (roll < 3) {
                        shareByMember(s, g, state, rnd, true);
                    } else if (roll < 5) {
                        excluded += shareByMember(s, g, state, rnd, false);
                    } else if (roll < 7) {
                        shareByPage(s, g, state, rnd);
                    } else if (roll < 9) {
                        afr += accept(s, g, state, rnd);
                    } else {
                        tf += thaw(s, g, state, rnd);
                    }
                    if (step % 100 == 99) {
                        assertFeedsMatch(s, g, state, 5);
                    }
                }
                assertThat(afr).as("AFRs issued").isGreaterThan(20);
                assertThat(tf).as("TFs issued").isGreaterThan(20);
                assertThat(excluded)
                        .as("private shares that leave out a friend")
                        .isGreaterThan(20);
                assertFeedsMatch(s, g, state, 5);
                assertFeedsMatch(s, g, state, 1000);
                assertThat(store.counts().shares()).isEqualTo(state.shareCount());

                // The image carries shares and feeds; clearShares leaves none, restore brings them back.
                store.image().orElseThrow().save();
                store.clearShares();
                assertThat(store.counts().shares()).isZero();
                assertFeedsMatch(s, g, new GraphState(g), 1000);
                store.image().orElseThrow().restore();
                assertFeedsMatch(s, g, state, 1000);
            }
        }
    }

    /** A member shares one of her resources publicly, or with some friends but not all, and a non-friend. */
    private static int shareByMember(
            StoreSession s, SocialGraph g, GraphState state, SplittableRandom rnd, boolean open) {
        int a = rnd.nextInt(g.members());
        long rid = g.resourceId(a, rnd.nextInt(g.resourcesPerMember()));
        long id = state.newShareId(a);
        int[] recipients = null;
        int excluded = 0;
        if (!open) {
            int[] friends = state.friends(a);
            List<Integer> list = new ArrayList<>();
            for (int f : friends) {
                if (rnd.nextInt(3) > 0) {
                    list.add(f);
                }
            }
            excluded = list.size() < friends.length ? 1 : 0;
            // A stranger: she sees it only after AFR makes them friends.
            list.add(rnd.nextInt(g.members()));
            list.remove((Integer) a);
            recipients = list.stream().distinct().mapToInt(Integer::intValue).toArray();
        }
        s.shareResource(g.memberId(a), rid, id, recipients == null ? null : ids(g, recipients));
        state.share(a, id, rid, recipients);
        return excluded;
    }

    private static void shareByPage(StoreSession s, SocialGraph g, GraphState state, SplittableRandom rnd) {
        int page = rnd.nextInt(g.pages());
        int account = g.pageAccount(page);
        long rid = g.pageResourceId(page, rnd.nextInt(g.resourcesPerPage()));
        long id = state.newShareId(account);
        int[] recipients = null;
        if (rnd.nextBoolean()) {
            List<Integer> list = new ArrayList<>();
            g.forEachFollower(page, m -> {
                if (rnd.nextBoolean()) {
                    list.add(m);
                }
            });
            recipients = list.stream().mapToInt(Integer::intValue).toArray();
        }
        s.shareResource(g.accountId(account), rid, id, recipients == null ? null : ids(g, recipients));
        state.share(account, id, rid, recipients);
    }

    private static int accept(StoreSession s, SocialGraph g, GraphState state, SplittableRandom rnd) {
        for (int tries = 0; tries < 50; tries++) {
            int a = rnd.nextInt(g.members());
            int[] inviters = state.inviters(a);
            if (inviters.length > 0) {
                int b = inviters[rnd.nextInt(inviters.length)];
                s.acceptFriendRequest(g.memberId(a), g.memberId(b));
                state.accept(a, b);
                return 1;
            }
            // Invite so later steps have invitations to accept.
            int b = rnd.nextInt(g.members());
            if (b != a && state.relation(a, b) == Relation.NONE) {
                s.inviteFriend(g.memberId(b), g.memberId(a));
                state.invite(b, a);
            }
        }
        return 0;
    }

    private static int thaw(StoreSession s, SocialGraph g, GraphState state, SplittableRandom rnd) {
        int a = rnd.nextInt(g.members());
        int[] friends = state.friends(a);
        if (friends.length == 0) {
            return 0;
        }
        int b = friends[rnd.nextInt(friends.length)];
        s.thawFriendship(g.memberId(a), g.memberId(b));
        state.thaw(a, b);
        return 1;
    }

    private static int[] ids(SocialGraph g, int[] indexes) {
        return Arrays.stream(indexes).map(g::memberId).toArray();
    }

    /** Every member's VNF equals the oracle's feed, row by row, resource attributes included. */
    static void assertFeedsMatch(StoreSession s, SocialGraph g, GraphState state, int k) {
        FeedList out = new FeedList();
        for (int i = 0; i < g.members(); i++) {
            Share[] want = state.feed(i, k);
            out.clear();
            s.viewNewsFeed(g.memberId(i), k, out);
            assertThat(out.shareIds())
                    .as("feed of member %d, k=%d", g.memberId(i), k)
                    .containsExactly(Arrays.stream(want).mapToLong(Share::id).toArray());
            for (int r = 0; r < want.length; r++) {
                FeedList.Row row = out.get(r);
                long rid = want[r].resource();
                assertThat(row.resourceId).isEqualTo(rid);
                assertThat(row.sharerId).isEqualTo(g.accountId(want[r].account()));
                assertThat(row.type).isEqualTo(g.resourceType(rid));
                assertThat(row.body).isEqualTo(g.resourceBody(rid));
                assertThat(row.doc).isEqualTo(g.resourceDoc(rid));
            }
        }
    }

    @Test
    void badDesignSettingsFailWithOneLine() {
        assertThatThrownBy(() -> open(name, "pushy"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("feed.design")
                .hasMessageContaining("pull, push, sorted-push")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> open(name, "push/copy"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("feed.push")
                .hasMessageContaining("reference, content");
        assertThat(new MemoryStoreProvider().settings())
                .extracting(StoreSetting::key)
                .contains(FeedDesign.DESIGN_KEY, FeedDesign.PUSH_KEY);
    }

    @Test
    void aSchemaServesOnlyTheDesignItWasMadeWith() {
        SocialGraph g = new SocialGraph(SPEC);
        try (DataStore push = open(name, "push/reference")) {
            StoreConformanceSuite.load(push, g, 1);
            try (DataStore pull = open(name, "pull")) {
                assertThatThrownBy(pull::openSession)
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("push/reference")
                        .hasMessageContaining("pull");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pull", "push/reference", "sorted-push/content"})
    void invalidSharesFailAndChangeNothing(String design) {
        SocialGraph g = new SocialGraph(SPEC);
        try (DataStore store = open(name, design)) {
            StoreConformanceSuite.load(store, g, 2);
            try (StoreSession s = store.openSession()) {
                int m = g.memberId(0);
                // Another member's resource, a page's resource shared by a member, an account that does not exist.
                assertThatThrownBy(() -> s.shareResource(m, g.resourceId(1, 0), 1, null))
                        .isInstanceOf(StoreException.class);
                assertThatThrownBy(() -> s.shareResource(m, g.pageResourceId(0, 0), 2, null))
                        .isInstanceOf(StoreException.class);
                assertThatThrownBy(() -> s.shareResource(g.accountId(g.accounts()), 0, 3, null))
                        .isInstanceOf(StoreException.class);
                assertThatThrownBy(() -> s.shareResource(m, g.resourceId(0, 0), 4, new int[] {1}))
                        .isInstanceOf(StoreException.class);
                s.shareResource(m, g.resourceId(0, 0), 5, null);
                assertThatThrownBy(() -> s.shareResource(m, g.resourceId(0, 1), 5, null))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("5");
            }
            assertThat(store.counts().shares()).isEqualTo(1);
        }
    }

    /** A page with 2,000 followers: Push's SR holds every follower's monitor at once without exhausting the stack. */
    @ParameterizedTest
    @ValueSource(strings = {"push/reference", "sorted-push/reference"})
    void aPageWithThousandsOfFollowersPushesToAll(String design) throws Exception {
        SocialGraph g = new SocialGraph(GraphSpec.builder()
                .members(4000)
                .friendsPerMember(2)
                .resourcesPerMember(1)
                .attributeCount(1)
                .attributeLength(4)
                .commentLength(10)
                .fragments(1)
                .seed(5)
                .feed(new FeedSpec(2, 1, 0, 1))
                .build());
        try (DataStore store = open(name, design)) {
            StoreConformanceSuite.load(store, g, 2);
            // A small stack, as a busy emulator thread may have.
            Thread t = new Thread(
                    null,
                    () -> {
                        try (StoreSession s = store.openSession()) {
                            s.shareResource(g.accountId(g.pageAccount(1)), g.pageResourceId(1, 0), 7, null);
                        }
                    },
                    "small-stack",
                    256 * 1024);
            Throwable[] failed = {null};
            t.setUncaughtExceptionHandler((th, e) -> failed[0] = e);
            t.start();
            t.join();
            assertThat(failed[0]).isNull();
            GraphState state = new GraphState(g);
            state.share(g.pageAccount(1), 7, g.pageResourceId(1, 0), null);
            try (StoreSession s = store.openSession()) {
                assertFeedsMatch(s, g, state, 3);
            }
        }
    }
}
