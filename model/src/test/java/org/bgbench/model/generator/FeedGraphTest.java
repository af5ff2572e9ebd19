package org.bgbench.model.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.Share;
import org.junit.jupiter.api.Test;

/** Pages and follows (dissertation 5.1) and BG's expected feeds. */
class FeedGraphTest {
    private static GraphSpec spec(int m, int phi, int pages, int rho, int iota) {
        return GraphSpec.builder()
                .members(m)
                .memberIdOffset(10)
                .friendsPerMember(phi)
                .resourcesPerMember(3)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(8)
                .seed(5)
                .build()
                .withFeed(new FeedSpec(pages, rho, iota, 2));
    }

    @Test
    void loadersOfAnySplitOfTheMembersLoadEveryPageOnce() {
        SocialGraph g = new SocialGraph(spec(10_000, 100, 100, 10, 1000));
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 20; round++) {
            int[] loaded = new int[g.pages()];
            int from = 0;
            while (from < g.members()) {
                int to = Math.min(g.members(), from + 1 + rnd.nextInt(3_000));
                int f = from;
                g.forEachPageLoadedWith(from, to, p -> {
                    loaded[p]++;
                    // The page's fragment starts in this loader's range.
                    assertThat(g.fragmentStart(g.fragmentOfPage(p))).isBetween(f, to - 1);
                });
                from = to;
            }
            assertThat(loaded).containsOnly(1);
        }
        int[] none = {0};
        g.forEachPageLoadedWith(5, 5, p -> none[0]++);
        new SocialGraph(GraphSpec.builder()
                        .members(1_000)
                        .memberIdOffset(10)
                        .friendsPerMember(10)
                        .resourcesPerMember(3)
                        .attributeCount(2)
                        .attributeLength(4)
                        .commentLength(8)
                        .seed(5)
                        .build())
                .forEachPageLoadedWith(0, 1_000, p -> none[0]++);
        assertThat(none[0]).isZero();
    }

    @Test
    void everyMemberFollowsRhoPagesAndEveryPageHasIotaFollowersInItsFragment() {
        SocialGraph g = new SocialGraph(spec(10_000, 100, 100, 10, 1000));
        assertThat(g.fragments())
                .as("the dissertation's graph splits into 10 fragments of 10 pages")
                .isEqualTo(10);
        assertThat(g.followersPerPage()).isEqualTo(1000);
        int[] followers = new int[g.pages()];
        for (int i = 0; i < g.members(); i++) {
            IntArrayList pages = new IntArrayList();
            g.forEachFollowedPage(i, pages::add);
            assertThat(pages.toIntArray()).hasSize(10).doesNotHaveDuplicates();
            for (int p : pages.toIntArray()) {
                assertThat(g.fragmentOfPage(p)).isEqualTo(g.fragmentOf(i));
                assertThat(g.follows(i, p)).isTrue();
                followers[p]++;
            }
        }
        assertThat(followers).containsOnly(1000);
        for (int p = 0; p < g.pages(); p += 17) {
            IntArrayList f = new IntArrayList();
            g.forEachFollower(p, f::add);
            assertThat(f.toIntArray()).hasSize(1000);
            int page = p;
            assertThat(Arrays.stream(f.toIntArray()).allMatch(i -> g.follows(i, page)))
                    .isTrue();
        }
        assertThat(g.totalFollows()).isEqualTo(100_000);
    }

    @Test
    void pagesAreAccountsAfterTheMembersWithTheirOwnResources() {
        SocialGraph g = new SocialGraph(spec(1000, 10, 10, 3, 0));
        assertThat(g.accounts()).isEqualTo(1010);
        assertThat(g.accountId(g.pageAccount(0))).isEqualTo(10 + 1000);
        assertThat(g.isPageAccount(g.pageAccount(9))).isTrue();
        assertThat(g.isPageAccount(999)).isFalse();
        long rid = g.pageResourceId(4, 1);
        assertThat(g.isPageResource(rid)).isTrue();
        assertThat(g.isResource(rid)).as("member resources stay what they were").isFalse();
        assertThat(g.resourceAccount(rid)).isEqualTo(g.pageAccount(4));
        assertThat(g.resourceAccount(g.resourceId(7, 2))).isEqualTo(7);
        assertThat(g.totalPageResources()).isEqualTo(20);
        assertThat(g.spec().fingerprint()).contains("pages=10 follows=3 iota=300");
        assertThat(new SocialGraph(spec(1000, 10, 0, 0, 0)).spec().fingerprint())
                .as("graphs without pages keep their fingerprint")
                .doesNotContain("pages");
    }

    @Test
    void theDissertationsFeasibilityConditionsAreCheckedWithClearErrors() {
        assertThatThrownBy(() -> spec(1000, 10, 10, 3, 250))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("followersperpage")
                .hasMessageContaining("M·ϱ/P=300");
        assertThatThrownBy(() -> spec(1000, 10, 10, 11, 0))
                .hasMessageContaining("pagesperuser")
                .hasMessageContaining("must not exceed the number of pages");
        assertThatThrownBy(() -> spec(1000, 10, 7, 2, 0))
                .hasMessageContaining("pagecount")
                .hasMessageContaining("must divide");
        assertThatThrownBy(() -> spec(100, 10, 20, 5, 0)).hasMessageContaining("ϱ·ι");
        assertThatThrownBy(() -> spec(10, 2, 20, 1, 0)).hasMessageContaining("must not exceed the number of members");
        assertThatThrownBy(() -> new FeedSpec(0, 3, 0, -1)).hasMessageContaining("needs pages");
        assertThatThrownBy(() -> GraphSpec.builder()
                        .members(1000)
                        .friendsPerMember(10)
                        .resourcesPerMember(3)
                        .attributeCount(2)
                        .attributeLength(4)
                        .commentLength(8)
                        .fragments(3)
                        .seed(5)
                        .build()
                        .withFeed(new FeedSpec(10, 2, 0, 2)))
                .hasMessageContaining("fragments");
    }

    @Test
    void theKeysDescribeTheFeedGraph() {
        GraphSpec s = GraphParameters.toSpec(
                Map.of("usercount", "10000", "pagecount", "100", "pagesperuser", "10", "followersperpage", "1000"));
        assertThat(s.feed()).isEqualTo(new FeedSpec(100, 10, 1000, -1));
        assertThat(new SocialGraph(s).resourcesPerPage()).as("ρ by default").isEqualTo(100);
    }

    @Test
    void theExpectedFeedFollowsFriendshipsListsAndPages() {
        SocialGraph g = new SocialGraph(spec(1000, 10, 10, 3, 0));
        GraphState st = new GraphState(g);
        int x = 0;
        int f = st.friends(x)[0];
        int other = st.friends(x)[1];
        int[] pages = new int[1];
        g.forEachFollowedPage(x, p -> pages[0] = p);
        int page = g.pageAccount(pages[0]);
        long a = share(st, f, null);
        long b = share(st, page, null);
        long c = share(st, other, new int[] {f}); // a list without x
        long d = share(st, other, new int[] {x, f});
        share(st, x, null); // her own
        assertThat(ids(st.feed(x, 10))).containsExactly(d, b, a);
        assertThat(ids(st.feed(x, 2))).containsExactly(d, b);
        assertThat(ids(st.feed(f, 10))).contains(c);
        st.thaw(x, f);
        assertThat(ids(st.feed(x, 10))).containsExactly(d, b);
        assertThat(st.isTouched(f)).as("a member who shared is touched").isTrue();
        assertThat(st.changed()).isTrue();
    }

    @Test
    void sharesSurviveTheStateFile() throws Exception {
        SocialGraph g = new SocialGraph(spec(1000, 10, 10, 3, 0));
        GraphState st = new GraphState(g);
        share(st, 3, null);
        share(st, g.pageAccount(2), new int[] {5, 1});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        st.writeTo(new DataOutputStream(bytes));
        GraphState back = GraphState.readFrom(g, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back.shareCount()).isEqualTo(2);
        assertThat(back.shares(g.pageAccount(2))[0].recipients()).containsExactly(1, 5);
        assertThat(back.newShareId(3)).as("ids continue after the saved ones").isGreaterThan(st.shares(3)[0].id());
        for (int i = 0; i < g.members(); i += 37) {
            assertThat(ids(back.feed(i, 10))).isEqualTo(ids(st.feed(i, 10)));
        }
    }

    private static long share(GraphState st, int account, int[] recipients) {
        long id = st.newShareId(account);
        st.share(account, id, st.graph().accountResourceId(account, 0), recipients);
        return id;
    }

    private static long[] ids(Share[] s) {
        return Arrays.stream(s).mapToLong(Share::id).toArray();
    }
}
