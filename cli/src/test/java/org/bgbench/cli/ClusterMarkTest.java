package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state mark of runs through real workers ({@code bg worker} in this JVM, each with a SQLite store of its own under
 * its directory): an experiment a worker refuses is refused before any store is marked.
 */
class ClusterMarkTest {
    private static final String SECRET = "a-secret-for-the-cluster-mark-test";
    private static final String[] GRAPH = {
        "--store",
        "sqlite",
        "-p",
        "sqlite.file=mark.sqlite",
        "-p",
        "usercount=200",
        "-p",
        "friendcountperuser=4",
        "-p",
        "fragments=2"
    };

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
    }

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private String[] cluster(String workers, String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(GRAPH));
        all.addAll(List.of("--workers", workers, "--secret", SECRET));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The state mark of the store under a worker's directory, read as BG reads it. */
    private String mark(int port) {
        Path file = dir.resolve("worker-" + port).resolve("mark.sqlite");
        try (DataStore s = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", file.toString())))) {
            return s.stateMark().orElse("(none)");
        }
    }

    /**
     * {@code bg run --workers A,B --threads 50000000}: each worker's share cannot fit in its heap, so the coordinator
     * refuses the run as bad input in one line naming --threads and the worker, before marking any store; the marks
     * stay as the load left them and the next run is not refused.
     */
    @Test
    void aShareAWorkerCannotHoldIsRefusedBeforeAnyStoreIsMarked() throws Exception {
        AtomicInteger code1 = new AtomicInteger(-1);
        AtomicInteger code2 = new AtomicInteger(-1);
        Thread[] w1 = new Thread[1];
        Thread[] w2 = new Thread[1];
        int p1 = BgCommandFixture.startWorker(dir, new StringWriter(), code1, w1, "--secret", SECRET);
        int p2 = BgCommandFixture.startWorker(dir, new StringWriter(), code2, w2, "--secret", SECRET);
        String workers = "127.0.0.1:" + p1 + ",127.0.0.1:" + p2;
        try {
            assertThat(bg(cluster(workers, "load"))).as(err.toString()).isZero();
            String m1 = mark(p1);
            String m2 = mark(p2);
            assertThat(m1).startsWith("loaded:");
            assertThat(m2).isEqualTo(m1);

            Path huge = dir.resolve("huge.json");
            // Refused by each worker's heap, and (by default) for want of a member per thread.
            for (String unique : List.of("false", "true")) {
                int before = err.getBuffer().length();
                int exit = bg(cluster(
                        workers,
                        "run",
                        "--threads",
                        "50000000",
                        "--duration",
                        "2s",
                        "--quiet",
                        "--out",
                        huge.toString(),
                        "-p",
                        "uniquesocialites=" + unique));
                String said = err.toString().substring(before);
                assertThat(exit).as(said).isEqualTo(Bg.BAD_INPUT);
                List<String> errors =
                        said.lines().filter(l -> l.startsWith("bg: error:")).toList();
                assertThat(errors).as(said).hasSize(1);
                assertThat(errors.get(0))
                        .as(said)
                        .startsWith("bg: error: --threads: worker 0 127.0.0.1:" + p1)
                        .contains("T=25000000 of 50000000")
                        .contains(unique.equals("true") ? "unique socialites" : "of BG's heap");
                assertThat(said).doesNotContain("Exception").doesNotContain("OutOfMemoryError");
                assertThat(mark(p1)).as("worker 0's store").isEqualTo(m1);
                assertThat(mark(p2)).as("worker 1's store").isEqualTo(m2);
                assertThat(huge).doesNotExist();
            }

            int before = err.getBuffer().length();
            assertThat(bg(cluster(
                            workers,
                            "run",
                            "--threads",
                            "2",
                            "--duration",
                            "1s",
                            "--warmup",
                            "0s",
                            "--quiet",
                            "--out",
                            dir.resolve("after.json").toString())))
                    .as(err.toString().substring(before))
                    .isZero();
            assertThat(mark(p1)).startsWith("state:");
        } finally {
            bg("shutdown", "--workers", workers, "--secret", SECRET);
            w1[0].join(Duration.ofSeconds(15));
            w2[0].join(Duration.ofSeconds(15));
        }
    }
}
