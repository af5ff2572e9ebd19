package org.bgbench.workload.distribution;

import java.util.random.RandomGenerator;

/**
 * Draws member <em>indexes</em> (0-based; the model maps index → id) from a fixed distribution over a set of members,
 * its <em>support</em> of {@link #size()} slots.
 *
 * <p>Implementations are immutable after construction: {@link #next(RandomGenerator)} takes no lock and allocates
 * nothing, so one sampler serves thousands of virtual threads, each passing its own generator (e.g. a
 * {@link java.util.SplittableRandom} split per thread).
 */
public interface MemberSampler {
    /** The next member index. */
    int next(RandomGenerator rnd);

    /** Number of members this sampler can return. */
    int size();

    /** The member index in support slot {@code slot}, 0 ≤ slot &lt; {@link #size()}. */
    int member(int slot);

    /** The probability of each support slot (a new array, O(size); for checks and χ², not for the hot path). */
    double[] probabilities();
}
