package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Accuracy and cost of the search against stores whose true SoAR and Socialites are known by brute force
 * (dissertation 7.1, figures 7.3–7.5).
 */
class SearchAccuracyTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:10m");
    private static final Duration BETA = SLA.beta();
    /** Brute force over T = 1 … LIMIT: beyond every curve's Socialites. */
    private static final int LIMIT = 300_000;

    /** Service-time model: c servers, base service time, contention penalty κ·(T−1)^p. */
    static Stream<Arguments> serverCurves() {
        List<Arguments> a = new ArrayList<>();
        for (int c : new int[] {1, 3, 8, 50, 300, 2000}) {
            for (double kappa : new double[] {0, 0.0005, 0.01}) {
                for (double p : new double[] {1, 2}) {
                    for (double s0 : new double[] {0.0005, 0.004, 0.015}) {
                        a.add(Arguments.of(SimulatedStore.servers(c, s0, kappa, p, BETA)));
                    }
                }
            }
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverCurves")
    void optimalFindsTheTrueSoarAndSocialitesExactly(SimulatedStore.Curve curve) {
        SimulatedStore.Truth truth = SimulatedStore.truth(curve, SLA, SLA.duration(), LIMIT);
        assertThat(truth.socialites()).isLessThan(LIMIT); // the brute force saw the whole feasible range
        SimulatedStore store = new SimulatedStore(curve);
        RatingResult r = new Rating(RatingSettings.defaults(SLA), store).rate();

        SoarRating soar = r.soar().orElseThrow();
        assertThat(soar.actionsPerSecond()).isCloseTo(truth.soar(), within(truth.soar() * 1e-12));
        assertThat(curve.throughput(soar.threads())).isEqualTo(soar.actionsPerSecond());
        assertThat(soar.status()).isEqualTo(RatingStatus.CONFIRMED);
        SocialitesRating soc = r.socialites().orElseThrow();
        assertThat(soc.threads()).isEqualTo(truth.socialites());
        assertThat(soc.status()).isEqualTo(RatingStatus.CONFIRMED);
        assertThat(r.warnings()).as("a well-behaved store gives no warnings").isEmpty();
        assertThat(r.complete()).isTrue();
        // O(log T): climbing, doubling, and two searches over intervals of at most 3·T_peak and T_soc.
        assertThat(r.experimentsRun())
                .isEqualTo(store.calls())
                .isLessThanOrEqualTo(4 * log2(truth.soarThreads()) + 2 * log2(truth.socialites()) + 8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverCurves")
    void approximateIsWithinTenPercent(SimulatedStore.Curve curve) {
        SimulatedStore.Truth truth = SimulatedStore.truth(curve, SLA, SLA.duration(), LIMIT);
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .localSearch(LocalSearch.APPROXIMATE)
                                .build(),
                        new SimulatedStore(curve))
                .rate();
        double soar = r.soar().orElseThrow().actionsPerSecond();
        assertThat(soar).isLessThanOrEqualTo(truth.soar()).isGreaterThanOrEqualTo(0.9 * truth.soar());
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(truth.socialites());
    }

    /** The dissertation's synthetic stores: throughput −T² + bT, SoAR = b²/4 from 100 to 100 million. */
    static Stream<Arguments> quadratics() {
        return Stream.of(100, 500, 1_000, 5_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000)
                .map(soar -> Arguments.of(soar, SimulatedStore.quadratic(2 * Math.sqrt(soar), 0)));
    }

    @ParameterizedTest(name = "SoAR {0}")
    @MethodSource("quadratics")
    void dissertationCurvesOptimalExactApproximateWithinTenPercent(int soar, SimulatedStore.Curve curve) {
        int peak = (int) Math.round(Math.sqrt(soar));
        SimulatedStore.Truth truth = SimulatedStore.truth(curve, SLA, SLA.duration(), 2 * peak + 2);
        RatingSettings.Builder b = RatingSettings.builder(SLA).targets(EnumSet.of(Target.SOAR));
        SimulatedStore optimalStore = new SimulatedStore(curve);
        RatingResult optimal = new Rating(b.localSearch(LocalSearch.OPTIMAL).build(), optimalStore).rate();
        SimulatedStore approximateStore = new SimulatedStore(curve);
        RatingResult approximate =
                new Rating(b.localSearch(LocalSearch.APPROXIMATE).build(), approximateStore).rate();

        assertThat(optimal.soar().orElseThrow().actionsPerSecond()).isEqualTo(truth.soar());
        assertThat(optimal.soar().orElseThrow().threads()).isEqualTo(truth.soarThreads());
        assertThat(approximate.soar().orElseThrow().actionsPerSecond()).isGreaterThanOrEqualTo(0.9 * truth.soar());
        assertThat(optimal.socialites()).isEmpty();
        // Figures 7.3, 7.4: tens of experiments even for a SoAR of 10^8 — logarithmic in the peak T.
        assertThat(optimal.experimentsRun()).isLessThanOrEqualTo(4 * log2(peak) + 6);
        assertThat(approximate.experimentsRun()).isLessThanOrEqualTo(2 * log2(peak) + 4);
        assertThat(optimal.warnings()).isEmpty();
    }

    @Test
    void hundredMillionTakesAboutAsManyExperimentsAsTheDissertationReports() {
        // Dissertation 7.1: Optimal, SoAR 100 million: 54 visited states, 44 unique experiments; ~3.14 times the
        // experiments for a SoAR of 500.
        RatingSettings s =
                RatingSettings.builder(SLA).targets(EnumSet.of(Target.SOAR)).build();
        RatingResult big = new Rating(s, new SimulatedStore(SimulatedStore.quadratic(20_000, 0))).rate();
        RatingResult small = new Rating(s, new SimulatedStore(SimulatedStore.quadratic(2 * Math.sqrt(500), 0))).rate();
        assertThat(big.soar().orElseThrow().actionsPerSecond()).isEqualTo(100_000_000);
        assertThat(big.experimentsRun()).isBetween(30, 50);
        assertThat(big.experimentsRun() + big.cacheHits()).isBetween(big.experimentsRun(), 60);
        assertThat((double) big.experimentsRun() / small.experimentsRun()).isBetween(2.0, 4.5);
    }

    @Test
    void approximateIsCheaperOverall() {
        // Figure 7.4: Approximate conducts fewer experiments, though not on every curve (Optimal's first probe at
        // the peak of the climb sometimes lands on the true peak).
        int optimal = 0;
        int approximate = 0;
        for (Arguments a : quadratics().toList()) {
            SimulatedStore.Curve curve = (SimulatedStore.Curve) a.get()[1];
            RatingSettings.Builder b = RatingSettings.builder(SLA).targets(EnumSet.of(Target.SOAR));
            optimal += new Rating(b.localSearch(LocalSearch.OPTIMAL).build(), new SimulatedStore(curve))
                    .rate()
                    .experimentsRun();
            approximate += new Rating(b.localSearch(LocalSearch.APPROXIMATE).build(), new SimulatedStore(curve))
                    .rate()
                    .experimentsRun();
        }
        assertThat(approximate).isLessThan(optimal * 3 / 4);
    }

    @Test
    void largerClimbingFactorsStillFindTheExactPeakWithOptimal() {
        SimulatedStore.Curve curve = SimulatedStore.quadratic(2 * Math.sqrt(1_000_000), 0);
        for (double r : new double[] {1.5, 3, 4, 8}) {
            RatingResult res = new Rating(
                            RatingSettings.builder(SLA)
                                    .climbingFactor(r)
                                    .targets(EnumSet.of(Target.SOAR))
                                    .build(),
                            new SimulatedStore(curve))
                    .rate();
            assertThat(res.soar().orElseThrow().threads()).as("r=%s", r).isEqualTo(1000);
        }
    }

    @Test
    void soarLimitedByTheSlaBeforeThePeak() {
        // Throughput rises up to c = 2000 servers, but β is missed long before: SoAR is the throughput at the
        // largest T that meets the SLA, which is also the Socialites rating.
        SimulatedStore.Curve curve = SimulatedStore.servers(2000, 0.02, 0.001, 1, BETA);
        SimulatedStore.Truth truth = SimulatedStore.truth(curve, SLA, SLA.duration(), 5000);
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(curve)).rate();
        assertThat(truth.soarThreads()).isEqualTo(truth.socialites());
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(truth.soarThreads());
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(truth.socialites());
    }

    @Test
    void staleReadsLimitTheRating() {
        // τ = 0.01 %: unpredictable reads grow with T and cross τ at T = 20.
        SimulatedStore.Curve base = SimulatedStore.servers(64, 0.001, 0, 1, BETA);
        SimulatedStore.Curve stale = new SimulatedStore.Curve() {
            @Override
            public double throughput(int t) {
                return base.throughput(t);
            }

            @Override
            public double withinBetaPct(int t) {
                return base.withinBetaPct(t);
            }

            @Override
            public double unpredictablePct(int t) {
                return t * 0.0005;
            }
        };
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(stale)).rate();
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(20);
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(20);
        assertThat(r.experiments())
                .anySatisfy(e ->
                        assertThat(e.failures()).anySatisfy(f -> assertThat(f).contains("unpredictable")));
    }

    private static int log2(int v) {
        return 32 - Integer.numberOfLeadingZeros(Math.max(1, v));
    }
}
