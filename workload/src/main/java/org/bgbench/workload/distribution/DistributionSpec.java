package org.bgbench.workload.distribution;

import java.util.Locale;

/**
 * A distribution to pick members with: its kind, θ (for the skewed kinds) and whether Zipfian ranks are scattered
 * over the member indexes by a seeded permutation.
 *
 * @param kind     uniform, zipfian, dzipfian or latest
 * @param theta    θ of eq. 4.1, 0 (most skewed) to 1 (uniform); ignored by uniform
 * @param scramble whether rank → member is the seeded permutation ({@code true}) or the identity (rank 1 = member 0);
 *                 latest never scrambles
 */
public record DistributionSpec(DistributionKind kind, double theta, boolean scramble) {
    public DistributionSpec {
        if (kind == null) {
            throw new IllegalArgumentException("distribution kind is required");
        }
        Zipfian.checkTheta("zipfianmean", theta);
    }

    public static DistributionSpec uniform() {
        return new DistributionSpec(DistributionKind.UNIFORM, Zipfian.DEFAULT_THETA, true);
    }

    public static DistributionSpec zipfian(double theta) {
        return new DistributionSpec(DistributionKind.ZIPFIAN, theta, true);
    }

    public static DistributionSpec dzipfian(double theta) {
        return new DistributionSpec(DistributionKind.DZIPFIAN, theta, true);
    }

    /**
     * A sampler over members 0..members−1. D-Zipfian over the whole population is the centralised Zipfian (one
     * worker); with N workers each worker uses {@link DZipfian#sampler(int)} instead.
     */
    public MemberSampler sampler(int members, long seed) {
        return switch (kind) {
            case UNIFORM -> UniformSampler.of(members);
            case ZIPFIAN, DZIPFIAN -> Zipfian.sampler(members, theta, seed, scramble);
            case LATEST -> Zipfian.latest(members, theta);
        };
    }

    /**
     * A sampler over a subset of members (e.g. a worker's own, or one fragment's). Zipfian ranks are then local to the
     * subset. Not defined for D-Zipfian: a worker's share of a D-Zipfian must come from {@link DZipfian#sampler(int)},
     * which keeps the global distribution; a local Zipfian would not (the dissertation's "Crude").
     *
     * @throws IllegalStateException for {@link DistributionKind#DZIPFIAN}
     */
    public MemberSampler sampler(int[] members, long seed) {
        return switch (kind) {
            case UNIFORM -> UniformSampler.over(members);
            case ZIPFIAN -> Zipfian.sampler(members, theta, seed, scramble);
            case LATEST -> Zipfian.latest(members, theta);
            case DZIPFIAN ->
                throw new IllegalStateException("a D-Zipfian over a worker's members comes from "
                        + "DZipfian.sampler(worker), not from a member subset");
        };
    }

    /** E.g. {@code zipfian θ=0.27} or {@code uniform}. */
    public String describe() {
        return kind.skewed()
                ? String.format(
                        Locale.ROOT,
                        "%s θ=%s%s",
                        kind.key(),
                        theta,
                        scramble || kind == DistributionKind.LATEST ? "" : " (unscrambled)")
                : kind.key();
    }
}
