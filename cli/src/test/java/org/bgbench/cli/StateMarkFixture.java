package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real {@code bg} processes against a SQLite file in a temporary directory, with BG's state directory beside it: what
 * the state-mark tests start, and how they read the store's mark and BG's state files.
 */
abstract class StateMarkFixture {
    static final List<String> GRAPH = List.of(
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
    static final SocialGraph SOCIAL = new SocialGraph(GraphParameters.toSpec(Map.of(
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
    static final String LOADED = "loaded:" + SOCIAL.spec().fingerprint();

    @TempDir
    Path dir;

    Path db;
    Path states;

    @BeforeEach
    void paths() {
        db = dir.resolve("bg.sqlite");
        states = dir.resolve("state");
    }

    /** What a finished {@code bg} process did. */
    record Done(int code, String out, String err) {
        String both() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** A {@code bg} process: this JVM's java and this module's classpath, with the launcher's main class and flags. */
    Process start(Path out, Path err, String... args) throws IOException {
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

    Done bg(String... args) throws Exception {
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

    String[] sqlite(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--store", "sqlite", "-p", "sqlite.file=" + db));
        all.addAll(GRAPH);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The state mark the store holds, read as BG reads it. */
    String mark() {
        try (DataStore s = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", db.toString())))) {
            return s.stateMark().orElse("(none)");
        }
    }

    List<String> stateFiles() throws IOException {
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
    void killARunMidway() throws Exception {
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

    void assertRunRefused(Done d, String why) {
        assertThat(d.code()).as(d.both()).isEqualTo(Bg.FAILED);
        assertThat(d.err())
                .as(d.both())
                .contains("bg: error: " + why)
                .contains("bg load --store sqlite --replace")
                .contains("bg verify --store sqlite --repair")
                .doesNotContain("Exception");
    }

    /** A short run of the high mix that must finish with every read predictable. */
    RunResult cleanRun(String name) throws Exception {
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
}
