package org.bgbench.model.generator;

/** SplitMix64 finalizer: a cheap, well-distributed hash so every generated value is a pure function of its inputs. */
public final class Mix64 {
    private Mix64() {}

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public static long hash(long seed, long a, long b) {
        return mix(mix(mix(seed + 0x9e3779b97f4a7c15L) ^ a) + b * 0x9e3779b97f4a7c15L);
    }

    /** A double uniform in [0, 1). */
    public static double unit(long h) {
        return (h >>> 11) * 0x1.0p-53;
    }
}
