package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The wording rule of every warning a rating prints: what happened first, a paper reference only in a final
 * parenthesis, and no count or throughput of five digits or more without thousands separators.
 */
class WarningWordingTest {
    private static final Sla SLA = Sla.parse("95%:100ms:0.01%:10m");
    /** Five or more digits in a row that are not part of a grouped or decimal figure. */
    private static final Pattern UNGROUPED = Pattern.compile("(?<![\\d.,])\\d{5,}");
    /** A final parenthesis, optionally followed by a full stop. */
    private static final Pattern FINAL_PARENTHESIS = Pattern.compile("\\(([^()]*)\\)\\.?$");

    @Test
    void aDipAndAnUnconfirmedRatingAreWordedByTheRule() {
        // Dissertation figure 7.8 at 100 times the scale: a local peak, a dip, the true peak at 120,000 actions/s.
        SimulatedStore.Curve curve = SimulatedStore.function(
                t -> 100
                        * (t <= 4
                                ? 100.0 * t
                                : t <= 8
                                        ? 400 - 25.0 * (t - 4)
                                        : t <= 64 ? 300 + 900.0 * (t - 8) / 56 : Math.max(0, 1200 - 5.0 * (t - 64))),
                128);
        // Runs of Δ measure a third less than their δ runs: the confirmation disagrees every time.
        ExperimentRunner runner = (t, d) -> {
            Measurement m = SimulatedStore.measurement(curve, t, d);
            return d.equals(SLA.duration())
                    ? new Measurement(m.throughput() * 0.66, m.withinBetaPct(), 0, 0, m.actions(), m.seconds())
                    : m;
        };
        RatingResult r = new Rating(
                        RatingSettings.builder(SLA)
                                .experimentDuration(Duration.ofMinutes(1))
                                .build(),
                        runner)
                .rate();
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).startsWith("Throughput is not unimodal in T"));
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("120,000 actions/s"));
        assertFollowRule(texts(r));
    }

    @Test
    void probesAConvexClimbAndANonMonotoneSlaAreWordedByTheRule() {
        SimulatedStore.Curve notch = SimulatedStore.function(
                t -> 100 * (t == 47 ? 1000 : t <= 60 ? 100.0 * t : Math.max(0, 6000 - 50.0 * (t - 60))), 200);
        SimulatedStore.Curve convex = SimulatedStore.function(
                t -> 100 * (t <= 32 ? (double) t * t : Math.max(0, 1024 - 10.0 * (t - 32))), 64);
        SimulatedStore.Curve notMonotone = new SimulatedStore.Curve() {
            @Override
            public double throughput(int t) {
                return 1000.0 * Math.min(t, 20) - 100.0 * Math.max(0, t - 20);
            }

            @Override
            public double withinBetaPct(int t) {
                return t == 4 ? 96 : t == 22 ? 90 : t <= 100 ? 99.5 : 50;
            }
        };
        List<String> all = new ArrayList<>();
        for (SimulatedStore.Curve c : List.of(notch, convex, notMonotone)) {
            all.addAll(texts(new Rating(RatingSettings.defaults(SLA), new SimulatedStore(c)).rate()));
        }
        assertThat(all).anySatisfy(w -> assertThat(w).contains("below both neighbours"));
        assertThat(all).anySatisfy(w -> assertThat(w).startsWith("Throughput is not concave in T"));
        assertThat(all).anySatisfy(w -> assertThat(w).contains("within β rises with T"));
        assertThat(all).anySatisfy(w -> assertThat(w).startsWith("T=22 missed the SLA"));
        assertFollowRule(all);
    }

    @Test
    void theDeltaAnalyzersFallbackIsWordedByTheRule() {
        double[] series = new double[90];
        for (int i = 0; i < series.length; i++) {
            series[i] = 12_345 + 5_000.5 * i;
        }
        DeltaAnalyzer.Result r =
                DeltaAnalyzer.analyze(series, new DeltaAnalyzer.Settings(7.25, 3, List.of(1, 10, 30), 0, 0.05), 36_000);
        assertThat(r.converged()).isFalse();
        assertFollowRule(List.of(r.reason()));
    }

    @Test
    void figuresAreGroupedAndShort() {
        assertThat(Stream.of(59_001.0, 120_000.4, 99.5, 96.0, 1.23456, 0.000_123_4, 333.333)
                        .map(Figures::of))
                .containsExactly("59,001", "120,000", "99.5", "96", "1.23", "0.000123", "333.3");
    }

    /** The rating's warnings and the notes on its values. */
    private static List<String> texts(RatingResult r) {
        List<String> t = new ArrayList<>(r.warnings());
        r.soar().ifPresent(s -> addNotes(t, s.notes()));
        r.socialites().ifPresent(s -> addNotes(t, s.notes()));
        return t;
    }

    private static void addNotes(List<String> t, RatingNotes n) {
        Stream.of(n.lowerBound(), n.belowMeasured()).filter(x -> x != null).forEach(t::add);
    }

    private static void assertFollowRule(List<String> warnings) {
        assertThat(warnings).isNotEmpty().allSatisfy(w -> {
            assertThat(UNGROUPED.matcher(w).find())
                    .as("an ungrouped figure of five digits or more in: %s", w)
                    .isFalse();
            String lower = w.toLowerCase(Locale.ROOT);
            int ref = Stream.of("dissertation", "section")
                    .mapToInt(lower::indexOf)
                    .filter(i -> i >= 0)
                    .min()
                    .orElse(-1);
            if (ref >= 0) {
                Matcher last = FINAL_PARENTHESIS.matcher(w);
                assertThat(last.find() && ref > last.start())
                        .as("a paper reference outside the final parenthesis in: %s", w)
                        .isTrue();
            }
        });
    }
}
