package org.bgbench.workload.distribution;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Test helper: Pearson goodness-of-fit of a sampler's draws against expected probabilities per slot. */
final class Fits {
    private Fits() {}

    /** Counts per slot of {@code draws} draws; members are mapped back to slots. */
    static long[] counts(MemberSampler s, int memberBound, long draws, long seed) {
        int[] slotOf = new int[memberBound];
        Arrays.fill(slotOf, -1);
        for (int slot = 0; slot < s.size(); slot++) {
            slotOf[s.member(slot)] = slot;
        }
        long[] c = new long[s.size()];
        SplittableRandom rnd = new SplittableRandom(seed);
        for (long i = 0; i < draws; i++) {
            int slot = slotOf[s.next(rnd)];
            if (slot < 0) {
                throw new AssertionError("drew a member outside the support");
            }
            c[slot]++;
        }
        return c;
    }

    static ChiSquare.Fit fit(MemberSampler s, int memberBound, long draws, long seed, double[] expectedBySlot) {
        return ChiSquare.fit(counts(s, memberBound, draws, seed), expectedBySlot);
    }
}
