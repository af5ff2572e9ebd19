package org.bgbench.model.state;

import static org.assertj.core.api.Assertions.assertThat;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.assertj.core.api.Assertions;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.junit.jupiter.api.Test;

/** GraphState against a naive full copy of the graph (sets of pairs) under long random valid sequences. */
class GraphStateTest {
    private final SocialGraph g = new SocialGraph(GraphSpec.builder()
            .members(60)
            .friendsPerMember(6)
            .resourcesPerMember(3)
            .commentsPerResource(2)
            .confirmedFraction(0.6)
            .attributeCount(2)
            .attributeLength(4)
            .commentLength(8)
            .fragments(2)
            .seed(5)
            .build());

    @Test
    void matchesANaiveModelAfterRandomValidWrites() {
        GraphState state = new GraphState(g);
        Set<Long> friends = new HashSet<>();
        Set<Long> pending = new HashSet<>();
        Map<Long, Set<Long>> comments = new HashMap<>();
        for (int i = 0; i < g.members(); i++) {
            int a = i;
            g.forEachInitialFriend(i, j -> friends.add(pair(a, j)));
            g.forEachInitialInvitee(i, j -> pending.add(pair(a, j)));
            for (int r = 0; r < g.resourcesPerMember(); r++) {
                long rid = g.resourceId(i, r);
                Set<Long> c = new HashSet<>();
                for (int k = 0; k < g.spec().commentsPerResource(); k++) {
                    c.add(g.commentId(rid, k));
                }
                comments.put(rid, c);
            }
        }
        SplittableRandom rnd = new SplittableRandom(1);
        for (int step = 0; step < 20_000; step++) {
            int a = rnd.nextInt(g.members());
            int b = rnd.nextInt(g.members());
            switch (rnd.nextInt(6)) {
                case 0 -> {
                    if (a != b && state.relation(a, b) == Relation.NONE) {
                        state.invite(a, b);
                        pending.add(pair(a, b));
                    }
                }
                case 1, 2 -> {
                    int inviter = state.pickInviter(a, rnd.nextInt());
                    if (inviter >= 0) {
                        assertThat(pending.remove(pair(inviter, a))).isTrue();
                        if (rnd.nextBoolean()) {
                            state.accept(a, inviter);
                            friends.add(pair(a, inviter));
                            friends.add(pair(inviter, a));
                        } else {
                            state.reject(a, inviter);
                        }
                    }
                }
                case 3 -> {
                    int f = state.pickFriend(a, rnd.nextInt());
                    if (f >= 0) {
                        assertThat(friends.remove(pair(a, f))).isTrue();
                        assertThat(friends.remove(pair(f, a))).isTrue();
                        state.thaw(a, f);
                    }
                }
                case 4 -> {
                    long rid = g.resourceId(b, rnd.nextInt(g.resourcesPerMember()));
                    long mid = state.newCommentId();
                    state.postComment(rid, mid);
                    comments.get(rid).add(mid);
                }
                default -> {
                    long rid = state.pickResourceWithComments(a, rnd.nextInt());
                    if (rid >= 0) {
                        long mid = state.pickComment(rid, rnd.nextInt());
                        assertThat(comments.get(rid).remove(mid)).isTrue();
                        state.deleteComment(rid, mid);
                    }
                }
            }
        }
        for (int i = 0; i < g.members(); i++) {
            int a = i;
            List<Integer> expectFriends = new ArrayList<>();
            List<Integer> expectInviters = new ArrayList<>();
            for (int j = 0; j < g.members(); j++) {
                if (friends.contains(pair(a, j))) {
                    expectFriends.add(j);
                }
                if (pending.contains(pair(j, a))) {
                    expectInviters.add(j);
                }
                Relation r = state.relation(a, j);
                Relation want = friends.contains(pair(a, j))
                        ? Relation.FRIENDS
                        : pending.contains(pair(a, j))
                                ? Relation.INVITED
                                : pending.contains(pair(j, a)) ? Relation.INVITED_BY : Relation.NONE;
                assertThat(r).as("relation %d→%d", a, j).isEqualTo(want);
            }
            assertThat(state.friends(a))
                    .containsExactly(expectFriends.stream().mapToInt(x -> x).toArray());
            assertThat(state.inviters(a))
                    .containsExactly(expectInviters.stream().mapToInt(x -> x).toArray());
            assertThat(state.friendCount(a)).isEqualTo(expectFriends.size());
            assertThat(state.pendingCount(a)).isEqualTo(expectInviters.size());
            for (int r = 0; r < g.resourcesPerMember(); r++) {
                long rid = g.resourceId(a, r);
                assertThat(state.comments(rid))
                        .containsExactlyInAnyOrder(
                                comments.get(rid).stream().mapToLong(x -> x).toArray());
                assertThat(state.commentCount(rid)).isEqualTo(comments.get(rid).size());
            }
        }
        assertThat(state.touchedMembers()).isPositive();
        GraphState copy = roundTrip(state);
        for (int i = 0; i < g.members(); i++) {
            assertThat(copy.friends(i)).isEqualTo(state.friends(i));
            assertThat(copy.inviters(i)).isEqualTo(state.inviters(i));
            assertThat(copy.invitees(i)).isEqualTo(state.invitees(i));
            assertThat(copy.friendCount(i)).isEqualTo(state.friendCount(i));
            assertThat(copy.pendingCount(i)).isEqualTo(state.pendingCount(i));
            for (int r = 0; r < g.resourcesPerMember(); r++) {
                assertThat(copy.comments(g.resourceId(i, r))).isEqualTo(state.comments(g.resourceId(i, r)));
            }
        }
        assertThat(copy.newCommentId()).isEqualTo(state.newCommentId());
    }

    @Test
    void aDamagedStateSaysWhereReadingStoppedWithoutAllocatingFromItsCounts() throws Exception {
        GraphState state = new GraphState(g);
        int invited = 0;
        for (int b = 1; b < g.members() && invited < 3; b++) {
            if (state.relation(0, b) == Relation.NONE) {
                state.invite(0, b);
                invited++;
            }
        }
        var bytes = new ByteArrayOutputStream();
        state.writeTo(new DataOutputStream(bytes));
        byte[] all = bytes.toByteArray();
        for (int cut = 0; cut < all.length; cut++) {
            byte[] part = Arrays.copyOf(all, cut);
            StateFormatException e = Assertions.catchThrowableOfType(
                    StateFormatException.class,
                    () -> GraphState.readFrom(g, new DataInputStream(new ByteArrayInputStream(part))));
            assertThat(e).as("cut at %d", cut).isNotNull();
            assertThat(e.endedEarly()).isTrue();
            assertThat(e.getMessage()).startsWith("ends inside ").doesNotContain("null");
        }
        // The count of touched members, after the format, the fingerprint and the next comment id.
        int at = 4 + 2 + g.spec().fingerprint().length() + 8;
        ByteBuffer.wrap(all).putInt(at, Integer.MAX_VALUE);
        StateFormatException huge = Assertions.catchThrowableOfType(
                StateFormatException.class,
                () -> GraphState.readFrom(g, new DataInputStream(new ByteArrayInputStream(all))));
        assertThat(huge.endedEarly()).isFalse();
        assertThat(huge.getMessage())
                .isEqualTo(
                        "the header: a count of 2,147,483,647 touched members, more than the " + "graph's 60 members");
        SocialGraph other = new SocialGraph(GraphSpec.builder()
                .members(61)
                .friendsPerMember(6)
                .resourcesPerMember(3)
                .commentsPerResource(2)
                .confirmedFraction(0.6)
                .attributeCount(2)
                .attributeLength(4)
                .commentLength(8)
                .fragments(2)
                .seed(5)
                .build());
        StateFormatException graph = Assertions.catchThrowableOfType(
                StateFormatException.class,
                () -> GraphState.readFrom(other, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        assertThat(graph.what()).startsWith("it holds the state of another graph (fingerprint ");
    }

    private GraphState roundTrip(GraphState state) {
        try {
            var bytes = new ByteArrayOutputStream();
            state.writeTo(new DataOutputStream(bytes));
            return GraphState.readFrom(g, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void untouchedStateCostsNoPerMemberObjects() {
        SocialGraph big =
                new SocialGraph(GraphSpec.builder().members(1_000_000).seed(1).build());
        GraphState state = new GraphState(big);
        assertThat(state.friendCount(123_456)).isEqualTo(100);
        assertThat(state.pickFriend(5, 3)).isNotNegative();
        assertThat(state.touchedMembers()).isZero();
        IntOpenHashSet seen = new IntOpenHashSet();
        for (int d = 0; d < 100; d++) {
            seen.add(state.pickFriend(5, d));
        }
        assertThat(seen).hasSize(100);
    }

    private static long pair(int a, int b) {
        return ((long) a << 32) | b;
    }
}
