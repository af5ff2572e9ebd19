package org.bgbench.cluster.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.distribution.MemberSampler;
import org.junit.jupiter.api.Test;

class ClusterPlanTest {
    private static SocialGraph graph(int members, int fragments) {
        return new SocialGraph(GraphSpec.builder()
                .members(members)
                .friendsPerMember(4)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .attributeCount(1)
                .attributeLength(1)
                .commentLength(1)
                .fragments(fragments)
                .seed(3)
                .build());
    }

    @Test
    void workersOwnWholeDisjointFragmentsCoveringTheGraphInProportionToTheirRates() {
        SocialGraph g = graph(10_000, 12);
        ClusterPlan plan = ClusterPlan.assign(g, new double[] {1, 2, 3}, 7);
        int[] all = IntStream.range(0, 3)
                .flatMap(k -> Arrays.stream(plan.members(k)))
                .sorted()
                .toArray();
        assertThat(all).isEqualTo(IntStream.range(0, 10_000).toArray());
        for (int k = 0; k < 3; k++) {
            for (int f : plan.fragments(k)) {
                for (int[] r : plan.ranges(k)) {
                    assertThat(r[1] - r[0]).isPositive();
                }
                assertThat(plan.members(k)).contains(g.fragmentStart(f), g.fragmentStart(f) + g.fragmentSize(f) - 1);
            }
        }
        // Shares of members follow the rates 1:2:3 to within one fragment.
        int fragment = 10_000 / 12 + 1;
        assertThat((double) plan.members(0).length).isCloseTo(10_000 / 6.0, within((double) fragment));
        assertThat((double) plan.members(2).length).isCloseTo(10_000 / 2.0, within((double) fragment));
    }

    @Test
    void threadsAreSplitByRatesAndAddUp() {
        ClusterPlan plan = ClusterPlan.assign(graph(2_000, 4), new double[] {1, 1, 2}, 1);
        for (int t = 1; t <= 50; t++) {
            int[] split = plan.threads(t);
            assertThat(Arrays.stream(split).sum()).isEqualTo(t);
            assertThat((double) split[2]).isCloseTo(t / 2.0, within(1.0));
        }
        assertThat(plan.threads(8)).containsExactly(2, 2, 4);
    }

    @Test
    void theGlobalZipfianIsTheCentralisedOneAndSamplersStayInTheirShare() {
        SocialGraph g = graph(5_000, 8);
        ClusterPlan plan = ClusterPlan.assign(g, new double[] {1, 1}, 11);
        DistributionSpec zipf = DistributionSpec.zipfian(0.27);
        assertThat(plan.chiSquare(zipf, new double[] {1, 1})).isLessThan(1e-12);
        // Workers issuing very unequal shares distort it, and χ² shows it.
        assertThat(plan.chiSquare(zipf, new double[] {1, 3})).isGreaterThan(0.1);
        assertThat(plan.chiSquare(DistributionSpec.uniform(), new double[] {1, 1}))
                .isLessThan(1e-12);
        for (int k = 0; k < 2; k++) {
            int[] mine = plan.members(k);
            Set<Integer> own = new HashSet<>();
            Arrays.stream(mine).forEach(own::add);
            MemberSampler s =
                    plan.samplers(WorkloadParameters.toSpec(Map.of()), k).socialites();
            SplittableRandom rnd = new SplittableRandom(k);
            for (int i = 0; i < 20_000; i++) {
                assertThat(own).contains(s.next(rnd));
            }
        }
    }

    @Test
    void theLayoutSentToWorkersIsTheSamePlanAndStatesNumberCommentsApart() {
        SocialGraph g = graph(3_000, 6);
        ClusterPlan plan = ClusterPlan.assign(g, new double[] {2, 1}, 5);
        // As a worker receives it: through the protocol's JSON.
        ClusterPlan back = ClusterPlan.of(Messages.read(Messages.tree(plan.layout()), ClusterPlan.Layout.class), g);
        assertThat(back.layout().fragments()).isDeepEqualTo(plan.layout().fragments());
        assertThat(back.layout().rates()).isEqualTo(plan.layout().rates());
        assertThat(back.layout().seed()).isEqualTo(plan.layout().seed());
        for (int k = 0; k < 2; k++) {
            assertThat(back.members(k)).isEqualTo(plan.members(k));
        }
        GraphState a = plan.newState(g, 0);
        GraphState b = plan.newState(g, 1);
        assertThat(b.newCommentId() - a.newCommentId()).isEqualTo(1L << 40);
    }

    @Test
    void moreWorkersThanFragmentsIsBadInputNamingWorkers() {
        assertThatThrownBy(() -> ClusterPlan.assign(graph(2_000, 2), new double[] {1, 1, 1}, 1))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--workers")
                .hasMessageContaining("fragments=3");
    }
}
