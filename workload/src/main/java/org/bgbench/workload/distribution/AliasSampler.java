package org.bgbench.workload.distribution;

import java.util.HashMap;
import java.util.random.RandomGenerator;

/**
 * A {@link MemberSampler} over arbitrary positive weights with Vose's alias method ({@link AliasTables}): O(1) per
 * draw (one bounded int and one double from the caller's generator), two arrays of n, plus the slot → member array
 * when the support is a subset.
 */
public final class AliasSampler implements MemberSampler {
    private final double[] cut;
    private final int[] alias; // holds member indexes, not slots, so a draw needs no second lookup
    private final int[] members; // slot → member; null means slot i is member i

    private AliasSampler(double[] cut, int[] alias, int[] members) {
        this.cut = cut;
        this.alias = alias;
        this.members = members;
    }

    /** Slot i is member i, drawn with probability proportional to {@code weights[i]}. */
    public static AliasSampler ofWeights(double[] weights) {
        return over(null, weights);
    }

    /**
     * Slot i is member {@code members[i]}, drawn with probability proportional to {@code weights[i]}. Both arrays are
     * copied or consumed read-only; members should be distinct for {@link #probabilities()} to mean per member.
     */
    public static AliasSampler over(int[] members, double[] weights) {
        int n = weights.length;
        if (members != null && members.length != n) {
            throw new IllegalArgumentException(members.length + " members but " + n + " weights");
        }
        double[] cut = new double[n];
        int[] alias = new int[n];
        AliasTables.build(weights, cut, alias);
        int[] m = members == null ? null : members.clone();
        if (m != null) {
            for (int i = 0; i < n; i++) {
                alias[i] = m[alias[i]];
            }
        }
        return new AliasSampler(cut, alias, m);
    }

    @Override
    public int next(RandomGenerator rnd) {
        int i = rnd.nextInt(cut.length);
        if (rnd.nextDouble() < cut[i]) {
            return members == null ? i : members[i];
        }
        return alias[i];
    }

    @Override
    public int size() {
        return cut.length;
    }

    @Override
    public int member(int slot) {
        return members == null ? slot : members[slot];
    }

    @Override
    public double[] probabilities() {
        int n = cut.length;
        int[] slotAlias = alias;
        if (members != null) {
            // Translate member aliases back to slots.
            HashMap<Integer, Integer> slotOf = new HashMap<>(n * 2);
            for (int i = 0; i < n; i++) {
                slotOf.put(members[i], i);
            }
            slotAlias = new int[n];
            for (int i = 0; i < n; i++) {
                slotAlias[i] = slotOf.get(alias[i]);
            }
        }
        return AliasTables.probabilities(cut, slotAlias);
    }
}
