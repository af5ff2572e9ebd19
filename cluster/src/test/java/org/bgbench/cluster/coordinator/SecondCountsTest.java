package org.bgbench.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.junit.jupiter.api.Test;

/** The per-kind counts the workers stream each second add up in the coordinator's merged second. */
class SecondCountsTest {
    @Test
    void theWorkersCountsAddUpBgsCpuIncluded() {
        Map<String, long[]> sum = new LinkedHashMap<>();
        ClusterCoordinator.addCounts(sum, Map.of("VP", new long[] {10, 1, 2, 3_000, 40_000, 4}));
        ClusterCoordinator.addCounts(sum, Map.of("VP", new long[] {20, 0, 1, 1_000, 60_000, 6},
                "LF", new long[] {5, 0, 0, 0, 9_000, 1}));
        KindCounts vp = ClusterCoordinator.kindCounts("VP", Latencies.newHistogram(), sum.get("VP"));
        assertThat(vp.withinBeta()).isEqualTo(30);
        assertThat(vp.noops()).isEqualTo(1);
        assertThat(vp.errors()).isEqualTo(3);
        assertThat(vp.errorNanos()).isEqualTo(4_000);
        assertThat(vp.cpuNanos()).isEqualTo(100_000);
        assertThat(vp.cpuSamples()).isEqualTo(10);
        assertThat(ClusterCoordinator.kindCounts("LF", Latencies.newHistogram(), sum.get("LF")).cpuSamples())
                .isEqualTo(1);
        KindCounts none = ClusterCoordinator.kindCounts("VFR", Latencies.newHistogram(), sum.get("VFR"));
        assertThat(none.cpuSamples()).isZero();
        assertThat(none.errors()).isZero();
    }

    @Test
    void aWorkerOfAnEarlierVersionSendsFourCountsWithoutBgsCpu() {
        Map<String, long[]> sum = new LinkedHashMap<>();
        ClusterCoordinator.addCounts(sum, Map.of("VP", new long[] {10, 1, 2, 3_000}));
        ClusterCoordinator.addCounts(sum, Map.of("VP", new long[] {20, 0, 1, 1_000, 60_000, 6}));
        KindCounts vp = ClusterCoordinator.kindCounts("VP", Latencies.newHistogram(), sum.get("VP"));
        assertThat(vp.withinBeta()).isEqualTo(30);
        assertThat(vp.errorNanos()).isEqualTo(4_000);
        assertThat(vp.cpuNanos()).isEqualTo(60_000);
        assertThat(vp.cpuSamples()).isEqualTo(6);
        assertThat(ClusterCoordinator.kindCounts("LF", Latencies.newHistogram(), new long[] {1, 2, 3, 4}).cpuNanos())
                .isZero();
    }
}
