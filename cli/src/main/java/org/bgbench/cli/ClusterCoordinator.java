package org.bgbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;
import org.bgbench.cluster.rpc.WorkerClient;
import org.bgbench.cluster.rpc.WorkerException;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.ResultWriter;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.workload.WorkloadSpec;

/**
 * BGCoord [SPEC §14]: drives the workers given by {@code --workers} through their operations, merges what they
 * stream into a live line and their final results into one (losslessly, see {@link ResultMerger}), and fails an
 * experiment with the worker's address and what happened when a worker dies, hangs (nothing, not even a heartbeat,
 * for {@link #IDLE}) or refuses the secret. It never waits forever: every call has a deadline.
 */
final class ClusterCoordinator implements AutoCloseable {
    private static final ObjectMapper JSON = ResultJson.mapper();
    /** A worker silent this long (its transport sends a heartbeat every second) is taken for hung or cut off. */
    static final Duration IDLE = Duration.ofSeconds(Long.getLong("bg.cluster.idle.seconds", 10));
    private static final Duration CALL = Duration.ofSeconds(60);

    /** A worker failed the operation; the message names it. */
    static final class ClusterException extends RuntimeException {
        private final int worker;

        ClusterException(String message, Throwable cause) {
            this(message, cause, -1);
        }

        ClusterException(String message, Throwable cause, int worker) {
            super(message, cause);
            this.worker = worker;
        }

        /** The worker that failed, or -1. */
        int worker() {
            return worker;
        }
    }

    private final List<WorkerClient> workers = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final PrintWriter err;
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    private ClusterPlan plan;
    private SocialGraph graph;
    private WorkloadSpec workload;
    private boolean separateStores;
    private String storeName;
    private Map<String, String> params;

    ClusterCoordinator(List<String> addresses, String secret, org.bgbench.cluster.security.TlsClient tls,
                       PrintWriter err) {
        this.err = err;
        if (secret == null || secret.isEmpty()) {
            throw new org.bgbench.model.InvalidParameterException("--secret",
                    "the workers' shared secret is required with --workers");
        }
        for (String a : addresses) {
            try {
                workers.add(new WorkerClient(a.trim(), secret, tls)); // tls null: plaintext
            } catch (IllegalArgumentException e) {
                workers.forEach(WorkerClient::close);
                throw new org.bgbench.model.InvalidParameterException("--workers", e.getMessage());
            }
            names.add(a.trim());
        }
        try {
            List<JsonNode> hello = all(w -> w.call(ClusterProtocol.HELLO, JSON.createObjectNode(), CALL));
            for (int k = 0; k < hello.size(); k++) {
                JsonNode h = hello.get(k);
                if (h.path("protocol").asInt() != ClusterProtocol.VERSION) {
                    throw new ClusterException("worker " + names.get(k) + " speaks protocol " + h.path("protocol").asInt()
                            + ", this coordinator " + ClusterProtocol.VERSION + "; run the same BG version everywhere", null);
                }
                err.printf(Locale.ROOT, "bg: worker %d %s: host %s, %d cores, pid %d%n", k, names.get(k),
                        h.path("host").asText(), h.path("cores").asInt(), h.path("pid").asLong());
            }
        } catch (RuntimeException e) {
            // The workers that answered serve this coordinator now: end their sessions so the next one need not wait.
            workers.forEach(WorkerClient::close);
            pool.shutdownNow();
            throw e;
        }
        err.flush();
    }

    List<String> names() {
        return names;
    }

    ClusterPlan plan() {
        return plan;
    }

    /** Sends every worker the store, all -p parameters and its share of the graph. Returns whether it is loaded. */
    boolean open(String store, Map<String, String> params, SocialGraph graph, WorkloadSpec workload, double[] rates,
                 boolean inProcessStore) {
        this.graph = graph;
        this.workload = workload;
        this.separateStores = inProcessStore;
        this.storeName = store;
        this.params = params;
        plan = ClusterPlan.assign(graph, rates, workload.seed());
        List<JsonNode> r = new ArrayList<>();
        for (int k = 0; k < workers.size(); k++) {
            ObjectNode a = JSON.createObjectNode();
            a.put("store", store);
            a.set("params", JSON.valueToTree(new TreeMap<>(params)));
            a.set("plan", plan.toJson());
            a.put("worker", k);
            r.add(a);
        }
        List<JsonNode> answers = each((k, w) -> w.call(ClusterProtocol.OPEN, r.get(k), CALL));
        for (int k = 0; k < workers.size(); k++) {
            err.printf(Locale.ROOT, "bg: worker %d owns %,d members in fragments %s%n", k,
                    answers.get(k).path("members").asInt(), java.util.Arrays.toString(plan.fragments(k)));
        }
        err.flush();
        return answers.stream().allMatch(a -> a.path("loaded").asBoolean());
    }

    /**
     * Measures each worker's rate for heterogeneous shares [D 4.3.1]: every worker alone runs the mix for
     * {@code duration} with {@code threads} threads (one after the other, so they do not compete), then undoes its
     * writes (RepairDB) so the store is the loaded graph again. Returns actions/s per worker.
     */
    double[] calibrate(Duration duration, int threads) {
        double[] rates = new double[workers.size()];
        for (int k = 0; k < workers.size(); k++) {
            ObjectNode a = JSON.createObjectNode();
            a.put("threads", threads);
            a.put("duration_ms", duration.toMillis());
            a.put("warmup_ms", 0);
            a.put("seed", 17L + k);
            a.put("validate", false);
            JsonNode r = workers.get(k).stream(ClusterProtocol.RUN, a, IDLE, duration.plusMinutes(10), m -> { });
            rates[k] = r.at("/result/throughput").asDouble();
            err.printf(Locale.ROOT, "bg: calibration: worker %d %s alone with T=%d: %,.0f actions/s%n", k, names.get(k),
                    threads, rates[k]);
            err.flush();
            JsonNode rep = workers.get(k).call(ClusterProtocol.RESET, JSON.createObjectNode().put("how", "repair"),
                    Duration.ofHours(1));
            if (!rep.path("verified").asBoolean()) {
                throw new ClusterException("worker " + k + " " + names.get(k) + " could not undo its calibration "
                        + "writes (" + rep.path("mismatch").asText() + "); reload the store", null);
            }
        }
        for (double r : rates) {
            if (!(r > 0)) {
                throw new ClusterException("a worker completed no action during calibration: rates "
                        + java.util.Arrays.toString(rates), null);
            }
        }
        return rates;
    }

    /**
     * Drops failed workers and plans again with the others (equal rates); their expected states start from the
     * generated graph, so the caller must bring the store back to it (image or reload) before the next experiment.
     */
    void dropWorkers(List<Integer> failed) {
        List<Integer> sorted = new ArrayList<>(failed);
        sorted.sort(java.util.Comparator.reverseOrder());
        for (int k : sorted) {
            err.printf(Locale.ROOT, "bg: dropping worker %d %s%n", k, names.get(k));
            workers.remove(k).close();
            names.remove(k);
        }
        if (workers.isEmpty()) {
            throw new ClusterException("no worker left", null);
        }
        double[] rates = new double[workers.size()];
        java.util.Arrays.fill(rates, 1);
        open(storeName, params, graph, workload, rates, separateStores);
    }

    /** Creates the schema (once, or on every worker for stores inside each worker), loads every share in parallel. */
    JsonNode load(int loaders) {
        long t0 = System.nanoTime();
        if (separateStores) {
            all(w -> w.call(ClusterProtocol.CREATE_SCHEMA, JSON.createObjectNode(), CALL));
        } else {
            workers.get(0).call(ClusterProtocol.CREATE_SCHEMA, JSON.createObjectNode(), CALL);
        }
        long[] rows = new long[workers.size()];
        List<JsonNode> done = each((k, w) -> w.stream(ClusterProtocol.LOAD,
                JSON.createObjectNode().put("threads", loaders), IDLE, Duration.ofHours(24), m -> {
                    rows[k] = m.path("rows").asLong();
                }));
        long total = done.stream().mapToLong(d -> d.path("rows").asLong()).sum();
        double loadS = (System.nanoTime() - t0) / 1e9;
        ObjectNode args = JSON.createObjectNode().put("rows", total).put("load_s", loadS);
        JsonNode fin;
        if (separateStores) {
            args.put("partial", true);
            List<JsonNode> each = all(w -> w.call(ClusterProtocol.FINISH_LOAD, args, Duration.ofHours(1)));
            ObjectNode sum = each.get(0).deepCopy();
            for (String key : List.of("members", "friendships", "pending", "resources", "comments")) {
                sum.put(key, each.stream().mapToLong(e -> e.path(key).asLong()).sum());
            }
            fin = sum;
        } else {
            fin = workers.get(0).call(ClusterProtocol.FINISH_LOAD, args, Duration.ofHours(1));
        }
        ObjectNode n = fin.deepCopy();
        n.put("rows", total);
        n.put("load_s", loadS);
        n.put("total_s", (System.nanoTime() - t0) / 1e9);
        return n;
    }

    /** Result of one experiment on all workers. */
    record Outcome(RunResult result, List<RunResult> parts, boolean completed, String reason, List<Integer> failed) {
    }

    /**
     * One experiment with T threads spread over the workers; prints a merged line per second to {@code progress}
     * (may be null) and writes the merged result to {@code out} (and each worker's to {@code out}'s folder
     * {@code workers/}). A worker failure ends the experiment with the reason; nothing measured is lost.
     */
    Outcome run(int threads, Duration duration, Duration warmup, Duration beta, long seed, boolean validate,
                double tauPct, Path out, PrintWriter progress) throws IOException {
        int[] split = plan.threads(threads);
        List<Integer> active = new ArrayList<>();
        for (int k = 0; k < split.length; k++) {
            if (split[k] > 0) {
                active.add(k);
            }
        }
        Map<Integer, List<Object[]>> seconds = new TreeMap<>();
        List<SeriesPoint> series = new ArrayList<>();
        long betaNs = beta.toNanos();
        Duration total = duration.plus(warmup).plusMinutes(30);
        List<Future<JsonNode>> futures = new ArrayList<>();
        java.util.concurrent.ExecutorCompletionService<JsonNode> completions =
                new java.util.concurrent.ExecutorCompletionService<>(pool);
        for (int k : active) {
            ObjectNode a = JSON.createObjectNode();
            a.put("threads", split[k]);
            a.put("duration_ms", duration.toMillis());
            a.put("warmup_ms", warmup.toMillis());
            a.put("beta_ns", betaNs);
            a.put("seed", seed);
            a.put("validate", validate);
            a.put("tau_pct", tauPct);
            WorkerClient w = workers.get(k);
            futures.add(completions.submit(() -> w.stream(ClusterProtocol.RUN, a, IDLE, total, m -> {
                if (m.path("warmup").asBoolean()) {
                    return;
                }
                SeriesPoint p = JSON.convertValue(m.get("point"), SeriesPoint.class);
                Histogram h = Latencies.decode(m.get("hdr").asText());
                synchronized (seconds) {
                    List<Object[]> got = seconds.computeIfAbsent(p.second(), s -> new ArrayList<>());
                    got.add(new Object[] {p, h});
                    if (got.size() == active.size()) {
                        SeriesPoint merged = ResultMerger.mergeSecond(got.stream().map(x -> (SeriesPoint) x[0]).toList(),
                                got.stream().map(x -> (Histogram) x[1]).toList(), betaNs);
                        series.add(merged);
                        seconds.remove(p.second());
                        if (progress != null) {
                            progress.printf(Locale.ROOT, "  %4ds %,10.0f actions/s  p95 %s ms  ≤β %s %%  errors %d  (%d workers)%n",
                                    merged.second(), merged.throughput(), fmt(merged.p95Ms()), fmt(merged.withinBetaPct()),
                                    merged.errors(), active.size());
                            progress.flush();
                        }
                    }
                }
            })));
        }
        List<RunResult> parts = new ArrayList<>();
        List<String> partNames = new ArrayList<>();
        String reason = null;
        boolean completed = true;
        // Take workers in the order they end: one failure must end the experiment now, not after the others' δ.
        long deadline = System.nanoTime() + total.toNanos() + IDLE.toNanos();
        boolean[] done = new boolean[futures.size()];
        List<Integer> failed = new ArrayList<>();
        for (int left = futures.size(); left > 0; left--) {
            Future<JsonNode> f;
            try {
                f = completions.poll(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
                if (f == null) {
                    completed = false;
                    reason = reason != null ? reason : "the workers did not finish in time";
                    futures.forEach(x -> x.cancel(true));
                    f = completions.take(); // cancelled tasks complete at once
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(x -> x.cancel(true));
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
            int i = futures.indexOf(f);
            done[i] = true;
            int k = active.get(i);
            try {
                JsonNode r = f.get();
                parts.add(JSON.treeToValue(r.get("result"), RunResult.class));
                partNames.add(names.get(k));
                if (!r.path("completed").asBoolean(true)) {
                    completed = false;
                    reason = reason != null ? reason : "worker " + k + " " + names.get(k) + ": "
                            + r.path("abort_reason").asText();
                }
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                failed.add(k);
                completed = false;
                if (reason == null) {
                    reason = c instanceof WorkerException we ? we.getMessage()
                            : "worker " + k + " " + names.get(k) + ": " + c;
                    // The others cannot make a whole experiment any more: stop them now rather than wait δ, and
                    // keep what they measured.
                    stopOthers(active, done);
                }
            } catch (java.util.concurrent.CancellationException e) {
                completed = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
        }
        if (parts.isEmpty()) {
            throw new ClusterException("the experiment failed on every worker: " + reason, null);
        }
        double[] planned = new double[plan.workers()];
        double[] measured = new double[plan.workers()];
        for (int k = 0; k < split.length; k++) {
            planned[k] = split[k];
        }
        for (int i = 0; i < parts.size(); i++) {
            measured[names.indexOf(partNames.get(i))] = parts.get(i).total().count();
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("workers_count", plan.workers());
        extra.put("threads_per_worker", split);
        extra.put("worker_rates", plan.rates());
        extra.put("chi_square_planned", finite(plan.chiSquare(workload.socialites(), planned)));
        extra.put("chi_square_measured", finite(plan.chiSquare(workload.socialites(), measured)));
        extra.put("completed", completed);
        extra.put("abort_reason", reason);
        // Worker order, whatever order they finished in.
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            order.add(i);
        }
        List<String> finished = List.copyOf(partNames);
        List<RunResult> results = List.copyOf(parts);
        order.sort(java.util.Comparator.comparingInt(i -> names.indexOf(finished.get(i))));
        parts = new ArrayList<>(order.stream().map(results::get).toList());
        partNames = new ArrayList<>(order.stream().map(finished::get).toList());
        RunResult merged = ResultMerger.merge(parts, partNames, series, extra);
        if (!completed) {
            merged = merged.withWarning("the experiment failed: " + reason);
        }
        if (out != null) {
            Path dir = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + "-workers");
            Files.createDirectories(dir);
            for (int i = 0; i < parts.size(); i++) {
                new ResultWriter(dir.resolve("w" + names.indexOf(partNames.get(i)) + ".json")).write(parts.get(i));
            }
            new ResultWriter(out).write(merged);
        }
        return new Outcome(merged, parts, completed, reason, List.copyOf(failed));
    }

    private void stopOthers(List<Integer> active, boolean[] done) {
        for (int i = 0; i < active.size(); i++) {
            if (!done[i]) {
                WorkerClient w = workers.get(active.get(i));
                pool.submit(() -> {
                    try {
                        w.call(ClusterProtocol.STOP, JSON.createObjectNode().put("reason", "another worker failed"),
                                Duration.ofSeconds(10));
                    } catch (RuntimeException e) {
                        // Its own stream reports what is wrong with it.
                    }
                });
            }
        }
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? x : null;
    }

    private static String fmt(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }

    /** Resets every worker ({@code state}, {@code repair}) or restores the image on the first and resets the rest. */
    List<JsonNode> reset(String how) {
        if (how.equals("image")) {
            List<JsonNode> r = new ArrayList<>();
            if (separateStores) {
                return all(w -> w.call(ClusterProtocol.RESET, JSON.createObjectNode().put("how", "image"), Duration.ofHours(1)));
            }
            releaseOthers();
            r.add(workers.get(0).call(ClusterProtocol.RESET, JSON.createObjectNode().put("how", "image"), Duration.ofHours(1)));
            for (int k = 1; k < workers.size(); k++) {
                r.add(workers.get(k).call(ClusterProtocol.RESET, JSON.createObjectNode().put("how", "state"), CALL));
            }
            return r;
        }
        return all(w -> w.call(ClusterProtocol.RESET, JSON.createObjectNode().put("how", how), Duration.ofHours(1)));
    }

    /** Saves a database image (on the first worker, or every worker with stores of their own); false if unsupported. */
    /** A database image is taken and restored with no other client connected: the other workers let go first. */
    private void releaseOthers() {
        for (int k = 1; k < workers.size(); k++) {
            workers.get(k).call(ClusterProtocol.RELEASE, JSON.createObjectNode(), CALL);
        }
    }

    boolean saveImage() {
        if (!separateStores) {
            releaseOthers();
        }
        List<JsonNode> r = separateStores ? all(w -> w.call(ClusterProtocol.SAVE_IMAGE, JSON.createObjectNode(), Duration.ofHours(1)))
                : List.of(workers.get(0).call(ClusterProtocol.SAVE_IMAGE, JSON.createObjectNode(), Duration.ofHours(1)));
        return r.stream().allMatch(n -> n.path("supported").asBoolean());
    }

    /** Each worker's differences between its part of the store and its expected state (empty lists: all match). */
    List<JsonNode> verify(int limit) {
        return all(w -> w.call(ClusterProtocol.VERIFY, JSON.createObjectNode().put("limit", limit), Duration.ofHours(1)));
    }

    /** Ends every worker process. */
    void shutdownWorkers() {
        all(w -> w.call(ClusterProtocol.SHUTDOWN, JSON.createObjectNode(), CALL));
    }

    @FunctionalInterface
    private interface Op {
        JsonNode apply(int worker, WorkerClient client);
    }

    private List<JsonNode> all(java.util.function.Function<WorkerClient, JsonNode> op) {
        return each((k, w) -> op.apply(w));
    }

    /** Runs {@code op} on every worker at once; the first failure (by worker order) is thrown with its reason. */
    private List<JsonNode> each(Op op) {
        List<Future<JsonNode>> fs = new ArrayList<>();
        for (int k = 0; k < workers.size(); k++) {
            int kk = k;
            fs.add(pool.submit(() -> op.apply(kk, workers.get(kk))));
        }
        List<JsonNode> out = new ArrayList<>();
        for (int k = 0; k < fs.size(); k++) {
            try {
                out.add(fs.get(k).get());
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                throw new ClusterException(c instanceof WorkerException ? c.getMessage()
                        : "worker " + k + " " + names.get(k) + ": " + c.getMessage(), c, k);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
        }
        return out;
    }

    @Override
    public void close() {
        for (WorkerClient w : workers) {
            try {
                w.call(ClusterProtocol.CLOSE, JSON.createObjectNode(), Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                // A dead worker has nothing to close.
            }
            w.close();
        }
        pool.shutdownNow();
    }
}
