package org.bgbench.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Optional;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.loader.repair.StoreRepair;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreSession;

/** The repair and image checks: undoing an experiment's writes, a full repair, the sampled check, database images. */
final class RepairChecks extends FixtureChecks {
    RepairChecks(ConformanceFixture fixture) {
        super(fixture);
    }

    void repairDbUndoesEveryWriteExactly() {
        GraphState state = randomWrites(1500, 11);
        assertThat(state.touchedMembers()).isGreaterThan(graph.members() / 2);
        RepairDb.Report report = RepairDb.undo(store, state, 4);
        assertThat(report.mismatches()).isEmpty();
        assertThat(report.relationships()).isPositive();
        assertThat(report.comments()).isPositive();
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
        // A second experiment after the repair starts from the generated graph and can be repaired again.
        GraphState again = randomWrites(500, 12);
        assertThat(RepairDb.undo(store, again, 2).verified()).isTrue();
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
    }

    void repairDbReportsAStoreThatDoesNotHoldTheExpectedState() {
        GraphState state = randomWrites(300, 13);
        // The store applies an invitation BG never learnt of (a write that "failed" after it committed): the undo
        // cannot know, and its read-back of the touched members must say so.
        int[] touched = new int[1];
        state.forEachTouched(i -> touched[0] = i);
        int b = touched[0];
        int a = -1;
        for (int i = 0; i < graph.members() && a < 0; i++) {
            if (i != b && state.relation(i, b) == Relation.NONE && graph.initialRelation(i, b) == Relation.NONE) {
                a = i;
            }
        }
        try (StoreSession s = store.openSession()) {
            s.inviteFriend(graph.memberId(a), graph.memberId(b));
        }
        RepairDb.Report report = RepairDb.undo(store, state, 2);
        assertThat(report.verified()).isFalse();
        assertThat(report.mismatches()).anyMatch(m -> m.startsWith("member " + graph.memberId(b) + ":"));
    }

    void aFullRepairBringsBackTheGeneratedGraphWithoutBgsState() {
        // BG's state of these writes is thrown away, as after an interrupted run: the repair reads everything back.
        randomWrites(1200, 21);
        StoreRepair.Report r = StoreRepair.toGenerated(store, graph, 4, null);
        assertThat(r.refused()).isEmpty();
        assertThat(r.relationships()).isPositive();
        assertThat(r.comments()).isPositive();
        assertThat(r.members()).isEqualTo(graph.members());
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
        // Nothing left to do the second time.
        StoreRepair.Report again = StoreRepair.toGenerated(store, graph, 2, null);
        assertThat(again.storeCalls()).isZero();
    }

    void theSampledCheckFindsAStoreThatLostAWrite() {
        GraphState state = randomWrites(400, 22);
        assertThat(StateComparison.expectedCounts(state)).isEqualTo(store.counts());
        assertThat(StateComparison.sampled(store, state, 50, 1, 10)).isEmpty();
        // The store applies a write BG never learnt of: its totals no longer agree, whichever members are drawn.
        int a = -1;
        int b = -1;
        for (int i = 0; i < graph.members() && a < 0; i++) {
            int[] friends = state.friends(i);
            if (friends.length > 0) {
                a = i;
                b = friends[0];
            }
        }
        try (StoreSession s = store.openSession()) {
            s.thawFriendship(graph.memberId(a), graph.memberId(b));
        }
        List<String> found = StateComparison.sampled(store, state, 5, 2, 10);
        assertThat(found).anyMatch(d -> d.startsWith("totals: friendships "));
        String member = "member " + graph.memberId(a) + ":";
        assertThat(StateComparison.sampled(store, state, graph.members(), 3, 10))
                .anyMatch(d -> d.startsWith(member));
    }

    void aDatabaseImageBringsBackTheLoadedGraph() {
        Optional<StoreImage> image = store.image();
        assumeTrue(image.isPresent(), "the store has no database image");
        image.get().save();
        randomWrites(800, 14);
        image.get().restore();
        assertThat(store.loadedGraph()).contains(graph.spec().fingerprint());
        assertThat(StateComparison.differences(store, new GraphState(graph), 20))
                .isEmpty();
    }
}
