package org.bgbench.emulator;

import java.util.random.RandomGenerator;

/**
 * What the emulator needs from a workload: which kind to issue next and which member to act as or on. Both must be
 * immutable, allocation-free and safe to call from thousands of threads, each with its own generator.
 */
public interface Workload {
    /** The next kind (see {@link Kinds}) for a uniform draw {@code u} in [0, 1). */
    int pickKind(double u);

    /** A member index drawn from the workload's distribution over the members this emulator owns. */
    int pickMember(RandomGenerator rnd);

    /** Whether the workload issues kind {@code kind} at all. */
    boolean issues(int kind);
}
