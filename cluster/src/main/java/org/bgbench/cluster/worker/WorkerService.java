package org.bgbench.cluster.worker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerBackend;
import org.bgbench.loader.GraphLoad;
import org.bgbench.loader.LoadReport;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.loader.repair.StoreRepair;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Experiment;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.runner.confine.SettingsConfinement;
import org.bgbench.store.DataStore;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;

/**
 * What a worker (BGClient) does for its coordinator (dissertation 4.3, BGClient): it opens the store, owns a share of the graph's
 * fragments with its own expected state, loads them, runs experiments on its members only (streaming each second's
 * figures with its latency histogram), validates its own reads, repairs its own writes, and compares its part of the
 * store with its state. Operations arrive one at a time from {@link ClusterCoordinator}; see {@link Operations}.
 */
public final class WorkerService implements WorkerBackend {
    /** The {@code bg worker} option that lets a coordinator name code (and URLs whose files BG cannot tell). */
    public static final String ALLOW_CODE_OPTION = "--allow-store-code";

    private final Path dir;
    private final PrintWriter log;
    /** What the coordinator's settings may reach on this host. */
    private final SettingsConfinement confinement;

    private DataStore store;
    private String identity;
    private StoreProvider provider;
    private StoreSettings settings;
    private String storeName;
    private Map<String, String> storeSettings;
    private Parameters params;
    private SocialGraph graph;
    private WorkloadSpec workload;
    private GraphState state;
    /**
     * The state mark of {@link #state}: {@code loaded:<fingerprint>} while it is the generated graph, the token the
     * coordinator sealed the last run with, or {@code running:…} while a run's writes are not sealed.
     */
    private String heldMark;

    private ClusterPlan plan;
    private int index;
    private int runs;
    /** Whether the members of the last run began to act (false: nothing of it reached the store). */
    private volatile boolean membersActed;

    /** A worker that takes no code from its coordinator. */
    public WorkerService(Path dir, PrintWriter log) {
        this(dir, log, false);
    }

    /**
     * @param allowCode the worker was started with {@value #ALLOW_CODE_OPTION}: the coordinator may
     *                  name jars, Maven coordinates, repositories, classes and commands, and URLs whose files BG cannot
     *                  tell
     */
    public WorkerService(Path dir, PrintWriter log, boolean allowCode) {
        this.dir = dir;
        this.log = log;
        this.confinement = new SettingsConfinement(new SettingsConfinement.Scope(
                dir,
                dir,
                "the worker's own directory (--dir " + dir.toAbsolutePath().normalize() + ")",
                "a worker keeps its files under it; give a path relative to it",
                "a worker takes none from its coordinator unless it was started with " + ALLOW_CODE_OPTION,
                allowCode));
    }

    /** Ends the running experiment early; set while one runs. */
    private volatile Consumer<String> abortRun;

    /** What ends the worker process (its server); set by {@code bg worker}. */
    private volatile Runnable shutdown;

    public void onShutdown(Runnable r) {
        shutdown = r;
    }

    @Override
    public JsonNode call(String op, JsonNode args) throws Exception {
        if (op.equals(Operations.SHUTDOWN)) {
            Consumer<String> a = abortRun;
            if (a != null) {
                a.accept("the worker was shut down");
            }
            Runnable r = shutdown;
            // After the answer is on its way: the server's own close would cancel this call.
            Thread.ofPlatform().daemon().start(() -> {
                synchronized (this) {
                    closeStore();
                }
                if (r != null) {
                    r.run();
                }
            });
            return Messages.tree(new Messages.ShuttingDown(r != null));
        }
        if (op.equals(Operations.STOP)) {
            // Not under the lock: the run holds it.
            Consumer<String> a = abortRun;
            if (a != null) {
                String why = Messages.read(args, Messages.Stop.class).reason();
                a.accept(why == null ? "stopped by the coordinator" : why);
            }
            return Messages.tree(new Messages.Stopped(a != null));
        }
        synchronized (this) {
            return serve(op, args);
        }
    }

    private JsonNode serve(String op, JsonNode args) throws Exception {
        return switch (op) {
            case Operations.HELLO -> Messages.tree(hello(Messages.read(args, Messages.Greeting.class)));
            case Operations.OPEN -> Messages.tree(open(Messages.read(args, Messages.Open.class)));
            case Operations.HELD_GRAPH -> Messages.tree(heldGraph(Messages.read(args, Messages.AskGraph.class)));
            case Operations.CREATE_SCHEMA -> {
                open().createSchema(graph.spec());
                yield ok();
            }
            case Operations.FINISH_LOAD -> Messages.tree(finishLoad(Messages.read(args, Messages.FinishLoad.class)));
            case Operations.RESET -> Messages.tree(reset(Messages.read(args, Messages.Reset.class)));
            case Operations.SAVE_IMAGE -> Messages.tree(saveImage());
            case Operations.VERIFY -> Messages.tree(verify(Messages.read(args, Messages.Verify.class)));
            case Operations.CHECK -> Messages.tree(check(Messages.read(args, ExperimentSpec.class)));
            case Operations.MARK -> {
                Messages.Mark m = Messages.read(args, Messages.Mark.class);
                if (m.ifUnacted() && membersActed) {
                    // Writes of the last run may have reached the store: its mark stays as it is.
                    yield Messages.tree(new Messages.Ack(false));
                }
                if (m.write() && m.expected() == null) {
                    open().writeStateMark(m.mark());
                } else if (m.write() && !open().replaceStateMark(m.expected(), m.mark())) {
                    throw markTaken(m.expected());
                }
                heldMark = m.mark();
                yield ok();
            }
            case Operations.CLOSE, Operations.RELEASE -> {
                closeStore();
                yield ok();
            }
            default -> throw new IllegalArgumentException("unknown operation '" + op + "'");
        };
    }

    @Override
    public synchronized JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception {
        return switch (op) {
            case Operations.LOAD -> Messages.tree(load(Messages.read(args, Messages.Load.class), out));
            case Operations.RUN -> Messages.tree(run(Messages.read(args, ExperimentSpec.class), out));
            default -> throw new IllegalArgumentException("unknown operation '" + op + "'");
        };
    }

    private static JsonNode ok() {
        return Messages.tree(Messages.Ack.OK);
    }

    /** This worker's host and version; a coordinator of another protocol version is refused in one line. */
    private Messages.Hello hello(Messages.Greeting greeting) throws Exception {
        if (greeting.protocol() != Operations.VERSION) {
            String why = "this worker speaks protocol " + Operations.VERSION + ", the coordinator "
                    + (greeting.protocol() > 0 ? greeting.protocol() : "an earlier one (4 or below)")
                    + "; run the same BG version everywhere";
            log.println("bg worker: refused a coordinator: " + why);
            log.flush();
            throw new IllegalArgumentException(why);
        }
        return new Messages.Hello(
                InetAddress.getLocalHost().getHostName(),
                ProcessHandle.current().pid(),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(),
                Runtime.version().toString(),
                Operations.VERSION);
    }

    /** The store, opened again if the coordinator released it (to restore an image on another worker). */
    private DataStore open() {
        if (store == null) {
            if (provider == null) {
                throw new IllegalStateException("no store is open; the coordinator must send 'open' first");
            }
            store = provider.open(settings);
        }
        return store;
    }

    /**
     * Opens the store and takes the worker's share of the graph. The same store, graph, plan and place as before (a
     * later bg run, rate or verify of the same coordinator setup) keep the expected state this worker's runs left, as
     * the saved state file does in one process; anything else starts from the generated graph.
     */
    private Messages.Opened open(Messages.Open args) {
        Parameters newParams = parameters(args.params());
        StoreProvider newProvider = StoreRegistry.discover().get(args.store());
        StoreSettings newSettings = settings(newProvider, newParams);
        SocialGraph newGraph = new SocialGraph(GraphParameters.toSpec(newParams.asMap()));
        String identity = newProvider.name() + new TreeMap<>(newSettings.asMap())
                + newGraph.spec().fingerprint() + Messages.tree(args.plan()) + "#" + args.worker();
        params = newParams;
        workload = WorkloadParameters.toSpec(params.asMap());
        boolean keep = identity.equals(this.identity) && state != null;
        if (!keep) {
            closeStore();
            this.identity = identity;
            provider = newProvider;
            storeName = provider.name();
            settings = newSettings;
            storeSettings = settings.asMap();
            graph = newGraph;
            plan = ClusterPlan.of(args.plan(), graph);
            index = args.worker();
            fresh();
            log.printf(
                    Locale.ROOT,
                    "bg worker: opened %s as worker %d of %d: %,d members in %d fragments%n",
                    storeName,
                    index,
                    plan.workers(),
                    plan.members(index).length,
                    plan.fragments(index).length);
            log.flush();
        }
        boolean loaded =
                open().loadedGraph().filter(graph.spec().fingerprint()::equals).isPresent();
        return new Messages.Opened(
                plan.members(index).length,
                loaded,
                keep,
                state.touchedMembers(),
                loaded ? open().stateMark().orElse(null) : null,
                heldMark);
    }

    private static Parameters parameters(Map<String, String> sent) {
        return Parameters.of(
                List.of(),
                new LinkedHashMap<>(sent)
                        .entrySet().stream()
                                .map(e -> e.getKey() + "=" + e.getValue())
                                .toList());
    }

    /** The store's settings of the coordinator's parameters, confined to what they may reach on this host. */
    private StoreSettings settings(StoreProvider p, Parameters sent) {
        StoreSettings s = StoreSettings.forProvider(p, confinement.confine(p, sent.asMap()));
        String beta = sent.asMap().get(StoreSettings.BETA_PARAMETER);
        return beta == null ? s : s.withBeta(Durations.parse(StoreSettings.BETA_PARAMETER, beta));
    }

    /**
     * The graph the store records with its last completed load, read through a connection of its own (the one this
     * worker held open is closed first, as {@code release} does: the next operation opens it again). A store that
     * forgets its contents on close holds none at the start of a command.
     */
    private Messages.HeldGraph heldGraph(Messages.AskGraph args) {
        StoreProvider p = StoreRegistry.discover().get(args.store());
        if (p.traits().forgetsOnClose()) {
            return new Messages.HeldGraph(null);
        }
        StoreSettings s = settings(p, parameters(args.params()));
        closeStore();
        try (DataStore d = p.open(s)) {
            return new Messages.HeldGraph(d.loadedGraph().orElse(null));
        }
    }

    /** Why the store's mark could not be set from {@code expected}: a run that has not ended, or another change. */
    private StoreException markTaken(String expected) {
        Optional<StateMark> now = open().stateMark().flatMap(StateMark::parse);
        if (now.isPresent() && now.get().kind() == StateMark.Kind.RUNNING) {
            return new StoreException(
                    "a run on this store has not ended (" + now.get().value()
                            + "). If it is not still running, it was interrupted and BG does not know which of its writes "
                            + "reached the store.");
        }
        return new StoreException("the store's state mark changed after the coordinator checked it "
                + "(it was " + expected + ", it is " + now.map(StateMark::text).orElse("none")
                + "): another BG command wrote to the store meanwhile.");
    }

    /** This worker's state is the generated graph (a fresh plan, a load, a reset). */
    private void fresh() {
        state = plan.newState(graph, index);
        heldMark = StateMark.loaded(graph.spec().fingerprint()).text();
    }

    private Messages.Loaded load(Messages.Load args, Consumer<JsonNode> out) {
        int threads =
                args.threads() > 0 ? args.threads() : 2 * Runtime.getRuntime().availableProcessors();
        long t0 = System.nanoTime();
        long rows = new GraphLoad(open(), graph, threads)
                .loadRanges(
                        plan.ranges(index),
                        r -> out.accept(Messages.tree(new Messages.Loaded(r, (System.nanoTime() - t0) / 1e9))));
        fresh();
        return new Messages.Loaded(rows, (System.nanoTime() - t0) / 1e9);
    }

    private Messages.Finished finishLoad(Messages.FinishLoad args) {
        if (args.partial()) {
            // A store of this worker's own holds only its share: finish it and check the share's size.
            long t0 = System.nanoTime();
            open().finishLoad(graph);
            StoreCounts c = open().counts();
            if (c.members() != plan.members(index).length) {
                throw new IllegalStateException("sanity check failed: the store holds " + c.members()
                        + " members, this worker's share is " + plan.members(index).length);
            }
            return new Messages.Finished(
                    (System.nanoTime() - t0) / 1e9,
                    c.members(),
                    c.friendships(),
                    c.pending(),
                    c.resources(),
                    c.comments());
        }
        LoadReport r = new GraphLoad(open(), graph, 1).finish(args.rows(), args.loadS());
        StoreCounts c = r.counts();
        return new Messages.Finished(
                r.finishSeconds(), c.members(), c.friendships(), c.pending(), c.resources(), c.comments());
    }

    /** This worker's part of the experiment the coordinator asked for: its seed, its own way to validate. */
    private ExperimentSpec share(ExperimentSpec asked) {
        // The coordinator decides whether to validate and τ; how (memory, threads, buckets) is this worker's -p.
        ValidationOptions mine = asked.validation() == null ? null : RunKeys.validation(params);
        ValidationOptions v = mine == null
                ? null
                : new ValidationOptions(
                        mine.memoryBytes(),
                        mine.threads(),
                        mine.buckets(),
                        asked.validation().tauPct(),
                        mine.keepLogs());
        return asked.withSeed(asked.seed() + 7919L * index).withValidation(v);
    }

    /** Whether this worker can run its share ({@link Experiment#check}), sized as {@link #run} would size it. */
    private Messages.Checked check(ExperimentSpec asked) {
        try {
            Experiment.check(new Experiment.Setup(
                    new Experiment.Subject(open(), storeName, storeSettings),
                    state,
                    workload,
                    share(asked),
                    new Experiment.Output(dir.resolve("check.json"), null)));
            return Messages.Checked.OK;
        } catch (InvalidParameterException e) {
            String prefix = e.parameter() + ": ";
            String problem =
                    e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
            return new Messages.Checked(e.parameter(), problem);
        }
    }

    /**
     * One experiment on this worker's members; streams every second, returns the validated result. A run that ends
     * or fails before its members act leaves the worker holding the mark it held before (its state is unchanged).
     */
    private Messages.RunDone run(ExperimentSpec asked, Consumer<JsonNode> out) throws Exception {
        membersActed = false;
        String held = heldMark;
        try {
            return runShare(asked, out);
        } finally {
            abortRun = null;
            if (!membersActed) {
                heldMark = held;
            }
        }
    }

    private Messages.RunDone runShare(ExperimentSpec asked, Consumer<JsonNode> out) throws Exception {
        ExperimentSpec spec = share(asked);
        Files.createDirectories(dir);
        // Named by time too: a restarted worker must not reuse an earlier run's log directory.
        Path result = dir.resolve(String.format(
                Locale.ROOT,
                "run-%s-%03d-w%d-T%d.json",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")),
                ++runs,
                index,
                spec.threads()));
        Experiment.Members members = plan.samplers(workload, index);
        if (workload.mix().writeFraction() > 0) {
            // Not sealed until the coordinator says which token these writes end in.
            heldMark = StateMark.running("a run on worker " + index).text();
        }
        Experiment.Outcome o = Experiment.run(
                new Experiment.Setup(
                        new Experiment.Subject(open(), storeName, storeSettings),
                        state,
                        workload,
                        spec,
                        new Experiment.Output(result, null),
                        new Experiment.Hooks(
                                members,
                                sample -> {
                                    // Per kind too, for the coordinator's merged interval log (warm-up seconds are not
                                    // merged).
                                    Map<String, Messages.KindSecond> kinds = new LinkedHashMap<>();
                                    if (!sample.warmup()) {
                                        for (KindCounts k : sample.kinds()) {
                                            Messages.KindSecond streamed = Messages.KindSecond.of(k);
                                            if (streamed != null) {
                                                kinds.put(k.code(), streamed);
                                            }
                                        }
                                    }
                                    Messages.Second s = new Messages.Second(
                                            sample.warmup(),
                                            sample.point(),
                                            Latencies.encode(sample.actionLatencies()),
                                            kinds);
                                    try {
                                        out.accept(Messages.tree(s));
                                    } catch (CancellationException e) {
                                        // The coordinator is gone: finish (the result stays in this worker's folder).
                                        Consumer<String> a = abortRun;
                                        if (a != null) {
                                            a.accept("the coordinator cancelled the run");
                                        }
                                    }
                                },
                                a -> abortRun = a)),
                () -> membersActed = true);
        return new Messages.RunDone(
                o.run().completed(),
                o.run().abortReason(),
                result.toAbsolutePath().toString(),
                o.result(),
                state.touchedMembers(),
                membersActed);
    }

    private Messages.ResetDone reset(Messages.Reset args) {
        long t0 = System.nanoTime();
        switch (args.how()) {
            case STATE -> fresh();
            case REPAIR -> {
                int touched = state.touchedMembers();
                heldMark = StateMark.running("RepairDB on worker " + index).text();
                RepairDb.Report r = RepairDb.undo(open(), state, Math.max(2, args.threads()));
                if (r.verified()) {
                    fresh();
                }
                return new Messages.ResetDone(
                        r.verified(),
                        r.relationships(),
                        r.comments(),
                        touched,
                        r.verified() ? null : r.mismatches().get(0),
                        (System.nanoTime() - t0) / 1e9);
            }
            case IMAGE -> {
                StoreImage image = open().image()
                        .filter(StoreImage::exists)
                        .orElseThrow(() -> new IllegalStateException("the store has no image of this graph"));
                image.restore();
                fresh();
                // The image carries the mark it was taken with: the loaded graph's (BG images freshly loaded stores).
                if (open().stateMark().isEmpty()) {
                    open().writeStateMark(heldMark);
                }
            }
            case FULL -> {
                int touched = state.touchedMembers();
                heldMark = StateMark.running("bg verify --repair on worker " + index)
                        .text();
                int[] mine = plan.members(index);
                StoreRepair.Report r = StoreRepair.toGenerated(open(), graph, Math.max(1, args.threads()), mine);
                List<String> left = new ArrayList<>(r.refused());
                left.addAll(StateComparison.differences(open(), plan.newState(graph, index), 10, mine));
                if (left.isEmpty()) {
                    fresh();
                }
                return new Messages.ResetDone(
                        left.isEmpty(),
                        r.relationships(),
                        r.comments(),
                        touched,
                        left.isEmpty() ? null : String.join("; ", left.subList(0, Math.min(5, left.size()))),
                        (System.nanoTime() - t0) / 1e9);
            }
            default ->
                throw new IllegalArgumentException("reset: expected STATE, REPAIR, IMAGE or FULL, got " + args.how());
        }
        return new Messages.ResetDone(true, 0, 0, 0, null, (System.nanoTime() - t0) / 1e9);
    }

    private Messages.ImageSaved saveImage() {
        Optional<StoreImage> image = open().image();
        if (image.isEmpty()) {
            return new Messages.ImageSaved(false, null, false);
        }
        Double seconds = null;
        if (!image.get().exists()) {
            // An image is restored as the generated graph: take one only of a store marked as freshly loaded.
            if (!open().stateMark()
                    .equals(Optional.of(
                            StateMark.loaded(graph.spec().fingerprint()).text()))) {
                return new Messages.ImageSaved(true, null, true);
            }
            long t0 = System.nanoTime();
            image.get().save();
            seconds = (System.nanoTime() - t0) / 1e9;
        }
        return new Messages.ImageSaved(true, seconds, false);
    }

    /** Compares this worker's part of the store with its expected state, member by member. */
    private Messages.Verified verify(Messages.Verify args) {
        List<String> diffs =
                StateComparison.differences(open(), state, args.limit() > 0 ? args.limit() : 10, plan.members(index));
        return new Messages.Verified(plan.members(index).length, state.touchedMembers(), diffs);
    }

    public void closeStore() {
        if (store != null) {
            try {
                store.close();
            } finally {
                store = null;
            }
        }
    }
}
