package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BG's expected state bound to the store, with real {@code bg} processes against a SQLite file: a
 * run killed with SIGKILL leaves the store marked {@code running:} and the next run is refused until the store is
 * repaired ({@code bg verify --repair}) or reloaded; a store changed behind BG's back is refused by the sampled check.
 * Every step checks the exit code, the message and what is on disk (the store's mark, the state files).
 */
@Tag("server")
class StateMarkTest {
    private static final List<String> GRAPH = List.of(
            "-p",
            "usercount=1000",
            "-p",
            "friendcountperuser=10",
            "-p",
            "resourcecountperuser=4",
            "-p",
            "confperc=0.7",
            "-p",
            "commentcountperresource=1");
    private static final SocialGraph SOCIAL = new SocialGraph(GraphParameters.toSpec(Map.of(
            "usercount",
            "1000",
            "friendcountperuser",
            "10",
            "resourcecountperuser",
            "4",
            "confperc",
            "0.7",
            "commentcountperresource",
            "1")));
    private static final String LOADED = "loaded:" + SOCIAL.spec().fingerprint();

    @TempDir
    Path dir;

    private Path db;
    private Path states;

    @BeforeEach
    void paths() {
        db = dir.resolve("bg.sqlite");
        states = dir.resolve("state");
    }

    /** What a finished {@code bg} process did. */
    private record Done(int code, String out, String err) {
        String both() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** A {@code bg} process: this JVM's java and this module's classpath, with the launcher's main class and flags. */
    private Process start(Path out, Path err, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx512m",
                "-Dbg.state.dir=" + states,
                "-cp",
                System.getProperty("java.class.path"),
                "org.bgbench.cli.Bg"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
    }

    private Done bg(String... args) throws Exception {
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = start(out, err, args);
        assertThat(p.waitFor(180, TimeUnit.SECONDS))
                .as("bg %s finished", List.of(args))
                .isTrue();
        return new Done(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private String[] sqlite(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--store", "sqlite", "-p", "sqlite.file=" + db));
        all.addAll(GRAPH);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The state mark the store holds, read as BG reads it. */
    private String mark() {
        try (DataStore s = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", db.toString())))) {
            return s.stateMark().orElse("(none)");
        }
    }

    private List<String> stateFiles() throws IOException {
        if (!Files.isDirectory(states)) {
            return List.of();
        }
        try (var files = Files.list(states)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".state"))
                    .sorted()
                    .toList();
        }
    }

    /** Starts a 30 s run of the high mix and kills it (SIGKILL) 2 s after its first write marked the store. */
    private void killARunMidway() throws Exception {
        Process run = start(
                dir.resolve("killed-out.txt"),
                dir.resolve("killed-err.txt"),
                sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "4",
                        "--duration",
                        "30s",
                        "--warmup",
                        "0s",
                        "--quiet",
                        "--out",
                        dir.resolve("killed.json").toString()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!mark().startsWith("running:") && System.nanoTime() < deadline && run.isAlive()) {
            Thread.sleep(50);
        }
        assertThat(mark()).as("the run marked the store before writing").startsWith("running:");
        Thread.sleep(2000);
        assertThat(run.isAlive()).isTrue();
        run.destroyForcibly(); // SIGKILL: no shutdown hook, no state saved
        assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).isEqualTo(128 + 9);
        assertThat(mark())
                .as("a killed run leaves the store marked as being written")
                .startsWith("running:")
                .contains("a run of the high mix with T=4");
        assertThat(stateFiles()).as("no state was saved for the killed run").isEmpty();
    }

    private void assertRunRefused(Done d, String why) {
        assertThat(d.code()).as(d.both()).isEqualTo(Bg.FAILED);
        assertThat(d.err())
                .as(d.both())
                .contains("bg: error: " + why)
                .contains("bg load --store sqlite --replace")
                .contains("bg verify --store sqlite --repair")
                .doesNotContain("Exception");
    }

    /** A short run of the high mix that must finish with every read predictable. */
    private RunResult cleanRun(String name) throws Exception {
        Path out = dir.resolve(name + ".json");
        Done d = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "4",
                "--duration",
                "2s",
                "--warmup",
                "0s",
                "--quiet",
                "--out",
                out.toString()));
        assertThat(d.code()).as(d.both()).isZero();
        assertThat(d.out()).contains("Unpredictable reads: 0 of");
        RunResult r = ResultJson.read(out);
        assertThat(r.unpredictable().readsChecked()).isPositive();
        assertThat(r.unpredictable().unpredictableReads()).isZero();
        assertThat(r.total().errors()).isZero();
        // The run sealed its writes: the store names the state file BG saved, and that is the only one.
        String m = mark();
        assertThat(m).startsWith("state:");
        assertThat(stateFiles()).containsExactly(m.substring("state:".length()) + ".state");
        return r;
    }

    @Test
    void aKilledRunIsRefusedUntilBgVerifyRepairsTheStore() throws Exception {
        Done load = bg(sqlite("load"));
        assertThat(load.code()).as(load.both()).isZero();
        assertThat(mark()).isEqualTo(LOADED);
        killARunMidway();

        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "2s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(refused, "a run on this store has not ended (");
        assertThat(refused.err()).contains("it was interrupted and BG does not know which of its writes reached");
        assertThat(dir.resolve("refused.json")).doesNotExist();
        assertThat(mark()).startsWith("running:");
        // bg rate is refused alike.
        assertRunRefused(
                bg(sqlite(
                        "rate",
                        "--delta",
                        "1s",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--max-threads",
                        "2",
                        "--out",
                        dir.resolve("rating").toString())),
                "a run on this store has not ended (");

        // Read-only verify reports the mark and what differs from the generated graph, and changes nothing.
        Done verify = bg(sqlite("verify"));
        assertThat(verify.code()).as(verify.both()).isEqualTo(Bg.FAILED);
        assertThat(verify.out())
                .contains("State mark: running:")
                .contains("compared with the generated graph")
                .contains("Problem: a run on this store has not ended")
                .contains("The store differs");
        assertThat(mark()).startsWith("running:");

        Done repair = bg(sqlite("verify", "--repair", "--threads", "2"));
        assertThat(repair.code()).as(repair.both()).isZero();
        assertThat(repair.out())
                .contains("State mark before: running:")
                .contains("Read 1,000 members")
                .contains("State mark after: " + LOADED)
                .contains("The store holds exactly the generated graph again.");
        assertThat(repair.out()).doesNotContain("restored 0 relationships and 0 comments");
        assertThat(mark()).isEqualTo(LOADED);
        assertThat(stateFiles()).isEmpty();
        Done clean = bg(sqlite("verify"));
        assertThat(clean.code()).as(clean.both()).isZero();
        assertThat(clean.out()).contains("State mark: " + LOADED).contains("0 differences");

        cleanRun("after-repair");
        Done after = bg(sqlite("verify"));
        assertThat(after.code()).as(after.both()).isZero();
        assertThat(after.out())
                .contains("State mark: state:")
                .contains("The store holds exactly the state BG expects.");
    }

    @Test
    void aKilledRunIsRefusedUntilTheStoreIsReloaded() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        cleanRun("before");
        String before = mark();
        killARunMidway();
        assertThat(stateFiles())
                .as("the state of the run before was deleted when the killed run began writing")
                .doesNotContain(before.substring("state:".length()) + ".state");

        // bg load without --replace leaves the store alone and says the run will be refused.
        Done keep = bg(sqlite("load"));
        assertThat(keep.code()).as(keep.both()).isZero();
        assertThat(keep.out()).contains("already holds this graph");
        assertThat(keep.err())
                .contains("a run on it has not ended")
                .contains("bg run will refuse it")
                .contains("Pass --replace");
        assertRunRefused(
                bg(sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "2s",
                        "--quiet",
                        "--out",
                        dir.resolve("refused.json").toString())),
                "a run on this store has not ended (");

        Done reload = bg(sqlite("load", "--replace"));
        assertThat(reload.code()).as(reload.both()).isZero();
        assertThat(reload.out()).contains("sanity check passed: 1,000 members");
        assertThat(mark()).isEqualTo(LOADED);
        cleanRun("after-reload");
    }

    @Test
    void aStoreChangedBehindBgsBackIsRefusedByTheSampledCheck() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        // Few writes, so every member they touched is in the sample of 50.
        Done run = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--operations",
                "150",
                "--quiet",
                "--out",
                dir.resolve("few.json").toString()));
        assertThat(run.code()).as(run.both()).isZero();
        String token = mark().substring("state:".length());
        GraphState state;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(states.resolve(token + ".state")))) {
            state = GraphState.readFrom(SOCIAL, in);
        }
        assertThat(state.touchedMembers()).isBetween(1, 50);
        // A friendship of a member the run touched disappears, as if a crash had lost it or someone deleted it.
        int[] pair = {-1, -1};
        state.forEachTouched(i -> {
            if (pair[0] < 0 && state.friends(i).length > 0) {
                pair[0] = SOCIAL.memberId(i);
                pair[1] = SOCIAL.memberId(state.friends(i)[0]);
            }
        });
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                PreparedStatement ps =
                        c.prepareStatement("DELETE FROM friendship WHERE ((inviterid = ? AND inviteeid = ?)"
                                + " OR (inviterid = ? AND inviteeid = ?)) AND status = 2")) {
            ps.setInt(1, pair[0]);
            ps.setInt(2, pair[1]);
            ps.setInt(3, pair[1]);
            ps.setInt(4, pair[0]);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "2s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(
                refused, "the store does not hold the state BG expects (the state saved under token " + token + "): ");
        assertThat(refused.err())
                .contains("member " + pair[0] + ": VP friend count")
                .contains("totals: friendships")
                .contains("changed behind BG's back")
                .contains("-p verify.sample=0 skips this check");
        assertThat(dir.resolve("refused.json")).doesNotExist();
        assertThat(mark()).as("a refused run changes nothing").isEqualTo("state:" + token);
        assertThat(stateFiles()).containsExactly(token + ".state");

        Done repair = bg(sqlite("verify", "--repair"));
        assertThat(repair.code()).as(repair.both()).isZero();
        assertThat(mark()).isEqualTo(LOADED);
        assertThat(stateFiles()).as("the stale state was deleted").isEmpty();
        cleanRun("after-repair");
    }

    @Test
    void aTokenWithoutItsStateFileOrNoMarkIsRefusedAndTheImageBringsTheLoadedGraphBack() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        // A short rating takes the database image of the loaded graph and ends with its last experiment's state.
        Done rate = bg(sqlite(
                "rate",
                "--target",
                "soar",
                "--reset",
                "image",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--max-threads",
                "2",
                "--no-confirm",
                "--out",
                dir.resolve("rating").toString()));
        assertThat(rate.code()).as(rate.both()).isZero();
        assertThat(dir.resolve("bg.sqlite.image")).isRegularFile();
        String token = mark().substring("state:".length());
        assertThat(stateFiles()).containsExactly(token + ".state");

        // The same store seen from another bg-data/state (another machine, a deleted file): refused, naming it.
        Path elsewhere = dir.resolve("state-elsewhere");
        Files.move(states, elsewhere);
        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "1s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(
                refused,
                "the store holds the state a run left under token " + token + ", but " + states + " has no " + token
                        + ".state");
        assertThat(refused.err()).contains("restore its database image (bg load --store sqlite --restore-image)");
        Files.move(elsewhere, states);
        assertThat(bg(sqlite(
                                "run",
                                "--workload",
                                "vp",
                                "--threads",
                                "2",
                                "--duration",
                                "1s",
                                "--quiet",
                                "--out",
                                dir.resolve("back.json").toString()))
                        .code())
                .as("found again, read-only: the mark stays")
                .isZero();
        assertThat(mark()).isEqualTo("state:" + token);

        // A store that records no mark (loaded by an older BG): refused too.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                PreparedStatement ps = c.prepareStatement("DELETE FROM bg_meta WHERE key = 'state'")) {
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        assertRunRefused(
                bg(sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "1s",
                        "--quiet",
                        "--out",
                        dir.resolve("nomark.json").toString())),
                "the store holds this graph but records no state mark");

        // The image a rating took puts the loaded graph back, with its mark; the stale state goes.
        Done restore = bg(sqlite("load", "--restore-image"));
        assertThat(restore.code()).as(restore.both()).isZero();
        assertThat(restore.out()).contains("Restored the database image of sqlite; its state mark: " + LOADED);
        assertThat(mark()).isEqualTo(LOADED);
        Done verify = bg(sqlite("verify"));
        assertThat(verify.code()).as(verify.both()).isZero();
        // With the mark gone, nothing named the old state file any more: BG leaves it (another store may share the
        // directory), as a store from an older BG leaves its settings-named file.
        assertThat(stateFiles()).containsExactly(token + ".state");
        Files.delete(states.resolve(token + ".state"));
        cleanRun("after-image");
    }

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
