package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.bgbench.validation.Oracle.Acceptable;
import org.bgbench.validation.Oracle.Write;
import org.junit.jupiter.api.Test;

class ItemCheckerTest {
    private record Read(long start, long end, long observed) {}

    private record Outcome(
            long start, long end, long observed, int status, Set<Long> acceptable, String described, long freshness) {}

    private static List<Outcome> check(List<Write> writes, List<Read> reads, long value, boolean isFinal) {
        ItemChecker c = new ItemChecker();
        c.begin();
        for (Write w : writes) {
            if (w.absolute()) {
                c.addAbsolute(w.start(), w.end(), w.value());
            } else {
                c.addDelta(w.start(), w.end(), w.value());
            }
        }
        for (Read r : reads) {
            c.addRead(r.start(), r.end(), r.observed(), (byte) 0);
        }
        List<Outcome> out = new ArrayList<>();
        c.run(value, isFinal, (r, status, fresh) -> {
            IntervalSet acc = c.acceptable();
            Set<Long> values = new TreeSet<>();
            for (int i = 0; i < acc.intervals(); i++) {
                for (long v = acc.lo(i); v <= acc.hi(i); v++) {
                    values.add(v);
                }
            }
            out.add(new Outcome(c.readStart(r), c.readEnd(r), c.readValue(r), status, values, acc.describe(20), fresh));
        });
        return out;
    }

    @Test
    void dissertationFigure62() {
        // writes -1 [1,3], +1 [2,4], +2 [5,6]; a read [0,10] of an item that was 0
        List<Write> writes = List.of(new Write(1, 3, -1, false), new Write(2, 4, 1, false), new Write(5, 6, 2, false));
        List<Read> reads = new ArrayList<>();
        for (long v = -3; v <= 5; v++) {
            reads.add(new Read(0, 10, v));
        }
        for (Outcome o : check(writes, reads, 0, false)) {
            assertThat(o.acceptable()).containsExactly(-1L, 0L, 1L, 2L);
            assertThat(o.described()).isEqualTo("[-1..2]");
            boolean ok = o.observed() >= -1 && o.observed() <= 2;
            assertThat(o.status())
                    .as("observed %d", o.observed())
                    .isEqualTo(ok ? ItemChecker.VALID : ItemChecker.UNPREDICTABLE);
        }
        // 3 would be acceptable if the three writes could be ordered freely (3! schedules): it must be flagged
        assertThat(check(writes, List.of(new Read(0, 10, 3)), 0, false).get(0).status())
                .isEqualTo(ItemChecker.UNPREDICTABLE);
        // the same with the final value (0 - 1 + 1 + 2 = 2) instead of the initial one
        assertThat(check(writes, List.of(new Read(0, 10, 3), new Read(0, 10, 2)), 2, true))
                .extracting(Outcome::status)
                .containsExactly(ItemChecker.UNPREDICTABLE, ItemChecker.VALID);
    }

    @Test
    void equalTimestampsOverlap() {
        // a write that ends exactly when the read starts, or starts exactly when it ends, overlaps it
        List<Write> writes = List.of(new Write(0, 5, 1, false), new Write(10, 12, 1, false));
        assertThat(check(
                        writes,
                        List.of(
                                new Read(5, 10, 0),
                                new Read(5, 10, 1),
                                new Read(5, 10, 2),
                                new Read(6, 9, 0),
                                new Read(13, 13, 1)),
                        0,
                        false))
                .extracting(Outcome::status)
                .containsExactly(
                        ItemChecker.VALID,
                        ItemChecker.VALID,
                        ItemChecker.VALID,
                        ItemChecker.UNPREDICTABLE,
                        ItemChecker.UNPREDICTABLE);
    }

    @Test
    void freshnessIsTimeSinceLatestCompletedWrite() {
        List<Write> writes = List.of(new Write(0, 5, 1, false), new Write(2, 8, 1, false));
        List<Outcome> o = check(writes, List.of(new Read(1, 2, 0), new Read(7, 9, 1), new Read(20, 21, 2)), 0, false);
        assertThat(o).extracting(Outcome::freshness).containsExactly(ItemChecker.NO_WRITE, 2L, 12L);
    }

    @Test
    void absoluteWrites() {
        // set to 7 [0,2], +1 [4,6]; reads after both, during the delta, and overlapping the absolute write
        List<Write> writes = List.of(new Write(0, 2, 7, true), new Write(4, 6, 1, false));
        List<Outcome> o = check(
                writes,
                List.of(
                        new Read(10, 11, 8),
                        new Read(5, 5, 7),
                        new Read(1, 1, 3),
                        new Read(1, 1, 7),
                        new Read(1, 1, 8),
                        new Read(10, 11, 4)),
                3,
                false);
        assertThat(o)
                .extracting(x -> x.start() + ":" + x.observed() + "=" + x.status())
                .containsExactlyInAnyOrder("10:8=0", "5:7=0", "1:3=0", "1:7=0", "1:8=1", "10:4=1");
    }

    @Test
    void matchesBruteForceOnRandomHistories() {
        // -Dbg.validation.histories=N -Dbg.validation.seed=S to run a longer search
        long seed = Long.getLong("bg.validation.seed", 20240611L);
        int histories = Integer.getInteger("bg.validation.histories", 12_000);
        SplittableRandom rnd = new SplittableRandom(seed);
        int compared = 0;
        for (int h = 0; h < histories; h++) {
            int profile = h % 4; // 0: ±1 deltas, 1: general deltas, 2: deltas + absolutes, 3: mostly absolutes
            int horizon = 4 + rnd.nextInt(14);
            List<Write> writes = new ArrayList<>();
            int nw = rnd.nextInt(8);
            for (int i = 0; i < nw; i++) {
                long[] iv = interval(rnd, horizon);
                boolean abs = profile == 2 ? rnd.nextInt(3) == 0 : profile == 3 && rnd.nextInt(4) != 0;
                long v = abs ? rnd.nextInt(-3, 6) : profile == 0 ? (rnd.nextBoolean() ? 1 : -1) : rnd.nextInt(-3, 4);
                writes.add(new Write(iv[0], iv[1], v, abs));
            }
            long base = rnd.nextInt(-2, 3);
            List<Read> reads = new ArrayList<>();
            int nr = 1 + rnd.nextInt(6);
            for (int i = 0; i < nr; i++) {
                long[] iv = interval(rnd, horizon);
                reads.add(new Read(iv[0], iv[1], base + rnd.nextInt(-4, 6)));
            }
            boolean hasAbs = writes.stream().anyMatch(Write::absolute);
            long deltaSum = writes.stream()
                    .filter(w -> !w.absolute())
                    .mapToLong(Write::value)
                    .sum();
            for (boolean isFinal : new boolean[] {false, true}) {
                long value = isFinal ? base + deltaSum : base; // only meaningful without absolutes
                for (Outcome o : check(writes, reads, value, isFinal)) {
                    Acceptable exact = Oracle.acceptable(writes, o.start(), o.end());
                    String ctx = "history " + h + " final=" + isFinal + " writes=" + writes + " read=[" + o.start()
                            + "," + o.end() + "] observed=" + o.observed();
                    if (!isFinal || !hasAbs) {
                        Set<Long> all = exact.with(base);
                        assertThat(o.acceptable()).as(ctx).isEqualTo(all);
                        assertThat(o.status())
                                .as(ctx)
                                .isEqualTo(all.contains(o.observed()) ? ItemChecker.VALID : ItemChecker.UNPREDICTABLE);
                    } else {
                        int expected = exact.anchored().contains(o.observed())
                                ? ItemChecker.VALID
                                : exact.baseOffsets().isEmpty() ? ItemChecker.UNPREDICTABLE : ItemChecker.SKIPPED;
                        assertThat(o.status()).as(ctx).isEqualTo(expected);
                        assertThat(o.acceptable()).as(ctx).isEqualTo(exact.anchored());
                    }
                    compared++;
                }
            }
        }
        assertThat(compared).isGreaterThan(histories * 4);
    }

    @Test
    void largeDeltasUseSubsetSums() {
        // +5 and +7 overlapping a read: 0, 5, 7, 12 but not 6
        List<Write> writes = List.of(new Write(1, 9, 5, false), new Write(2, 8, 7, false));
        List<Outcome> o = check(writes, List.of(new Read(0, 10, 6), new Read(0, 10, 12)), 0, false);
        assertThat(o.get(0).status()).isEqualTo(ItemChecker.UNPREDICTABLE);
        assertThat(o.get(0).described()).isEqualTo("[0], [5], [7], [12]");
        assertThat(o.get(1).status()).isEqualTo(ItemChecker.VALID);
    }

    /** Many ties, zero-length intervals, and some intervals spanning the whole history. */
    private static long[] interval(SplittableRandom rnd, int horizon) {
        long s = rnd.nextInt(horizon);
        long len = switch (rnd.nextInt(5)) {
            case 0 -> 0;
            case 1 -> horizon;
            default -> rnd.nextInt(4);
        };
        return new long[] {s, s + len};
    }
}
