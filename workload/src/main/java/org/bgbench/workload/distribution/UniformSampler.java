package org.bgbench.workload.distribution;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/** Every member of the support equally likely (YCSB's and USC BG's {@code uniform}). */
public final class UniformSampler implements MemberSampler {
    private final int size;
    private final int[] members; // null: the members 0..size-1

    private UniformSampler(int size, int[] members) {
        this.size = size;
        this.members = members;
    }

    /** Uniform over members 0 … {@code members}−1. */
    public static UniformSampler of(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("a sampler needs at least one member, got " + members);
        }
        return new UniformSampler(members, null);
    }

    /** Uniform over the given member indexes (copied). */
    public static UniformSampler over(int[] members) {
        if (members.length < 1) {
            throw new IllegalArgumentException("a sampler needs at least one member");
        }
        return new UniformSampler(members.length, members.clone());
    }

    @Override
    public int next(RandomGenerator rnd) {
        int i = rnd.nextInt(size);
        return members == null ? i : members[i];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int member(int slot) {
        return members == null ? slot : members[slot];
    }

    @Override
    public double[] probabilities() {
        double[] p = new double[size];
        Arrays.fill(p, 1.0 / size);
        return p;
    }
}
