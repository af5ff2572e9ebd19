package org.bgbench.measurement.resource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads BG's own machine as a node from Linux's /proc, with the same definitions a node exporter uses for a store
 * host: /proc/stat for CPU, /proc/meminfo for memory, /proc/net/dev for the network, /proc/diskstats for the disks.
 * A file that cannot be read leaves its figures unknown.
 */
final class ProcNode {
    /** Bytes of a sector in /proc/diskstats: always 512, whatever the device's own sector size. */
    private static final long SECTOR_BYTES = 512;

    private final Path root;
    private final String name;

    ProcNode(Path root) {
        this.root = root;
        String host = readFirstLine(root.resolve("sys/kernel/hostname"));
        this.name = host == null || host.isBlank() ? "localhost" : host.strip();
    }

    String name() {
        return name;
    }

    /** The counters now, or null off Linux (no /proc/stat). */
    NodeReading read() {
        List<String> stat = lines("stat");
        if (stat == null) {
            return null;
        }
        long now = System.nanoTime();
        double busy = -1;
        double total = -1;
        int cpus = 0;
        for (String line : stat) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                double[] v = new double[8];
                for (int i = 0; i < v.length && i + 1 < f.length; i++) {
                    v[i] = Long.parseLong(f[i + 1]) / (double) ProcFs.TICKS_PER_SECOND;
                }
                busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
                total = busy + v[3] + v[4];
            } else if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                cpus++;
            }
        }
        double memTotal = -1;
        double memAvailable = -1;
        List<String> meminfo = lines("meminfo");
        for (String line : meminfo == null ? List.<String>of() : meminfo) {
            if (line.startsWith("MemTotal:")) {
                memTotal = kib(line);
            } else if (line.startsWith("MemAvailable:")) {
                memAvailable = kib(line);
            }
        }
        double[] net = net(lines("net/dev"));
        Map<String, Double> ioSeconds = new HashMap<>();
        double[] disk = disks(lines("diskstats"), ioSeconds);
        return NodeReading.builder()
                .name(name)
                .role(NodeReading.BG)
                .nanoTime(now)
                .cpus(cpus)
                .cpuBusySeconds(busy)
                .cpuTotalSeconds(total)
                .memTotalBytes(memTotal)
                .memUsedBytes(memTotal >= 0 && memAvailable >= 0 ? memTotal - memAvailable : -1)
                .netRxBytes(net[0])
                .netTxBytes(net[1])
                .loRxBytes(net[2])
                .diskReadBytes(disk[0])
                .diskWriteBytes(disk[1])
                .diskIoSeconds(ioSeconds)
                .build();
    }

    /** Received and sent bytes of all interfaces but lo, and lo's received bytes; -1 each when unknown. */
    static double[] net(List<String> lines) {
        if (lines == null) {
            return new double[] {-1, -1, -1};
        }
        double rx = 0;
        double tx = 0;
        double lo = 0;
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue; // the two header lines
            }
            String device = line.substring(0, colon).strip();
            String[] f = line.substring(colon + 1).trim().split("\\s+");
            if (f.length < 9) {
                continue;
            }
            if (device.equals("lo")) {
                lo += Double.parseDouble(f[0]);
            } else {
                rx += Double.parseDouble(f[0]);
                tx += Double.parseDouble(f[8]);
            }
        }
        return new double[] {rx, tx, lo};
    }

    /** Read and written bytes of whole disks, and each one's I/O seconds into {@code ioSeconds}; -1 when unknown. */
    static double[] disks(List<String> lines, Map<String, Double> ioSeconds) {
        if (lines == null) {
            return new double[] {-1, -1};
        }
        double read = 0;
        double written = 0;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // major minor name reads merged sectors ms writes merged sectors ms in-flight io_ms weighted_ms …
            if (f.length < 14 || !NodeReading.wholeDisk(f[2])) {
                continue;
            }
            read += Double.parseDouble(f[5]) * SECTOR_BYTES;
            written += Double.parseDouble(f[9]) * SECTOR_BYTES;
            ioSeconds.put(f[2], Double.parseDouble(f[12]) / 1000.0);
        }
        return new double[] {read, written};
    }

    private static double kib(String line) {
        String[] f = line.trim().split("\\s+");
        return Double.parseDouble(f[1]) * 1024;
    }

    private List<String> lines(String file) {
        try {
            return Files.readAllLines(root.resolve(file), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String readFirstLine(Path file) {
        try {
            List<String> l = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            return l.isEmpty() ? null : l.get(0);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
