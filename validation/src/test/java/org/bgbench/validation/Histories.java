package org.bgbench.validation;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogFormat;
import org.bgbench.validation.log.LogReader;
import org.bgbench.validation.log.LogWriter;

/** Test helpers: log records in memory, writing and reading them, and a brute-force validation of every read. */
final class Histories {
    record Rec(int type, byte kind, byte action, long item, long start, long end, long value) {
        boolean isRead() {
            return type == LogFormat.TYPE_READ;
        }

        String readKey() {
            return action + ":" + kind + ":" + item + ":" + start + ":" + end + ":" + value;
        }
    }

    private Histories() {}

    /** Spreads the records over {@code files} writers in a random order per file. */
    static void write(Path dir, List<Rec> records, int files, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Rec> shuffled = new ArrayList<>(records);
        Collections.shuffle(shuffled, new Random(seed));
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter[] w = new LogWriter[files];
            for (int i = 0; i < files; i++) {
                w[i] = d.newWriter();
            }
            for (Rec r : shuffled) {
                LogWriter x = w[rnd.nextInt(files)];
                switch (r.type()) {
                    case LogFormat.TYPE_READ -> x.read(r.action(), r.kind(), r.item(), r.start(), r.end(), r.value());
                    case LogFormat.TYPE_DELTA -> x.delta(r.action(), r.kind(), r.item(), r.start(), r.end(), r.value());
                    default -> x.absolute(r.action(), r.kind(), r.item(), r.start(), r.end(), r.value());
                }
            }
        }
    }

    static List<Rec> read(Path dir) {
        List<Rec> out = new ArrayList<>();
        try (LogDirectory d = LogDirectory.open(dir)) {
            for (Path f : d.files()) {
                LogReader.forEach(f, (t, k, a, i, s, e, v) -> out.add(new Rec(t, k, a, i, s, e, v)));
            }
        }
        return out;
    }

    /** Sum of the deltas per item, keyed "kind:item". */
    static Map<String, Long> deltaSums(List<Rec> records) {
        Map<String, Long> m = new HashMap<>();
        for (Rec r : records) {
            if (r.type() == LogFormat.TYPE_DELTA) {
                m.merge(r.kind() + ":" + r.item(), r.value(), Long::sum);
            }
        }
        return m;
    }

    /**
     * Brute-force verdict of every read, as sorted "readKey=VERDICT" strings (a multiset). Items with absolute writes
     * use the full {@link Oracle}; delta-only items enumerate the closed subsets of the overlapping writes directly.
     */
    static List<String> bruteForce(List<Rec> records, ItemValues initial) {
        Map<String, List<Rec>> byItem = new HashMap<>();
        for (Rec r : records) {
            byItem.computeIfAbsent(r.kind() + ":" + r.item(), k -> new ArrayList<>())
                    .add(r);
        }
        List<String> out = new ArrayList<>();
        for (List<Rec> recs : byItem.values()) {
            List<Oracle.Write> writes = new ArrayList<>();
            boolean abs = false;
            for (Rec r : recs) {
                if (!r.isRead()) {
                    abs |= r.type() == LogFormat.TYPE_ABSOLUTE;
                    writes.add(new Oracle.Write(r.start(), r.end(), r.value(), r.type() == LogFormat.TYPE_ABSOLUTE));
                }
            }
            for (Rec r : recs) {
                if (!r.isRead()) {
                    continue;
                }
                long base = initial.value(r.kind(), r.item());
                Set<Long> ok = abs
                        ? Oracle.acceptable(writes, r.start(), r.end()).with(base)
                        : deltaAcceptable(writes, base, r.start(), r.end());
                out.add(r.readKey() + "=" + (ok.contains(r.value()) ? Verdict.VALID : Verdict.UNPREDICTABLE));
            }
        }
        Collections.sort(out);
        return out;
    }

    /** base + completed writes + every precedence-closed subset of the overlapping writes (delta writes only). */
    static Set<Long> deltaAcceptable(List<Oracle.Write> writes, long base, long rs, long re) {
        long completed = 0;
        List<Oracle.Write> o = new ArrayList<>();
        for (Oracle.Write w : writes) {
            if (w.end() < rs) {
                completed += w.value();
            } else if (w.start() <= re) {
                o.add(w);
            }
        }
        o.sort((a, b) -> Long.compare(a.start(), b.start())); // a predecessor always starts earlier
        Set<Long> sums = new TreeSet<>();
        long[] leaves = {0};
        dfs(o, 0, new boolean[o.size()], base + completed, sums, leaves);
        return sums;
    }

    private static void dfs(List<Oracle.Write> o, int i, boolean[] in, long sum, Set<Long> out, long[] leaves) {
        if (i == o.size()) {
            out.add(sum);
            if (++leaves[0] > 5_000_000) {
                throw new IllegalStateException("too many closed subsets for brute force");
            }
            return;
        }
        dfs(o, i + 1, in, sum, out, leaves); // leave write i out
        boolean closed = true; // include it only if everything that precedes it is included
        for (int j = 0; j < i && closed; j++) {
            closed = in[j] || !(o.get(j).end() < o.get(i).start());
        }
        if (closed) {
            in[i] = true;
            dfs(o, i + 1, in, sum + o.get(i).value(), out, leaves);
            in[i] = false;
        }
    }

    /** Random small histories over {@code items} items: ties, zero-length and long intervals, deltas and absolutes. */
    static List<Rec> random(SplittableRandom rnd, int items, boolean absolutes, ItemValues initial) {
        List<Rec> out = new ArrayList<>();
        for (int it = 0; it < items; it++) {
            byte kind = (byte) rnd.nextInt(3);
            long item = rnd.nextLong(1_000_000);
            int horizon = 4 + rnd.nextInt(20);
            int nw = rnd.nextInt(absolutes ? 7 : 10);
            for (int i = 0; i < nw; i++) {
                long s = rnd.nextInt(horizon);
                long e = s + (rnd.nextInt(6) == 0 ? horizon : rnd.nextInt(5));
                boolean abs = absolutes && rnd.nextInt(4) == 0;
                long v = abs ? rnd.nextInt(20) : rnd.nextInt(5) == 0 ? rnd.nextInt(-3, 4) : rnd.nextBoolean() ? 1 : -1;
                out.add(new Rec(abs ? LogFormat.TYPE_ABSOLUTE : LogFormat.TYPE_DELTA, kind, (byte) 3, item, s, e, v));
            }
            int nr = rnd.nextInt(6);
            long base = initial.value(kind, item);
            for (int i = 0; i < nr; i++) {
                long s = rnd.nextInt(horizon);
                long e = s + (rnd.nextInt(6) == 0 ? horizon : rnd.nextInt(5));
                out.add(new Rec(
                        LogFormat.TYPE_READ, kind, (byte) rnd.nextInt(3), item, s, e, base + rnd.nextInt(-3, 5)));
            }
        }
        return out;
    }

    /** Distinct items among the records. */
    static int items(List<Rec> records) {
        Set<String> s = new HashSet<>();
        for (Rec r : records) {
            s.add(r.kind() + ":" + r.item());
        }
        return s.size();
    }
}
