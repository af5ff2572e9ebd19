package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A rate study's {@code kind} and rating options are read strictly, each mistake one line naming the field. */
class RateStudyParserTest {
    @Test
    void kindDefaultsToRunAndRateReadsItsRatingOptions() {
        assertThat(StudyParser.parse("t", StudyFiles.VALID).subjects().kind()).isEqualTo(Study.Kind.RUN);
        Study s = StudyParser.parse("t", RateStudyFiles.VALID);
        assertThat(s.subjects().kind()).isEqualTo(Study.Kind.RATE);
        assertThat(s.output().measures()).containsExactly(Measure.RATING_S, Measure.SOAR, Measure.EXPERIMENTS);
        RatingOptions tinyImage = RateStudyCheck.options(
                s.scales().get(Scale.TINY), s.subjects().settings().get(1));
        // The setting's δ and reset over the scale's; the scale's SLA, T bound and target; bg rate's defaults else.
        assertThat(tinyImage.delta()).isEqualTo(Duration.ofMillis(200));
        assertThat(tinyImage.reset()).isEqualTo("image");
        assertThat(tinyImage.sla()).isEqualTo("95%:100ms:0.01%:1s");
        assertThat(tinyImage.search()).isEqualTo(new RatingOptions.Search("optimal", 2, 4));
        assertThat(tinyImage.target()).isEqualTo("soar");
        assertThat(tinyImage.warmup()).isEqualTo(Duration.ZERO);
        assertThat(tinyImage.confirm()).isTrue();
        RatingOptions small = RateStudyCheck.options(
                s.scales().get(Scale.SMALL), s.subjects().settings().get(0));
        assertThat(small.search()).isEqualTo(new RatingOptions.Search("approximate", 4, 1024));
        assertThat(small.reset()).isEqualTo("reload");
        assertThat(small.sla()).isEqualTo(RatingOptions.DEFAULTS.sla());
        assertThat(small.warmup()).isEqualTo(Duration.ofSeconds(2));
        assertThat(small.confirm()).isFalse();
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("bad kind", RateStudyFiles.with("kind: rate", "kind: sweep"), "kind: expected run (one"),
                Arguments.of(
                        "unknown rating field",
                        RateStudyFiles.with("target: soar}", "target: soar, speed: 2}"),
                        "scales.tiny.rating.speed: unknown field; accepted: sla, delta, search, climbing_factor, reset,"
                                + " target, max_threads, warmup, confirm"),
                Arguments.of(
                        "bad SLA",
                        RateStudyFiles.with("sla: \"95%:100ms:0.01%:1s\"", "sla: \"95%:100ms\""),
                        "scales.tiny.rating.sla: expected 4 or 5 parts"),
                Arguments.of(
                        "bad SLA part",
                        RateStudyFiles.with("sla: \"95%:100ms:0.01%:1s\"", "sla: \"95%:fast:0.01%:1s\""),
                        "scales.tiny.rating.sla: sla (β, 2nd part)"),
                Arguments.of(
                        "bad δ",
                        RateStudyFiles.with("delta: 500ms", "delta: soon"),
                        "scales.tiny.rating.delta: expected a duration such as 500ms"),
                Arguments.of(
                        "δ longer than Δ",
                        RateStudyFiles.with("delta: 500ms", "delta: 5s"),
                        "scales.tiny.rating.delta: δ (5s) must not be longer than the SLA's Δ (1s)"),
                Arguments.of(
                        "a setting's δ longer than Δ",
                        RateStudyFiles.with("delta: 200ms", "delta: 2s"),
                        "settings[1].rating.delta: δ (2s) must not be longer than the SLA's Δ (1s)"),
                Arguments.of(
                        "bad warm-up",
                        RateStudyFiles.with("warmup: 0s", "warmup: -1s"),
                        "scales.tiny.rating.warmup: expected a duration such as 500ms, 2s or 1m (0s allowed)"),
                Arguments.of(
                        "bad search",
                        RateStudyFiles.with("search: approximate", "search: greedy"),
                        "scales.small.rating.search: expected optimal, approximate, got 'greedy'"),
                Arguments.of(
                        "bad climbing factor",
                        RateStudyFiles.with("climbing_factor: 4", "climbing_factor: 1"),
                        "scales.small.rating.climbing_factor: the climbing factor r must be a number above 1"),
                Arguments.of(
                        "climbing factor not a number",
                        RateStudyFiles.with("climbing_factor: 4", "climbing_factor: fast"),
                        "scales.small.rating.climbing_factor: expected a number, got 'fast'"),
                Arguments.of(
                        "bad reset",
                        RateStudyFiles.with("reset: reload}", "reset: wipe}"),
                        "settings[0].rating.reset: expected auto, loadfree, repair, image, reload, got 'wipe'"),
                Arguments.of(
                        "bad target",
                        RateStudyFiles.with("target: soar", "target: speed"),
                        "scales.tiny.rating.target: expected soar, socialites, both, got 'speed'"),
                Arguments.of(
                        "bad max_threads",
                        RateStudyFiles.with("max_threads: 4", "max_threads: 0"),
                        "scales.tiny.rating.max_threads: expected a whole number of at least 1, got 0"),
                Arguments.of(
                        "bad confirm",
                        RateStudyFiles.with("confirm: false", "confirm: never"),
                        "scales.small.rating.confirm: expected true or false, got 'never'"),
                Arguments.of(
                        "a T grid in a rate study",
                        RateStudyFiles.with("repetitions: 2", "repetitions: 2\n    threads: [1, 2]"),
                        "scales.tiny.threads: a rate study's ratings choose T"),
                Arguments.of(
                        "a run study's measure",
                        RateStudyFiles.with("[rating_s, soar, experiments]", "[rating_s, throughput]"),
                        "measures[1]: unknown measure 'throughput'; accepted: soar,"),
                Arguments.of(
                        "a rate study's measure in a run study",
                        StudyFiles.with("measures: [throughput, p95_ms]", "measures: [throughput, soar]"),
                        "measures[1]: unknown measure 'soar'; accepted: throughput,"),
                Arguments.of(
                        "rating options in a run study",
                        StudyFiles.with(
                                "graph: {zipfianmean",
                                "settings:\n  - {name: a, rating: {delta: 1s}}\ngraph: {zipfianmean"),
                        "settings[0].rating: only a rate study (kind: rate) has rating options"),
                Arguments.of(
                        "T on x",
                        RateStudyFiles.with("x: {key: store}", "x: {key: threads}"),
                        "figures[0].x.key: expected store, setting or mix"),
                Arguments.of(
                        "T in where",
                        RateStudyFiles.with(
                                "series_by: [setting]", "series_by: [setting]\n    where: {threads: [\"1\"]}"),
                        "figures[0].where.threads: a rate study's points have no T of their own"),
                Arguments.of(
                        "a setting's graph of an unknown scale",
                        RateStudyFiles.with("graph: {tiny: {usercount: 300}}", "graph: {huge: {usercount: 300}}"),
                        "settings[1].graph.huge: unknown field; accepted: tiny, small, paper"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeIsOneLineNamingTheField(String kind, String text, String expected) {
        assertThatThrownBy(() -> StudyParser.parse("my-study.yaml", text))
                .isInstanceOf(StudyFileException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("my-study.yaml: ").contains(expected);
                    assertThat(e.getMessage().lines()).hasSize(1);
                });
    }
}
