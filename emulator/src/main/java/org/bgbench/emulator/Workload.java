package org.bgbench.emulator;

import java.util.random.RandomGenerator;

/**
 * What the emulator needs from a workload: which kind to issue next and which member to act as or on. Both must be
 * immutable, allocation-free and safe to call from thousands of threads, each with its own generator.
 */
public interface Workload {
    /** The {@link org.bgbench.model.Kind#index()} to issue next, for a uniform draw {@code u} in [0, 1). */
    int pickKind(double u);

    /** The socialite: a member index drawn from the socialite distribution over the members this emulator owns. */
    int pickSocialite(RandomGenerator rnd);

    /** The other member of an action (whose profile, friends, resources; IF's invitee), among the same members. */
    int pickTarget(RandomGenerator rnd);

    /** Whether the workload issues the kind with index {@code kind} at all. */
    boolean issues(int kind);
}
