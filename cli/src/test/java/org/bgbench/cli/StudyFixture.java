package org.bgbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A tiny study on SQLite for the command tests: two mixes (one that writes), two T, two repetitions. */
final class StudyFixture {
    private StudyFixture() {}

    static Path write(Path dir, String mixes) throws IOException {
        Path file = dir.resolve("tiny-study.yaml");
        Files.writeString(file, """
                name: tiny-study
                title: A tiny study of the tests
                source: {paper: the tests, where: figure 0, finding: writes lower throughput}
                varies: [mix, T]
                stores:
                  - store: sqlite
                    starts: true
                    settings: {sqlite.file: "${data}/bg.sqlite"}
                graph: {confperc: 0.7}
                mixes: %s
                scales:
                  tiny:
                    graph: {usercount: 100, friendcountperuser: 6, resourcecountperuser: 2}
                    threads: [1, 2]
                    duration: 1s
                    repetitions: 2
                  small:
                    graph: {usercount: 1000}
                    threads: [1, 2, 4]
                    duration: 5s
                  paper:
                    graph: {usercount: 10000}
                    threads: [1, 2, 4, 8]
                    duration: 60s
                measures: [throughput, p95_ms, unpredictable_pct]
                figures:
                  - id: tp
                    title: Throughput against T
                    x: {key: threads}
                    y: {key: throughput}
                    series_by: [store, mix]
                    paper: [{series: sqlite vp, x: 1, y: 500}]
                findings:
                  - {id: f1, kind: winner, figure: tp, among: [sqlite vp, sqlite high], paper_winner: sqlite vp}
                """.formatted(mixes));
        return file;
    }
}
