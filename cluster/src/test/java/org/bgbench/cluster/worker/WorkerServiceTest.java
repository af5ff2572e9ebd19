package org.bgbench.cluster.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.data.Offset;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.store.StateMark;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The worker's operations, called as the transport calls them, against a real memory store. */
class WorkerServiceTest {
    private static final String STORE = "worker-service-test";
    private static final Map<String, String> PARAMS = Map.of(
            "usercount",
            "400",
            "friendcountperuser",
            "10",
            "resourcecountperuser",
            "2",
            "confperc",
            "0.7",
            "commentcountperresource",
            "1",
            "mix",
            "high",
            MemoryStoreProvider.NAME_KEY,
            STORE);

    @TempDir
    Path dir;

    private final StringWriter log = new StringWriter();

    @AfterEach
    void discard() {
        MemoryStoreProvider.discard(STORE);
    }

    private WorkerService service() {
        return new WorkerService(dir, new PrintWriter(log, true));
    }

    private static ClusterPlan plan() {
        SocialGraph g = new SocialGraph(GraphParameters.toSpec(
                Map.of("usercount", "400", "friendcountperuser", "10", "resourcecountperuser", "2", "fragments", "4")));
        return ClusterPlan.assign(g, new double[] {1, 1}, 7);
    }

    private static <T> T call(WorkerService w, String op, Object args, Class<T> answer) throws Exception {
        return Messages.read(w.call(op, Messages.tree(args)), answer);
    }

    private Messages.Opened open(WorkerService w, ClusterPlan plan) throws Exception {
        Map<String, String> p = new TreeMap<>(PARAMS);
        p.put("fragments", "4");
        return call(w, Operations.OPEN, new Messages.Open("memory", p, plan.layout(), 0), Messages.Opened.class);
    }

    private static ExperimentSpec experiment(int threads) {
        WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
        return ExperimentSpec.timed(
                ws,
                threads,
                Duration.ofSeconds(1),
                Duration.ZERO,
                EmulatorConfig.ThreadKind.PLATFORM,
                Duration.ofMillis(100),
                ValidationOptions.defaults());
    }

    private void loadShare(WorkerService w, ClusterPlan plan) throws Exception {
        call(w, Operations.CREATE_SCHEMA, Messages.Ack.OK, Messages.Ack.class);
        List<JsonNode> progress = new ArrayList<>();
        Messages.Loaded loaded = Messages.read(
                w.stream(Operations.LOAD, Messages.tree(new Messages.Load(2)), progress::add), Messages.Loaded.class);
        assertThat(loaded.rows()).isPositive();
        Messages.Finished f = call(
                w, Operations.FINISH_LOAD, new Messages.FinishLoad(loaded.rows(), 0.1, true), Messages.Finished.class);
        assertThat(f.members()).isEqualTo(plan.members(0).length);
    }

    @Test
    void helloNamesTheProtocolVersion() throws Exception {
        Messages.Hello h = call(service(), Operations.HELLO, Messages.Greeting.mine(), Messages.Hello.class);
        assertThat(h.protocol()).isEqualTo(Operations.VERSION);
        assertThat(h.pid()).isEqualTo(ProcessHandle.current().pid());
    }

    @Test
    void aCoordinatorOfAnotherProtocolVersionIsRefusedInOneLineNamingBoth() throws Exception {
        WorkerService w = service();
        int other = Operations.VERSION - 1;
        assertThatThrownBy(() -> w.call(Operations.HELLO, Messages.tree(new Messages.Greeting(other))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("this worker speaks protocol " + Operations.VERSION + ", the coordinator " + other
                        + "; run the same BG version everywhere");
        // A coordinator before versions were sent greets with an empty acknowledgement.
        assertThatThrownBy(() -> w.call(Operations.HELLO, Messages.tree(Messages.Ack.OK)))
                .hasMessage("this worker speaks protocol " + Operations.VERSION + ", the coordinator an earlier one "
                        + "(4 or below); run the same BG version everywhere");
    }

    @Test
    void aWorkerLoadsItsShareRunsOnItsMembersAndKeepsItsStateForTheSameSetup() throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        Messages.Opened first = open(w, plan);
        assertThat(first.loaded()).isFalse();
        assertThat(first.members()).isEqualTo(plan.members(0).length);
        loadShare(w, plan);

        List<Messages.Second> seconds = new ArrayList<>();
        Messages.RunDone done = Messages.read(
                w.stream(
                        Operations.RUN,
                        Messages.tree(experiment(2)),
                        m -> seconds.add(Messages.read(m, Messages.Second.class))),
                Messages.RunDone.class);
        assertThat(done.completed()).as(done.abortReason()).isTrue();
        assertThat(done.result().total().count()).isPositive();
        assertThat(done.result().unpredictablePct()).isZero();
        assertThat(done.touched()).as("the high mix writes").isPositive();
        assertThat(seconds).isNotEmpty();
        assertThat(Path.of(done.file())).exists().startsWith(dir);
        // The measured seconds carry each kind's histogram: together they are the worker's result, per kind.
        Map<String, Long> streamed = new HashMap<>();
        seconds.stream()
                .filter(s -> !s.warmup())
                .forEach(s -> s.kinds()
                        .forEach((code, k) -> streamed.merge(code, k.latencies().getTotalCount(), Long::sum)));
        done.result()
                .actions()
                .forEach((code, k) ->
                        assertThat(streamed.getOrDefault(code, 0L)).as(code).isEqualTo(k.count() + k.stuck()));
        assertThat(seconds)
                .filteredOn(Messages.Second::warmup)
                .allMatch(s -> s.kinds().isEmpty());
        // Their counts carry BG's CPU in the sampled calls, which add up to the result's figures.
        Map<String, long[]> cpu = new HashMap<>();
        seconds.stream()
                .filter(s -> !s.warmup())
                .forEach(s -> s.kinds()
                        .forEach((code, c) -> cpu.merge(code, new long[] {c.cpuNanos(), c.cpuSamples()}, (a, b) ->
                                new long[] {a[0] + b[0], a[1] + b[1]})));
        assertThat(done.result().total().bgCpuSamples()).isPositive();
        done.result().actions().forEach((code, k) -> {
            long[] c = cpu.getOrDefault(code, new long[2]);
            assertThat(c[1]).as(code).isEqualTo(k.bgCpuSamples());
            if (k.bgCpuUs() != null) {
                assertThat(c[0] / 1e3 / c[1]).as(code).isCloseTo(k.bgCpuUs(), Offset.offset(1e-9));
            }
        });
        assertThat(RunArtifacts.hlogFor(Path.of(done.file())))
                .as("the worker's own log")
                .isRegularFile();

        // A later command of the same coordinator setup finds the state this worker's run left.
        Messages.Opened again = open(w, plan);
        assertThat(again.keptState()).isTrue();
        assertThat(again.loaded()).isTrue();
        assertThat(again.touched()).isEqualTo(done.touched());
        Messages.Verified v = call(w, Operations.VERIFY, new Messages.Verify(5), Messages.Verified.class);
        assertThat(v.differences()).isEmpty();
        assertThat(v.touched()).isEqualTo(done.touched());

        // RepairDB undoes the worker's own writes; the store then holds the generated graph again.
        Messages.ResetDone r =
                call(w, Operations.RESET, new Messages.Reset(Messages.ResetHow.REPAIR, 2), Messages.ResetDone.class);
        assertThat(r.verified()).as(r.mismatch()).isTrue();
        assertThat(r.touched()).isEqualTo(done.touched());
        assertThat(call(w, Operations.VERIFY, new Messages.Verify(5), Messages.Verified.class)
                        .touched())
                .isZero();
    }

    @Test
    void anotherPlanStartsFromTheGeneratedGraph() throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        open(w, plan);
        loadShare(w, plan);
        Messages.read(w.stream(Operations.RUN, Messages.tree(experiment(2)), m -> {}), Messages.RunDone.class);
        SocialGraph g = new SocialGraph(GraphParameters.toSpec(
                Map.of("usercount", "400", "friendcountperuser", "10", "resourcecountperuser", "2", "fragments", "4")));
        ClusterPlan other = ClusterPlan.assign(g, new double[] {3, 1}, 7);
        Messages.Opened o = open(w, other);
        assertThat(o.keptState()).isFalse();
        assertThat(o.touched()).isZero();
    }

    /**
     * {@code check} refuses a share the worker's heap cannot hold as bad input, before anything is marked. A run that
     * fails before its members act leaves the worker holding its mark and lets the coordinator give the store's mark
     * back ({@code ifUnacted}); after a run whose members acted the worker refuses to.
     */
    @Test
    void aWorkerChecksItsShareAndGivesTheMarkBackOnlyWhenItsMembersNeverActed() throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        open(w, plan);
        loadShare(w, plan);
        String loaded = open(w, plan).storeMark();
        assertThat(call(w, Operations.CHECK, experiment(2), Messages.Checked.class))
                .isEqualTo(Messages.Checked.OK);
        Messages.Checked huge = call(w, Operations.CHECK, experiment(50_000_000), Messages.Checked.class);
        assertThat(huge.parameter()).isEqualTo("--threads");
        assertThat(huge.problem()).startsWith("T=50000000 ");

        // A coordinator that marked the store anyway: the run fails before its members act.
        String running = StateMark.running("a test run").text();
        call(w, Operations.MARK, new Messages.Mark(running, true, loaded), Messages.Ack.class);
        assertThatThrownBy(() -> w.stream(Operations.RUN, Messages.tree(experiment(50_000_000)), m -> {}))
                .isInstanceOf(InvalidParameterException.class);
        assertThat(call(w, Operations.MARK, new Messages.Mark(loaded, true, running, true), Messages.Ack.class)
                        .ok())
                .isTrue();
        Messages.Opened back = open(w, plan);
        assertThat(back.storeMark()).isEqualTo(loaded);
        assertThat(back.heldMark()).isEqualTo(loaded);

        call(w, Operations.MARK, new Messages.Mark(running, true, loaded), Messages.Ack.class);
        Messages.RunDone done =
                Messages.read(w.stream(Operations.RUN, Messages.tree(experiment(2)), m -> {}), Messages.RunDone.class);
        assertThat(done.acted()).isTrue();
        assertThat(call(w, Operations.MARK, new Messages.Mark(loaded, true, running, true), Messages.Ack.class)
                        .ok())
                .as("a run whose members acted keeps the store marked")
                .isFalse();
        assertThat(open(w, plan).storeMark()).isEqualTo(running);
    }

    @Test
    void aWorkerReportsTheStoresMarkAndTheMarkOfTheStateItHolds() throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        open(w, plan);
        loadShare(w, plan);
        Messages.Opened fresh = open(w, plan);
        String loaded = fresh.storeMark();
        assertThat(loaded)
                .as("a load marks the store")
                .startsWith("loaded:bg-graph/")
                .contains("M=400");
        assertThat(fresh.heldMark()).isEqualTo(loaded);

        // A run's writes are held as running until the coordinator seals them with a token, which the writer stores.
        Messages.read(w.stream(Operations.RUN, Messages.tree(experiment(2)), m -> {}), Messages.RunDone.class);
        assertThat(open(w, plan).heldMark()).startsWith("running:");
        call(w, Operations.MARK, new Messages.Mark("state:t-1", true), Messages.Ack.class);
        Messages.Opened sealed = open(w, plan);
        assertThat(sealed.keptState()).isTrue();
        assertThat(sealed.storeMark()).isEqualTo("state:t-1");
        assertThat(sealed.heldMark()).isEqualTo("state:t-1");

        // A restarted worker (a new service; the memory store lives on in this JVM as a store on disk would) holds
        // the generated graph, which is not what the store's mark names: the coordinator refuses on that.
        Messages.Opened restarted = open(service(), plan);
        assertThat(restarted.keptState()).isFalse();
        assertThat(restarted.loaded()).isTrue();
        assertThat(restarted.storeMark()).isEqualTo("state:t-1");
        assertThat(restarted.heldMark()).isEqualTo(loaded);

        // A full repair of the worker's members brings them back to the generated graph.
        Messages.ResetDone full =
                call(w, Operations.RESET, new Messages.Reset(Messages.ResetHow.FULL, 2), Messages.ResetDone.class);
        assertThat(full.verified()).as(full.mismatch()).isTrue();
        assertThat(full.relationships() + full.comments()).isPositive();
        assertThat(open(w, plan).heldMark()).isEqualTo(loaded);
        assertThat(call(w, Operations.VERIFY, new Messages.Verify(5), Messages.Verified.class)
                        .differences())
                .isEmpty();
    }

    @Test
    void filesACoordinatorNamesStayUnderTheWorkersDirectory() throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        for (String bad : List.of("/tmp/elsewhere.sqlite", "../escape.sqlite", "a/../../escape.sqlite")) {
            Map<String, String> p = otherStore();
            p.put("sqlite.file", bad);
            assertThatThrownBy(() ->
                            w.call(Operations.OPEN, Messages.tree(new Messages.Open("sqlite", p, plan.layout(), 0))))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sqlite.file: '" + bad + "'")
                    .hasMessageContaining("outside the worker's own directory");
        }
        assertThat(dir.getParent().resolve("escape.sqlite")).doesNotExist();
        // A relative file is the worker's own, under its directory.
        Map<String, String> p = otherStore();
        p.put("sqlite.file", "db/w.sqlite");
        Messages.Opened o =
                call(w, Operations.OPEN, new Messages.Open("sqlite", p, plan.layout(), 0), Messages.Opened.class);
        assertThat(o.loaded()).isFalse();
        assertThat(dir.resolve("db/w.sqlite")).exists();
        w.closeStore();
    }

    /** The graph's and workload's parameters for a store other than memory (a worker refuses memory.name there). */
    private static Map<String, String> otherStore() {
        Map<String, String> p = new TreeMap<>(PARAMS);
        p.remove(MemoryStoreProvider.NAME_KEY);
        p.put("fragments", "4");
        return p;
    }

    /** One setting a coordinator sends, and the words of the worker's refusal (null: accepted). */
    record Row(String store, String key, String value, String refusal) {
        @Override
        public String toString() {
            return store + " " + key + "=" + value;
        }
    }

    static List<Row> settingsOfEveryKind() {
        String code = "unless it was started with --allow-store-code";
        String url = "unless it was started with --allow-store-code";
        String out = "outside the worker's own directory";
        return List.of(
                // FILE and DIRECTORY: under --dir only.
                new Row("sqlite", "sqlite.file", "/tmp/elsewhere.sqlite", out),
                new Row("sqlite", "images.dir", "../images", out),
                new Row("sqlite", "images.dir", "~/images", out),
                new Row("postgres", "postgres.socket", "/var/run/postgresql", out),
                // FILE_OR_NAME: a dialect's name stays a name, a file stays under --dir.
                new Row("jdbc", "jdbc.dialect", "/etc/shadow", out),
                // DATABASE_URL(S): the file a driver opens, by the URL's form.
                new Row("jdbc", "jdbc.url", "jdbc:sqlite:/abs/path.db", out),
                new Row("jdbc", "jdbc.url", "jdbc:sqlite:file:../up.db", out),
                new Row("jdbc", "jdbc.url", "jdbc:h2:/abs/h2db", out),
                new Row("jdbc", "jdbc.url", "jdbc:h2:mem:x;INIT=RUNSCRIPT FROM '/etc/x.sql'", "parameter INIT"),
                new Row("jdbc", "jdbc.url", "jdbc:derby:/abs/derby", out),
                new Row("jdbc", "jdbc.url", "jdbc:oracle:thin:@//db:1521/bg", url),
                new Row("jdbc", "jdbc.url", "jdbc:sqlite::resource:http://evil/x.db", url),
                new Row(
                        "postgres",
                        "postgres.url",
                        "jdbc:postgresql://db/bg?socketFactory=org.evil.F",
                        "socketFactory"),
                new Row("postgres", "postgres.url", "jdbc:postgresql://db/bg?sslrootcert=/etc/shadow", "sslrootcert"),
                new Row("postgres", "postgres.read-urls", "jdbc:postgresql://r1/bg,jdbc:sqlite:/x.db", out),
                // Code: jars, Maven coordinates, repositories, classes.
                new Row("jdbc", "jdbc.driver-jar", "/abs/evil.jar", code),
                new Row("jdbc", "jdbc.driver-maven", "com.h2database:h2:2.3.232", code),
                new Row("jdbc", "jdbc.maven-repo", "https://evil.example/repo", code),
                new Row("jdbc", "jdbc.driver", "org.evil.Driver", code),
                // A key no store and no part of BG declares.
                new Row("sqlite", "sqlite.fille", "x.sqlite", "declares no such setting"),
                // Accepted: relative files, names, network URLs with plain parameters, in-memory databases.
                new Row("jdbc", "jdbc.url", "jdbc:sqlite:w.sqlite", null),
                new Row("postgres", "postgres.url", "jdbc:postgresql://127.0.0.1:1/bg?sslmode=disable", null));
    }

    @ParameterizedTest
    @MethodSource("settingsOfEveryKind")
    void everySettingThatNamesAFileOrCodeIsConfinedOrRefused(Row row) throws Exception {
        WorkerService w = service();
        ClusterPlan plan = plan();
        Map<String, String> p = otherStore();
        p.put(row.key(), row.value());
        if (row.store().equals("jdbc") && !row.key().equals("jdbc.url")) {
            p.put("jdbc.url", "jdbc:sqlite:w.sqlite");
        }
        if (row.store().equals("postgres")) {
            p.put("postgres.pool", "1"); // no server: open fails after the settings passed
        }
        JsonNode open = Messages.tree(new Messages.Open(row.store(), p, plan.layout(), 0));
        try {
            if (row.refusal() == null) {
                try {
                    w.call(Operations.OPEN, open);
                } catch (RuntimeException e) {
                    // Accepted by the worker; only the store itself may fail (no PostgreSQL on port 1).
                    assertThat(row.store()).as(e.toString()).isEqualTo("postgres");
                    assertThat(e.getMessage()).doesNotContain("worker");
                }
            } else {
                assertThatThrownBy(() -> w.call(Operations.OPEN, open))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith(row.key())
                        .hasMessageContaining(row.refusal());
            }
        } finally {
            w.closeStore();
        }
        // Nothing was written outside the worker's directory, and the store's file is under it.
        try (var left = Files.list(dir.getParent())) {
            assertThat(left.map(f -> f.getFileName().toString())).doesNotContain("up.db", "images", "escape.sqlite");
        }
        if (row.refusal() == null && row.store().equals("jdbc")) {
            assertThat(dir.resolve("w.sqlite")).exists();
        }
    }

    @Test
    void aLinkInsideTheDirectoryDoesNotLeadOutOfIt(@TempDir Path outside) throws Exception {
        Files.createSymbolicLink(dir.resolve("link"), outside);
        WorkerService w = service();
        Map<String, String> p = otherStore();
        p.put("sqlite.file", "link/w.sqlite");
        assertThatThrownBy(() ->
                        w.call(Operations.OPEN, Messages.tree(new Messages.Open("sqlite", p, plan().layout(), 0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sqlite.file: 'link/w.sqlite'")
                .hasMessageContaining("symbolic link");
        assertThat(outside.resolve("w.sqlite")).doesNotExist();
    }

    @Test
    void aWorkerStartedToAllowCodeTakesADriverJarButStillConfinesFiles() throws Exception {
        WorkerService w = new WorkerService(dir, new PrintWriter(log, true), true);
        Map<String, String> p = otherStore();
        p.put("jdbc.url", "jdbc:sqlite:/abs/path.db");
        p.put("jdbc.driver-jar", dir.resolve("no-such.jar").toString());
        JsonNode open = Messages.tree(new Messages.Open("jdbc", p, plan().layout(), 0));
        assertThatThrownBy(() -> w.call(Operations.OPEN, open))
                .hasMessageStartingWith("jdbc.url")
                .hasMessageContaining("outside the worker's own directory");
        p.put("jdbc.url", "jdbc:sqlite:w.db");
        // The jar passes the worker and reaches the store, which looks for it.
        assertThatThrownBy(
                        () -> w.call(Operations.OPEN, Messages.tree(new Messages.Open("jdbc", p, plan().layout(), 0))))
                .hasMessageContaining("no such jar file");
    }

    @Test
    void stopWithoutARunAndUnknownOperationsAreAnswered() throws Exception {
        WorkerService w = service();
        assertThat(call(w, Operations.STOP, new Messages.Stop("test"), Messages.Stopped.class)
                        .wasRunning())
                .isFalse();
        assertThatThrownBy(() -> w.call("frobnicate", Messages.tree(Messages.Ack.OK)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("frobnicate");
        // Nothing can be loaded before the coordinator said which store.
        assertThatThrownBy(() -> w.call(Operations.CREATE_SCHEMA, Messages.tree(Messages.Ack.OK)))
                .hasMessageContaining("open");
    }
}
