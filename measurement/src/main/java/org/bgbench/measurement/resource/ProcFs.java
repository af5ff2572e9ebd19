package org.bgbench.measurement.resource;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads Linux's /proc: per-process CPU from /proc/PID/stat and machine CPU from /proc/stat. */
final class ProcFs {
    /**
     * Clock ticks per second of the times in /proc. Linux exports them in USER_HZ, a fixed ABI constant of 100 on
     * every architecture Java runs on (x86, arm64, ppc64, s390x, riscv), independent of the kernel's internal HZ.
     */
    static final long TICKS_PER_SECOND = 100;

    /**
     * One process: its parent and its CPU so far, own (utime+stime) plus that of reaped children (cutime+cstime), and
     * the latter alone.
     */
    record ProcessStat(long pid, long ppid, long cpuTicks, long childTicks) {
        ProcessStat(long pid, long ppid, long cpuTicks) {
            this(pid, ppid, cpuTicks, 0);
        }
    }

    /** Machine CPU ticks since boot, summed over all CPUs. */
    record MachineStat(long busyTicks, long iowaitTicks, long totalTicks, int cpus) {}

    private final Path root;

    ProcFs(Path root) {
        this.root = root;
    }

    boolean available() {
        return Files.isReadable(root.resolve("stat")) && Files.isDirectory(root.resolve("self"));
    }

    /** The stat line of one process, or null when it does not exist (any more). */
    ProcessStat process(long pid) {
        String stat = read(root.resolve(Long.toString(pid)).resolve("stat").toString());
        try {
            return stat == null ? null : parseProcess(pid, stat);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Every process currently listed; processes that exit while being read are skipped. Plain {@code File} and
     * stream calls: NIO's Path and DirectoryStream machinery cost several times more for ~100 tiny files a second.
     */
    List<ProcessStat> processes() {
        String[] names = root.toFile().list();
        if (names == null) {
            return List.of();
        }
        List<ProcessStat> all = new ArrayList<>(names.length);
        String base = root.toString() + File.separator;
        for (String name : names) {
            if (isNumber(name)) {
                long pid = Long.parseLong(name);
                String stat = read(base + name + "/stat");
                if (stat != null) {
                    try {
                        all.add(parseProcess(pid, stat));
                    } catch (RuntimeException e) {
                        // A malformed line (not a real /proc) is skipped like a vanished process.
                    }
                }
            }
        }
        return all;
    }

    private static boolean isNumber(String name) {
        if (name.isEmpty() || name.length() > 18) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The whole content of a small /proc file, or null when it cannot be read (the process is gone). */
    private static String read(String file) {
        try (FileInputStream in = new FileInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return null;
        }
    }

    /** The roots and all their live descendants, found through the parent pid of every process. */
    static Set<Long> tree(Collection<Long> roots, List<ProcessStat> all) {
        Map<Long, List<Long>> children = new HashMap<>();
        Set<Long> live = new LinkedHashSet<>();
        for (ProcessStat p : all) {
            live.add(p.pid());
            children.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p.pid());
        }
        Set<Long> tree = new LinkedHashSet<>();
        ArrayDeque<Long> todo = new ArrayDeque<>();
        for (Long r : roots) {
            if (live.contains(r)) {
                todo.add(r);
            }
        }
        while (!todo.isEmpty()) {
            long pid = todo.poll();
            if (tree.add(pid)) {
                todo.addAll(children.getOrDefault(pid, List.of()));
            }
        }
        return tree;
    }

    /**
     * CPU ticks of a process tree found by {@link #tree}. Summing utime+stime+cutime+cstime over the live tree keeps the
     * total continuous when a child exits: its time moves into its parent's cutime/cstime once the parent reaps it.
     */
    static long treeTicks(Set<Long> tree, List<ProcessStat> all) {
        long ticks = 0;
        for (ProcessStat p : all) {
            if (tree.contains(p.pid())) {
                ticks += p.cpuTicks();
            }
        }
        return ticks;
    }

    MachineStat machine() {
        try {
            List<String> lines = Files.readAllLines(root.resolve("stat"), StandardCharsets.ISO_8859_1);
            MachineStat total = null;
            int cpus = 0;
            for (String line : lines) {
                if (line.startsWith("cpu ")) {
                    total = parseMachine(line, 0);
                } else if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                    cpus++;
                }
            }
            return total == null
                    ? null
                    : new MachineStat(total.busyTicks(), total.iowaitTicks(), total.totalTicks(), Math.max(cpus, 1));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Parses /proc/PID/stat. The command name (field 2) is in parentheses and may itself contain spaces and
     * parentheses, so fields are counted from the last ')'.
     */
    static ProcessStat parseProcess(long pid, String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("no command name in stat of " + pid);
        }
        // Single spaces separate the fields (a one-character split pattern avoids the regex engine).
        String[] f = stat.substring(close + 1).trim().split(" ");
        // f[0] is field 3 (state); field n is f[n - 3].
        long ppid = Long.parseLong(f[4 - 3]);
        long utime = Long.parseLong(f[14 - 3]);
        long stime = Long.parseLong(f[15 - 3]);
        long cutime = Long.parseLong(f[16 - 3]);
        long cstime = Long.parseLong(f[17 - 3]);
        return new ProcessStat(pid, ppid, utime + stime + cutime + cstime, cutime + cstime);
    }

    /** Parses the aggregate "cpu" line: user nice system idle iowait irq softirq steal (guest is inside user). */
    static MachineStat parseMachine(String line, int cpus) {
        String[] f = line.trim().split("\\s+");
        long[] v = new long[8];
        for (int i = 0; i < v.length && i + 1 < f.length; i++) {
            v[i] = Long.parseLong(f[i + 1]);
        }
        long idle = v[3];
        long iowait = v[4];
        long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
        return new MachineStat(busy, iowait, busy + idle + iowait, cpus);
    }
}
