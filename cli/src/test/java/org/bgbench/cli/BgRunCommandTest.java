package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The run, load and validate commands end to end, in process, against a real SQLite file: the store's state, the
 * results, --out and workload files.
 */
@Tag("server") // spawns processes
class BgRunCommandTest extends BgCommandFixture {
    @Test
    void loadThenTwoRunsLeaveTheStoreInTheStateBgExpects() throws Exception {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db)))
                .as(err.toString())
                .isZero();
        assertThat(out.toString()).contains("sanity check passed: 300 members");
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).isZero();
        assertThat(out.toString()).contains("already holds this graph");

        Path result = dir.resolve("r1.json");
        String[] run = with(
                GRAPH,
                "run",
                "--store",
                "sqlite",
                "-p",
                db,
                "--threads",
                "16",
                "--operations",
                "3000",
                "--quiet",
                "-p",
                "ViewProfileAction=35%",
                "-p",
                "ListFriendsAction=5%",
                "-p",
                "ViewFriendReqAction=5%",
                "-p",
                "InviteFriendAction=4%",
                "-p",
                "AcceptFriendReqAction=2%",
                "-p",
                "RejectFriendReqAction=2%",
                "-p",
                "ThawFriendshipAction=2%",
                "-p",
                "ViewTopKResourcesAction=41%",
                "-p",
                "PostCommentOnResourceAction=2%",
                "-p",
                "DeleteCommentOnResourceAction=2%",
                "--out",
                result.toString());
        assertThat(bg(run)).as(err.toString()).isZero();
        RunResult r = ResultJson.read(result);
        long counted = r.actions().values().stream()
                .mapToLong(k -> k.count() + k.noops() + k.errors())
                .sum();
        assertThat(counted).isEqualTo(3000);
        assertThat(r.total().errors()).isZero();
        assertThat(r.actions().keySet())
                .containsExactly("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "SR", "VNF");
        // A second run starts from the state the first left.
        run[List.of(run).indexOf("--out") + 1] = dir.resolve("r2.json").toString();
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(ResultJson.read(dir.resolve("r2.json")).total().errors()).isZero();

        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(Map.of(
                "usercount",
                "300",
                "friendcountperuser",
                "10",
                "resourcecountperuser",
                "4",
                "confperc",
                "0.7",
                "commentcountperresource",
                "1")));
        Path stateFile;
        try (var files = Files.list(dir.resolve("state"))) {
            stateFile = files.filter(p -> p.toString().endsWith(".state"))
                    .findFirst()
                    .orElseThrow();
        }
        GraphState state;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(stateFile))) {
            state = GraphState.readFrom(graph, in);
        }
        assertThat(state.touchedMembers()).as("the runs changed the graph").isPositive();
        try (DataStore store = new SqliteStoreProvider()
                .open(StoreSettings.of(
                        Map.of("sqlite.file", dir.resolve("bg.sqlite").toString())))) {
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void anOriginalUscWorkloadFileRunsAsItIs() throws Exception {
        // Keys and layout of USC BG's workloads/ files: fractions, not percentages, plus keys BG ignores or maps.
        Path file = dir.resolve("HighUpdateActions");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "# high update actions",
                        "ViewProfileAction=0.35",
                        "ListFriendsAction=0.05",
                        "ViewFriendReqAction=0.05",
                        "InviteFriendAction=0.04",
                        "AcceptFriendReqAction=0.02",
                        "RejectFriendReqAction=0.02",
                        "ThawFriendshipAction=0.02",
                        "ViewTopKResourcesAction=0.41",
                        "ViewCommentsOnResourceAction=0.0",
                        "PostCommentOnResourceAction=0.02",
                        "DeleteCommentOnResourceAction=0.02",
                        "requestdistribution=zipfian",
                        "zipfianmean=0.27",
                        "usercount=300",
                        "friendcountperuser=10",
                        "resourcecountperuser=4",
                        "confperc=0.7",
                        "commentcountperresource=1",
                        "operationcount=2000",
                        "threadcount=4",
                        ""));
        Path result = dir.resolve("usc.json");
        assertThat(bg(
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=usc-file",
                        "-P",
                        file.toString(),
                        "--quiet",
                        "--out",
                        result.toString()))
                .as(err.toString())
                .isZero();
        RunResult r = ResultJson.read(result);
        assertThat(r.threads()).isEqualTo(4);
        assertThat(r.total().count() + r.total().noops()).isEqualTo(2000);
        assertThat(r.actions().get("VP").count()).isBetween(550L, 850L);
        assertThat(r.actions().get("VCR").count()).isZero();
        assertThat(r.total().errors()).isZero();
    }

    @Test
    void runningTheSameCommandTwiceKeepsTheEarlierRunAside() throws Exception {
        Path result = dir.resolve("again.json");
        String[] run = with(
                GRAPH,
                "run",
                "--store",
                "memory",
                "-p",
                "memory.name=cli-again",
                "--operations",
                "2000",
                "--quiet",
                "--out",
                result.toString());
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains("held an earlier run; kept it as " + dir.resolve("again.1.json"))
                .doesNotContain("Exception");
        assertThat(dir.resolve("again.1.json")).isRegularFile();
        assertThat(dir.resolve("again.1/logs")).isDirectory();
        assertThat(dir.resolve("again.1.hlog"))
                .as("the earlier run's interval log goes with it")
                .isRegularFile();
        assertThat(dir.resolve("again.hlog")).isRegularFile();
        assertThat(ResultJson.read(result).unpredictable().readsChecked()).isPositive();
    }

    /**
     * Every writing command refuses an --out that exists and is not BG's own (a file of the user's, a FIFO), in one
     * line before it runs, and leaves it as it was; a command writing a directory refuses a file there.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "run --store memory --operations 100",
                "sweep --store memory --threads 1",
                "delta --store memory",
                "elasticity --store memory --nodes 1",
                "breakeven a.json b.json --json",
                "rate --store memory",
                "quickstart",
                "scale --mode speedup --workload vp --plan PLAN"
            })
    void anOutThatIsNotBgsIsRefusedBeforeTheRunAndLeftAsItIs(String command) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.json"), """
                {"store": "sqlite", "configurations": [{"name": "one", "nodes": 1, "settings": {"sqlite.file": "%s"}}]}
                """.formatted(dir.resolve("s.sqlite")));
        boolean dirOut = command.startsWith("rate") || command.startsWith("quickstart") || command.startsWith("scale");
        Path mine = Files.writeString(dir.resolve(dirOut ? "notes" : "notes.json"), "my notes");
        List<String> args =
                new ArrayList<>(List.of(command.replace("PLAN", plan.toString()).split(" ")));
        if (!command.startsWith("breakeven")) {
            args.add("--out");
        }
        args.add(mine.toString());
        if (!command.startsWith("breakeven") && !command.startsWith("quickstart") && !command.startsWith("scale")) {
            args.addAll(List.of("-p", "usercount=200", "-p", "friendcountperuser=4"));
        }
        int code = bg(args.toArray(String[]::new));
        assertThat(code).as(err.toString()).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()
                        .lines()
                        .filter(l -> l.startsWith("bg: error:"))
                        .toList())
                .singleElement()
                .asString()
                .contains(mine
                        + (dirOut
                                ? " is a file; give a directory"
                                : " exists and is not a BG result (BG recognises its own by their content)"));
        assertThat(mine).hasContent("my notes");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> !n.equals("state")))
                    .as("nothing moved aside or written")
                    .containsExactlyInAnyOrder("plan.json", mine.getFileName().toString());
        }
    }

    @Test
    void aFifoOrALinkToADeviceAsOutIsRefusedAndLeftAsItIs() throws Exception {
        Path fifo = dir.resolve("pipe.json");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0).isTrue();
        Path link = Files.createSymbolicLink(dir.resolve("null.json"), Path.of("/dev/null"));
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "--operations", "100", "--out", fifo.toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "--operations", "100", "--out", link.toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains("--out: " + fifo + " is a device, FIFO or socket, not a regular file")
                .contains("--out: " + link + " is a symbolic link (to /dev/null)")
                .doesNotContain("Exception");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(fifo).exists();
        assertThat(dir.resolve("pipe.1.json")).doesNotExist();
        assertThat(dir.resolve("null.1.json")).doesNotExist();
    }

    @Test
    void aRunWhoseOutFolderIsDeletedEndsSealedWithItsSummaryAndValidateSaysWhy() throws Exception {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db)))
                .as(err.toString())
                .isZero();
        Path folder = dir.resolve("gone");
        Path result = folder.resolve("r.json");
        String[] run = with(
                GRAPH,
                "run",
                "--store",
                "sqlite",
                "-p",
                db,
                "--workload",
                "high",
                "--threads",
                "1",
                "--duration",
                "3s",
                "--warmup",
                "0s",
                "--quiet",
                "--out",
                result.toString());
        int[] code = {-1};
        Thread t = Thread.ofPlatform().start(() -> code[0] = bg(run));
        // the member's log is open: the run is under way
        while (!Files.exists(folder.resolve("r/logs/thread-00000.bglog")) && t.isAlive()) {
            Thread.sleep(20);
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p); // as rm -rf does
            }
        }
        t.join();
        assertThat(code[0]).as(err.toString()).isEqualTo(Bg.FAILED);
        String reason = "the validation logs " + folder.resolve("r/logs") + " were deleted during the run, so no "
                + "read can be checked";
        assertThat(out.toString())
                .contains("BG run: ")
                .contains("Validation INCOMPLETE: " + reason)
                .contains("Result: " + result);
        assertThat(err.toString())
                .contains("bg: error: validation incomplete: " + reason)
                .doesNotContain("Exception");
        assertThat(ResultJson.read(result).unpredictable().incompleteReason()).isEqualTo(reason);

        // the store's mark was sealed: the next run is not refused as one that has not ended
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "sqlite",
                        "-p",
                        db,
                        "--workload",
                        "high",
                        "--operations",
                        "200",
                        "--quiet",
                        "--out",
                        dir.resolve("next.json").toString())))
                .as(err.toString())
                .isZero();

        err.getBuffer().setLength(0);
        assertThat(bg("validate", result.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString())
                .contains("The run could not validate its reads: " + reason)
                .doesNotContain("validation=false");
    }

    @Test
    void anOutThatIsADirectoryIsRefusedBeforeTheRun() {
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "--operations", "100", "--out", dir.toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--out").contains("is a directory").doesNotContain("Exception");
    }

    @Test
    void aRunValidatesItsReadsAndBgValidateChecksThemAgain() throws Exception {
        Path result = dir.resolve("v.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=cli-validate",
                        "--workload",
                        "high",
                        "--threads",
                        "8",
                        "--operations",
                        "20000",
                        "--quiet",
                        "--out",
                        result.toString())))
                .as(err.toString())
                .isZero();
        assertThat(out.toString()).contains("Unpredictable reads: 0 of").contains("τ = 0.01 %: met");
        RunResult r = ResultJson.read(result);
        assertThat(r.unpredictable().readsChecked()).isGreaterThan(5_000);
        assertThat(r.unpredictable().unpredictableReads()).isZero();
        assertThat(r.unpredictable().actions()).containsKeys("VP", "LF");
        assertThat(r.unpredictable().freshness()).isNotNull();
        assertThat(dir.resolve("v/logs")).isDirectory();
        assertThat(dir.resolve("v/expected.state")).isRegularFile();

        assertThat(bg("validate", dir.resolve("v").toString(), "-p", "validation.memory=1m"))
                .as(err.toString())
                .isZero();
        assertThat(out.toString()).contains("Validated").contains("Updated " + result);
        assertThat(ResultJson.read(result).unpredictable().readsChecked())
                .isEqualTo(r.unpredictable().readsChecked());
    }

    @Test
    void validationCanBeSwitchedOff() throws Exception {
        Path result = dir.resolve("off.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=cli-novalidate",
                        "-p",
                        "enablelogging=false",
                        "--operations",
                        "2000",
                        "--quiet",
                        "--out",
                        result.toString())))
                .as(err.toString())
                .isZero();
        assertThat(ResultJson.read(result).unpredictable()).isNull();
        assertThat(dir.resolve("off")).doesNotExist();
    }

    @Test
    void aWorkloadFileThatSetsNoMixIsRefusedInOneLineAndNothingRuns() throws Exception {
        Path empty = dir.resolve("HighUpdateActions");
        Files.writeString(empty, "");
        Path garbage = dir.resolve("garbage");
        Files.writeString(garbage, "this is not a workload file\n");
        Path result = dir.resolve("none.json");
        String[][] cases = {
            {"--workload", empty.toString()}, {"--workload", garbage.toString()}, {"-P", garbage.toString()}
        };
        String[] messages = {
            "--workload: " + empty + " is empty: it sets no action frequency (such as ViewProfileAction=0.35; 'bg keys'"
                    + " lists them) and names no mix (mix=high)",
            "--workload: " + garbage + " sets no action frequency",
            "-P: " + garbage + " sets no action frequency (such as ViewProfileAction=0.35; 'bg keys' lists them) and"
                    + " no mix is named; give --workload NAME"
        };
        for (int i = 0; i < cases.length; i++) {
            err.getBuffer().setLength(0);
            assertThat(bg(with(
                            GRAPH,
                            "run",
                            "--store",
                            "memory",
                            "-p",
                            "memory.name=no-mix",
                            cases[i][0],
                            cases[i][1],
                            "--operations",
                            "100",
                            "--quiet",
                            "--out",
                            result.toString())))
                    .as(err.toString())
                    .isEqualTo(Bg.BAD_INPUT);
            assertThat(err.toString()).contains(messages[i]).doesNotContain("\tat ");
            assertThat(err.toString()
                            .lines()
                            .filter(l -> l.startsWith("bg: error:"))
                            .count())
                    .isEqualTo(1);
        }
        err.getBuffer().setLength(0);
        assertThat(bg(with(
                        GRAPH,
                        "sweep",
                        "--store",
                        "memory",
                        "-P",
                        empty.toString(),
                        "--threads",
                        "1",
                        "--duration",
                        "1s",
                        "--out",
                        dir.resolve("sweep.json").toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("-P: " + empty + " sets no action frequency");
        assertThat(result).doesNotExist();
        assertThat(dir.resolve("sweep.json")).doesNotExist();
    }

    @Test
    void aWorkloadFileLabelsTheResultWithItsNameAndWarnsAboutLinesBgDoesNotKnow() throws Exception {
        Path file = dir.resolve("ReadMostly");
        // USC BG's db key is known and ignored on purpose: no warning for it.
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "ViewProfileAction=0.6",
                        "ListFriendsAction=0.4",
                        "garbage line here",
                        "usercont=300",
                        "db=edu.usc.bg.base.DB",
                        ""));
        Path result = dir.resolve("read-mostly.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=labelled",
                        "--workload",
                        file.toString(),
                        "--operations",
                        "300",
                        "--quiet",
                        "--out",
                        result.toString())))
                .as(err.toString())
                .isZero();
        assertThat(err.toString())
                .contains(
                        "bg: warning: ignoring garbage (value 'line here') in " + file
                                + ": not a key BG knows; 'bg keys' lists them",
                        "bg: warning: ignoring usercont (value '300') in " + file
                                + ": not a key BG knows (did you mean " + "usercount?)",
                        "bg: running ReadMostly on memory")
                .doesNotContain("db=", "ignoring db");
        RunResult r = ResultJson.read(result);
        assertThat(r.workload().get("mix_name")).isEqualTo("ReadMostly");
        @SuppressWarnings("unchecked")
        Map<String, Object> mix = (Map<String, Object>) r.workload().get("mix");
        assertThat(mix)
                .containsEntry("ViewProfileAction", "0.6")
                .containsEntry("ListFriendsAction", "0.4")
                .containsEntry("ViewTopKResourcesAction", "0");
        assertThat(r.actions().get("VTR").count()).isZero();
        // -p on top of the file's frequencies makes it another mix: no longer the file's.
        Path other = dir.resolve("other.json");
        assertThat(bg(with(
                        GRAPH,
                        "run",
                        "--store",
                        "memory",
                        "-p",
                        "memory.name=labelled",
                        "--workload",
                        file.toString(),
                        "-p",
                        "ViewProfileAction=0.5",
                        "-p",
                        "ListFriendsAction=0.5",
                        "--operations",
                        "100",
                        "--quiet",
                        "--out",
                        other.toString())))
                .as(err.toString())
                .isZero();
        assertThat(ResultJson.read(other).workload().get("mix_name")).isEqualTo("custom");
    }

    @Test
    void runOnAStoreWithoutTheGraphSaysHowToLoadIt() {
        assertThat(bg(with(GRAPH, "run", "--store", "sqlite", "-p", db, "--duration", "1s")))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("holds no BG graph").contains("bg load");
        assertThat(bg(with(GRAPH, "rate", "--store", "sqlite", "-p", db))).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("does not hold this graph").contains("bg load");
    }

    @Test
    void loadRefusesToOverwriteADifferentGraph() {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).isZero();
        assertThat(bg(
                        "load",
                        "--store",
                        "sqlite",
                        "-p",
                        db,
                        "-p",
                        "usercount=400",
                        "-p",
                        "friendcountperuser=10",
                        "-p",
                        "resourcecountperuser=4"))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("different graph").contains("--replace");
    }

    @Test
    void unreachablePostgresIsAClearFailure() {
        assertThat(bg(
                        "load",
                        "--store",
                        "postgres",
                        "-p",
                        "postgres.url=jdbc:postgresql://127.0.0.1:1/bg",
                        "-p",
                        "usercount=200",
                        "-p",
                        "friendcountperuser=4"))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("127.0.0.1:1").doesNotContain("\tat ");
    }
}
