package org.bgbench.validation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The definition of dissertation chapter 6, by brute force: every subset of the writes that contains the completed ones, contains
 * only writes that started before the read ended, and is closed under real-time precedence; for each, every serial
 * order consistent with precedence (found as: the last write is a maximal one, recursively).
 */
final class Oracle {
    record Write(long start, long end, long value, boolean absolute) {}

    /** Acceptable values, split into those fixed by an absolute write and offsets from the initial value. */
    record Acceptable(Set<Long> anchored, Set<Long> baseOffsets) {
        Set<Long> with(long base) {
            Set<Long> all = new TreeSet<>(anchored);
            for (long o : baseOffsets) {
                all.add(base + o);
            }
            return all;
        }
    }

    private Oracle() {}

    static Acceptable acceptable(List<Write> writes, long rs, long re) {
        List<Write> w = new ArrayList<>();
        for (Write x : writes) {
            if (x.start() <= re) {
                w.add(x);
            }
        }
        int n = w.size();
        if (n > 20) {
            throw new IllegalArgumentException("too many writes for brute force: " + n);
        }
        long completed = 0;
        for (int i = 0; i < n; i++) {
            if (w.get(i).end() < rs) {
                completed |= 1L << i;
            }
        }
        Set<Long> anchored = new TreeSet<>();
        Set<Long> offsets = new TreeSet<>();
        Map<Long, Set<Value>> memo = new HashMap<>();
        for (long mask = 0; mask < 1L << n; mask++) {
            if ((mask & completed) != completed || !closed(w, mask)) {
                continue;
            }
            for (Value v : reachable(w, mask, memo)) {
                if (v.fromBase()) {
                    offsets.add(v.value());
                } else {
                    anchored.add(v.value());
                }
            }
        }
        return new Acceptable(anchored, offsets);
    }

    /** Number of closed subsets considered (for the e2e test's sanity). */
    static boolean closed(List<Write> w, long mask) {
        for (int i = 0; i < w.size(); i++) {
            if ((mask >>> i & 1) == 0) {
                continue;
            }
            for (int j = 0; j < w.size(); j++) {
                if ((mask >>> j & 1) == 0 && w.get(j).end() < w.get(i).start()) {
                    return false;
                }
            }
        }
        return true;
    }

    private record Value(boolean fromBase, long value) {}

    private static Set<Value> reachable(List<Write> w, long mask, Map<Long, Set<Value>> memo) {
        Set<Value> known = memo.get(mask);
        if (known != null) {
            return known;
        }
        Set<Value> out = new HashSet<>();
        if (mask == 0) {
            out.add(new Value(true, 0));
        } else {
            for (int i = 0; i < w.size(); i++) {
                if ((mask >>> i & 1) == 0) {
                    continue;
                }
                boolean maximal = true;
                for (int j = 0; j < w.size() && maximal; j++) {
                    maximal =
                            (mask >>> j & 1) == 0 || !(w.get(i).end() < w.get(j).start());
                }
                if (!maximal) {
                    continue;
                }
                Write x = w.get(i);
                if (x.absolute()) {
                    out.add(new Value(false, x.value()));
                } else {
                    for (Value v : reachable(w, mask & ~(1L << i), memo)) {
                        out.add(new Value(v.fromBase(), v.value() + x.value()));
                    }
                }
            }
        }
        memo.put(mask, out);
        return out;
    }
}
