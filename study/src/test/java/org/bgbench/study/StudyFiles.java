package org.bgbench.study;

/** A small valid study file for tests, and ways to break it. */
final class StudyFiles {
    private StudyFiles() {}

    static final String VALID = """
            name: test-study
            title: A test study
            source:
              paper: A paper
              where: figure 1
              finding: writes lower throughput
            varies: [mix, T]
            stores:
              - store: sqlite
                starts: true
                settings: {sqlite.file: "${data}/bg.sqlite"}
            graph: {zipfianmean: 0.27}
            mixes: [vp, high]
            beta: 100ms
            scales:
              tiny:
                graph: {usercount: 100, friendcountperuser: 4, resourcecountperuser: 2}
                threads: [1, 2]
                duration: 1s
                warmup: 0s
                repetitions: 2
              small:
                graph: {usercount: 1000}
                threads: [1, 2, 4]
                duration: 5s
              paper:
                graph: {usercount: 10000}
                threads: [1, 2, 4, 8]
                duration: 600s
                warmup: 60s
                repetitions: 3
            measures: [throughput, p95_ms]
            figures:
              - id: tp
                title: Throughput
                x: {key: threads}
                y: {key: throughput}
                series_by: [store, mix]
                paper:
                  - {series: sqlite vp, x: 1, y: 1000}
            findings:
              - {id: f1, kind: winner, figure: tp, among: [sqlite vp, sqlite high], paper_winner: sqlite vp}
            """;

    /** A figure of each point's freshness-confidence curve at T = 2, to append to {@link #VALID}'s figures. */
    static final String CURVE_FIGURE = """
              - id: fresh
                title: Freshness confidence
                curve: /unpredictable/freshness/buckets
                x: {key: to_ms}
                y: {key: p_at_most}
                series_by: [store, mix]
                where: {threads: ["2"]}
            """;

    /** {@link #VALID} with {@link #CURVE_FIGURE}, its first {@code from} replaced by {@code to}. */
    static String curve(String from, String to) {
        String figure = CURVE_FIGURE.replace(from, to);
        if (figure.equals(CURVE_FIGURE) && !from.equals(to)) {
            throw new IllegalArgumentException("the curve figure has no '" + from + "'");
        }
        return with("findings:", figure + "findings:");
    }

    /** {@link #VALID} with a setting {@code a} (ttl 30s) and {@code scaleLine} in its tiny scale. */
    static String settings(String scaleLine) {
        return VALID.replace("graph: {zipfianmean", "settings:\n  - {name: a, keys: {ttl: 30s}}\ngraph: {zipfianmean")
                .replace("    repetitions: 2", "    repetitions: 2\n    " + scaleLine);
    }

    /** {@link #VALID} with its first occurrence of {@code from} replaced. */
    static String with(String from, String to) {
        if (!VALID.contains(from)) {
            throw new IllegalArgumentException("the test file has no '" + from + "'");
        }
        return VALID.replaceFirst(java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    }
}
