package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A study file is read strictly: each kind of mistake is one line naming the file, the field's path and the fix. */
class StudyParserTest {
    @Test
    void theValidFileReadsWhole() {
        Study s = StudyParser.parse("t.yaml", StudyFiles.VALID);
        assertThat(s.name()).isEqualTo("test-study");
        assertThat(s.subjects().stores()).singleElement().satisfies(e -> {
            assertThat(e.id()).isEqualTo("sqlite");
            assertThat(e.starts()).isTrue();
        });
        assertThat(s.scales().get(Scale.TINY).repetitions()).isEqualTo(2);
        assertThat(s.scales().get(Scale.SMALL).warmup()).isEqualTo(Duration.ZERO);
        assertThat(s.scales().get(Scale.PAPER).duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(s.output().measures()).containsExactly(Measure.THROUGHPUT, Measure.P95_MS);
        assertThat(s.output().figures().getFirst().y().label()).isEqualTo("actions/s");
        assertThat(s.output().figures().getFirst().paper())
                .singleElement()
                .satisfies(p -> assertThat(p.y()).isEqualTo(1000));
        assertThat(s.output().findings().getFirst().path("among").size()).isEqualTo(2);
    }

    @Test
    void theSameContentHasTheSameHashAndAnEditChangesIt() {
        String a = StudyParser.parse("a", StudyFiles.VALID).hash();
        assertThat(StudyParser.parse("b", "# a comment\n" + StudyFiles.VALID).hash())
                .isEqualTo(a);
        assertThat(StudyParser.parse("c", StudyFiles.with("duration: 1s", "duration: 2s"))
                        .hash())
                .isNotEqualTo(a);
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(
                        "unknown field",
                        StudyFiles.with("varies:", "colour: red\nvaries:"),
                        "colour: unknown field; accepted: name, title"),
                Arguments.of(
                        "unknown nested field",
                        StudyFiles.with("    duration: 1s", "    duration: 1s\n    durations: 2s"),
                        "scales.tiny.durations: unknown field; accepted: graph, threads, duration"),
                Arguments.of(
                        "bad scale",
                        StudyFiles.with("  small:", "  huge:"),
                        "scales.huge: unknown field; accepted: tiny, small, paper"),
                Arguments.of(
                        "missing scale",
                        StudyFiles.with(
                                "  small:\n    graph: {usercount: 1000}\n    threads: [1, 2, 4]\n    duration: 5s\n",
                                ""),
                        "scales.small: missing; it is required"),
                Arguments.of(
                        "missing required",
                        StudyFiles.with("title: A test study\n", ""),
                        "title: missing; it is required"),
                Arguments.of(
                        "missing nested required",
                        StudyFiles.with("  where: figure 1\n", ""),
                        "source.where: missing; it is required"),
                Arguments.of(
                        "wrong type: text for a list",
                        StudyFiles.with("threads: [1, 2]", "threads: many"),
                        "scales.tiny.threads: expected a list, got 'many'"),
                Arguments.of(
                        "wrong type in a list",
                        StudyFiles.with("threads: [1, 2]", "threads: [1, two]"),
                        "scales.tiny.threads[1]: expected a whole number of at least 1, got 'two'"),
                Arguments.of(
                        "bad duration",
                        StudyFiles.with("duration: 1s", "duration: soon"),
                        "scales.tiny.duration: expected a duration such as 500ms, 2s or 1m longer than 0, got 'soon'"),
                Arguments.of(
                        "wrong type: list for a text",
                        StudyFiles.with("title: A test study", "title: [a, b]"),
                        "title: expected a non-empty text, got a list"),
                Arguments.of(
                        "wrong type: bool",
                        StudyFiles.with("starts: true", "starts: maybe"),
                        "stores[0].starts: expected true or false, got 'maybe'"),
                Arguments.of(
                        "unknown measure",
                        StudyFiles.with("measures: [throughput, p95_ms]", "measures: [throughput, speed]"),
                        "measures[1]: unknown measure 'speed'; accepted: throughput, p50_ms"),
                Arguments.of(
                        "figure of a measure not kept",
                        StudyFiles.with("y: {key: throughput}", "y: {key: p99_ms}"),
                        "figures[0].y.key: expected one of the study's measures (throughput, p95_ms), got 'p99_ms'"),
                Arguments.of(
                        "finding without a kind",
                        StudyFiles.with("kind: winner, ", ""),
                        "findings[0]: finding 'f1': field 'kind' must be one of winner, ratio, crossing, trend, table"),
                Arguments.of(
                        "finding of a figure the study does not have",
                        StudyFiles.with("figure: tp, among", "figure: nope, among"),
                        "findings[0]: finding 'f1': field 'figure' must be one of the study's figures: tp"),
                Arguments.of(
                        "finding with a field its kind does not have",
                        StudyFiles.with("paper_winner: sqlite vp}", "paper_winner: sqlite vp, factor: 3}"),
                        "findings[0]: finding 'f1': unknown field 'factor'"),
                Arguments.of(
                        "a store twice",
                        StudyFiles.with("graph: {zipfianmean", "  - store: sqlite\ngraph: {zipfianmean"),
                        "stores[1].id: 'sqlite' is given twice"),
                Arguments.of(
                        "curve not a pointer",
                        StudyFiles.curve("curve: /unpredictable/freshness/buckets", "curve: buckets"),
                        "figures[1].curve: expected a JSON pointer to an array of the point's result"),
                Arguments.of(
                        "curve without its x field",
                        StudyFiles.curve("x: {key: to_ms}", "x: {label: ms}"),
                        "figures[1].x.key: missing; a curve figure names the field of the array's elements on x"),
                Arguments.of(
                        "curve of several T per series",
                        StudyFiles.curve("    where: {threads: [\"2\"]}\n", ""),
                        "figures[1].series_by: a curve figure draws one point's curve per series: put threads in "
                                + "series_by or give one threads in where.threads"),
                Arguments.of(
                        "curve at a T a scale does not run",
                        StudyFiles.curve("threads: [\"2\"]", "threads: [\"8\"]"),
                        "figures[1].where.threads[0]: T=8 is not in scales.tiny.threads (1, 2)"),
                Arguments.of(
                        "scale settings without settings",
                        StudyFiles.with("    repetitions: 2", "    repetitions: 2\n    settings: {a: {ttl: 1s}}"),
                        "scales.tiny.settings: the study has no settings to change at this scale"),
                Arguments.of(
                        "scale settings of an unknown setting",
                        StudyFiles.settings("settings: {b: {ttl: 1s}}"),
                        "scales.tiny.settings.b: unknown field; accepted: a"),
                Arguments.of(
                        "scale settings of a non-scalar value",
                        StudyFiles.settings("settings: {a: {ttl: [1s]}}"),
                        "scales.tiny.settings.a.ttl: expected a text, number or true/false, got a list"),
                Arguments.of("not YAML", StudyFiles.VALID + "\n  : : [\n", "not YAML at line"),
                Arguments.of("not a mapping", "- a\n- b\n", "expected a mapping of the study's fields"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeIsOneLineNamingTheFileAndTheField(String kind, String text, String expected) {
        assertThatThrownBy(() -> StudyParser.parse("my-study.yaml", text))
                .isInstanceOf(StudyFileException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("my-study.yaml: ").contains(expected);
                    assertThat(e.getMessage().lines()).hasSize(1);
                });
    }

    @Test
    void everyCatalogStudyReadsAndStartsWithAStoreBgStarts() {
        List<Study> all = StudyCatalog.all();
        assertThat(all).extracting(Study::name).contains("dissertation-fig-3.3", "dissertation-fig-8.2");
        for (Study s : all) {
            assertThat(s.subjects().stores()).as(s.name()).allMatch(Study.StoreEntry::starts);
            assertThat(StudyPlan.of(s, Scale.TINY, List.of()).measuredTime())
                    .as(s.name())
                    .isLessThan(Duration.ofMinutes(2));
        }
    }

    @Test
    void anUnknownStudyNameSaysWhatTheCatalogHolds() {
        assertThatThrownBy(() -> StudyCatalog.resolve("no-such-study"))
                .hasMessageStartingWith("no-such-study: no such study in the catalog (dissertation-fig-3.3");
        assertThatThrownBy(() -> StudyCatalog.resolve("/nowhere/x.yaml"))
                .hasMessage("/nowhere/x.yaml: no such study file");
    }
}
