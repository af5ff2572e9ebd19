package org.bgbench.cluster.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.workload.WorkloadParameters;
import org.junit.jupiter.api.Test;

/** The store hosts travel to a worker in its run message, and its result's nodes come back. */
class StoreHostsMessageTest {
    @Test
    void storeHostsAndNodesSurviveTheWire() {
        ExperimentSpec spec = ExperimentSpec.timed(
                        WorkloadParameters.toSpec(Map.of("mix", "high")),
                        2,
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        EmulatorConfig.ThreadKind.PLATFORM,
                        Duration.ofMillis(100),
                        null)
                .withStoreHosts(List.of("db1:9100", "[::1]:9200"));
        ExperimentSpec back = Messages.read(Messages.tree(spec), ExperimentSpec.class);
        assertThat(back.storeHosts()).containsExactly("db1:9100", "[::1]:9200");
        assertThat(back).isEqualTo(spec);
        assertThat(back.withThreads(4).withSeed(9).storeHosts())
                .as("kept by the with-methods")
                .isEqualTo(spec.storeHosts());

        NodeResult.MeanMax m = new NodeResult.MeanMax(1.5, 2.0);
        NodeResult.MeanMax none = new NodeResult.MeanMax(null, null);
        RunResult r = new RunResult(
                new RunResult.Header(RunResult.FORMAT, false, null, null),
                new RunResult.Rate(0, 1, 0, 0, 100),
                null,
                new RunResult.Environment(
                        null,
                        null,
                        List.of(NodeResult.builder()
                                .name("db1:9100")
                                .role("store")
                                .cpus(8)
                                .seconds(10)
                                .missingSeconds(1)
                                .busyCores(m)
                                .memUsedBytes(m)
                                .memTotalBytes(m)
                                .netRxBytesPerS(m)
                                .netTxBytesPerS(m)
                                .loBytesPerS(none)
                                .diskReadBytesPerS(m)
                                .diskWriteBytesPerS(m)
                                .diskBusyPct(m)
                                .build()),
                        null),
                null,
                null,
                null);
        assertThat(Messages.read(Messages.tree(r), RunResult.class).nodes()).isEqualTo(r.nodes());
    }
}
