package org.bgbench.study;

/** A small valid rate study ({@code kind: rate}) for tests, and ways to break it. */
final class RateStudyFiles {
    private RateStudyFiles() {}

    static final String VALID = """
            name: rate-study
            kind: rate
            title: A rate study
            source:
              paper: A paper
              where: table 1
              finding: resets cost time
            varies: [reset]
            stores:
              - store: sqlite
                starts: true
                settings: {sqlite.file: "${data}/bg.sqlite"}
            settings:
              - {name: reload, rating: {reset: reload}}
              - name: image
                rating: {reset: image, delta: 200ms}
                graph: {tiny: {usercount: 300}}
            graph: {zipfianmean: 0.27}
            mixes: [high]
            scales:
              tiny:
                graph: {usercount: 100}
                repetitions: 2
                rating: {sla: "95%:100ms:0.01%:1s", delta: 500ms, warmup: 0s, max_threads: 4, target: soar}
              small:
                graph: {usercount: 1000}
                rating: {delta: 5s, search: approximate, climbing_factor: 4, confirm: false}
              paper:
                graph: {usercount: 10000}
                rating: {sla: "95%:100ms:0.01%:10m", delta: 3m, reset: auto, max_threads: 1024}
            measures: [rating_s, soar, experiments]
            figures:
              - id: lambda
                title: Rating time
                x: {key: store}
                y: {key: rating_s}
                series_by: [setting]
                paper:
                  - {series: reload, x: sqlite, y: 100}
            findings:
              - {id: f1, kind: ratio, figure: lambda, a: reload, b: image, at: sqlite, paper_factor: 2, tolerance: 1}
            """;

    /** {@link #VALID} with its first occurrence of {@code from} replaced. */
    static String with(String from, String to) {
        if (!VALID.contains(from)) {
            throw new IllegalArgumentException("the test file has no '" + from + "'");
        }
        return VALID.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }
}
