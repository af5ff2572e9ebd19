package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.junit.jupiter.api.Test;

class FinishWeightsTest {
    private static final SocialGraph GRAPH =
            new SocialGraph(GraphSpec.defaults().withMembers(1_000));

    @Test
    void eachStatementWeighsTheRowsOfItsTable() {
        FinishWeights w = new FinishWeights(GRAPH, 1, List.of(), (f, s) -> {});
        long resources = GRAPH.totalResources() + GRAPH.totalPageResources();
        assertThat(w.weight("ALTER TABLE resources ADD PRIMARY KEY (rid)")).isEqualTo(resources);
        assertThat(w.weight("CREATE INDEX resources_wall ON resources (walluserid, rid)"))
                .isEqualTo(resources);
        assertThat(w.weight("ALTER TABLE members ADD PRIMARY KEY (userid)")).isEqualTo(GRAPH.members());
        assertThat(w.weight("CREATE INDEX friendship_invitee ON friendship (inviteeid, status, inviterid)"))
                .isEqualTo(GRAPH.totalFriendships() + GRAPH.totalPendingInvitations());
        // Reading a table weighs less than sorting it; MariaDB's ANALYZE TABLE names its table after TABLE.
        assertThat(w.weight("VACUUM ANALYZE resources")).isCloseTo(0.3 * resources, within(1e-6));
        assertThat(w.weight("ANALYZE TABLE resources")).isCloseTo(0.3 * resources, within(1e-6));
        assertThat(w.weight("SET something = 1")).isEqualTo(1);
    }

    @Test
    void twoFriendshipRowsWeighTwice() {
        FinishWeights one = new FinishWeights(GRAPH, 1, List.of(), (f, s) -> {});
        FinishWeights two = new FinishWeights(GRAPH, 2, List.of(), (f, s) -> {});
        assertThat(two.weight("CREATE INDEX friends_frdid2 ON friends (frdid2, frdid1)"))
                .isEqualTo(2 * one.weight("CREATE INDEX friends_frdid2 ON friends (frdid2, frdid1)"));
    }

    @Test
    void theShareDoneGrowsByWeightToAllOfIt() {
        List<List<String>> groups = List.of(
                List.of("ALTER TABLE resources ADD PRIMARY KEY (rid)", "VACUUM ANALYZE resources"),
                List.of("ALTER TABLE members ADD PRIMARY KEY (userid)"));
        List<Double> fractions = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        FinishWeights w = new FinishWeights(GRAPH, 1, groups, (f, s) -> {
            fractions.add(f);
            steps.add(s);
        });
        w.done("ALTER TABLE members ADD PRIMARY KEY (userid)");
        w.done("ALTER TABLE resources ADD PRIMARY KEY (rid)");
        w.done("VACUUM ANALYZE resources");
        double total = GRAPH.members() + 1.3 * (GRAPH.totalResources() + GRAPH.totalPageResources());
        assertThat(fractions.get(0)).isCloseTo(GRAPH.members() / total, within(1e-9));
        assertThat(fractions).isSorted();
        assertThat(fractions.get(2)).isCloseTo(1.0, within(1e-9));
        assertThat(steps)
                .containsExactly(
                        "ALTER TABLE members ADD PRIMARY KEY (userid)",
                        "ALTER TABLE resources ADD PRIMARY KEY (rid)",
                        "VACUUM ANALYZE resources");
    }
}
