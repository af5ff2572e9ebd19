package org.bgbench.scaling.speedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.NodeResult.MeanMax;
import org.junit.jupiter.api.Test;

class BottleneckTest {
    private static MeanMax mm(Double mean) {
        return new MeanMax(mean, mean);
    }

    /** A node with the given mean busy cores, busiest-disk %, and received/sent bytes per second. */
    private static NodeResult node(String name, String role, int cpus, Double busy, Double disk, Double rx, Double tx) {
        return NodeResult.builder()
                .name(name)
                .role(role)
                .cpus(cpus)
                .seconds(10)
                .missingSeconds(0)
                .busyCores(mm(busy))
                .memUsedBytes(mm(1e9))
                .memTotalBytes(mm(8e9))
                .netRxBytesPerS(mm(rx))
                .netTxBytesPerS(mm(tx))
                .loBytesPerS(mm(0.0))
                .diskReadBytesPerS(mm(0.0))
                .diskWriteBytesPerS(mm(0.0))
                .diskBusyPct(mm(disk))
                .build();
    }

    @Test
    void theStoreNodeNearestItsLimitIsNamed() {
        List<NodeResult> nodes = List.of(
                node("bg-client", "bg", 8, 2.0, 1.0, 1e6, 1e6), // 25 % CPU
                node("db1:9100", "store", 4, 2.0, 30.0, 1e6, 1e6), // 50 % CPU, 30 % disk
                node("db2:9100", "store", 4, 1.0, 85.0, 1e6, 1e6), // 25 % CPU, 85 % disk  ← the bottleneck
                node("db3:9100", "store", 8, 6.0, 10.0, 1e6, 1e6)); // 75 % CPU
        Bottleneck b = Bottleneck.of(nodes, 0);
        assertThat(b.known()).isTrue();
        assertThat(b.node()).isEqualTo("db2:9100");
        assertThat(b.resource()).isEqualTo("disk");
        assertThat(b.utilisation()).isCloseTo(0.85, within(1e-9));
        assertThat(b.text()).isEqualTo("store host db2:9100: busiest disk busy 85 % of the time (85 %)");
    }

    @Test
    void theNetworkCountsOnlyWithALinkSpeed() {
        // 110 MB/s sent on a 1 Gbit/s link (125 MB/s) = 88 %, more than db1's 75 % CPU.
        List<NodeResult> nodes = List.of(
                node("bg", "bg", 8, 1.0, 0.0, 0.0, 0.0),
                node("db1:9100", "store", 4, 3.0, 5.0, 1e6, 1e6),
                node("db2:9100", "store", 4, 1.0, 5.0, 2e6, 110e6));
        assertThat(Bottleneck.of(nodes, 0).node()).isEqualTo("db1:9100");
        Bottleneck withLink = Bottleneck.of(nodes, 125e6);
        assertThat(withLink.node()).isEqualTo("db2:9100");
        assertThat(withLink.resource()).isEqualTo("network");
        assertThat(withLink.utilisation()).isCloseTo(0.88, within(1e-9));
    }

    @Test
    void bgsOwnHostWhenItIsNearest() {
        List<NodeResult> nodes = List.of(
                node("client", "bg", 2, 1.9, 0.0, 0.0, 0.0), node("db1:9100", "store", 16, 4.0, 20.0, 0.0, 0.0));
        Bottleneck b = Bottleneck.of(nodes, 0);
        assertThat(b.role()).isEqualTo("bg");
        assertThat(b.node()).isEqualTo("client");
        assertThat(b.resource()).isEqualTo("cpu");
        assertThat(b.text()).startsWith("BG's own host (client): CPU 1.9 of 2 cores busy (95 %)");
    }

    @Test
    void unknownWithoutStoreHosts() {
        Bottleneck b = Bottleneck.of(List.of(node("client", "bg", 2, 1.0, 0.0, 0.0, 0.0)), 0);
        assertThat(b.known()).isFalse();
        assertThat(b.text())
                .startsWith("unknown: no store host answered")
                .contains("there the nearest its limit was CPU 1.0 of 2 cores busy (50 %)");
        // A store host that never answered is no better.
        NodeResult silent = NodeResult.builder()
                .name("db1:9100")
                .role("store")
                .cpus(0)
                .seconds(0)
                .missingSeconds(10)
                .busyCores(mm(null))
                .memUsedBytes(mm(null))
                .memTotalBytes(mm(null))
                .netRxBytesPerS(mm(null))
                .netTxBytesPerS(mm(null))
                .loBytesPerS(mm(null))
                .diskReadBytesPerS(mm(null))
                .diskWriteBytesPerS(mm(null))
                .diskBusyPct(mm(null))
                .build();
        assertThat(Bottleneck.of(List.of(node("client", "bg", 2, 1.0, 0.0, 0.0, 0.0), silent), 0)
                        .known())
                .isFalse();
        assertThat(Bottleneck.of(List.of(), 0).text())
                .isEqualTo("unknown: the SoAR experiment's result has no node " + "figures");
    }

    @Test
    void onOneMachineTheCpuIsNamedWithTheStoresAndBgsShares() {
        // BG's host and the store host are the same two cores: as nodes they tie; the processes tell them apart.
        List<NodeResult> same = List.of(
                node("vm", "bg", 2, 2.0, 0.0, 0.0, 0.0), node("127.0.0.1:9100", "store", 2, 1.99, 0.0, 0.0, 0.0));
        CpuResult cpu = CpuResult.builder()
                .bgCores(0.27)
                .bgUsPerAction(21.6)
                .storeCores(1.71)
                .machineCores(1.99)
                .machineIowaitCores(0.0)
                .bgCpuS(1.4)
                .storeCpuS(8.5)
                .bgAvailableCores(2)
                .machineCpus(2)
                .storePids(List.of(11L, 12L, 13L))
                .storeProcesses(3)
                .bgPeakCores(0.3)
                .storePeakCores(1.8)
                .machinePeakCores(2.0)
                .bgOutsideUsPerAction(null)
                .build();
        Bottleneck b = Bottleneck.onOneMachine(same, 0, cpu);
        assertThat(b.known()).isTrue();
        assertThat(b.role()).isEqualTo("store");
        assertThat(b.resource()).isEqualTo("cpu");
        assertThat(b.utilisation()).isCloseTo(0.995, within(1e-9));
        assertThat(b.text())
                .isEqualTo("this machine's CPU, shared by every node and BG: 2.0 of 2 cores busy "
                        + "(100 %): the store's 3 processes 1.71 cores, BG 0.27");
        // Without the store's processes measured, the node figures are all there is.
        CpuResult bgOnly = CpuResult.builder()
                .bgCores(0.27)
                .bgUsPerAction(21.6)
                .storeCores(null)
                .machineCores(1.99)
                .machineIowaitCores(0.0)
                .bgCpuS(1.4)
                .storeCpuS(null)
                .bgAvailableCores(2)
                .machineCpus(2)
                .storePids(List.of())
                .storeProcesses(0)
                .bgPeakCores(0.3)
                .storePeakCores(null)
                .machinePeakCores(2.0)
                .bgOutsideUsPerAction(null)
                .build();
        assertThat(Bottleneck.onOneMachine(same, 0, bgOnly)).isEqualTo(Bottleneck.of(same, 0));
    }
}
