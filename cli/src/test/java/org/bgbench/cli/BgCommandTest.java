package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The bg command end to end, in process, against a real SQLite file. */
@Tag("server")
class BgCommandTest {
    @TempDir
    Path dir;

    private String db;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void stateDir() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        db = "sqlite.file=" + dir.resolve("bg.sqlite");
    }

    private int bg(String... args) {
        return Bg.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private static final String[] GRAPH = {"-p", "usercount=300", "-p", "friendcountperuser=10",
        "-p", "resourcecountperuser=4", "-p", "confperc=0.7", "-p", "commentcountperresource=1"};

    private String[] with(String[] base, String... more) {
        List<String> all = new ArrayList<>(List.of(more));
        all.addAll(List.of(base));
        return all.toArray(String[]::new);
    }

    @Test
    void storesListsEveryBindingWithItsSettings() {
        assertThat(bg("stores")).isZero();
        assertThat(out.toString()).contains("memory", "sqlite", "postgres", "sqlite.file", "postgres.url");
    }

    @Test
    void loadThenTwoRunsLeaveTheStoreInTheStateBgExpects() throws Exception {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).as(err.toString()).isZero();
        assertThat(out.toString()).contains("sanity check passed: 300 members");
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).isZero();
        assertThat(out.toString()).contains("already holds this graph");

        Path result = dir.resolve("r1.json");
        String[] run = with(GRAPH, "run", "--store", "sqlite", "-p", db, "--threads", "16",
                "--operations", "3000", "--quiet", "-p", "ViewProfileAction=35%", "-p", "ListFriendsAction=5%",
                "-p", "ViewFriendReqAction=5%", "-p", "InviteFriendAction=4%", "-p", "AcceptFriendReqAction=2%",
                "-p", "RejectFriendReqAction=2%", "-p", "ThawFriendshipAction=2%", "-p", "ViewTopKResourcesAction=41%",
                "-p", "PostCommentOnResourceAction=2%", "-p", "DeleteCommentOnResourceAction=2%", "--out", result.toString());
        assertThat(bg(run)).as(err.toString()).isZero();
        RunResult r = ResultJson.read(result);
        long counted = r.actions().values().stream().mapToLong(k -> k.count() + k.noops() + k.errors()).sum();
        assertThat(counted).isEqualTo(3000);
        assertThat(r.total().errors()).isZero();
        assertThat(r.actions().keySet()).containsExactly("VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "SR", "VNF");
        // A second run starts from the state the first left.
        run[List.of(run).indexOf("--out") + 1] = dir.resolve("r2.json").toString();
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(ResultJson.read(dir.resolve("r2.json")).total().errors()).isZero();

        SocialGraph graph = new SocialGraph(GraphParameters.toSpec(Map.of("usercount", "300",
                "friendcountperuser", "10", "resourcecountperuser", "4", "confperc", "0.7", "commentcountperresource", "1")));
        Path stateFile;
        try (var files = Files.list(dir.resolve("state"))) {
            stateFile = files.filter(p -> p.toString().endsWith(".state")).findFirst().orElseThrow();
        }
        GraphState state;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(stateFile))) {
            state = GraphState.readFrom(graph, in);
        }
        assertThat(state.touchedMembers()).as("the runs changed the graph").isPositive();
        try (DataStore store = new SqliteStoreProvider().open(StoreSettings.of(Map.of("sqlite.file", dir.resolve("bg.sqlite").toString())))) {
            assertThat(StateComparison.differences(store, state, 10)).isEmpty();
        }
    }

    @Test
    void anOriginalUscWorkloadFileRunsAsItIs() throws Exception {
        // Keys and layout of USC BG's workloads/ files: fractions, not percentages, plus keys BG ignores or maps.
        Path file = dir.resolve("HighUpdateActions");
        Files.writeString(file, String.join("\n",
                "# high update actions", "ViewProfileAction=0.35", "ListFriendsAction=0.05",
                "ViewFriendReqAction=0.05", "InviteFriendAction=0.04", "AcceptFriendReqAction=0.02",
                "RejectFriendReqAction=0.02", "ThawFriendshipAction=0.02", "ViewTopKResourcesAction=0.41",
                "ViewCommentsOnResourceAction=0.0", "PostCommentOnResourceAction=0.02",
                "DeleteCommentOnResourceAction=0.02", "requestdistribution=zipfian", "zipfianmean=0.27",
                "usercount=300", "friendcountperuser=10", "resourcecountperuser=4", "confperc=0.7",
                "commentcountperresource=1", "operationcount=2000", "threadcount=4", ""));
        Path result = dir.resolve("usc.json");
        assertThat(bg("run", "--store", "memory", "-p", "memory.name=usc-file", "-P", file.toString(), "--quiet",
                "--out", result.toString())).as(err.toString()).isZero();
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
        String[] run = with(GRAPH, "run", "--store", "memory", "-p", "memory.name=cli-again", "--operations", "2000",
                "--quiet", "--out", result.toString());
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(bg(run)).as(err.toString()).isZero();
        assertThat(err.toString()).contains("held an earlier run; kept it as " + dir.resolve("again.1.json"))
                .doesNotContain("Exception");
        assertThat(dir.resolve("again.1.json")).isRegularFile();
        assertThat(dir.resolve("again.1/logs")).isDirectory();
        assertThat(dir.resolve("again.1.hlog")).as("the earlier run's interval log goes with it").isRegularFile();
        assertThat(dir.resolve("again.hlog")).isRegularFile();
        assertThat(ResultJson.read(result).unpredictable().readsChecked()).isPositive();
    }

    /**
     * Every writing command refuses an --out that exists and is not BG's own (a file of the user's, a FIFO), in one
     * line before it runs, and leaves it as it was; a command writing a directory refuses a file there.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"run --store memory --operations 100", "sweep --store memory --threads 1",
        "delta --store memory", "elasticity --store memory --nodes 1", "breakeven a.json b.json --json",
        "rate --store memory", "quickstart", "scale --mode speedup --workload vp --plan PLAN"})
    void anOutThatIsNotBgsIsRefusedBeforeTheRunAndLeftAsItIs(String command) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.json"), """
                {"store": "sqlite", "configurations": [{"name": "one", "nodes": 1, "settings": {"sqlite.file": "%s"}}]}
                """.formatted(dir.resolve("s.sqlite")));
        boolean dirOut = command.startsWith("rate") || command.startsWith("quickstart") || command.startsWith("scale");
        Path mine = Files.writeString(dir.resolve(dirOut ? "notes" : "notes.json"), "my notes");
        List<String> args = new ArrayList<>(List.of(command.replace("PLAN", plan.toString()).split(" ")));
        if (!command.startsWith("breakeven")) {
            args.add("--out");
        }
        args.add(mine.toString());
        if (!command.startsWith("breakeven") && !command.startsWith("quickstart") && !command.startsWith("scale")) {
            args.addAll(List.of("-p", "usercount=200", "-p", "friendcountperuser=4"));
        }
        int code = bg(args.toArray(String[]::new));
        assertThat(code).as(err.toString()).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString().lines().filter(l -> l.startsWith("bg: error:")).toList()).singleElement()
                .asString().contains(mine + (dirOut ? " is a file; give a directory"
                        : " exists and is not a BG result (BG recognises its own by their content)"));
        assertThat(mine).hasContent("my notes");
        try (java.util.stream.Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> !n.equals("state")))
                    .as("nothing moved aside or written").containsExactlyInAnyOrder("plan.json", mine.getFileName()
                            .toString());
        }
    }

    @Test
    void aFifoOrALinkToADeviceAsOutIsRefusedAndLeftAsItIs() throws Exception {
        Path fifo = dir.resolve("pipe.json");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS) && p.exitValue() == 0).isTrue();
        Path link = Files.createSymbolicLink(dir.resolve("null.json"), Path.of("/dev/null"));
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "--operations", "100", "--out", fifo.toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "--operations", "100", "--out", link.toString())))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--out: " + fifo + " is a device, FIFO or socket, not a regular file")
                .contains("--out: " + link + " is a symbolic link (to /dev/null)").doesNotContain("Exception");
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(fifo).exists();
        assertThat(dir.resolve("pipe.1.json")).doesNotExist();
        assertThat(dir.resolve("null.1.json")).doesNotExist();
    }

    @Test
    void aRunWhoseOutFolderIsDeletedEndsSealedWithItsSummaryAndValidateSaysWhy() throws Exception {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).as(err.toString()).isZero();
        Path folder = dir.resolve("gone");
        Path result = folder.resolve("r.json");
        String[] run = with(GRAPH, "run", "--store", "sqlite", "-p", db, "--workload", "high", "--threads", "1",
                "--duration", "3s", "--warmup", "0s", "--quiet", "--out", result.toString());
        int[] code = {-1};
        Thread t = Thread.ofPlatform().start(() -> code[0] = bg(run));
        // the member's log is open: the run is under way
        while (!Files.exists(folder.resolve("r/logs/thread-00000.bglog")) && t.isAlive()) {
            Thread.sleep(20);
        }
        try (java.util.stream.Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p); // as rm -rf does
            }
        }
        t.join();
        assertThat(code[0]).as(err.toString()).isEqualTo(Bg.FAILED);
        String reason = "the validation logs " + folder.resolve("r/logs") + " were deleted during the run, so no "
                + "read can be checked";
        assertThat(out.toString()).contains("BG run: ").contains("Validation INCOMPLETE: " + reason)
                .contains("Result: " + result);
        assertThat(err.toString()).contains("bg: error: validation incomplete: " + reason).doesNotContain("Exception");
        assertThat(ResultJson.read(result).unpredictable().incompleteReason()).isEqualTo(reason);

        // the store's mark was sealed: the next run is not refused as one that has not ended
        assertThat(bg(with(GRAPH, "run", "--store", "sqlite", "-p", db, "--workload", "high", "--operations", "200",
                "--quiet", "--out", dir.resolve("next.json").toString()))).as(err.toString()).isZero();

        err.getBuffer().setLength(0);
        assertThat(bg("validate", result.toString())).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("The run could not validate its reads: " + reason)
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
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "-p", "memory.name=cli-validate", "--workload", "high",
                "--threads", "8", "--operations", "20000", "--quiet", "--out", result.toString())))
                .as(err.toString()).isZero();
        assertThat(out.toString()).contains("Unpredictable reads: 0 of").contains("τ = 0.01 %: met");
        RunResult r = ResultJson.read(result);
        assertThat(r.unpredictable().readsChecked()).isGreaterThan(5_000);
        assertThat(r.unpredictable().unpredictableReads()).isZero();
        assertThat(r.unpredictable().actions()).containsKeys("VP", "LF");
        assertThat(r.unpredictable().freshness()).isNotNull();
        assertThat(dir.resolve("v/logs")).isDirectory();
        assertThat(dir.resolve("v/expected.state")).isRegularFile();

        assertThat(bg("validate", dir.resolve("v").toString(), "-p", "validation.memory=1m")).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Validated").contains("Updated " + result);
        assertThat(ResultJson.read(result).unpredictable().readsChecked()).isEqualTo(r.unpredictable().readsChecked());
    }

    @Test
    void validationCanBeSwitchedOff() throws Exception {
        Path result = dir.resolve("off.json");
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "-p", "memory.name=cli-novalidate", "-p",
                "enablelogging=false", "--operations", "2000", "--quiet", "--out", result.toString()))).as(err.toString()).isZero();
        assertThat(ResultJson.read(result).unpredictable()).isNull();
        assertThat(dir.resolve("off")).doesNotExist();
    }

    @Test
    void rateSearchesAndWritesItsReport() throws Exception {
        Path rating = dir.resolve("rating");
        int code = bg(with(GRAPH, "rate", "--store", "memory", "-p", "memory.name=cli-rate", "--delta", "1s",
                "--warmup", "0s", "--sla", "95%:100ms:0.01%:1s", "--max-threads", "4", "--no-confirm",
                "--out", rating.toString()));
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("SoAR").contains("Socialites").contains("experiments");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = new com.fasterxml.jackson.databind.ObjectMapper().readValue(rating.resolve("rating.json").toFile(), Map.class);
        assertThat(json).containsKeys("soar", "socialites", "experiments", "rating_time");
        assertThat((List<?>) json.get("experiments")).isNotEmpty();
        assertThat(rating.resolve("rating.svg")).content().startsWith("<svg").contains("</svg>");
        assertThat(rating.resolve("rating.html")).content().contains("<svg");
        // Every experiment left its own result JSON.
        try (var files = Files.list(rating)) {
            assertThat(files.filter(f -> f.getFileName().toString().matches("\\d+-T\\d+\\.json")).count())
                    .isEqualTo(((List<?>) json.get("experiments")).size());
        }
    }

    @Test
    void rateOnAFullDiskPrintsItsExperimentsAndRatingThenNamesWhatItCannotWrite() throws Exception {
        Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            Path rating = mnt.resolve("rating");
            int code = bg(with(GRAPH, "rate", "--store", "memory", "-p", "memory.name=cli-rate-full", "-p",
                    "validation=false", "--delta", "1s", "--warmup", "0s", "--sla", "95%:100ms:0.01%:1s",
                    "--target", "soar", "--max-threads", "1", "--no-confirm", "--out", rating.toString()));
            assertThat(code).as(err.toString()).isEqualTo(Bg.FAILED);
            // the experiment's row and the rating are printed; then one line names the first file not written
            assertThat(out.toString()).containsPattern("(?m)^ +1 +1 +[0-9,]+ ").contains("SoAR ")
                    .contains("experiments in");
            assertThat(err.toString()).containsOnlyOnce("bg: error: cannot write ")
                    .contains("cannot write the result to " + rating.resolve("01-T1.json"))
                    .contains("No space left on device").contains("more files not written)")
                    .contains("; the rating above is what was measured").doesNotContain("Exception", "\tat ");
            try (var left = Files.list(rating)) {
                assertThat(left.map(f -> f.getFileName().toString())).as("no reserve or temporary file is left")
                        .noneMatch(n -> n.endsWith(".reserve") || n.endsWith(".tmp"));
            }
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void rateRatesTheMixOfAWorkloadFileGivenWithPUnderTheFilesName() throws Exception {
        Path file = dir.resolve("ReadMostly");
        Files.writeString(file, "ViewProfileAction=0.6\nListFriendsAction=0.4\n");
        Path rating = dir.resolve("rating-file");
        int code = bg(with(GRAPH, "rate", "--store", "memory", "-p", "memory.name=cli-rate-file", "-P", file.toString(),
                "--delta", "1s", "--warmup", "0s", "--sla", "95%:100ms:0.01%:1s", "--target", "soar",
                "--max-threads", "1", "--no-confirm", "--out", rating.toString()));
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("bg: rating memory with the ReadMostly mix");
        try (var files = Files.list(rating)) {
            Path first = files.filter(f -> f.getFileName().toString().matches("\\d+-T\\d+\\.json")).findFirst()
                    .orElseThrow();
            assertThat(ResultJson.read(first).workload().get("mix_name")).isEqualTo("ReadMostly");
        }
    }

    @Test
    void quickstartLoadsRunsAndRates() throws Exception {
        Path qs = dir.resolve("qs");
        int code = bg("quickstart", "-p", "sqlite.file=" + dir.resolve("qs.sqlite"), "-p", "usercount=300",
                "-p", "friendcountperuser=10", "-p", "resourcecountperuser=4", "--threads", "1,2", "--duration", "1s",
                "--rate-delta", "1s", "--sla", "95%:100ms:0.01%:1s", "--rate-max-threads", "4", "--out", qs.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("sanity check passed: 300 members").contains("SoAR").contains("Socialites");
        assertThat(qs.resolve("T1.json")).isRegularFile();
        assertThat(qs.resolve("T2.json")).isRegularFile();
        assertThat(qs.resolve("rating/rating.json")).content().contains("\"soar\"").contains("\"socialites\"");
        // At the cap (T=4 here) the line says plainly that Socialites is a lower bound; below it, a plain number.
        String socialites = out.toString().lines().filter(l -> l.startsWith("Socialites")).findFirst().orElseThrow();
        assertThat(socialites).matches("Socialites (≥ 4 simultaneous members \\(a lower bound.*|[0-3] simultaneous "
                + "members)");
        assertThat(out.toString()).doesNotContain("the Socialites rating may be higher");
        // A second quickstart finds the graph loaded and runs on it.
        assertThat(bg("quickstart", "-p", "sqlite.file=" + dir.resolve("qs.sqlite"), "-p", "usercount=300",
                "-p", "friendcountperuser=10", "-p", "resourcecountperuser=4", "--threads", "1", "--duration", "1s",
                "--no-rate", "--out", dir.resolve("qs2").toString())).as(err.toString()).isZero();
        assertThat(err.toString()).contains("already holds the quickstart graph");
    }

    @Test
    void dzipfPrintsChiSquareFromProbabilitiesAndASample() {
        assertThat(bg("dzipf", "-M", "2000", "--workers", "1-4", "--requests", "200000")).as(err.toString()).isZero();
        List<String> rows = out.toString().lines().filter(l -> l.matches("\\s+\\d+ .*")).toList();
        assertThat(rows).hasSize(4);
        for (String row : rows) {
            String[] f = row.trim().split("\\s+");
            double analytic = Double.parseDouble(f[1]);
            double sampled = Double.parseDouble(f[2]);
            double floor = Double.parseDouble(f[3]);
            assertThat(analytic).as(row).isLessThan(1e-6);
            assertThat(sampled).as(row).isBetween(floor * 0.7, floor * 1.3);
        }
        assertThat(bg("dzipf", "-M", "2000", "--workers", "3", "--requests", "0")).isZero();
        assertThat(out.toString()).contains("N=3").contains("χ² vs centralised Zipfian");
    }

    @Test
    void dzipfWithOneNOrWithRatesPrintsItsReportOnABufferedConsole() {
        // picocli's console writers are buffered: the single-N and --rates reports, printed without a newline-flush,
        // were lost when bg exited (issue 21: 'bg dzipf -N 13' printed nothing, exit 0).
        StringWriter console = new StringWriter();
        PrintWriter buffered = new PrintWriter(new java.io.BufferedWriter(console), true);
        assertThat(Bg.run(buffered, new PrintWriter(err, true), "dzipf", "-M", "2000", "-N", "13", "--requests", "0"))
                .as(err.toString()).isZero();
        assertThat(console.toString()).contains("N=13").contains("χ² vs centralised Zipfian");
        console.getBuffer().setLength(0);
        assertThat(Bg.run(buffered, new PrintWriter(err, true), "dzipf", "-M", "2000", "--rates", "1,2,5",
                "--requests", "0")).as(err.toString()).isZero();
        assertThat(console.toString()).contains("N=3").contains("χ² vs centralised Zipfian");
    }

    @Test
    void dzipfHelpSaysThetaOneIsUniform() {
        assertThat(bg("dzipf", "--help")).isZero();
        assertThat(out.toString().replaceAll("\\s+", " ")).contains("from 0 (most skewed) to 1 (uniform)")
                .doesNotContain("0 is uniform");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"nosuch", "lod"})
    void anUnknownCommandWithHelpIsRefusedAsWithout(String name) {
        assertThat(bg(name)).isEqualTo(Bg.BAD_INPUT);
        String plainOut = out.toString();
        String plainErr = err.toString();
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertThat(bg(name, "--help")).isEqualTo(Bg.BAD_INPUT);
        assertThat(out.toString()).isEqualTo(plainOut).isEmpty();
        assertThat(err.toString()).isEqualTo(plainErr).contains("Unmatched argument at index 0: '" + name + "'");
        if (name.equals("lod")) {
            assertThat(err.toString()).contains("Did you mean: bg load?").doesNotContain("Usage:");
        }
        // Help for commands that exist is unchanged.
        out.getBuffer().setLength(0);
        assertThat(bg("load", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: bg load");
        assertThat(bg("help", "run")).isZero();
        assertThat(bg("--help")).isZero();
    }

    @Test
    void aWorkloadFileThatSetsNoMixIsRefusedInOneLineAndNothingRuns() throws Exception {
        Path empty = dir.resolve("HighUpdateActions");
        Files.writeString(empty, "");
        Path garbage = dir.resolve("garbage");
        Files.writeString(garbage, "this is not a workload file\n");
        Path result = dir.resolve("none.json");
        String[][] cases = {
            {"--workload", empty.toString()}, {"--workload", garbage.toString()}, {"-P", garbage.toString()}};
        String[] messages = {
            "--workload: " + empty + " is empty: it sets no action frequency (such as ViewProfileAction=0.35; 'bg keys'"
                + " lists them) and names no mix (mix=high)",
            "--workload: " + garbage + " sets no action frequency",
            "-P: " + garbage + " sets no action frequency (such as ViewProfileAction=0.35; 'bg keys' lists them) and"
                + " no mix is named; give --workload NAME"};
        for (int i = 0; i < cases.length; i++) {
            err.getBuffer().setLength(0);
            assertThat(bg(with(GRAPH, "run", "--store", "memory", "-p", "memory.name=no-mix", cases[i][0], cases[i][1],
                    "--operations", "100", "--quiet", "--out", result.toString()))).as(err.toString())
                    .isEqualTo(Bg.BAD_INPUT);
            assertThat(err.toString()).contains(messages[i]).doesNotContain("\tat ");
            assertThat(err.toString().lines().filter(l -> l.startsWith("bg: error:")).count()).isEqualTo(1);
        }
        err.getBuffer().setLength(0);
        assertThat(bg(with(GRAPH, "sweep", "--store", "memory", "-P", empty.toString(), "--threads", "1",
                "--duration", "1s", "--out", dir.resolve("sweep.json").toString()))).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("-P: " + empty + " sets no action frequency");
        assertThat(result).doesNotExist();
        assertThat(dir.resolve("sweep.json")).doesNotExist();
    }

    @Test
    void aWorkloadFileLabelsTheResultWithItsNameAndWarnsAboutLinesBgDoesNotKnow() throws Exception {
        Path file = dir.resolve("ReadMostly");
        // USC BG's db key is known and ignored on purpose: no warning for it.
        Files.writeString(file, String.join("\n", "ViewProfileAction=0.6", "ListFriendsAction=0.4",
                "garbage line here", "usercont=300", "db=edu.usc.bg.base.DB", ""));
        Path result = dir.resolve("read-mostly.json");
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "-p", "memory.name=labelled", "--workload",
                file.toString(), "--operations", "300", "--quiet", "--out", result.toString())))
                .as(err.toString()).isZero();
        assertThat(err.toString()).contains("bg: warning: ignoring garbage (value 'line here') in " + file
                        + ": not a key BG knows; 'bg keys' lists them",
                "bg: warning: ignoring usercont (value '300') in " + file + ": not a key BG knows (did you mean "
                        + "usercount?)", "bg: running ReadMostly on memory")
                .doesNotContain("db=", "ignoring db");
        RunResult r = ResultJson.read(result);
        assertThat(r.workload().get("mix_name")).isEqualTo("ReadMostly");
        @SuppressWarnings("unchecked")
        Map<String, Object> mix = (Map<String, Object>) r.workload().get("mix");
        assertThat(mix).containsEntry("ViewProfileAction", "0.6").containsEntry("ListFriendsAction", "0.4")
                .containsEntry("ViewTopKResourcesAction", "0");
        assertThat(r.actions().get("VTR").count()).isZero();
        // -p on top of the file's frequencies makes it another mix: no longer the file's.
        Path other = dir.resolve("other.json");
        assertThat(bg(with(GRAPH, "run", "--store", "memory", "-p", "memory.name=labelled", "--workload",
                file.toString(), "-p", "ViewProfileAction=0.5", "-p", "ListFriendsAction=0.5", "--operations", "100",
                "--quiet", "--out", other.toString()))).as(err.toString()).isZero();
        assertThat(ResultJson.read(other).workload().get("mix_name")).isEqualTo("custom");
    }

    @Test
    void everyCommandsHelpFormatsWithoutPicocliWarnings() {
        // An unescaped % in a description makes picocli print "[picocli WARN] Could not format ..." to System.err.
        java.io.PrintStream saved = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            for (String command : new picocli.CommandLine(new Bg()).getSubcommands().keySet()) {
                assertThat(bg(command, "--help")).as(command).isZero();
            }
        } finally {
            System.setErr(saved);
        }
        assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    }

    @Test
    void compareSkipsJsonFilesThatAreNotRunResults() throws Exception {
        Path runs = dir.resolve("runs");
        Files.createDirectories(runs.resolve("rating"));
        assertThat(bg("run", "--store", "memory", "-p", "memory.name=cli-compare", "-p", "usercount=200",
                "-p", "friendcountperuser=4", "--operations", "500", "--quiet", "--out",
                runs.resolve("r.json").toString())).as(err.toString()).isZero();
        // A rating writes rating.json beside its experiments' results (bg compare runs/ met it after the quickstart).
        Files.writeString(runs.resolve("rating/rating.json"), "{\"soar\": 1000.0, \"socialites\": 16}");
        err.getBuffer().setLength(0);
        assertThat(bg("compare", runs.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("r.json").contains("(not a BG result: " + runs.resolve("rating/rating.json"));
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void runOnAStoreWithoutTheGraphSaysHowToLoadIt() {
        assertThat(bg(with(GRAPH, "run", "--store", "sqlite", "-p", db, "--duration", "1s"))).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("holds no BG graph").contains("bg load");
        assertThat(bg(with(GRAPH, "rate", "--store", "sqlite", "-p", db))).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("does not hold this graph").contains("bg load");
    }

    @Test
    void loadRefusesToOverwriteADifferentGraph() {
        assertThat(bg(with(GRAPH, "load", "--store", "sqlite", "-p", db))).isZero();
        assertThat(bg("load", "--store", "sqlite", "-p", db, "-p", "usercount=400", "-p", "friendcountperuser=10",
                "-p", "resourcecountperuser=4")).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("different graph").contains("--replace");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown store          | load --store nosuch                                   | unknown store 'nosuch'",
        "unknown key            | load --store memory -p usercont=10                    | usercont: unknown parameter (did you mean usercount?)",
        "phi >= M               | load --store memory -p usercount=50 -p friendcountperuser=50 | less than the number of members",
        "negative size          | load --store memory -p resourcecountperuser=-3        | resourcecountperuser: must be 0 or more",
        "negative image size    | load --store memory -p thumbnailbytes=-3             | thumbnailbytes",
        "missing property file  | load --store memory -P /nonexistent/bg.properties    | no such property file",
        "unknown workload       | run --store memory --workload nosuch                  | --workload: 'nosuch' is neither a file nor a named mix",
        "T < 1                  | run --store memory --threads 0 -p usercount=200 -p friendcountperuser=4 | T must be at least 1",
        "bad duration           | run --store memory --duration soon -p usercount=200 -p friendcountperuser=4 | --duration",
        "sum not 100            | run --store memory -p ViewProfileAction=0.5 -p ListFriendsAction=0.2 -p usercount=200 -p friendcountperuser=4 | sum",
        "unknown action key     | run --store memory -p ViewProfilAction=1 -p usercount=200 -p friendcountperuser=4 | ViewProfilAction",
        "dzipf workers          | dzipf --workers 0                                     | --workers: must be a count",
        "dzipf too many workers | dzipf -M 10 --workers 11                              | --workers: needs at least one member per worker",
        "dzipf theta > 1        | dzipf --theta 1.5                                     | --theta: θ must be from 0 (most skewed) to 1 (uniform)",
        "bad validation flag    | run --store memory -p validation=maybe -p usercount=200 -p friendcountperuser=4 | validation: expected true or false",
        "bad validation memory  | run --store memory -p validation.memory=lots -p usercount=200 -p friendcountperuser=4 | validation.memory: expected a size",
        "memory store too big   | load --store memory -p usercount=50000000             | usercount: the memory store would need about",
        "int too large          | load --store memory -p usercount=3000000000           | usercount: 3000000000 is too large: at most 2,147,483,647",
        "long too large         | run --store memory -p operationcount=99999999999999999999 -p usercount=200 -p friendcountperuser=4 | is too large",
        "operations 0           | run --store memory --operations 0 -p usercount=200 -p friendcountperuser=4 | --operations: must be at least 1, or omit it for a run bounded by --duration; got 0",
        "operations negative    | run --store memory --operations -5 -p usercount=200 -p friendcountperuser=4 | --operations: must be at least 1",
        "operationcount negative| run --store memory -p operationcount=-1 -p usercount=200 -p friendcountperuser=4 | operationcount: must be 0 or more, got -1",
        "duration 0             | run --store memory --duration 0s -p usercount=200 -p friendcountperuser=4 | --duration: must be longer than 0, got 0s",
        "quickstart duration 0  | quickstart --store memory --duration 0s --no-rate -p usercount=200 -p friendcountperuser=4 | --duration: must be longer than 0, got 0s",
        "rate max-threads 0     | rate --store memory --max-threads 0 -p usercount=200 -p friendcountperuser=4 | --max-threads: must be at least 1, got 0",
        "rate climbing factor 1 | rate --store memory --climbing-factor 1 -p usercount=200 -p friendcountperuser=4 | --climbing-factor: the climbing factor r must be a number above 1",
        "rate max-rate 0        | rate --store memory --model open --max-rate 0 -p usercount=200 -p friendcountperuser=4 | --max-rate: must be a rate above 0 and at most 1,000,000,000 per second, got 0.0",
        "rate max-rate too high | rate --store memory --model open --max-rate 1e12 -p usercount=200 -p friendcountperuser=4 | --max-rate: must be a rate above 0 and at most 1,000,000,000 per second",
        "rate unit above max    | rate --store memory --model open --rate-unit 500 --max-rate 100 -p usercount=200 -p friendcountperuser=4 | --max-rate: is below the search's first step, --rate-unit 500.0",
        "arrivals too high      | run --store memory --arrivals 1e12 --duration 1s -p usercount=200 -p friendcountperuser=4 | --arrivals: '1e12': the rate must be at most 1,000,000,000 arrivals per second",
        "breakeven threads 0    | breakeven a.json b.json --threads 0                   | --threads: T must be at least 1, got 0",
        "warmup count negative  | run --store memory --warmup -5 -p usercount=200 -p friendcountperuser=4 | --warmup: must be 0 or more: a time (10s) or a request count (500), got '-5'",
        "warmup key negative    | run --store memory -p warmup=-5 -p usercount=200 -p friendcountperuser=4 | warmup: must be 0 or more: a whole number of requests (1000) or a time with a unit (30s, 2m), got '-5'",
        "load threads 0         | load --store memory --threads 0 -p usercount=200 -p friendcountperuser=4 | --threads: must be at least 1, got 0",
        "generate threads 0     | generate --threads 0 -p usercount=200 -p friendcountperuser=4 | --threads: must be at least 1, got 0",
        "generate writes < 0    | generate --writes -1 -p usercount=200 -p friendcountperuser=4 | --writes: must be 0 or more, got -1",
        "picocli conversion     | run --store memory --threads many -p usercount=200     | Invalid value for option '--threads'",
        "unknown option         | run --store memory --thread 4                          | Unknown options: '--thread', '4'",
        "beta not positive      | run --store memory --beta 0s -p usercount=200 -p friendcountperuser=4 | --beta: β must be longer than 0",
        "bad tau                | run --store memory -p tau=200 -p usercount=200 -p friendcountperuser=4 | tau: expected a percentage",
        "validate no run        | validate /nonexistent/run.json                       | no such result file or run directory",
        "bad sla                | rate --store memory --sla 120%:100ms:0.01%:10s         | --sla",
        "bad rate target        | rate --store memory --target fastest                  | --target: expected soar, socialites or both",
        "delta longer than sla  | rate --store memory --sla 95%:100ms:0.01%:5s --delta 10s | --delta",
        "needs pending          | run --store memory -p AcceptFriendReqAction=0.5 -p ViewProfileAction=0.5 -p usercount=200 -p friendcountperuser=4 | no pending invitation",
        "worker empty secret    | worker --listen 127.0.0.1:0 --secret=                  | --secret: the secret has 0 characters; at least 16 are needed",
        "worker short secret    | worker --listen 127.0.0.1:0 --secret fifteen-chars-x   | --secret: the secret has 15 characters; at least 16 are needed",
        "worker secret and file | worker --listen 127.0.0.1:0 --secret sixteen-characters --secret-file f | --secret: give either --secret or --secret-file",
        "worker cert, no key    | worker --listen 127.0.0.1:0 --secret sixteen-characters --tls-cert c.pem | --tls-key: --tls-cert and --tls-key go together",
        "worker bad listen      | worker --listen foo --secret s                         | --listen: expected HOST:PORT",
        "worker bad port        | worker --listen 127.0.0.1:99999 --secret s             | --listen: the port must be 0..65535",
        "workers without secret | run --store memory --workers 127.0.0.1:1 --secret= -p usercount=200 -p friendcountperuser=4 | --secret",
        "workers no secret file | run --store memory --workers 127.0.0.1:1 --secret-file /nonexistent/bg.secret -p usercount=200 -p friendcountperuser=4 | --secret-file: no such file: /nonexistent/bg.secret",
        "workers short secret   | shutdown --workers 127.0.0.1:1 --secret short        | --secret: the secret has 5 characters",
        "workers bad pin        | shutdown --workers 127.0.0.1:1 --secret sixteen-characters --tls-pin AB:CD | --tls-pin: expected a certificate",
        "workers pin and ca     | shutdown --workers 127.0.0.1:1 --secret sixteen-characters --tls-pin AB --tls-ca ca.pem | --tls-pin: give either --tls-pin or --tls-ca",
        "bad workers address    | run --store memory --workers nonsense --secret sixteen-characters -p usercount=200 -p friendcountperuser=4 | --workers",
        "bad worker rates       | run --store memory --workers 127.0.0.1:1,127.0.0.1:2 --worker-rates 1 --secret s -p usercount=200 -p friendcountperuser=4 | --worker-rates",
        "store host no host     | run --store memory --store-host :9100 -p usercount=200 -p friendcountperuser=4 | --store-host: expected HOST or HOST:PORT",
        "store host bad port    | rate --store memory --store-host db1:70000 -p usercount=200 -p friendcountperuser=4 | --store-host: expected HOST or HOST:PORT (port 1..65535, default 9100), got 'db1:70000'",
        "run out in /proc       | run --store memory --out /proc/bg-run.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg-run.json is in /proc, a system directory",
        "run out a system file  | run --store memory --out /proc/cpuinfo -p usercount=200 -p friendcountperuser=4 | --out: /proc/cpuinfo is in /proc, a system directory",
        "rate out a system dir  | rate --store memory --out /sys/bg-rating -p usercount=200 -p friendcountperuser=4 | --out: /sys/bg-rating is in /sys, a system directory",
        "sweep out /proc        | sweep --store memory --threads 1 --out /proc/bg.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg.json is in /proc, a system directory",
        "delta out /proc        | delta --store memory --out /proc/bg-delta.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/bg-delta.json is in /proc, a system directory",
        "elasticity out /proc   | elasticity --store memory --nodes 1 --out /proc/e.json -p usercount=200 -p friendcountperuser=4 | --out: /proc/e.json is in /proc, a system directory",
        "quickstart out /sys    | quickstart --out /sys/bg                               | --out: /sys/bg is in /sys, a system directory",
        "breakeven json /proc   | breakeven a.json b.json --json /proc/be.json           | --json: /proc/be.json is in /proc, a system directory",
        "deck listen no port    | deck --listen nohost                                   | --listen: expected HOST:PORT with a port 0..65535",
        "deck listen bad port   | deck --listen 127.0.0.1:70000                          | --listen: expected HOST:PORT with a port 0..65535 (0: any free one), e.g. 127.0.0.1:7878; got '127.0.0.1:70000'",
        "deck listen no host    | deck --listen :7878                                    | --listen: expected HOST:PORT",
        "deck empty token       | deck --listen 127.0.0.1:0 --token=                     | --token: must not be empty",
        "deck short token       | deck --listen 0.0.0.0:0 --token fifteen-chars-x        | --token: the token has 15 characters; at least 16 are needed",
        "deck token odd chars   | deck --listen 127.0.0.1:0 --token sixteen;characters   | --token: letters, digits",
        "deck allow-host a URL  | deck --listen 127.0.0.1:0 --allow-host http://bench.example | --allow-host: expected a host name such as bench.example.org",
        "deck allow-host a port | deck --listen 127.0.0.1:0 --allow-host bench.example:80 | --allow-host: expected a host name",
        "deck runs not a dir    | deck --listen 127.0.0.1:0 --runs /dev/null              | --runs: not a directory: /dev/null",
        "deck address not ours  | deck --listen 192.0.2.1:0 --token sixteen-characters   | --listen: cannot listen on 192.0.2.1:0",
    })
    void badInputGetsOneClearLineAndExitCode2(String what, String args, String message) {
        int code = bg(args.trim().split("\\s+"));
        assertThat(code).as(what + ": " + err).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains(message.trim()).doesNotContain("\tat ").doesNotContain("Usage:");
        // One line of error (picocli may add one line of suggestions for a mistyped command).
        assertThat(err.toString().lines().filter(l -> l.startsWith("bg: error:")).count()).isEqualTo(1);
    }

    /** Starts 'bg worker' on a free loopback port in a thread; returns its port once it listens. */
    private int startWorker(StringWriter workerErr, java.util.concurrent.atomic.AtomicInteger code, Thread[] thread,
                            String... options) throws Exception {
        return startWorker(dir, workerErr, code, thread, options);
    }

    /**
     * Starts {@code bg worker} on a free loopback port in a thread of this JVM, its directory under {@code dir}, and
     * waits until it listens; its exit code goes to {@code code}.
     */
    static int startWorker(java.nio.file.Path dir, StringWriter workerErr, java.util.concurrent.atomic.AtomicInteger code,
                           Thread[] thread, String... options) throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("worker", "--listen",
                "127.0.0.1:" + port, "--dir", dir.resolve("worker-" + port).toString()));
        args.addAll(java.util.List.of(options));
        thread[0] = Thread.ofPlatform().start(() -> code.set(Bg.run(new PrintWriter(new StringWriter(), true),
                new PrintWriter(workerErr, true), args.toArray(String[]::new))));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!workerErr.toString().contains("(results in") && System.nanoTime() < deadline && thread[0].isAlive()) {
            Thread.sleep(10);
        }
        assertThat(workerErr.toString()).contains("listening on 127.0.0.1:" + port);
        return port;
    }

    /** A secret of whitespace, or of a character or two repeated, is no secret: from the flag, a file, the env. */
    @Test
    void aBlankOrTriviallyWeakSecretIsRefusedWhereverItComesFrom() throws Exception {
        String blank = " ".repeat(16);
        assertThat(bg("worker", "--listen", "127.0.0.1:0", "--dir", dir.toString(), "--secret", blank))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("bg: error: --secret: the secret is only whitespace");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret", "abababababababab")).isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret: the secret has only 2 different characters; at least 8");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret", " sixteen-characters")).isEqualTo(
                Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret: the secret begins or ends with whitespace");
        java.nio.file.Path file = dir.resolve("blank.secret");
        java.nio.file.Files.writeString(file, blank + "\n");
        assertThat(bg("worker", "--listen", "127.0.0.1:0", "--dir", dir.toString(), "--secret-file", file.toString()))
                .isEqualTo(Bg.BAD_INPUT);
        assertThat(err.toString()).contains("--secret-file: " + file + " holds only whitespace");
        assertThat(bg("shutdown", "--workers", "127.0.0.1:1", "--secret-file", file.toString())).isEqualTo(
                Bg.BAD_INPUT);
        assertThat(err.toString()).doesNotContain("\tat ");

        // The environment: a real process, started with BG_SECRET of spaces.
        ProcessBuilder pb = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Bg.class.getName(), "worker", "--listen",
                "127.0.0.1:0", "--dir", dir.resolve("w").toString()).redirectErrorStream(true);
        pb.environment().put("BG_SECRET", blank);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isEqualTo(Bg.BAD_INPUT);
        assertThat(out).contains("bg: error: BG_SECRET: the secret is only whitespace").doesNotContain("listening");
    }

    /**
     * A coordinator cannot make a real worker write outside its --dir or load a jar: the worker refuses the settings
     * (one line naming the key), the coordinator's command fails, and nothing appears where it pointed.
     */
    @Test
    void aWorkerRefusesACoordinatorsFilesOutsideItsDirectoryAndItsCode() throws Exception {
        java.nio.file.Path secretFile = dir.resolve("w.secret");
        java.nio.file.Files.writeString(secretFile, "a-secret-for-the-confinement-test\n");
        java.nio.file.Files.setPosixFilePermissions(secretFile,
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        java.util.concurrent.atomic.AtomicInteger code = new java.util.concurrent.atomic.AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString());
        String workers = "127.0.0.1:" + port;
        java.nio.file.Path outside = dir.resolve("outside.db");
        java.nio.file.Path jar = dir.resolve("evil.jar");
        java.nio.file.Files.writeString(jar, "not a jar");
        try {
            String[][] attempts = {
                {"jdbc.url=jdbc:sqlite:" + outside, "jdbc.url: sqlite:" + outside},
                {"jdbc.driver-jar=" + jar, "jdbc.driver-jar: names code for BG to load or run"},
                {"jdbc.dialect=/etc/passwd", "jdbc.dialect: '/etc/passwd' is outside the worker's own directory"},
            };
            for (String[] a : attempts) {
                int before = err.getBuffer().length();
                String[] setting = a[0].startsWith("jdbc.url") ? new String[] {"-p", a[0]}
                        : new String[] {"-p", "jdbc.url=jdbc:sqlite:w.db", "-p", a[0]};
                java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("load", "--store", "jdbc",
                        "--workers", workers, "--secret-file", secretFile.toString(), "-p", "usercount=100", "-p",
                        "friendcountperuser=4", "-p", "resourcecountperuser=1"));
                args.addAll(java.util.List.of(setting));
                int exit = bg(args.toArray(String[]::new));
                String said = err.toString().substring(before);
                assertThat(exit).as(said).isEqualTo(Bg.FAILED);
                assertThat(said.lines().filter(l -> l.startsWith("bg: error:")).count()).as(said).isEqualTo(1);
                assertThat(said).as(a[0])
                        .contains(a[1].startsWith("jdbc.url") ? "outside the worker's own directory" : a[1])
                        .doesNotContain("root:x:").doesNotContain("\tat ");
            }
            assertThat(outside).doesNotExist();
            assertThat(worker[0].isAlive()).as("the worker still serves").isTrue();
        } finally {
            bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString());
            worker[0].join(java.time.Duration.ofSeconds(15));
        }
    }

    @Test
    void aWorkerServesUntilItsCoordinatorShutsItDown() throws Exception {
        // No secret: the worker generates one and writes it to the --secret-file that does not exist yet.
        java.nio.file.Path secretFile = dir.resolve("worker.secret");
        java.util.concurrent.atomic.AtomicInteger code = new java.util.concurrent.atomic.AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString());
        assertThat(workerErr.toString()).contains("generated one and wrote it to " + secretFile);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(secretFile))).isEqualTo("rw-------");

        assertThat(bg("shutdown", "--workers", "127.0.0.1:" + port, "--secret", "wrong-but-long-enough"))
                .isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("refused the secret").contains("warning: --secret puts the secret on the"
                + " command line");
        assertThat(worker[0].isAlive()).as("a wrong secret shuts nothing down").isTrue();
        int before = err.getBuffer().length();
        assertThat(bg("shutdown", "--workers", "127.0.0.1:" + port, "--secret-file", secretFile.toString()))
                .as(err.toString()).isZero();
        assertThat(err.toString().substring(before)).doesNotContain("warning");
        worker[0].join(java.time.Duration.ofSeconds(15));
        assertThat(worker[0].isAlive()).isFalse();
        assertThat(code.get()).isZero();
        assertThat(workerErr.toString()).contains("shut down by the coordinator");
    }

    @Test
    void aTlsWorkerIsReachedWithItsPinnedFingerprint() throws Exception {
        java.nio.file.Path secretFile = dir.resolve("tls.secret");
        java.nio.file.Files.writeString(secretFile, "a-secret-for-the-tls-test\n");
        java.nio.file.Files.setPosixFilePermissions(secretFile,
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        java.util.concurrent.atomic.AtomicInteger code = new java.util.concurrent.atomic.AtomicInteger(-1);
        StringWriter workerErr = new StringWriter();
        Thread[] worker = new Thread[1];
        int port = startWorker(workerErr, code, worker, "--secret-file", secretFile.toString(), "--tls");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("--tls-pin (([0-9A-F]{2}:){31}[0-9A-F]{2})")
                .matcher(workerErr.toString());
        assertThat(m.find()).as(workerErr.toString()).isTrue();
        String pin = m.group(1);
        String workers = "127.0.0.1:" + port;

        assertThat(bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString())).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("it probably expects TLS");
        assertThat(bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString(), "--tls-pin",
                "00".repeat(32))).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("failed the TLS handshake").contains("not the one pinned with --tls-pin");
        assertThat(worker[0].isAlive()).isTrue();
        assertThat(bg("shutdown", "--workers", workers, "--secret-file", secretFile.toString(), "--tls-pin", pin))
                .as(err.toString()).isZero();
        worker[0].join(java.time.Duration.ofSeconds(15));
        assertThat(worker[0].isAlive()).isFalse();
        assertThat(code.get()).isZero();
    }

    /**
     * The same workers, the coordinator's --out on a full disk: the merged summary is printed, then one error line
     * naming the merged result and the workers' copies, and the run fails.
     */
    private void fullDiskOnTheCoordinator(String workers, String secret) throws Exception {
        java.nio.file.Path mnt = dir.resolve("full-disk");
        SmallDisk.mount(mnt, "1m");
        try {
            SmallDisk.fill(mnt.resolve("filler"));
            java.nio.file.Path full = mnt.resolve("full.json");
            int before = err.getBuffer().length();
            int printed = out.getBuffer().length();
            assertThat(bg("run", "--store", "sqlite", "-p", "sqlite.file=hlog.sqlite", "--workers", workers,
                    "--secret", secret, "--threads", "2", "--duration", "1s", "--warmup", "0s", "--quiet", "--out",
                    full.toString(), "-p", "usercount=200", "-p", "friendcountperuser=4", "-p", "fragments=2"))
                    .as(err.toString()).isEqualTo(Bg.FAILED);
            String said = err.toString().substring(before);
            assertThat(out.toString().substring(printed)).contains("BG run: ").contains("Workers  2")
                    .contains("Result: " + full.toAbsolutePath() + " (not written: the summary above is what was "
                            + "measured)");
            assertThat(said).containsOnlyOnce("bg: error: cannot write the result to " + full + ": ")
                    .contains("No space left on device (and 2 more files not written); the summary above is what "
                            + "was measured").doesNotContain("Exception", "\tat ");
            try (var left = java.nio.file.Files.list(mnt)) {
                assertThat(left.map(f -> f.getFileName().toString())).as("no reserve or temporary file is left")
                        .noneMatch(n -> n.endsWith(".reserve") || n.endsWith(".tmp"));
            }
        } finally {
            SmallDisk.unmount(mnt);
        }
    }

    @Test
    void aRunOnTwoWorkersWritesAMergedHlogWithTheMergedResultsCounts() throws Exception {
        String secret = "a-secret-for-the-hlog-test";
        java.util.concurrent.atomic.AtomicInteger code1 = new java.util.concurrent.atomic.AtomicInteger(-1);
        java.util.concurrent.atomic.AtomicInteger code2 = new java.util.concurrent.atomic.AtomicInteger(-1);
        Thread[] w1 = new Thread[1];
        Thread[] w2 = new Thread[1];
        int p1 = startWorker(new StringWriter(), code1, w1, "--secret", secret);
        int p2 = startWorker(new StringWriter(), code2, w2, "--secret", secret);
        String workers = "127.0.0.1:" + p1 + ",127.0.0.1:" + p2;
        java.nio.file.Path result = dir.resolve("two.json");
        try {
            // SQLite: a relative file is under each worker's own directory, so each has a store of its own.
            assertThat(bg("run", "--store", "sqlite", "-p", "sqlite.file=hlog.sqlite", "--load", "--workers", workers,
                    "--secret", secret, "--threads", "4",
                    "--duration", "2s", "--warmup", "1s", "--quiet", "--out", result.toString(), "-p", "usercount=200",
                    "-p", "friendcountperuser=4", "-p", "fragments=2")).as(err.toString()).isZero();
            fullDiskOnTheCoordinator(workers, secret);
        } finally {
            bg("shutdown", "--workers", workers, "--secret", secret);
            w1[0].join(java.time.Duration.ofSeconds(15));
            w2[0].join(java.time.Duration.ofSeconds(15));
        }
        org.bgbench.measurement.RunResult merged = org.bgbench.measurement.report.ResultJson.read(result);
        assertThat(merged.config().get("workers_count")).isEqualTo(2);
        java.nio.file.Path hlog = dir.resolve("two.hlog");
        assertThat(merged.bottleneckWarnings()).noneMatch(w -> w.contains("histogram log"));

        // Read back by HdrHistogram: per action and session, and untagged for all actions, the merged result's counts.
        java.util.Map<String, Long> totals = new java.util.LinkedHashMap<>();
        int untagged = 0;
        try (org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(hlog.toFile())) {
            org.HdrHistogram.EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                String tag = e.getTag() == null ? "" : e.getTag();
                totals.merge(tag, ((org.HdrHistogram.Histogram) e).getTotalCount(), Long::sum);
                untagged += tag.isEmpty() ? 1 : 0;
            }
        }
        java.util.Map<String, org.bgbench.measurement.KindResult> kinds = new java.util.LinkedHashMap<>(merged.actions());
        kinds.putAll(merged.sessions());
        assertThat(merged.total().count()).isPositive();
        kinds.forEach((kind, k) -> assertThat(totals.getOrDefault(kind, 0L)).as(kind)
                .isEqualTo(k.count() + k.stuck()));
        assertThat(totals.get("")).isEqualTo(merged.total().count() + merged.total().stuck());
        assertThat(untagged).as("a merged second each, warm-up excluded").isGreaterThanOrEqualTo(merged.series().size())
                .isLessThanOrEqualTo(merged.series().size() + 2);
        if (merged.total().stuck() == 0) {
            assertThat(java.nio.file.Files.readString(hlog)).as("the seconds alone add up: nothing was stuck")
                    .doesNotContain(org.bgbench.measurement.report.IntervalLog.REST_COMMENT);
        }
        java.nio.file.Path printed = dir.resolve("two.txt");
        new org.HdrHistogram.HistogramLogProcessor(new String[] {"-i", hlog.toString(), "-o", printed.toString()})
                .run();
        assertThat(java.nio.file.Files.readString(dir.resolve("two.txt.hgrm")))
                .containsPattern("Total count\\s+=\\s+" + totals.get("") + "\\]");

        // The coordinator's live file (what the deck shows): the merged seconds, per action summed over the workers.
        java.util.List<com.fasterxml.jackson.databind.JsonNode> live = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(dir.resolve("two.live.jsonl"))) {
            live.add(new com.fasterxml.jackson.databind.ObjectMapper().readTree(line));
        }
        assertThat(live.get(0).path("type").asText()).isEqualTo("start");
        assertThat(live.get(0).path("threads").asInt()).isEqualTo(4);
        assertThat(live.get(live.size() - 1).path("type").asText()).isEqualTo("end");
        assertThat(live.get(live.size() - 1).path("throughput").asDouble()).isEqualTo(merged.throughput());
        java.util.List<com.fasterxml.jackson.databind.JsonNode> secondsSeen = live.stream()
                .filter(n -> n.path("type").asText().equals("second")).toList();
        assertThat(secondsSeen).hasSize(merged.series().size());
        for (int i = 0; i < secondsSeen.size(); i++) {
            com.fasterxml.jackson.databind.JsonNode n = secondsSeen.get(i);
            assertThat(n.path("actions").asLong()).isEqualTo(merged.series().get(i).actions());
            long perKind = 0;
            for (org.bgbench.model.Action a : org.bgbench.model.Action.values()) {
                perKind += n.path("kinds").path(a.code()).path("n").asLong();
            }
            assertThat(perKind).as("second " + n.path("second")).isEqualTo(n.path("actions").asLong());
        }
    }

    @Test
    void theDeckServesItsPageAndFormsUntilInterrupted() throws Exception {
        StringWriter deckErr = new StringWriter();
        java.util.concurrent.atomic.AtomicInteger code = new java.util.concurrent.atomic.AtomicInteger(-1);
        Thread deck = Thread.ofPlatform().start(() -> code.set(Bg.run(new PrintWriter(new StringWriter(), true),
                new PrintWriter(deckErr, true), "deck", "--listen", "127.0.0.1:0", "--runs",
                dir.resolve("runs").toString())));
        try {
            java.util.regex.Pattern open = java.util.regex.Pattern.compile("bg deck: open (http://\\S+)");
            long deadline = System.nanoTime() + 30_000_000_000L;
            java.util.regex.Matcher m = open.matcher("");
            while (!(m = open.matcher(deckErr.toString())).find() && System.nanoTime() < deadline && deck.isAlive()) {
                Thread.sleep(10);
            }
            assertThat(m.find(0)).as(deckErr.toString()).isTrue();
            java.net.URI page = java.net.URI.create(m.group(1));
            assertThat(page.getHost()).isEqualTo("127.0.0.1");
            // a token on loopback too, generated and printed once in the address
            assertThat(page.getQuery()).matches("token=[A-Za-z0-9_-]{32}");
            assertThat(deckErr.toString().split(page.getQuery(), -1)).hasSize(2);
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            assertThat(http.send(java.net.http.HttpRequest.newBuilder(page.resolve("/api/forms")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
            java.net.http.HttpResponse<String> forms = http.send(java.net.http.HttpRequest.newBuilder(
                    page.resolve("/api/forms")).header("Authorization", "Bearer " + page.getQuery().substring(6))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(forms.statusCode()).isEqualTo(200);
            assertThat(forms.body()).contains("\"name\":\"sqlite\"").contains("\"name\":\"memory\"");
            org.bgbench.runner.Interrupts.interrupt("stopped by the test");
            deck.join(java.time.Duration.ofSeconds(10));
            assertThat(code.get()).as(deckErr.toString()).isZero();
        } finally {
            org.bgbench.runner.Interrupts.reset();
        }
    }

    @Test
    void anUnreachableWorkerIsAClearFailure() {
        assertThat(bg("run", "--store", "memory", "--workers", "127.0.0.1:1", "--secret", "sixteen-characters", "-p", "usercount=200",
                "-p", "friendcountperuser=4", "--duration", "1s")).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("worker 127.0.0.1:1 is unreachable").doesNotContain("\tat ");
    }

    @Test
    void unreachablePostgresIsAClearFailure() {
        assertThat(bg("load", "--store", "postgres", "-p", "postgres.url=jdbc:postgresql://127.0.0.1:1/bg",
                "-p", "usercount=200", "-p", "friendcountperuser=4")).isEqualTo(Bg.FAILED);
        assertThat(err.toString()).contains("127.0.0.1:1").doesNotContain("\tat ");
    }
}
