package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.bgbench.cluster.rpc.WorkerBackend;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.loader.GraphLoad;
import org.bgbench.loader.LoadReport;
import org.bgbench.loader.repair.RepairDb;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreImage;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;

/**
 * What a worker (BGClient) does for its coordinator [SPEC §14]: it opens the store, owns a share of the graph's
 * fragments with its own expected state, loads them, runs experiments on its members only (streaming each second's
 * figures with its latency histogram), validates its own reads, repairs its own writes, and compares its part of the
 * store with its state. Operations arrive one at a time from {@link ClusterCoordinator}; see {@link ClusterProtocol}.
 */
final class WorkerService implements WorkerBackend {
    private static final ObjectMapper JSON = ResultJson.mapper();

    private final Path dir;
    private final PrintWriter log;
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
    private ClusterPlan plan;
    private int index;
    private int runs;

    WorkerService(Path dir, PrintWriter log) {
        this.dir = dir;
        this.log = log;
    }

    /** Ends the running experiment early; set while one runs. */
    private volatile Consumer<String> abortRun;

    /** What ends the worker process (its server); set by {@code bg worker}. */
    private volatile Runnable shutdown;

    void onShutdown(Runnable r) {
        shutdown = r;
    }

    @Override
    public JsonNode call(String op, JsonNode args) throws Exception {
        if (op.equals(ClusterProtocol.SHUTDOWN)) {
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
            return ok().put("shutting_down", r != null);
        }
        if (op.equals(ClusterProtocol.STOP)) {
            // Not under the lock: the run holds it.
            Consumer<String> a = abortRun;
            if (a != null) {
                a.accept(args.path("reason").asText("stopped by the coordinator"));
            }
            return ok().put("was_running", a != null);
        }
        synchronized (this) {
            return serve(op, args);
        }
    }

    private JsonNode serve(String op, JsonNode args) throws Exception {
        return switch (op) {
            case ClusterProtocol.HELLO -> hello();
            case ClusterProtocol.OPEN -> open(args);
            case ClusterProtocol.CREATE_SCHEMA -> {
                open().createSchema(graph.spec());
                yield ok();
            }
            case ClusterProtocol.FINISH_LOAD -> finishLoad(args);
            case ClusterProtocol.RESET -> reset(args);
            case ClusterProtocol.SAVE_IMAGE -> saveImage();
            case ClusterProtocol.VERIFY -> verify(args);
            case ClusterProtocol.CLOSE, ClusterProtocol.RELEASE -> {
                closeStore();
                yield ok();
            }
            default -> throw new IllegalArgumentException("unknown operation '" + op + "'");
        };
    }

    @Override
    public synchronized JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) throws Exception {
        return switch (op) {
            case ClusterProtocol.LOAD -> load(args, out);
            case ClusterProtocol.RUN -> run(args, out);
            default -> throw new IllegalArgumentException("unknown operation '" + op + "'");
        };
    }

    private static ObjectNode ok() {
        return JSON.createObjectNode().put("ok", true);
    }

    private ObjectNode hello() throws Exception {
        ObjectNode n = JSON.createObjectNode();
        n.put("host", InetAddress.getLocalHost().getHostName());
        n.put("pid", ProcessHandle.current().pid());
        n.put("cores", Runtime.getRuntime().availableProcessors());
        n.put("max_heap", Runtime.getRuntime().maxMemory());
        n.put("java", Runtime.version().toString());
        n.put("protocol", ClusterProtocol.VERSION);
        return n;
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
    private ObjectNode open(JsonNode args) {
        Map<String, String> p = new LinkedHashMap<>();
        args.get("params").fields().forEachRemaining(e -> p.put(e.getKey(), e.getValue().asText()));
        Parameters newParams = Parameters.of(List.of(), p.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
        StoreProvider newProvider = StoreRegistry.discover().get(args.get("store").asText());
        StoreSettings newSettings = StoreSettings.forProvider(newProvider, newParams.asMap());
        SocialGraph newGraph = new SocialGraph(GraphParameters.toSpec(newParams.asMap()));
        String identity = newProvider.name() + new java.util.TreeMap<>(newSettings.asMap()) + newGraph.spec().fingerprint()
                + args.get("plan") + "#" + args.get("worker").asInt();
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
            plan = ClusterPlan.fromJson(args.get("plan"), graph);
            index = args.get("worker").asInt();
            state = plan.newState(graph, index);
            log.printf(Locale.ROOT, "bg worker: opened %s as worker %d of %d: %,d members in %d fragments%n",
                    storeName, index, plan.workers(), plan.members(index).length, plan.fragments(index).length);
            log.flush();
        }
        ObjectNode n = ok();
        n.put("members", plan.members(index).length);
        n.put("loaded", open().loadedGraph().filter(graph.spec().fingerprint()::equals).isPresent());
        n.put("kept_state", keep);
        n.put("touched", state.touchedMembers());
        return n;
    }

    private ObjectNode load(JsonNode args, Consumer<JsonNode> out) {
        int threads = args.path("threads").asInt(2 * Runtime.getRuntime().availableProcessors());
        long t0 = System.nanoTime();
        long rows = new GraphLoad(open(), graph, threads).loadRanges(plan.ranges(index),
                r -> out.accept(JSON.createObjectNode().put("rows", r)));
        state = plan.newState(graph, index);
        ObjectNode n = ok();
        n.put("rows", rows);
        n.put("seconds", (System.nanoTime() - t0) / 1e9);
        return n;
    }

    private ObjectNode finishLoad(JsonNode args) {
        if (args.path("partial").asBoolean()) {
            // A store of this worker's own holds only its share: finish it and check the share's size.
            long t0 = System.nanoTime();
            open().finishLoad(graph);
            org.bgbench.store.StoreCounts c = open().counts();
            if (c.members() != plan.members(index).length) {
                throw new IllegalStateException("sanity check failed: the store holds " + c.members()
                        + " members, this worker's share is " + plan.members(index).length);
            }
            ObjectNode n = ok();
            n.put("finish_s", (System.nanoTime() - t0) / 1e9);
            n.put("members", c.members());
            n.put("friendships", c.friendships());
            n.put("pending", c.pending());
            n.put("resources", c.resources());
            n.put("comments", c.comments());
            return n;
        }
        LoadReport r = new GraphLoad(open(), graph, 1).finish(args.path("rows").asLong(), args.path("load_s").asDouble());
        ObjectNode n = ok();
        n.put("finish_s", r.finishSeconds());
        n.put("members", r.counts().members());
        n.put("friendships", r.counts().friendships());
        n.put("pending", r.counts().pending());
        n.put("resources", r.counts().resources());
        n.put("comments", r.counts().comments());
        return n;
    }

    /** One experiment on this worker's members; streams every second, returns the validated result. */
    private ObjectNode run(JsonNode args, Consumer<JsonNode> out) throws Exception {
        int threads = args.get("threads").asInt();
        Duration duration = Duration.ofMillis(args.get("duration_ms").asLong());
        Duration warmup = Duration.ofMillis(args.path("warmup_ms").asLong(0));
        Duration beta = Duration.ofNanos(args.path("beta_ns").asLong(100_000_000L));
        boolean validate = args.path("validate").asBoolean(true);
        ValidationOptions v = validate ? Keys.validation(params) : null;
        if (v != null && args.has("tau_pct")) {
            v = new ValidationOptions(v.memoryBytes(), v.threads(), v.buckets(), args.get("tau_pct").asDouble(),
                    v.keepLogs());
        }
        EmulatorConfig ec = new EmulatorConfig(threads, duration, 0, warmup, 0, (int) workload.thinkTime().toMillis(),
                (int) workload.interArrivalTime().toMillis(), workload.topK(), workload.commentLength(),
                workload.locks(), workload.uniqueSocialites(), args.path("seed").asLong(workload.seed()) + 7919L * index,
                Keys.threadKind(params));
        Files.createDirectories(dir);
        // Named by time too: a restarted worker must not reuse an earlier run's log directory.
        Path result = dir.resolve(String.format(Locale.ROOT, "run-%s-%03d-w%d-T%d.json",
                java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")),
                ++runs, index, threads));
        Experiment.Members members = plan.samplers(workload, index);
        Experiment.Outcome o = Experiment.run(new Experiment.Setup(open(), storeName, storeSettings, state, workload,
                ec, beta, result, null, v, members, sample -> {
                    ObjectNode s = JSON.createObjectNode();
                    s.put("warmup", sample.warmup());
                    s.set("point", JSON.valueToTree(sample.point()));
                    s.put("hdr", Latencies.encode(sample.actionLatencies()));
                    try {
                        out.accept(s);
                    } catch (java.util.concurrent.CancellationException e) {
                        // The coordinator is gone: finish (the result stays in this worker's folder).
                        Consumer<String> a = abortRun;
                        if (a != null) {
                            a.accept("the coordinator cancelled the run");
                        }
                    }
                }, a -> abortRun = a));
        abortRun = null;
        RunResult r = o.result();
        ObjectNode n = ok();
        n.put("completed", o.run().completed());
        n.put("abort_reason", o.run().abortReason());
        n.put("file", result.toAbsolutePath().toString());
        n.set("result", JSON.readTree(ResultJson.toJson(r)));
        return n;
    }

    private ObjectNode reset(JsonNode args) {
        String how = args.get("how").asText();
        ObjectNode n = ok();
        long t0 = System.nanoTime();
        switch (how) {
            case "state" -> state = plan.newState(graph, index);
            case "repair" -> {
                RepairDb.Report r = RepairDb.undo(open(), state, Math.max(2, args.path("threads").asInt(4)));
                n.put("verified", r.verified());
                n.put("relationships", r.relationships());
                n.put("comments", r.comments());
                n.put("touched", state.touchedMembers());
                if (r.verified()) {
                    state = plan.newState(graph, index);
                } else {
                    n.put("mismatch", r.mismatches().get(0));
                }
            }
            case "image" -> {
                StoreImage image = open().image().filter(StoreImage::exists).orElseThrow(() ->
                        new IllegalStateException("the store has no image of this graph"));
                image.restore();
                state = plan.newState(graph, index);
            }
            default -> throw new IllegalArgumentException("reset: expected state, repair or image, got '" + how + "'");
        }
        n.put("seconds", (System.nanoTime() - t0) / 1e9);
        return n;
    }

    private ObjectNode saveImage() {
        ObjectNode n = ok();
        java.util.Optional<StoreImage> image = open().image();
        n.put("supported", image.isPresent());
        if (image.isPresent()) {
            if (!image.get().exists()) {
                long t0 = System.nanoTime();
                image.get().save();
                n.put("seconds", (System.nanoTime() - t0) / 1e9);
            }
            n.put("exists", true);
        }
        return n;
    }

    /** Compares this worker's part of the store with its expected state, member by member. */
    private ObjectNode verify(JsonNode args) {
        List<String> diffs = StateComparison.differences(open(), state, args.path("limit").asInt(10),
                plan.members(index));
        ObjectNode n = ok();
        n.put("members", plan.members(index).length);
        n.put("touched", state.touchedMembers());
        n.set("differences", JSON.valueToTree(diffs));
        return n;
    }

    void closeStore() {
        if (store != null) {
            try {
                store.close();
            } finally {
                store = null;
            }
        }
    }

    /** For tests and the worker's own report. */
    static String describe() {
        return ManagementFactory.getRuntimeMXBean().getName();
    }
}
