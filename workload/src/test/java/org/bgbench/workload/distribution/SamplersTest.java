package org.bgbench.workload.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

class SamplersTest {
    @Test
    void aliasSamplerFitsArbitraryWeights() {
        double[] w = {5, 0.5, 0, 1, 3, 0.25, 10, 0.25};
        double total = Arrays.stream(w).sum();
        double[] p = Arrays.stream(w).map(x -> x / total).toArray();
        AliasSampler s = AliasSampler.ofWeights(w);
        assertThat(s.probabilities()).containsExactly(p, within(1e-15));
        long[] counts = Fits.counts(s, w.length, 1_000_000, 21);
        assertThat(counts[2]).isZero();
        assertThat(ChiSquare.fit(counts, p).pValue()).isGreaterThan(1e-4);
        // Negative control: a uniform expectation is rejected.
        double[] flat = new double[w.length];
        Arrays.fill(flat, 1.0 / w.length);
        assertThat(ChiSquare.fit(counts, flat).pValue()).isLessThan(1e-9);
    }

    @Test
    void aliasSamplerOverASubset() {
        int[] members = {100, 7, 42};
        AliasSampler s = AliasSampler.over(members, new double[] {1, 2, 3});
        assertThat(s.probabilities()).containsExactly(new double[] {1 / 6.0, 2 / 6.0, 3 / 6.0}, within(1e-15));
        assertThat(Fits.fit(s, 101, 600_000, 4, new double[] {1 / 6.0, 2 / 6.0, 3 / 6.0})
                        .pValue())
                .isGreaterThan(1e-4);
        assertThatThrownBy(() -> AliasSampler.over(members, new double[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AliasSampler.ofWeights(new double[] {0, 0}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void uniformFits() {
        UniformSampler u = UniformSampler.of(500);
        double[] p = u.probabilities();
        assertThat(Fits.fit(u, 500, 1_000_000, 5, p).pValue()).isGreaterThan(1e-4);
        UniformSampler sub = UniformSampler.over(new int[] {9, 4, 1});
        assertThat(Fits.fit(sub, 10, 300_000, 6, sub.probabilities()).pValue()).isGreaterThan(1e-4);
    }

    @Test
    void distributionSpecBuildsEachKind() {
        assertThat(DistributionSpec.uniform().sampler(10, 1)).isInstanceOf(UniformSampler.class);
        assertThat(DistributionSpec.zipfian(0.27).sampler(10, 1).probabilities())
                .containsExactly(Zipfian.sampler(10, 0.27, 1, true).probabilities(), within(0.0));
        assertThat(DistributionSpec.dzipfian(0.27).sampler(10, 1).probabilities())
                .containsExactly(Zipfian.sampler(10, 0.27, 1, true).probabilities(), within(0.0));
        assertThat(new DistributionSpec(DistributionKind.LATEST, 0.01, true)
                        .sampler(new int[] {1, 2}, 1)
                        .member(0))
                .isEqualTo(2);
        assertThatThrownBy(() -> DistributionSpec.dzipfian(0.27).sampler(new int[] {1, 2}, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("DZipfian.sampler");
        assertThat(DistributionSpec.zipfian(0.27).describe()).isEqualTo("zipfian θ=0.27");
    }

    @Test
    void oneSamplerServesManyVirtualThreads() throws Exception {
        MemberSampler s = Zipfian.sampler(1_000, 0.27, 2, true);
        AtomicLongArray counts = new AtomicLongArray(1_000);
        SplittableRandom root = new SplittableRandom(77);
        int threads = 2_000;
        int each = 500;
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < threads; t++) {
                SplittableRandom rnd = root.split();
                ex.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        counts.incrementAndGet(s.next(rnd));
                    }
                });
            }
        }
        long[] c = new long[1_000];
        for (int i = 0; i < c.length; i++) {
            c[i] = counts.get(i);
        }
        assertThat(Arrays.stream(c).sum()).isEqualTo((long) threads * each);
        assertThat(ChiSquare.fit(c, s.probabilities()).pValue()).isGreaterThan(1e-4);
    }
}
