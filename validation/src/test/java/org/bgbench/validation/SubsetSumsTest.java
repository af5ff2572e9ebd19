package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class SubsetSumsTest {
    private static Set<Long> brute(long[] d, int n) {
        Set<Long> s = new TreeSet<>();
        for (int mask = 0; mask < 1 << n; mask++) {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                if ((mask >>> i & 1) != 0) {
                    sum += d[i];
                }
            }
            s.add(sum);
        }
        return s;
    }

    @Test
    void bitsetAndSparseSetsMatchEnumeration() {
        SplittableRandom rnd = new SplittableRandom(4);
        SubsetSums sums = new SubsetSums();
        for (int round = 0; round < 3000; round++) {
            int n = rnd.nextInt(11);
            long[] d = new long[n];
            // small deltas, deltas past a 64-bit word, and huge ones that force the sparse set
            long scale = switch (round % 3) {
                case 0 -> 4;
                case 1 -> 300;
                default -> 1L << 40;
            };
            for (int i = 0; i < n; i++) {
                d[i] = rnd.nextLong(-scale, scale + 1);
            }
            Set<Long> expected = brute(d, n);
            IntervalSet out = new IntervalSet();
            sums.addAll(d, n, 0, out);
            assertThat(out.incomplete).isFalse();
            Set<Long> got = new TreeSet<>();
            for (int i = 0; i < out.intervals(); i++) {
                assertThat(out.hi(i) - out.lo(i)).isLessThan(10_000);
                for (long v = out.lo(i); v <= out.hi(i); v++) {
                    got.add(v);
                }
            }
            assertThat(got).isEqualTo(expected);
            Long[] all = expected.toArray(new Long[0]);
            for (int k = 0; k < 12; k++) {
                long probe = all[rnd.nextInt(all.length)];
                assertThat(sums.contains(d, n, probe)).isEqualTo(SubsetSums.YES);
                assertThat(sums.contains(d, n, probe + 1))
                        .isEqualTo(expected.contains(probe + 1) ? SubsetSums.YES : SubsetSums.NO);
            }
        }
    }

    @Test
    void tooManySumsIsUnknown() {
        long[] d = new long[30];
        for (int i = 0; i < d.length; i++) {
            d[i] = (1L << 35) + (1L << i); // all 2^30 sums distinct and spread out
        }
        SubsetSums sums = new SubsetSums();
        assertThat(sums.contains(d, d.length, 12345)).isEqualTo(SubsetSums.UNKNOWN);
        assertThat(sums.contains(d, d.length, -1)).isEqualTo(SubsetSums.NO); // outside [neg, pos]
        assertThat(sums.contains(d, d.length, 0)).isEqualTo(SubsetSums.YES);
    }
}
