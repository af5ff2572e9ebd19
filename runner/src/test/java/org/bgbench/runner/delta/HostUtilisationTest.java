package org.bgbench.runner.delta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.NodeResult.MeanMax;
import org.bgbench.rating.SaturatingThreads;
import org.junit.jupiter.api.Test;

/** The utilisation the T search reads from a run's nodes section, on synthetic readings. */
class HostUtilisationTest {
    private static NodeResult node(String name, String role, int seconds, double busy, double disk, double tx) {
        return NodeResult.builder()
                .name(name)
                .role(role)
                .cpus(8)
                .seconds(seconds)
                .busyCores(new MeanMax(busy, busy))
                .diskBusyPct(new MeanMax(disk, disk))
                .netRxBytesPerS(new MeanMax(1e6, 1e6))
                .netTxBytesPerS(new MeanMax(tx, tx))
                .build();
    }

    @Test
    void theStoreHostsCpuDiskAndNetworkAgainstTheLink() {
        List<NodeResult> nodes =
                List.of(node("bg-client", "bg", 5, 8, 0, 0), node("db1:9100", "store", 5, 2, 30, 100e6));
        List<SaturatingThreads.Use> uses = HostUtilisation.of(nodes, 125e6);
        assertThat(uses)
                .containsExactly(
                        new SaturatingThreads.Use("db1:9100", "cpu", 0.25),
                        new SaturatingThreads.Use("db1:9100", "disk", 0.30),
                        new SaturatingThreads.Use("db1:9100", "network", 0.80));
        assertThat(HostUtilisation.thisMachineOnly(nodes)).isFalse();
        assertThat(HostUtilisation.of(nodes, 0))
                .as("no link speed: the network is not judged")
                .extracting(SaturatingThreads.Use::resource)
                .containsExactly("cpu", "disk");
    }

    @Test
    void withoutAStoreHostThatAnsweredThisMachineStandsIn() {
        List<NodeResult> nodes = List.of(node("bg-client", "bg", 5, 6, 10, 0), node("db1:9100", "store", 0, 0, 0, 0));
        assertThat(HostUtilisation.thisMachineOnly(nodes)).isTrue();
        assertThat(HostUtilisation.of(nodes, 0))
                .containsExactly(
                        new SaturatingThreads.Use("bg-client", "cpu", 0.75),
                        new SaturatingThreads.Use("bg-client", "disk", 0.10));
    }
}
