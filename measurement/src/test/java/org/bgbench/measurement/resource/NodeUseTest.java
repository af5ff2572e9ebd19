package org.bgbench.measurement.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-node arithmetic: a node exporter's samples to counters, and two readings to per-second figures. */
class NodeUseTest {
    private static final long S = 1_000_000_000L;

    /** A node exporter's output for two CPUs, eth0, lo, a disk with a partition, and a zram device. */
    private static String metrics(
            double idle, double user, double iowait, double rx, double tx, double read, double written, double io) {
        return """
                node_cpu_seconds_total{cpu="0",mode="idle"} %s
                node_cpu_seconds_total{cpu="0",mode="user"} %s
                node_cpu_seconds_total{cpu="0",mode="iowait"} %s
                node_cpu_seconds_total{cpu="1",mode="idle"} %s
                node_cpu_seconds_total{cpu="1",mode="user"} %s
                node_cpu_seconds_total{cpu="1",mode="iowait"} 0
                node_memory_MemTotal_bytes 8e9
                node_memory_MemAvailable_bytes 6e9
                node_network_receive_bytes_total{device="eth0"} %s
                node_network_transmit_bytes_total{device="eth0"} %s
                node_network_receive_bytes_total{device="lo"} 1e12
                node_network_transmit_bytes_total{device="lo"} 1e12
                node_disk_read_bytes_total{device="sda"} %s
                node_disk_read_bytes_total{device="sda1"} 1e15
                node_disk_read_bytes_total{device="zram0"} 1e15
                node_disk_written_bytes_total{device="sda"} %s
                node_disk_io_time_seconds_total{device="sda"} %s
                node_disk_io_time_seconds_total{device="sda1"} 1e9
                """.formatted(idle, user, iowait, idle, user, rx, tx, read, written, io);
    }

    private static NodeReading reading(long nanos, String text) {
        return NodeExporterClient.reading("db1:9100", nanos, ExpositionParser.parse(text));
    }

    @Test
    void twoReadingsOfANodeExporterGiveRates() {
        NodeReading a = reading(0, metrics(100, 50, 10, 1000, 2000, 4096, 8192, 10));
        NodeReading b = reading(2 * S, metrics(101, 51.5, 10.5, 3000, 6000, 8192, 16384, 11.5));
        assertThat(b.cpus()).isEqualTo(2);
        assertThat(b.memUsedBytes()).isEqualTo(2e9);
        assertThat(b.diskIoSeconds()).containsOnlyKeys("sda");
        NodeUse u = NodeUse.between(a, b, b.name(), b.role());
        assertThat(u.answered()).isTrue();
        assertThat(u.role()).isEqualTo("store");
        // CPU time: busy 2 × 1.5 = 3 of 2 × 1 + 2 × 1.5 + 0.5 = 5.5 seconds, over 2 CPUs.
        assertThat(u.busyCores()).isCloseTo(3 / 5.5 * 2, within(1e-9));
        assertThat(u.netRxBytesPerS()).isEqualTo(1000.0);
        assertThat(u.netTxBytesPerS()).isEqualTo(2000.0);
        assertThat(u.loBytesPerS()).isEqualTo(0.0);
        assertThat(u.diskReadBytesPerS()).isEqualTo(2048.0);
        assertThat(u.diskWriteBytesPerS()).isEqualTo(4096.0);
        assertThat(u.diskBusyPct()).isCloseTo(75.0, within(1e-9));
        assertThat(u.memTotalBytes()).isEqualTo(8e9);
    }

    @Test
    void gapsAndCountersThatWentBackAreUnknownNotWrong() {
        NodeReading a = reading(0, metrics(100, 50, 10, 1000, 2000, 4096, 8192, 10));
        NodeUse same = NodeUse.between(a, a, "h", "store");
        assertThat(same.answered()).as("no new answer yet, none failed").isTrue();
        assertThat(same.busyCores()).isNaN();
        assertThat(same.memUsedBytes()).isEqualTo(2e9);
        assertThat(NodeUse.between(a, NodeReading.none("h", "store"), "h", "store")
                        .answered())
                .isFalse();
        NodeUse first = NodeUse.between(NodeReading.none("h", "store"), a, "h", "store");
        assertThat(first.answered())
                .as("the first answer: state known, rates not yet")
                .isTrue();
        assertThat(first.memUsedBytes()).isEqualTo(2e9);
        assertThat(first.busyCores()).isNaN();
        // The host rebooted: every counter restarted.
        NodeReading rebooted = reading(S, metrics(1, 1, 0, 10, 10, 0, 0, 0));
        NodeUse u = NodeUse.between(a, rebooted, "h", "store");
        assertThat(u.busyCores()).isNaN();
        assertThat(u.netRxBytesPerS()).isNaN();
        assertThat(u.diskReadBytesPerS()).isNaN();
        assertThat(u.diskBusyPct()).isNaN();
        assertThat(u.memUsedBytes()).as("a gauge, not a counter").isEqualTo(2e9);
    }

    @Test
    void anExporterWithoutSomeCollectorsLeavesThoseFiguresUnknown() {
        NodeReading a = reading(0, "node_memory_MemTotal_bytes 8e9\n");
        NodeReading b = reading(S, "node_memory_MemTotal_bytes 8e9\n");
        NodeUse u = NodeUse.between(a, b, "h", "store");
        assertThat(u.cpus()).isZero();
        assertThat(u.busyCores()).isNaN();
        assertThat(u.memUsedBytes()).isNaN();
        assertThat(u.memTotalBytes()).isEqualTo(8e9);
        assertThat(u.netRxBytesPerS()).isNaN();
        assertThat(u.diskBusyPct()).isNaN();
    }

    @Test
    void wholeDisks() {
        for (String d : List.of("sda", "vda", "xvdb", "nvme0n1", "mmcblk0", "hdc")) {
            assertThat(NodeReading.wholeDisk(d)).as(d).isTrue();
        }
        for (String d : List.of(
                "sda1", "vda2", "nvme0n1p1", "mmcblk0p2", "loop3", "ram0", "zram0", "dm-0", "md127", "sr0", "fd0")) {
            assertThat(NodeReading.wholeDisk(d)).as(d).isFalse();
        }
    }

    @Test
    void procFilesOfBgsMachine() {
        double[] net = ProcNode.net(List.of(
                "Inter-|   Receive                                                |  Transmit",
                " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs",
                "    lo: 500 5 0 0 0 0 0 0 500 5 0 0 0 0 0 0",
                "  eth0: 100 1 0 0 0 0 0 0 200 2 0 0 0 0 0 0",
                "  eth1: 10 1 0 0 0 0 0 0 20 2 0 0 0 0 0 0"));
        assertThat(net).containsExactly(110, 220, 500);
        Map<String, Double> io = new HashMap<>();
        double[] disk = ProcNode.disks(
                new ArrayList<>(List.of(
                        "   7       0 loop0 9 9 9 9 9 9 9 9 0 9 9",
                        " 254       0 vda 1908935 211023 10 1666854 16053720 1836963 20 7172233 0 1244944 9297553 0 0 0 0",
                        " 254       1 vda1 1 1 1000 1 1 1 1000 1 0 1000 1 0 0 0 0")),
                io);
        assertThat(disk).containsExactly(10 * 512, 20 * 512);
        assertThat(io).containsExactly(Map.entry("vda", 1244.944));
    }
}
