package org.bgbench.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Messages.KindSecond;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.junit.jupiter.api.Test;

/** The per-kind counts the workers stream each second add up in the coordinator's merged second. */
class SecondCountsTest {
    private static KindSecond counts(
            long withinBeta, long noops, long errors, long errorNanos, long cpuNanos, long cpuSamples) {
        return new KindSecond(null, withinBeta, noops, errors, errorNanos, cpuNanos, cpuSamples);
    }

    @Test
    void theWorkersCountsAddUpBgsCpuIncluded() {
        Map<String, KindSecond> sum = new LinkedHashMap<>();
        LiveSeconds.addCounts(sum, Map.of("VP", counts(10, 1, 2, 3_000, 40_000, 4)));
        LiveSeconds.addCounts(
                sum, Map.of("VP", counts(20, 0, 1, 1_000, 60_000, 6), "LF", counts(5, 0, 0, 0, 9_000, 1)));
        KindCounts vp = LiveSeconds.kindCounts("VP", Latencies.newHistogram(), sum.get("VP"));
        assertThat(vp.withinBeta()).isEqualTo(30);
        assertThat(vp.noops()).isEqualTo(1);
        assertThat(vp.errors()).isEqualTo(3);
        assertThat(vp.errorNanos()).isEqualTo(4_000);
        assertThat(vp.cpuNanos()).isEqualTo(100_000);
        assertThat(vp.cpuSamples()).isEqualTo(10);
        assertThat(LiveSeconds.kindCounts("LF", Latencies.newHistogram(), sum.get("LF"))
                        .cpuSamples())
                .isEqualTo(1);
        KindCounts none = LiveSeconds.kindCounts("VFR", Latencies.newHistogram(), sum.get("VFR"));
        assertThat(none.cpuSamples()).isZero();
        assertThat(none.errors()).isZero();
    }

    @Test
    void aKindsSecondCrossesTheWireAsNamedPropertiesAndBack() {
        KindCounts k = new KindCounts(
                "VP",
                Latencies.newHistogram(),
                7,
                0,
                new KindCounts.Outcomes(1, 2, 3_000),
                new KindCounts.Cpu(40_000, 4));
        k.latencies().recordValue(1_000_000);
        Messages.Second sec = new Messages.Second(
                false, null, Latencies.encode(Latencies.newHistogram()), Map.of("VP", KindSecond.of(k)));
        JsonNode wire = Messages.tree(sec).path("kinds").path("VP");
        assertThat(wire.path("withinBeta").asLong()).isEqualTo(7);
        assertThat(wire.path("noops").asLong()).isEqualTo(1);
        assertThat(wire.path("errors").asLong()).isEqualTo(2);
        assertThat(wire.path("errorNanos").asLong()).isEqualTo(3_000);
        assertThat(wire.path("cpuNanos").asLong()).isEqualTo(40_000);
        assertThat(wire.path("cpuSamples").asLong()).isEqualTo(4);
        assertThat(wire.isArray()).isFalse();
        KindSecond back =
                Messages.read(Messages.tree(sec), Messages.Second.class).kinds().get("VP");
        assertThat(back.latencies().getTotalCount()).isEqualTo(1);
        assertThat(LiveSeconds.kindCounts("VP", back.latencies(), back).cpuSamples())
                .isEqualTo(4);
        // A kind that did nothing in the second is not sent; one with only errors has no histogram.
        assertThat(KindSecond.of(KindCounts.empty("LF"))).isNull();
        assertThat(KindSecond.of(new KindCounts(
                                "LF",
                                Latencies.newHistogram(),
                                0,
                                0,
                                new KindCounts.Outcomes(0, 1, 10),
                                KindCounts.NO_CPU))
                        .hdr())
                .isNull();
    }
}
