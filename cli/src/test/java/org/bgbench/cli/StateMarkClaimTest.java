package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The store's state mark under commands that overlap or are refused, with real {@code bg} processes against a SQLite
 * file: of runs started at the same instant one marks the store and the others are refused; a refused run leaves the
 * mark alone; a run whose mark another command changed still prints its summary and says why it cannot seal it.
 */
@Tag("server")
class StateMarkClaimTest extends StateMarkFixture {
    /**
     * Runs started at the same instant: SQLite's write lock, held here, lets each process read the mark and check
     * the store (it then prints "bg: running") but not mark it; released, they all try at once. One runs, the others
     * are refused as if started a moment later, and the store ends marked with the one run's state.
     */
    @Test
    void ofRunsStartedAtTheSameInstantOneRunsAndTheOthersAreRefused() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        int n = 3;
        List<Process> runs = new ArrayList<>();
        try (Connection lock = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            lock.createStatement().execute("BEGIN IMMEDIATE");
            for (int i = 0; i < n; i++) {
                runs.add(start(
                        dir.resolve("same-" + i + ".out"),
                        dir.resolve("same-" + i + ".err"),
                        sqlite(
                                "run",
                                "--workload",
                                "high",
                                "--threads",
                                "2",
                                "--duration",
                                "2s",
                                "--warmup",
                                "0s",
                                "--quiet",
                                "--out",
                                dir.resolve("same-" + i + ".json").toString())));
            }
            for (int i = 0; i < n; i++) {
                Path err = dir.resolve("same-" + i + ".err");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (runs.get(i).isAlive()
                        && System.nanoTime() < deadline
                        && !Files.readString(err, StandardCharsets.UTF_8).contains("bg: running")) {
                    Thread.sleep(20);
                }
                assertThat(Files.readString(err, StandardCharsets.UTF_8))
                        .as("run %d checked the store", i)
                        .contains("bg: running");
            }
            lock.createStatement().execute("ROLLBACK");
        }
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            assertThat(runs.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
            Done d = new Done(
                    runs.get(i).exitValue(),
                    Files.readString(dir.resolve("same-" + i + ".out")),
                    Files.readString(dir.resolve("same-" + i + ".err")));
            if (d.code() == 0) {
                ran.add(i);
                assertThat(d.out()).as(d.both()).contains("Unpredictable reads: 0 of");
            } else {
                assertRunRefused(d, "a run on this store has not ended (");
                assertThat(d.err()
                                .lines()
                                .filter(l -> l.startsWith("bg: error:"))
                                .count())
                        .as(d.both())
                        .isOne();
                assertThat(dir.resolve("same-" + i + ".json"))
                        .as("a refused run writes no result")
                        .doesNotExist();
            }
        }
        assertThat(ran).as("runs that started").hasSize(1);
        String m = mark();
        assertThat(m).startsWith("state:");
        assertThat(stateFiles()).containsExactly(m.substring("state:".length()) + ".state");
    }

    /**
     * A T whose members cannot fit, or that the graph cannot give a member each, is bad input refused in one line
     * before the store is marked: the mark and the state files stay as they were, and no result is written.
     */
    @Test
    void aTooLargeThreadCountIsRefusedInOneLineAndLeavesTheMarkAlone() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        for (String[] more : List.of(new String[0], new String[] {"-p", "uniquesocialites=false"})) {
            List<String> args = new ArrayList<>(List.of(
                    "run",
                    "--workload",
                    "high",
                    "--threads",
                    "50000000",
                    "--duration",
                    "2s",
                    "--quiet",
                    "--out",
                    dir.resolve("huge.json").toString()));
            args.addAll(List.of(more));
            Done d = bg(sqlite(args.get(0), args.subList(1, args.size()).toArray(String[]::new)));
            assertThat(d.code()).as(d.both()).isEqualTo(2);
            List<String> errors =
                    d.err().lines().filter(l -> l.startsWith("bg: error:")).toList();
            assertThat(errors).as(d.both()).hasSize(1);
            assertThat(errors.get(0)).startsWith("bg: error: --threads: T=50000000");
            assertThat(d.err()).as(d.both()).doesNotContain("Exception").doesNotContain("OutOfMemoryError");
            assertThat(mark()).as("the store's mark after %s", List.of(more)).isEqualTo(LOADED);
            assertThat(dir.resolve("huge.json")).doesNotExist();
        }
        assertThat(stateFiles()).isEmpty();
    }

    /**
     * When the run's state cannot be sealed into the store after it (here another command rewrote the mark while the
     * run wrote), what was measured is not lost: the summary prints, the result stays on disk, and the run exits 1
     * saying why the store cannot be vouched for; the mark is left as the other command wrote it.
     */
    @Test
    void aRunWhoseMarkCannotBeSealedStillPrintsItsSummaryAndSaysWhy() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        Path out = dir.resolve("unsealed.json");
        Process run = start(
                dir.resolve("unsealed-out.txt"),
                dir.resolve("unsealed-err.txt"),
                sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "4s",
                        "--warmup",
                        "0s",
                        "--out",
                        out.toString()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!mark().startsWith("running:") && System.nanoTime() < deadline && run.isAlive()) {
            Thread.sleep(50);
        }
        assertThat(mark()).as("the run marked the store").startsWith("running:");
        String other = "running:another command, as bg verify --repair would mark it";
        try (DataStore s = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", db.toString())))) {
            s.writeStateMark(other);
        }
        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
        Done d = new Done(
                run.exitValue(),
                Files.readString(dir.resolve("unsealed-out.txt")),
                Files.readString(dir.resolve("unsealed-err.txt")));
        assertThat(d.code()).as(d.both()).isEqualTo(Bg.FAILED);
        assertThat(d.out()).as(d.both()).contains("BG run: ").contains("Result: " + out.toAbsolutePath());
        assertThat(d.err())
                .as(d.both())
                .contains("bg: error: the store's state mark changed while this run wrote")
                .doesNotContain("Exception");
        assertThat(ResultJson.read(out).total().count()).isPositive();
        assertThat(mark()).isEqualTo(other);
        assertThat(stateFiles()).isEmpty();
    }
}
