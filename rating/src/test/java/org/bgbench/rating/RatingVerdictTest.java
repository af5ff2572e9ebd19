package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rating's verdict against scripted measurements: a confirmation that disagrees with its δ run, a SoAR below an
 * SLA-meeting point, and bounds, each in the result, its JSON and the terminal headline.
 */
class RatingVerdictTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:5s");
    private static final Duration SMALL = Duration.ofSeconds(2);
    private static final Duration BIG = SLA.duration();

    /** A peak of 46,031 at T=4 over δ (climb 1, 2, 4, 8; Optimal probes 3 and 5). */
    private static ScriptedRunner peakAtFour() {
        return new ScriptedRunner()
                .meets(1, SMALL, 26_697)
                .meets(2, SMALL, 40_000)
                .meets(3, SMALL, 45_000)
                .meets(4, SMALL, 46_031)
                .meets(5, SMALL, 35_000)
                .meets(8, SMALL, 30_000);
    }

    private static RatingResult soar(ScriptedRunner runner, int maxThreads, Duration delta) {
        return new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(delta)
                                .targets(EnumSet.of(Target.SOAR))
                                .maxThreads(maxThreads)
                                .build(),
                        runner)
                .rate();
    }

    @Test
    void aConfirmationThatKeepsDisagreeingIsRepeatedThenUnstableWithBothFigures() {
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 10_728, 11_002, 10_900);
        RatingResult r = soar(runner, 16, SMALL);
        SoarRating soar = r.soar().orElseThrow();

        assertThat(soar.status()).isEqualTo(RatingStatus.UNSTABLE);
        assertThat(runner.calls().stream().filter(c -> c.equals("4@5s"))).hasSize(1 + Rating.CONFIRMATION_REPEATS);
        assertThat(soar.actionsPerSecond()).isEqualTo(46_031);
        assertThat(soar.notes().confirmations())
                .extracting(Experiment::throughput)
                .containsExactly(10_728.0, 11_002.0, 10_900.0);
        Map<String, Object> json = soar.toMap();
        assertThat(json)
                .containsEntry("status", "unstable")
                .containsEntry("search_throughput", 46_031.0)
                .containsEntry("confirmation_throughputs", List.of(10_728.0, 11_002.0, 10_900.0));
        String headline = RatingHeadline.lines(r, RatingReport.Axis.THREADS, null);
        assertThat(headline)
                .doesNotContain("CONFIRMED")
                .contains("UNSTABLE")
                .contains("46,031")
                .contains("10,728, 11,002, 10,900");
        assertThat(r.warnings())
                .anySatisfy(w -> assertThat(w).contains("unstable").contains("-76.7%"));
    }

    @Test
    void aRepeatThatAgreesConfirmsAndTheFirstAttemptIsExplained() {
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 60_000, 45_500);
        SoarRating soar = soar(runner, 16, SMALL).soar().orElseThrow();

        assertThat(soar.status()).isEqualTo(RatingStatus.CONFIRMED);
        assertThat(soar.actionsPerSecond()).isEqualTo(45_500);
        assertThat(soar.notes().confirmations()).hasSize(2);
        // The first attempt met the SLA with 60,000: above the SoAR, so said why.
        assertThat(soar.notes().belowMeasured()).contains("60,000").contains("confirmation attempt");
    }

    @Test
    void aSoarBelowAnSlaMeetingPointSaysWhy() {
        // Confirmed within the tolerance (−8.8 %) at T=4, but below the δ runs at T=3 and T=4.
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 42_000);
        RatingResult r = soar(runner, 16, SMALL);
        SoarRating soar = r.soar().orElseThrow();

        assertThat(soar.status()).isEqualTo(RatingStatus.CONFIRMED);
        assertThat(soar.actionsPerSecond()).isEqualTo(42_000);
        assertThat(soar.notes().belowMeasured())
                .contains("T=4")
                .contains("46,031")
                .contains("confirmation run of Δ=5s");
        assertThat(soar.toMap().get("below_measured")).isEqualTo(soar.notes().belowMeasured());
        assertThat(RatingHeadline.lines(r, RatingReport.Axis.THREADS, null))
                .contains("Why below a measured figure: experiment");
    }

    @Test
    void aSoarAtTheTopOfItsOwnExperimentsHasNoExplainingLine() {
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 47_000);
        RatingResult r = soar(runner, 16, SMALL);
        assertThat(r.soar().orElseThrow().notes().belowMeasured()).isNull();
        assertThat(RatingHeadline.lines(r, RatingReport.Axis.THREADS, null)).doesNotContain("Why below");
    }

    @Test
    void maxThreadsStillMeetingTheSlaIsALowerBoundInTheTerminalAndTheJson() {
        ScriptedRunner runner = new ScriptedRunner();
        for (int t = 1; t <= 16; t++) {
            runner.meets(t, BIG, 1000.0 * t);
        }
        RatingResult r = new Rating(RatingSettings.builder(SLA).maxThreads(16).build(), runner).rate();

        SoarRating soar = r.soar().orElseThrow();
        SocialitesRating socialites = r.socialites().orElseThrow();
        assertThat(soar.threads()).isEqualTo(16);
        assertThat(socialites.threads()).isEqualTo(16);
        assertThat(soar.toMap()).containsEntry("lower_bound", true);
        assertThat((String) soar.toMap().get("lower_bound_reason")).contains("max-threads=16");
        assertThat(socialites.toMap()).containsEntry("lower_bound", true);
        assertThat((String) socialites.toMap().get("lower_bound_reason")).contains("max-threads=16");
        Map<String, Object> json = r.toMap();
        assertThat(((Map<?, ?>) json.get("socialites")).get("lower_bound")).isEqualTo(true);

        String headline = RatingHeadline.lines(r, RatingReport.Axis.THREADS, null);
        assertThat(headline).contains("SoAR     ≥ 16,000 actions/s at T=16").contains("Socialites ≥ 16 ");
    }

    @Test
    void aPeakBelowMaxThreadsIsNoBound() {
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 46_000).misses(8, BIG, 1);
        RatingResult r = soar(runner, 16, SMALL);
        assertThat(r.soar().orElseThrow().toMap()).containsEntry("lower_bound", false);
        assertThat(RatingHeadline.lines(r, RatingReport.Axis.THREADS, null)).doesNotContain("≥");
    }

    @Test
    void aClimbToMaxThreadsWhoseLocalSearchFindsThePeakBelowIsNoBoundAndNoWarning() {
        // The climb 1, 2, 4, 8, 16 rises to max-threads=16; Optimal then finds the peak at T=12.
        double[] curve = {
            1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 8_500, 9_000, 9_500, 10_500, 10_000, 9_800, 9_500,
            9_000
        };
        ScriptedRunner runner = new ScriptedRunner().meets(12, BIG, 10_400);
        for (int t = 1; t <= 16; t++) {
            runner.meets(t, SMALL, curve[t - 1]);
        }
        RatingResult r = soar(runner, 16, SMALL);
        SoarRating soar = r.soar().orElseThrow();

        assertThat(runner.calls()).contains("16@2s");
        assertThat(soar.threads()).isEqualTo(12);
        assertThat(soar.lowerBound()).isFalse();
        assertThat(r.warnings()).noneSatisfy(w -> assertThat(w).contains("max-threads"));
        assertThat(RatingHeadline.lines(r, RatingReport.Axis.THREADS, null))
                .doesNotContain("≥")
                .doesNotContain("max-threads");
    }

    @Test
    void aClimbToMaxThreadsWithThePeakThereWarnsOnce() {
        ScriptedRunner runner = new ScriptedRunner().meets(16, BIG, 16_000);
        for (int t = 1; t <= 16; t++) {
            runner.meets(t, SMALL, 1_000.0 * t);
        }
        RatingResult r = soar(runner, 16, SMALL);

        assertThat(r.soar().orElseThrow().lowerBound()).isTrue();
        assertThat(r.warnings())
                .filteredOn(w -> w.contains("reached max-threads=16"))
                .hasSize(1);
    }

    @Test
    void aNoisyHostIsNamedOnTheHeadlineItself() {
        RatingResult r = soar(peakAtFour().meets(4, BIG, 46_000), 16, SMALL);
        String first = RatingHeadline.lines(r, RatingReport.Axis.THREADS, "the machine's CPU was saturated")
                .lines()
                .findFirst()
                .orElseThrow();
        assertThat(first).startsWith("SoAR").contains("noisy host: the machine's CPU was saturated");
    }

    @Test
    void anUnstableSoarBelowAnAttemptSaysNoAttemptAgreed() {
        ScriptedRunner runner = peakAtFour().meets(4, BIG, 60_000, 10_000, 11_000);
        SoarRating soar = soar(runner, 16, SMALL).soar().orElseThrow();
        assertThat(soar.status()).isEqualTo(RatingStatus.UNSTABLE);
        assertThat(soar.notes().belowMeasured()).contains("60,000").contains("no attempt agreed");
    }

    @Test
    void socialitesAtTheSoarsThreadsReusesTheSoarsConfirmationRuns() {
        // Peak and Socialites both at T=4: T=5 and beyond miss the SLA.
        ScriptedRunner runner = new ScriptedRunner()
                .meets(1, SMALL, 26_697)
                .meets(2, SMALL, 40_000)
                .meets(3, SMALL, 45_000)
                .meets(4, SMALL, 46_031)
                .misses(8, SMALL, 30_000)
                .misses(5, SMALL, 35_000)
                .misses(6, SMALL, 30_000)
                .meets(4, BIG, 10_728, 11_002, 10_900);
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(SMALL)
                                .maxThreads(16)
                                .build(),
                        runner)
                .rate();
        assertThat(runner.calls().stream().filter(c -> c.equals("4@5s"))).hasSize(1 + Rating.CONFIRMATION_REPEATS);
        assertThat(r.socialites().orElseThrow().threads()).isEqualTo(4);
        assertThat(r.socialites().orElseThrow().status()).isEqualTo(RatingStatus.UNSTABLE);
    }
}
