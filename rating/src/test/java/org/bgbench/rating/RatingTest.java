package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Behaviour of the rating beyond accuracy: cache, zero, warnings, stopping, confirmation, resuming, limits. */
class RatingTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:10m");
    /** Peak throughput at T = 8, Socialites 121. */
    private static final SimulatedStore.Curve CURVE = SimulatedStore.servers(8, 0.001, 0.01, 1, SLA.beta());

    @Test
    void neverRunsTheSameExperimentTwice() {
        SimulatedStore store = new SimulatedStore(CURVE); // fails the test on a repeat
        RatingResult r = new Rating(RatingSettings.defaults(SLA), store).rate();
        assertThat(r.experimentsRun())
                .isEqualTo(store.calls())
                .isEqualTo(r.experiments().size());
        assertThat(r.cacheHits()).isPositive();
        // With r = 2 Socialites' doubling is SoAR's climb: it only adds the T beyond where the climb stopped.
        List<Integer> doubling = r.experiments().stream()
                .filter(e -> e.phase() == Phase.SOCIALITES_DOUBLING)
                .map(Experiment::threads)
                .toList();
        assertThat(doubling).containsExactly(32, 64, 128);
        // δ = Δ: the confirmation runs are the search's own experiments.
        assertThat(r.experiments()).noneMatch(e -> e.phase() == Phase.CONFIRMATION);
        assertThat(r.soar().orElseThrow().confirmation())
                .isSameAs(r.soar().orElseThrow().search());
    }

    @Test
    void confirmationRunsOfDeltaFollowShorterSearchRuns() {
        // Runs of Δ measure 2 % less than runs of δ (within the 10 % tolerated).
        List<String> asked = new ArrayList<>();
        ExperimentRunner runner = (t, d) -> {
            asked.add(t + "/" + d);
            Measurement m = SimulatedStore.measurement(CURVE, t, d);
            return d.equals(SLA.duration())
                    ? new Measurement(m.throughput() * 0.98, m.withinBetaPct(), 0, 0, m.actions(), m.seconds())
                    : m;
        };
        RatingSettings s = RatingSettings.builder(SLA)
                .experimentDuration(Duration.ofSeconds(30))
                .build();
        RatingResult r = new Rating(s, runner).rate();
        assertThat(new HashSet<>(asked)).hasSameSizeAs(asked);
        SoarRating soar = r.soar().orElseThrow();
        SocialitesRating soc = r.socialites().orElseThrow();
        assertThat(soar.status()).isEqualTo(RatingStatus.CONFIRMED);
        assertThat(soc.status()).isEqualTo(RatingStatus.CONFIRMED);
        assertThat(soar.threads()).isEqualTo(8);
        assertThat(soc.threads()).isEqualTo(121);
        assertThat(soar.confirmation().duration()).isEqualTo(SLA.duration());
        assertThat(soar.search().duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(soar.actionsPerSecond())
                .isEqualTo(soar.confirmation().throughput())
                .isEqualTo(CURVE.throughput(8) * 0.98);
        List<Experiment> confirmations = r.experiments().stream()
                .filter(e -> e.phase() == Phase.CONFIRMATION)
                .toList();
        assertThat(confirmations).extracting(Experiment::threads).containsExactly(8, 121);
        assertThat(r.experiments().get(r.experiments().size() - 1).phase()).isEqualTo(Phase.CONFIRMATION);
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void failedConfirmationIsReportedNotHidden() {
        ExperimentRunner runner = (t, d) -> {
            Measurement m = SimulatedStore.measurement(CURVE, t, d);
            // Over Δ the store degrades: only 90 % within β, and throughput drops by 30 %.
            return d.equals(SLA.duration())
                    ? new Measurement(m.throughput() * 0.7, 90, 0, 0, m.actions(), m.seconds())
                    : m;
        };
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(Duration.ofMinutes(1))
                                .targets(EnumSet.of(Target.SOAR))
                                .build(),
                        runner)
                .rate();
        SoarRating soar = r.soar().orElseThrow();
        assertThat(soar.status()).isEqualTo(RatingStatus.CONFIRMATION_FAILED);
        assertThat(soar.actionsPerSecond()).isEqualTo(soar.search().throughput());
        assertThat(soar.confirmation().success()).isFalse();
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .contains("confirmation run of Δ=10m at T=8 missed " + "the SLA")
                        .contains("longer δ"));
        assertThat(r.warnings())
                .anySatisfy(
                        w -> assertThat(w).contains("δ is probably too short").contains("-30.0%"));
    }

    @Test
    void withoutConfirmationTheRatingIsUnconfirmedUnlessDeltaIsDelta() {
        SimulatedStore store = new SimulatedStore(CURVE);
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(Duration.ofSeconds(20))
                                .confirm(false)
                                .build(),
                        store)
                .rate();
        assertThat(r.soar().orElseThrow().status()).isEqualTo(RatingStatus.UNCONFIRMED);
        assertThat(r.socialites().orElseThrow().status()).isEqualTo(RatingStatus.UNCONFIRMED);
        assertThat(r.experiments()).allMatch(e -> e.duration().equals(Duration.ofSeconds(20)));
        RatingResult full =
                new Rating(RatingSettings.builder(SLA).confirm(false).build(), new SimulatedStore(CURVE)).rate();
        assertThat(full.soar().orElseThrow().status()).isEqualTo(RatingStatus.CONFIRMED);
    }

    @Test
    void tOneFailingGivesZero() {
        // One server with a 50 ms service time: only 86 % of actions within 100 ms, even alone.
        SimulatedStore store = new SimulatedStore(SimulatedStore.servers(1, 0.05, 0, 1, SLA.beta()));
        RatingResult r = new Rating(RatingSettings.defaults(SLA), store).rate();
        assertThat(r.soar().orElseThrow()).isEqualTo(new SoarRating(0, 0, RatingStatus.ZERO, null, null));
        assertThat(r.socialites().orElseThrow().threads()).isZero();
        assertThat(r.socialites().orElseThrow().status()).isEqualTo(RatingStatus.ZERO);
        assertThat(store.calls()).isEqualTo(1);
        assertThat(r.experiments().get(0).failures())
                .containsExactly("86.47% of actions within β=100ms, α requires 95%");
        assertThat(r.complete()).isTrue();
        assertThat(map(r.toMap().get("soar")).get("actions_per_second")).isEqualTo(0.0);
    }

    @Test
    void nonUnimodalThroughputIsReportedAndTheBestObservedThroughputWins() {
        // Dissertation figure 7.8: a local peak at T = 4, a dip at T = 8, the true peak at T = 64.
        SimulatedStore.Curve curve = SimulatedStore.function(
                t -> t <= 4
                        ? 100.0 * t
                        : t <= 8
                                ? 400 - 25.0 * (t - 4)
                                : t <= 64 ? 300 + 900.0 * (t - 8) / 56 : Math.max(0, 1200 - 5.0 * (t - 64)),
                128);
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(curve)).rate();
        // The hill climbing stopped at T = 8 and the local search ended at T = 4 (400 actions/s); the Socialites
        // doubling then measured 1,200 actions/s at T = 64, which met the SLA: that is the SoAR reported.
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(64);
        assertThat(r.soar().orElseThrow().actionsPerSecond()).isEqualTo(1200);
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(128);
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith("Throughput is not unimodal in T")
                        .contains("300 at T=8 between 400 at T=4 and 1,200 at T=64"));
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .contains("was measured at T=64 (socialites-doubling)"
                                + ", not where the optimal search ended (T=4)"));
        assertThat(r.complete()).isTrue();
    }

    @Test
    void aDipBetweenNeighboursWidensTheOptimalProbes() {
        // Rising to 6,000 actions/s at T = 60, with a notch at T = 47: the first midpoint Optimal probes after
        // the climb's peak (64) sends it left into [32, 63]. Both neighbours of 47 are higher; widening the probes
        // (45/49, 43/51, 39/55, then only 63 is inside) finds the right side rising.
        SimulatedStore.Curve curve = SimulatedStore.function(
                t -> t == 47 ? 1000 : t <= 60 ? 100.0 * t : Math.max(0, 6000 - 50.0 * (t - 60)), 200);
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .targets(EnumSet.of(Target.SOAR))
                                .build(),
                        new SimulatedStore(curve))
                .rate();
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(60);
        assertThat(r.experiments()).extracting(Experiment::threads).contains(45, 49, 43, 51, 39, 55, 63);
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w).contains("below both neighbours").contains("widening"));
    }

    @Test
    void convexGrowthIsReportedAsNotConcave() {
        SimulatedStore.Curve curve =
                SimulatedStore.function(t -> t <= 32 ? (double) t * t : Math.max(0, 1024 - 10.0 * (t - 32)), 64);
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(curve)).rate();
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(32);
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith("Throughput is not concave in T below " + "its peak")
                        .contains("4 at T=2 against 6 on the line from T=1 to T=4"));
        assertThat(r.warnings()).noneMatch(w -> w.contains("not unimodal"));
    }

    @Test
    void adaptiveClimbingDoublesTheFactorWhenThroughputMoreThanKeepsUp() {
        SimulatedStore.Curve curve =
                SimulatedStore.function(t -> t <= 32 ? (double) t * t : Math.max(0, 1024 - 10.0 * (t - 32)), 64);
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .adaptiveClimbing(true)
                                .targets(EnumSet.of(Target.SOAR))
                                .build(),
                        new SimulatedStore(curve))
                .rate();
        // 1 → 2: throughput ×4 > r = 2, so r = 4; 2 → 8: ×16 > 4, so r = 8; 8 → 64: ×11 > 8, so r = 16;
        // 64 → 1024 misses the SLA. The local search then covers [8, 1024].
        assertThat(r.experiments().stream()
                        .filter(e -> e.phase() == Phase.SOAR_CLIMB)
                        .map(Experiment::threads))
                .containsExactly(1, 2, 8, 64, 1024);
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(32);
        assertThat(r.soar().orElseThrow().actionsPerSecond()).isEqualTo(1024);
    }

    @Test
    void withinBetaRisingWithThreadsIsReported() {
        SimulatedStore.Curve curve = new SimulatedStore.Curve() {
            @Override
            public double throughput(int t) {
                return 100.0 * Math.min(t, 16) - Math.max(0, t - 16);
            }

            @Override
            public double withinBetaPct(int t) {
                return t == 4 ? 96 : t <= 40 ? 99.5 : 50;
            }
        };
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(curve)).rate();
        assertThat(r.warnings())
                .anySatisfy(
                        w -> assertThat(w).contains("within β rises with T").contains("96% at T=4 but 99.5% at T=8"));
    }

    @Test
    void slaOutcomeThatIsNotMonotoneIsReported() {
        // T = 22 alone misses β; Optimal probes it as a neighbour, the Socialites search passes beyond it.
        SimulatedStore.Curve curve = new SimulatedStore.Curve() {
            @Override
            public double throughput(int t) {
                return 100.0 * Math.min(t, 20) - 10.0 * Math.max(0, t - 20);
            }

            @Override
            public double withinBetaPct(int t) {
                return t == 22 ? 90 : t <= 100 ? 99 : 50;
            }
        };
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(curve)).rate();
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(100);
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith("T=22 missed the SLA (90% of actions")
                        .contains("but the larger T=100 met it"));
    }

    @Test
    void aRunnerFailureStopsTheRatingWithWhatItHas() {
        SimulatedStore store = new SimulatedStore(CURVE);
        List<Experiment> seen = new ArrayList<>();
        ExperimentRunner dying = (t, d) -> {
            if (store.calls() == 3) {
                throw new IOException("connection refused: the store died");
            }
            return store.run(t, d);
        };
        RatingResult r = new Rating(RatingSettings.defaults(SLA), dying)
                .listener(seen::add)
                .rate();
        assertThat(r.complete()).isFalse();
        assertThat(r.stopReason())
                .hasValue("the experiment with T=8 (10m) failed: connection refused: the " + "store died");
        assertThat(r.stopCause()).containsInstanceOf(IOException.class);
        assertThat(r.experiments()).extracting(Experiment::threads).containsExactly(1, 2, 4);
        assertThat(seen).isEqualTo(r.experiments());
        assertThat(r.soar().orElseThrow().status()).isEqualTo(RatingStatus.INCOMPLETE);
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(4);
        assertThat(r.socialites().orElseThrow().status()).isEqualTo(RatingStatus.INCOMPLETE);
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(4);
        assertThat(r.toMap())
                .containsEntry("complete", false)
                .containsEntry("stop_reason", r.stopReason().orElseThrow());
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).startsWith("The rating stopped early"));
    }

    @Test
    void aRunnerReturningNothingStopsTheRating() {
        RatingResult r = new Rating(RatingSettings.defaults(SLA), (t, d) -> null).rate();
        assertThat(r.stopReason()).hasValue("the experiment with T=1 returned no measurement");
        assertThat(r.soar().orElseThrow()).isEqualTo(new SoarRating(0, 0, RatingStatus.INCOMPLETE, null, null));
    }

    @Test
    void stopOnRequestBeforeTheNextExperiment() {
        SimulatedStore store = new SimulatedStore(CURVE);
        Rating[] rating = new Rating[1];
        rating[0] = new Rating(RatingSettings.defaults(SLA), store).listener(e -> {
            if (e.index() == 2) {
                rating[0].requestStop("Ctrl-C");
            }
        });
        RatingResult r = rating[0].rate();
        assertThat(r.stopReason()).hasValue("stopped on request: Ctrl-C");
        assertThat(store.calls()).isEqualTo(2);
    }

    @Test
    void interruptionStopsTheRating() {
        try {
            RatingResult r = new Rating(RatingSettings.defaults(SLA), (t, d) -> {
                        throw new InterruptedException();
                    })
                    .rate();
            assertThat(r.stopReason()).hasValue("interrupted during the experiment with T=1");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void maxExperimentsAndMaxThreadsBoundTheSearch() {
        RatingResult few =
                new Rating(RatingSettings.builder(SLA).maxExperiments(5).build(), new SimulatedStore(CURVE)).rate();
        assertThat(few.experimentsRun()).isEqualTo(5);
        assertThat(few.stopReason()).hasValueSatisfying(s -> assertThat(s).contains("max-experiments=5"));

        // Throughput grows without end and the SLA always holds: the cap ends the climb.
        SimulatedStore.Curve endless = SimulatedStore.function(t -> 10.0 * t, Integer.MAX_VALUE);
        RatingResult capped =
                new Rating(RatingSettings.builder(SLA).maxThreads(100).build(), new SimulatedStore(endless)).rate();
        assertThat(capped.soar().orElseThrow().threads()).isEqualTo(100);
        assertThat(capped.socialites().orElseThrow().threads()).isEqualTo(100);
        assertThat(capped.warnings()).anySatisfy(w -> assertThat(w).contains("reached max-threads=100"));
        assertThat(capped.warnings()).anySatisfy(w -> assertThat(w).contains("T=max-threads=100 still met the SLA"));
        assertThat(capped.experiments()).allMatch(e -> e.threads() <= 100);
    }

    @Test
    void aFailingListenerBecomesAWarning() {
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(CURVE))
                .listener(e -> {
                    throw new IllegalStateException("disk full");
                })
                .rate();
        assertThat(r.complete()).isTrue();
        assertThat(r.soar().orElseThrow().threads()).isEqualTo(8);
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w).contains("listener failed").contains("disk full"));
    }

    @Test
    void resumesFromTheExperimentsOfAnInterruptedRating() {
        SimulatedStore first = new SimulatedStore(CURVE);
        AtomicInteger calls = new AtomicInteger();
        RatingSettings settings = RatingSettings.builder(SLA)
                .experimentDuration(Duration.ofMinutes(1))
                .build();
        RatingResult interrupted = new Rating(settings, (t, d) -> {
                    if (calls.incrementAndGet() == 7) {
                        throw new IOException("worker lost");
                    }
                    return first.run(t, d);
                })
                .rate();
        assertThat(interrupted.experimentsRun()).isEqualTo(6);

        // Saved as JSON-like maps, read back.
        List<Experiment> saved = new ArrayList<>();
        for (Object o : (List<?>) interrupted.toMap().get("experiments")) {
            saved.add(Experiment.fromMap(map(o)));
        }
        Set<Integer> savedThreads =
                new HashSet<>(saved.stream().map(Experiment::threads).toList());
        SimulatedStore second = new SimulatedStore(CURVE);
        RatingResult resumed = new Rating(settings, second).resumeFrom(saved).rate();
        assertThat(second.asked)
                .noneMatch(k -> k.duration().equals(Duration.ofMinutes(1)) && savedThreads.contains(k.threads()));
        RatingResult fresh = new Rating(settings, new SimulatedStore(CURVE)).rate();
        assertThat(resumed.soar().orElseThrow().threads())
                .isEqualTo(fresh.soar().orElseThrow().threads());
        assertThat(resumed.socialites().orElseThrow().threads())
                .isEqualTo(fresh.socialites().orElseThrow().threads());
        assertThat(resumed.experimentsRun()).isEqualTo(fresh.experimentsRun() - 6);
        assertThat(resumed.experiments().subList(0, 6)).allMatch(Experiment::resumed);
        assertThat(resumed.experiments())
                .extracting(Experiment::index)
                .isEqualTo(IntStream.rangeClosed(1, resumed.experiments().size())
                        .boxed()
                        .toList());
    }

    @Test
    void onlyTheRequestedRatings() {
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .targets(EnumSet.of(Target.SOCIALITES))
                                .build(),
                        new SimulatedStore(CURVE))
                .rate();
        assertThat(r.soar()).isEmpty();
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(121);
        assertThat(r.experiments())
                .allMatch(e -> e.phase() == Phase.SOCIALITES_DOUBLING || e.phase() == Phase.SOCIALITES_BINARY);
        assertThat(r.toMap()).containsEntry("soar", null);
    }

    @Test
    void resultMapHasTheDocumentedKeys() {
        RatingResult r = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(CURVE)).rate();
        Map<String, Object> m = r.toMap();
        assertThat(m)
                .containsKeys(
                        "soar",
                        "socialites",
                        "experiments",
                        "experiment_count",
                        "experiments_run",
                        "cache_hits",
                        "total_seconds",
                        "experiment_seconds",
                        "warnings",
                        "complete",
                        "stop_reason",
                        "sla",
                        "settings");
        assertThat(map(m.get("soar")))
                .containsEntry("threads", 8)
                .containsEntry("status", "confirmed")
                .containsKeys("actions_per_second", "search_experiment", "confirmation_experiment");
        assertThat(map(m.get("socialites"))).containsEntry("threads", 121);
        assertThat((List<?>) m.get("experiments")).hasSize(r.experiments().size());
        assertThat(map(((List<?>) m.get("experiments")).get(0)))
                .containsKeys(
                        "threads",
                        "duration",
                        "throughput",
                        "within_beta_pct",
                        "unpredictable_pct",
                        "errors",
                        "success",
                        "seconds",
                        "phase");
        assertThat(m.get("experiment_count")).isEqualTo(r.experiments().size());
        assertThat(map(m.get("sla"))).containsEntry("text", "95%:100ms:0.01%:10m");
    }

    @Test
    void aRatingRunsOnce() {
        Rating rating = new Rating(RatingSettings.defaults(SLA), new SimulatedStore(CURVE));
        rating.rate();
        assertThatThrownBy(rating::rate).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rating.listener(RatingListener.NONE)).isInstanceOf(IllegalStateException.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
