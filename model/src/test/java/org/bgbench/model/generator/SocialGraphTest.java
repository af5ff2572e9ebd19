package org.bgbench.model.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.Map;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SocialGraphTest {
    private static GraphSpec spec(int m, int phi, double confirmed, int fragments) {
        return GraphSpec.builder()
                .members(m)
                .friendsPerMember(phi)
                .resourcesPerMember(3)
                .commentsPerResource(1)
                .confirmedFraction(confirmed)
                .attributeCount(3)
                .attributeLength(5)
                .commentLength(10)
                .fragments(fragments)
                .seed(9)
                .build();
    }

    @ParameterizedTest
    @CsvSource({
        "100,10,1.0,1",
        "101,10,0.5,3",
        "1000,100,0.8,0",
        "64,7,1.0,2",
        "64,7,0.3,4",
        "50,0,1.0,1",
        "30,29,1.0,1"
    })
    void everyMemberHasPhiRelationshipsAllSymmetricAndInsideItsFragment(
            int m, int phi, double confirmed, int fragments) {
        SocialGraph g = new SocialGraph(spec(m, phi, confirmed, fragments));
        long started = 0;
        for (int i = 0; i < m; i++) {
            IntArrayList all = new IntArrayList();
            g.forEachInitialFriend(i, all::add);
            g.forEachInitialInviter(i, all::add);
            g.forEachInitialInvitee(i, all::add);
            assertThat(all.toIntArray())
                    .as("relationships of %d", i)
                    .hasSize(phi)
                    .doesNotHaveDuplicates()
                    .doesNotContain(i);
            for (int j : all.toIntArray()) {
                assertThat(g.fragmentOf(j)).isEqualTo(g.fragmentOf(i));
                Relation r = g.initialRelation(i, j);
                Relation back = g.initialRelation(j, i);
                assertThat(r).isNotEqualTo(Relation.NONE);
                assertThat(back)
                        .isEqualTo(
                                switch (r) {
                                    case FRIENDS -> Relation.FRIENDS;
                                    case INVITED -> Relation.INVITED_BY;
                                    case INVITED_BY -> Relation.INVITED;
                                    case NONE -> Relation.NONE;
                                });
            }
            IntArrayList friends = new IntArrayList();
            g.forEachInitialFriend(i, friends::add);
            assertThat(g.initialFriendCount(i)).isEqualTo(friends.size());
            int[] n = {0};
            int me = i;
            g.forEachStartedRelationship(i, (a, b, c) -> {
                assertThat(a).isEqualTo(me);
                assertThat(g.initialRelation(a, b)).isEqualTo(c ? Relation.FRIENDS : Relation.INVITED);
                n[0]++;
            });
            started += n[0];
        }
        assertThat(started).as("each relationship started once").isEqualTo((long) m * phi / 2);
        assertThat(g.totalFriendships() + g.totalPendingInvitations()).isEqualTo((long) m * phi / 2);
    }

    @Test
    void unrelatedMembersHaveNoRelation() {
        SocialGraph g = new SocialGraph(spec(100, 4, 1.0, 2));
        assertThat(g.initialRelation(0, 10)).isEqualTo(Relation.NONE);
        assertThat(g.initialRelation(0, 1)).isEqualTo(Relation.FRIENDS);
        assertThat(g.initialRelation(0, 49)).as("wraps inside the fragment").isEqualTo(Relation.FRIENDS);
        assertThat(g.initialRelation(49, 50)).as("no edge crosses fragments").isEqualTo(Relation.NONE);
    }

    @Test
    void confirmedFractionIsRespectedOnAverage() {
        SocialGraph g = new SocialGraph(spec(10_000, 20, 0.7, 0));
        double frac = (double) g.totalFriendships() / (g.totalFriendships() + g.totalPendingInvitations());
        assertThat(frac).isBetween(0.68, 0.72);
    }

    @Test
    void fragmentsPartitionTheMembers() {
        SocialGraph g = new SocialGraph(spec(1003, 10, 1.0, 7));
        int sum = 0;
        for (int f = 0; f < g.fragments(); f++) {
            assertThat(g.fragmentSize(f)).isBetween(143, 144);
            for (int i = g.fragmentStart(f); i < g.fragmentStart(f) + g.fragmentSize(f); i++) {
                assertThat(g.fragmentOf(i)).isEqualTo(f);
            }
            sum += g.fragmentSize(f);
        }
        assertThat(sum).isEqualTo(1003);
    }

    @Test
    void generationIsDeterministicAndSeedDependent() {
        GraphSpec a = GraphSpec.builder()
                .members(500)
                .friendsPerMember(10)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .confirmedFraction(0.5)
                .images(true)
                .thumbnailBytes(32)
                .profileImageBytes(64)
                .attributeCount(4)
                .attributeLength(8)
                .commentLength(12)
                .seed(1)
                .build();
        SocialGraph g1 = new SocialGraph(a);
        SocialGraph g2 = new SocialGraph(a);
        SocialGraph other = new SocialGraph(GraphSpec.builder()
                .members(500)
                .friendsPerMember(10)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .confirmedFraction(0.5)
                .images(true)
                .thumbnailBytes(32)
                .profileImageBytes(64)
                .attributeCount(4)
                .attributeLength(8)
                .commentLength(12)
                .seed(2)
                .build());
        assertThat(g1.attribute(17, 2))
                .isEqualTo(g2.attribute(17, 2))
                .hasSize(8)
                .isNotEqualTo(other.attribute(17, 2));
        assertThat(g1.thumbnail(3)).isEqualTo(g2.thumbnail(3)).hasSize(32);
        assertThat(g1.profileImage(3)).hasSize(64);
        assertThat(g1.totalPendingInvitations()).isEqualTo(g2.totalPendingInvitations());
        assertThat(a.fingerprint())
                .isEqualTo(GraphSpec.builder()
                        .members(500)
                        .friendsPerMember(10)
                        .resourcesPerMember(2)
                        .commentsPerResource(1)
                        .confirmedFraction(0.5)
                        .images(true)
                        .thumbnailBytes(32)
                        .profileImageBytes(64)
                        .attributeCount(4)
                        .attributeLength(8)
                        .commentLength(12)
                        .seed(1)
                        .build()
                        .fingerprint());
    }

    @Test
    void resourcesAndCommentsAreNumberedPerOwner() {
        SocialGraph g = new SocialGraph(GraphSpec.builder()
                .members(50)
                .memberIdOffset(100)
                .friendsPerMember(4)
                .resourcesPerMember(3)
                .commentsPerResource(2)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(6)
                .fragments(1)
                .seed(3)
                .build());
        assertThat(g.resourceId(10, 2)).isEqualTo(32);
        assertThat(g.resourceOwner(32)).isEqualTo(10);
        assertThat(g.commentId(32, 1)).isEqualTo(65);
        assertThat(g.commentModifier(65)).isEqualTo(10);
        assertThat(g.firstFreeCommentId()).isEqualTo(300);
        assertThat(g.memberId(10)).isEqualTo(110);
        assertThat(g.memberIndex(110)).isEqualTo(10);
    }

    @Test
    void badParametersNameTheKey() {
        assertThatThrownBy(() -> spec(10, 10, 1.0, 1))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("friendcountperuser")
                .hasMessageContaining("less than the number of members");
        assertThatThrownBy(() -> spec(100, 10, 1.0, 20)).hasMessageContaining("fragments");
        assertThatThrownBy(() -> spec(101, 3, 1.0, 1)).hasMessageContaining("odd φ");
        assertThatThrownBy(() -> GraphParameters.toSpec(Map.of("usercount", "ten")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("usercount")
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> GraphParameters.toSpec(Map.of("resourcecountperuser", "-1")))
                .hasMessageContaining("resourcecountperuser");
        assertThatThrownBy(() -> GraphParameters.toSpec(Map.of("confperc", "1.5")))
                .hasMessageContaining("confperc");
        assertThatThrownBy(() -> GraphParameters.toSpec(Map.of("thumbnailbytes", "-5")))
                .hasMessageContaining("thumbnailbytes");
    }

    @Test
    void uscKeysMapToTheSpec() {
        GraphSpec s = GraphParameters.toSpec(Map.of(
                "usercount",
                "2000",
                "friendcountperuser",
                "20",
                "resourcecountperuser",
                "10",
                "confperc",
                "0.5",
                "insertimage",
                "true",
                "imagesize",
                "12",
                "thumbnailsize",
                "2",
                "useroffset",
                "7"));
        assertThat(s.members()).isEqualTo(2000);
        assertThat(s.friendsPerMember()).isEqualTo(20);
        assertThat(s.resourcesPerMember()).isEqualTo(10);
        assertThat(s.confirmedFraction()).isEqualTo(0.5);
        assertThat(s.images()).isTrue();
        assertThat(s.profileImageBytes()).isEqualTo(12 * 1024);
        assertThat(s.thumbnailBytes()).isEqualTo(2 * 1024);
        assertThat(s.memberIdOffset()).isEqualTo(7);
        assertThat(GraphParameters.toSpec(Map.of("thumbnailbytes", "3KB")).thumbnailBytes())
                .isEqualTo(3072);
    }
}
