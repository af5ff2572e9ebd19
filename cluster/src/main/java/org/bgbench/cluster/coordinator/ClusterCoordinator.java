package org.bgbench.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.SecondSample;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.Observers;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.runner.rating.RatingRunner;

/**
 * BGCoord (dissertation 4.3, BGCoord): drives the workers given by {@code --workers} through their operations, merges what they
 * stream into a live line and their final results into one (losslessly, see {@link ResultMerger}), and fails an
 * experiment with the worker's address and what happened when a worker dies, hangs (nothing, not even a heartbeat,
 * for {@link #IDLE}) or refuses the secret. It never waits forever: every call has a deadline.
 */
public final class ClusterCoordinator implements AutoCloseable {
    /** Counts per kind in a streamed second: within β, no-ops, errors, error ns, BG CPU ns, CPU samples. */
    private static final int SECOND_COUNTS = 6;
    /** A worker silent this long (its transport sends a heartbeat every second) is taken for hung or cut off. */
    public static final Duration IDLE = Duration.ofSeconds(Long.getLong("bg.cluster.idle.seconds", 10));
    private static final Duration CALL = Duration.ofSeconds(60);

    /** A worker failed the operation; the message names it. */
    public static final class ClusterException extends RatingRunner.WorkerFailure {
        ClusterException(String message, Throwable cause) {
            this(message, cause, -1);
        }

        ClusterException(String message, Throwable cause, int worker) {
            super(message, cause, worker);
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
    /** The workers' answers to the last {@code open}. */
    private List<Messages.Opened> opened = List.of();
    /** Per writer of the mark: the store's mark as it answered at open or as the coordinator wrote it since. */
    private final Map<Integer, String> knownMarks = new java.util.HashMap<>();

    /** @param tls the channel's TLS, or null for plaintext */
    public ClusterCoordinator(List<String> addresses, String secret, org.bgbench.cluster.security.TlsClient tls,
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
            List<JsonNode> hello = all(w -> w.call(Operations.HELLO, Messages.tree(Messages.Ack.OK), CALL));
            for (int k = 0; k < hello.size(); k++) {
                Messages.Hello h = Messages.read(hello.get(k), Messages.Hello.class);
                if (h.protocol() != Operations.VERSION) {
                    throw new ClusterException("worker " + names.get(k) + " speaks protocol " + h.protocol()
                            + ", this coordinator " + Operations.VERSION + "; run the same BG version everywhere",
                            null);
                }
                err.printf(Locale.ROOT, "bg: worker %d %s: host %s, %d cores, pid %d%n", k, names.get(k), h.host(),
                        h.cores(), h.pid());
            }
        } catch (RuntimeException e) {
            // The workers that answered serve this coordinator now: end their sessions so the next one need not wait.
            workers.forEach(WorkerClient::close);
            pool.shutdownNow();
            throw e;
        }
        err.flush();
    }

    public List<String> names() {
        return names;
    }

    public ClusterPlan plan() {
        return plan;
    }

    /** Sends every worker the store, all -p parameters and its share of the graph. Returns whether it is loaded. */
    public boolean open(String store, Map<String, String> params, SocialGraph graph, WorkloadSpec workload,
                        double[] rates, boolean storePerWorker) {
        this.graph = graph;
        this.workload = workload;
        this.separateStores = storePerWorker;
        this.storeName = store;
        this.params = params;
        plan = ClusterPlan.assign(graph, rates, workload.seed());
        Map<String, String> sorted = new TreeMap<>(params);
        List<Messages.Opened> answers = each((k, w) -> w.call(Operations.OPEN,
                Messages.tree(new Messages.Open(store, sorted, plan.layout(), k)), CALL)).stream()
                .map(n -> Messages.read(n, Messages.Opened.class)).toList();
        opened = answers;
        knownMarks.clear();
        for (int k : markWriters()) {
            knownMarks.put(k, answers.get(k).storeMark());
        }
        for (int k = 0; k < workers.size(); k++) {
            err.printf(Locale.ROOT, "bg: worker %d owns %,d members in fragments %s%n", k, answers.get(k).members(),
                    java.util.Arrays.toString(plan.fragments(k)));
        }
        err.flush();
        return answers.stream().allMatch(Messages.Opened::loaded);
    }

    /**
     * Opens the workers with their shares as {@link #open} does, then, when {@code calibrate} is given and the store
     * holds the graph, measures each worker's rate alone ({@link #calibrate}) and plans the shares again by those
     * rates (heterogeneous workers). Returns whether the store holds the graph.
     */
    public boolean open(String store, Map<String, String> params, SocialGraph graph, WorkloadSpec workload,
                        double[] rates, boolean storePerWorker, Duration calibrate, ExperimentSpec template,
                        int calibrationThreads) {
        boolean loaded = open(store, params, graph, workload, rates, storePerWorker);
        if (calibrate == null || !loaded) {
            return loaded;
        }
        requireState();
        double[] measured = calibrate(template, calibrate, Math.max(1, calibrationThreads));
        double min = java.util.Arrays.stream(measured).min().orElse(1);
        double[] norm = java.util.Arrays.stream(measured).map(r -> r / min).toArray();
        err.printf(Locale.ROOT, "bg: calibrated worker rates %s%n", java.util.Arrays.toString(norm));
        // New shares: the workers take the new plan with fresh expected states (the store is the loaded graph again).
        open(store, params, graph, workload, norm, storePerWorker);
        return true;
    }

    /**
     * Measures each worker's rate for heterogeneous shares (dissertation 4.3.1): every worker alone runs the mix for
     * {@code duration} with {@code threads} threads (one after the other, so they do not compete), then undoes its
     * writes (RepairDB) so the store is the loaded graph again. Returns actions/s per worker.
     */
    public double[] calibrate(ExperimentSpec template, Duration duration, int threads) {
        double[] rates = new double[workers.size()];
        beginWrites("calibration");
        for (int k = 0; k < workers.size(); k++) {
            ExperimentSpec spec = template.withThreads(threads).withDuration(duration).withSeed(17L + k)
                    .withValidation(null);
            spec = spec.toBuilder().operations(0).warmup(Duration.ZERO).warmupOperations(0).validation(null)
                    .storeHosts(List.of()).open(null).build();
            JsonNode r = workers.get(k).stream(Operations.RUN, Messages.tree(spec), IDLE, duration.plusMinutes(10),
                    m -> { });
            rates[k] = Messages.read(r, Messages.RunDone.class).result().throughput();
            err.printf(Locale.ROOT, "bg: calibration: worker %d %s alone with T=%d: %,.0f actions/s%n", k, names.get(k),
                    threads, rates[k]);
            err.flush();
            Messages.ResetDone rep = reset(workers.get(k), Messages.ResetHow.REPAIR);
            if (!rep.verified()) {
                throw new ClusterException("worker " + k + " " + names.get(k) + " could not undo its calibration "
                        + "writes (" + rep.mismatch() + "); reload the store", null);
            }
        }
        markLoaded();
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
    public void dropWorkers(List<Integer> failed) {
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
    /** What a load on the workers did: rows, times and the sanity check's totals. */
    public record LoadSummary(long rows, double loadS, double finishS, double totalS, Messages.Finished counts) {
    }

    public LoadSummary load(int loaders) {
        long t0 = System.nanoTime();
        JsonNode none = Messages.tree(Messages.Ack.OK);
        if (separateStores) {
            all(w -> w.call(Operations.CREATE_SCHEMA, none, CALL));
        } else {
            workers.get(0).call(Operations.CREATE_SCHEMA, none, CALL);
        }
        List<JsonNode> done = each((k, w) -> w.stream(Operations.LOAD, Messages.tree(new Messages.Load(loaders)), IDLE,
                Duration.ofHours(24), m -> { }));
        long total = done.stream().mapToLong(d -> Messages.read(d, Messages.Loaded.class).rows()).sum();
        double loadS = (System.nanoTime() - t0) / 1e9;
        Messages.Finished fin;
        if (separateStores) {
            JsonNode args = Messages.tree(new Messages.FinishLoad(total, loadS, true));
            List<Messages.Finished> each = all(w -> w.call(Operations.FINISH_LOAD, args, Duration.ofHours(1))).stream()
                    .map(n -> Messages.read(n, Messages.Finished.class)).toList();
            fin = new Messages.Finished(each.stream().mapToDouble(Messages.Finished::finishS).max().orElse(0),
                    each.stream().mapToLong(Messages.Finished::members).sum(),
                    each.stream().mapToLong(Messages.Finished::friendships).sum(),
                    each.stream().mapToLong(Messages.Finished::pending).sum(),
                    each.stream().mapToLong(Messages.Finished::resources).sum(),
                    each.stream().mapToLong(Messages.Finished::comments).sum());
        } else {
            fin = Messages.read(workers.get(0).call(Operations.FINISH_LOAD,
                    Messages.tree(new Messages.FinishLoad(total, loadS, false)), Duration.ofHours(1)),
                    Messages.Finished.class);
        }
        // finishLoad wrote the loaded graph's mark into the store.
        markWriters().forEach(k -> knownMarks.put(k, org.bgbench.store.StateMark.loaded(graph.spec().fingerprint())
                .text()));
        return new LoadSummary(total, loadS, fin.finishS(), (System.nanoTime() - t0) / 1e9, fin);
    }

    /**
     * Result of one experiment on all workers; {@code unwritten} says which of its files could not be written (a
     * full disk) or is null.
     */
    public record Outcome(RunResult result, List<RunResult> parts, boolean completed, String reason, List<Integer> failed,
                          int touched, String unwritten) {
    }

    /**
     * One experiment with T threads spread over the workers; prints a merged line per second to {@code progress}
     * (may be null) and writes the merged result to {@code out} (and each worker's to {@code out}'s folder
     * {@code workers/}). A worker failure ends the experiment with the reason; nothing measured is lost.
     */
    public Outcome run(ExperimentSpec spec, Path out, PrintWriter progress) throws IOException {
        boolean writes = workload.mix().writeFraction() > 0;
        int[] split = plan.threads(spec.threads());
        List<Integer> active = new ArrayList<>();
        for (int k = 0; k < split.length; k++) {
            if (split[k] > 0) {
                active.add(k);
            }
        }
        checkShares(spec, split, active);
        Map<Integer, String> before = new java.util.HashMap<>(knownMarks);
        if (writes) {
            beginWrites("a run of the " + workload.mixName() + " mix with T=" + spec.threads() + " on "
                    + workers.size() + " workers");
        }
        Map<Integer, List<Object[]>> seconds = new TreeMap<>();
        List<SeriesPoint> series = new ArrayList<>();
        // The merged seconds' histograms per kind, beside the merged result (X.hlog for X.json).
        IntervalLog hlog = out == null ? null : new IntervalLog(RunArtifacts.hlogFor(out));
        // Space for the merged result before the run can fill the disk; its files are written through it at the end.
        org.bgbench.measurement.report.ReportFiles files = new org.bgbench.measurement.report.ReportFiles();
        if (out != null) {
            files.reserve(out);
        }
        long betaNs = spec.beta().toNanos();
        // The merged seconds for this process's observers (the deck's live file of the merged result).
        ExperimentInfo info = new ExperimentInfo(storeName, workload.mixName(), spec.threads(), betaNs / 1e6,
                spec.operations() > 0 ? 0 : spec.duration().toNanos() / 1e9, spec.warmup().toNanos() / 1e9, out, true);
        Observers.each(o -> o.started(info));
        Duration total = spec.duration().plus(spec.warmup()).plusMinutes(30);
        List<Future<JsonNode>> futures = new ArrayList<>();
        java.util.concurrent.ExecutorCompletionService<JsonNode> completions =
                new java.util.concurrent.ExecutorCompletionService<>(pool);
        for (int k : active) {
            JsonNode a = share(spec, split, k);
            WorkerClient w = workers.get(k);
            futures.add(completions.submit(() -> w.stream(Operations.RUN, a, IDLE, total, m -> {
                Messages.Second sec = Messages.read(m, Messages.Second.class);
                if (sec.warmup()) {
                    return;
                }
                SeriesPoint p = sec.point();
                Histogram h = Latencies.decode(sec.hdr());
                Map<String, Histogram> kinds = new LinkedHashMap<>();
                if (sec.kinds() != null) {
                    sec.kinds().forEach((code, hdr) -> kinds.put(code, Latencies.decode(hdr)));
                }
                Map<String, long[]> counts = sec.counts() == null ? Map.of() : sec.counts();
                synchronized (seconds) {
                    List<Object[]> got = seconds.computeIfAbsent(p.second(), s -> new ArrayList<>());
                    got.add(new Object[] {p, h, kinds, counts});
                    if (got.size() == active.size()) {
                        SeriesPoint merged = ResultMerger.mergeSecond(got.stream().map(x -> (SeriesPoint) x[0]).toList(),
                                got.stream().map(x -> (Histogram) x[1]).toList(), betaNs);
                        series.add(merged);
                        seconds.remove(p.second());
                        logSecond(hlog, merged, got, info);
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
        int touched = 0;
        // Take workers in the order they end: one failure must end the experiment now, not after the others' δ.
        long deadline = System.nanoTime() + total.toNanos() + IDLE.toNanos();
        boolean[] done = new boolean[futures.size()];
        List<Integer> failed = new ArrayList<>();
        java.util.Set<Integer> idle = new java.util.HashSet<>();
        // Ctrl-C on the coordinator: the workers stop now and what they measured is merged and written as usual.
        Interrupts.Registration interrupt = Interrupts.onInterrupt(why -> stopOthers(active, done, "the coordinator was "
                + why));
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
                if (hlog != null) {
                    hlog.close();
                }
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
            int i = futures.indexOf(f);
            done[i] = true;
            int k = active.get(i);
            try {
                Messages.RunDone r = Messages.read(f.get(), Messages.RunDone.class);
                parts.add(r.result());
                partNames.add(names.get(k));
                touched += r.touched();
                if (!r.acted()) {
                    idle.add(k);
                }
                if (!r.completed()) {
                    completed = false;
                    reason = reason != null ? reason : "worker " + k + " " + names.get(k) + ": " + r.abortReason();
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
                if (hlog != null) {
                    hlog.close();
                }
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
        }
        interrupt.close();
        boolean seal = writes && failed.isEmpty() && parts.size() == active.size()
                && parts.stream().noneMatch(org.bgbench.measurement.Stalls::writesUncertain);
        if (writes && !seal) {
            giveBack(before, active, idle, failed);
        }
        if (parts.isEmpty()) {
            if (hlog != null) {
                hlog.close(); // keeps the seconds merged so far
            }
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
        if (spec.open() != null) {
            merged = merged.withOpen(org.bgbench.measurement.open.OpenModelMerger.merge(
                    parts.stream().map(RunResult::open).toList(), spec.open().schedule().text(), spec.threads()));
        }
        if (!completed) {
            merged = merged.withWarning("the experiment failed: " + reason);
        }
        if (hlog != null) {
            synchronized (seconds) {
                // Seconds not every worker reported (a worker's last, or one that failed) are not in the merged
                // series but are in the workers' results: the log has them as they came, then the stuck ones.
                for (List<Object[]> got : seconds.values()) {
                    logSecond(hlog, ResultMerger.mergeSecond(got.stream().map(x -> (SeriesPoint) x[0]).toList(),
                            got.stream().map(x -> (Histogram) x[1]).toList(), betaNs), got, null);
                }
                seconds.clear();
                merged = hlog.finish(merged);
            }
        }
        if (out != null) {
            // The merged result first, through its reserve (freed then for the workers' copies); a file that cannot
            // be written is reported with the outcome, after the summary of what was measured.
            files.write(out, merged);
            files.release();
            Path dir = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + "-workers");
            try {
                Files.createDirectories(dir);
                for (int i = 0; i < parts.size(); i++) {
                    files.write(dir.resolve("w" + names.indexOf(partNames.get(i)) + ".json"), parts.get(i));
                }
            } catch (IOException e) {
                files.failed("cannot write the workers' results to " + dir + ": " + e.getMessage());
            }
            files.release();
        }
        RunResult observed = merged;
        Observers.each(o -> o.finished(info, observed));
        if (seal) {
            // Every worker's state holds exactly the writes the store acknowledged: seal them with one token (after
            // the results are on disk, so a worker lost now loses nothing measured). A worker that failed, or whose
            // store stopped answering or refused every call for a second, leaves the store marked as written by a
            // run that did not end.
            sealWrites(touched == 0);
        }
        return new Outcome(merged, parts, completed, reason, List.copyOf(failed), touched, files.why());
    }

    /** Worker {@code k}'s share of {@code spec}: its threads, and in the open model its share of the rate. */
    private static JsonNode share(ExperimentSpec spec, int[] split, int k) {
        return Messages.tree(spec.withThreads(split[k]).withOpen(spec.open() == null ? null
                : spec.open().scaled((double) split[k] / spec.threads())));
    }

    /**
     * Every worker with threads checks its share before the store is marked: a share a worker refuses (T its heap
     * cannot hold, a thread kind its store cannot use) is bad input naming the parameter and the worker, and leaves
     * no mark behind.
     */
    private void checkShares(ExperimentSpec spec, int[] split, List<Integer> active) {
        List<JsonNode> answers = each((k, w) -> active.contains(k)
                ? w.call(Operations.CHECK, share(spec, split, k), CALL) : Messages.tree(Messages.Checked.OK));
        for (int k = 0; k < answers.size(); k++) {
            Messages.Checked c = Messages.read(answers.get(k), Messages.Checked.class);
            if (c.parameter() != null) {
                throw new org.bgbench.model.InvalidParameterException(c.parameter(), "worker " + k + " "
                        + names.get(k) + " refuses its share of the experiment (T=" + split[k] + " of "
                        + spec.threads() + "): " + c.problem());
            }
        }
    }

    /**
     * After an experiment that is not sealed: each writer's store gets back the mark it had before the experiment
     * (a compare-and-set from the running mark, so a store another command changed meanwhile keeps its mark) when
     * no worker whose writes it holds acted (every worker with threads for a shared store, the writer itself for a
     * store of its own), as each says. Where that is not known (a worker lost or not ended) the store stays marked as
     * written by a run that did not end.
     */
    private void giveBack(Map<Integer, String> before, List<Integer> active, java.util.Set<Integer> idle,
                          List<Integer> failed) {
        for (int k : markWriters()) {
            String had = before.get(k);
            List<Integer> holders = separateStores ? (active.contains(k) ? List.of(k) : List.of()) : active;
            try {
                boolean unacted = had != null;
                for (int j : holders) {
                    if (!unacted || idle.contains(j) || j == k && failed.contains(j)) {
                        continue; // the writer's own answer comes with its compare-and-set
                    }
                    unacted = failed.contains(j) && Messages.read(workers.get(j).call(Operations.MARK,
                            Messages.tree(new Messages.Mark(had, false, null, true)), CALL), Messages.Ack.class).ok();
                }
                if (unacted && Messages.read(workers.get(k).call(Operations.MARK, Messages.tree(new Messages.Mark(had,
                        true, knownMarks.get(k), active.contains(k))), CALL), Messages.Ack.class).ok()) {
                    knownMarks.put(k, had);
                }
            } catch (RuntimeException e) {
                // The worker is gone or the store changed: it stays marked running; the experiment's failure counts.
            }
        }
    }

    /**
     * One merged second: into the interval log (per kind the sum of the workers' histograms, and all actions), and (when {@code info} is given) to this process's observers with its
     * per-kind figures summed over the workers.
     */
    @SuppressWarnings("unchecked")
    private static void logSecond(IntervalLog hlog, SeriesPoint merged, List<Object[]> got, ExperimentInfo info) {
        Map<String, Histogram> kinds = new LinkedHashMap<>();
        Map<String, long[]> counts = new LinkedHashMap<>();
        Histogram actions = Latencies.newHistogram();
        for (Object[] x : got) {
            actions.add((Histogram) x[1]);
            ((Map<String, Histogram>) x[2]).forEach((code, h) -> kinds.merge(code, h, (a, b) -> {
                a.add(b);
                return a;
            }));
            if (x.length > 3) {
                addCounts(counts, (Map<String, long[]>) x[3]);
            }
        }
        if (hlog != null) {
            hlog.interval(merged.elapsedS() - merged.intervalS(), merged.elapsedS(), kinds, actions);
        }
        if (info != null) {
            List<KindCounts> perKind = new ArrayList<>();
            for (org.bgbench.model.Kind k : org.bgbench.model.Kind.all()) {
                Histogram h = kinds.getOrDefault(k.code(), Latencies.newHistogram());
                perKind.add(kindCounts(k.code(), h, counts.get(k.code())));
            }
            SecondSample sample = new SecondSample(false, merged, perKind, actions, 0, null);
            Observers.each(o -> o.second(info, sample));
        }
    }

    /** The counts a worker streamed (see {@link Messages.Second#counts()}) added to {@code sum}, per code. */
    static void addCounts(Map<String, long[]> sum, Map<String, long[]> worker) {
        // Padded to the six counts: a worker of an earlier version sends four.
        worker.forEach((code, c) -> sum.merge(code, java.util.Arrays.copyOf(c, Math.max(c.length, SECOND_COUNTS)),
                (a, b) -> {
                    for (int i = 0; i < a.length && i < b.length; i++) {
                        a[i] += b[i];
                    }
                    return a;
                }));
    }

    /** One kind's merged second from its histogram and its summed counts (null: none in the second). */
    static KindCounts kindCounts(String code, Histogram latencies, long[] counts) {
        long[] c = counts == null ? new long[SECOND_COUNTS] : java.util.Arrays.copyOf(counts, SECOND_COUNTS);
        return new KindCounts(code, latencies, c[0], 0, new KindCounts.Outcomes(c[1], c[2], c[3]),
                new KindCounts.Cpu(c[4], c[5]));
    }

    private void stopOthers(List<Integer> active, boolean[] done) {
        stopOthers(active, done, "another worker failed");
    }

    /** Asks the workers still running to end the experiment now; each then answers with what it measured. */
    private void stopOthers(List<Integer> active, boolean[] done, String why) {
        for (int i = 0; i < active.size(); i++) {
            if (!done[i]) {
                WorkerClient w = workers.get(active.get(i));
                pool.submit(() -> {
                    try {
                        w.call(Operations.STOP, Messages.tree(new Messages.Stop(why)), Duration.ofSeconds(10));
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

    private static Messages.ResetDone reset(WorkerClient w, Messages.ResetHow how) {
        return Messages.read(w.call(Operations.RESET, Messages.tree(new Messages.Reset(how, 4)), Duration.ofHours(1)),
                Messages.ResetDone.class);
    }

    /**
     * Resets every worker ({@code STATE}: forget its writes, {@code REPAIR}: undo them, {@code FULL}: fix every
     * difference of its members from the generated graph); {@code IMAGE} restores the image on the first worker (on
     * every worker for stores of their own) and resets the others' states. The store's state mark follows: it says
     * {@code running:} while a repair writes, and the loaded graph once every worker's reset succeeded.
     */
    public List<Messages.ResetDone> reset(Messages.ResetHow how) {
        if (how == Messages.ResetHow.IMAGE && !separateStores) {
            releaseOthers();
            List<Messages.ResetDone> r = new ArrayList<>();
            r.add(reset(workers.get(0), Messages.ResetHow.IMAGE));
            for (int k = 1; k < workers.size(); k++) {
                r.add(reset(workers.get(k), Messages.ResetHow.STATE));
            }
            // The image brought back the mark it was taken with: images are taken of a loaded store only.
            knownMarks.put(0, org.bgbench.store.StateMark.loaded(graph.spec().fingerprint()).text());
            return r;
        }
        boolean writes = how == Messages.ResetHow.REPAIR || how == Messages.ResetHow.FULL;
        if (writes) {
            beginWrites(how == Messages.ResetHow.FULL ? "bg verify --repair" : "RepairDB");
        }
        List<Messages.ResetDone> r = all(w -> Messages.tree(reset(w, how))).stream()
                .map(n -> Messages.read(n, Messages.ResetDone.class)).toList();
        if (writes && r.stream().allMatch(Messages.ResetDone::verified)) {
            markLoaded();
        }
        if (how == Messages.ResetHow.IMAGE) {
            markWriters().forEach(k -> knownMarks.put(k, org.bgbench.store.StateMark.loaded(graph.spec()
                    .fingerprint()).text()));
        }
        return r;
    }

    // ---- the store's state mark (see org.bgbench.store.StateMark and cluster/README.md) --------------------------

    /** The workers that write the store's mark: the first for a shared store, each for stores of their own. */
    private List<Integer> markWriters() {
        List<Integer> k = new ArrayList<>();
        for (int i = 0; i < (separateStores ? workers.size() : 1); i++) {
            k.add(i);
        }
        return k;
    }

    /** Every worker adopts {@code mark}; the writers also write it into the store. */
    private void mark(String mark) {
        List<Integer> writers = markWriters();
        each((k, w) -> w.call(Operations.MARK, Messages.tree(new Messages.Mark(mark, writers.contains(k))), CALL));
        writers.forEach(k -> knownMarks.put(k, mark));
    }

    /**
     * Before the first write of a run or repair reaches the store: the writers mark it {@code running:…}. The other
     * workers hold {@code running:} from the moment their own run or repair begins.
     */
    private void beginWrites(String what) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "the coordinator";
        }
        String running = org.bgbench.store.StateMark.running(java.util.UUID.randomUUID().toString().substring(0, 8)
                + " started " + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " by the"
                + " coordinator on " + host + " pid " + ProcessHandle.current().pid() + ": " + what).text();
        // A compare-and-set from the mark each writer's store answered: of two coordinators (or a coordinator and a
        // bg run) that checked the same mark, only one starts writing.
        List<Integer> writers = markWriters();
        try {
            each((k, w) -> writers.contains(k)
                    ? w.call(Operations.MARK, Messages.tree(new Messages.Mark(running, true, knownMarks.get(k))), CALL)
                    : Messages.tree(Messages.Ack.OK));
        } catch (ClusterException e) {
            // Stores of their own: those this coordinator marked go back to the mark they had (a compare-and-set
            // from its running mark, which fails harmlessly where another run holds the store), so a refused run
            // leaves no mark behind.
            for (int k : writers) {
                String had = knownMarks.get(k);
                if (had != null) {
                    try {
                        workers.get(k).call(Operations.MARK, Messages.tree(new Messages.Mark(had, true, running)), CALL);
                    } catch (RuntimeException notOurs) {
                        // Not marked by this coordinator, or the worker is gone: nothing to give back.
                    }
                }
            }
            throw e;
        }
        writers.forEach(k -> knownMarks.put(k, running));
    }

    /** After the workers' writes ended and each holds its state: one fresh token for all (or the loaded mark). */
    private void sealWrites(boolean untouched) {
        if (untouched) {
            markLoaded();
            return;
        }
        // First every worker adopts the token, then the writers put it into the store: a coordinator that dies in
        // between leaves the store marked running, which refuses, never a token a worker does not hold.
        String token = org.bgbench.store.StateMark.state(java.util.UUID.randomUUID().toString()).text();
        try {
            each((k, w) -> w.call(Operations.MARK, Messages.tree(new Messages.Mark(token, false)), CALL));
            mark(token);
        } catch (ClusterException e) {
            // The experiment itself is measured and kept; the store stays marked as written by a run that did not
            // end, so no later command trusts a state a worker may have lost.
            err.println("bg: warning: the run's state token could not be recorded on every worker (" + e.getMessage()
                    + "); the store stays marked as written by a run that did not end");
            err.flush();
        }
    }

    private void markLoaded() {
        mark(org.bgbench.store.StateMark.loaded(graph.spec().fingerprint()).text());
    }

    /** The store's mark as the workers that write it read it at {@code open} (one per worker for stores of their own). */
    public List<String> storeMarks() {
        return markWriters().stream().map(k -> opened.get(k).storeMark()).toList();
    }

    /** What each worker answered to the last {@code open}. */
    public List<Messages.Opened> opened() {
        return opened;
    }

    /**
     * Refuses to go on (a {@link ClusterException} naming the worker and what to do) unless every worker holds the
     * state the store's mark names: the store's mark must be the loaded graph's or a token, never {@code running:}
     * (a run that did not end) or absent; with a token, every worker must hold the state it sealed (a restarted
     * worker, or one that served another setup since, does not). Workers whose kept state predates a reload the
     * store's loaded mark shows forget it. Call after {@link #open} when the store holds the graph.
     */
    public void requireState() {
        String advice = "Reload the store (bg load --store " + storeName + " --replace --workers …), or repair it (bg "
                + "verify --store " + storeName + " --repair --workers …), with the same settings and -p graph keys.";
        String fresh = org.bgbench.store.StateMark.loaded(graph.spec().fingerprint()).text();
        for (int k = 0; k < opened.size(); k++) {
            Messages.Opened o = opened.get(k);
            String storeMark = opened.get(separateStores ? k : 0).storeMark();
            String where = separateStores ? "worker " + k + " " + names.get(k) + "'s store" : "the store";
            if (storeMark == null) {
                throw new ClusterException(where + " holds the graph but records no state mark (loaded by an older "
                        + "BG?), so BG cannot tell what state it is in. " + advice, null, k);
            }
            java.util.Optional<org.bgbench.store.StateMark> mark = org.bgbench.store.StateMark.parse(storeMark);
            if (mark.isEmpty() || mark.get().kind() == org.bgbench.store.StateMark.Kind.RUNNING) {
                throw new ClusterException(mark.isEmpty() ? where + "'s state mark '" + storeMark + "' is not one BG "
                        + "writes. " + advice : "a run on " + where + " has not ended (" + mark.get().value() + "). If "
                        + "it is not still running, it was interrupted and BG does not know which of its writes "
                        + "reached the store. " + advice, null, k);
            }
            if (storeMark.equals(o.heldMark())) {
                continue;
            }
            if (storeMark.equals(fresh)) {
                // The store was loaded (or restored) since this worker's runs: what it kept is stale.
                reset(workers.get(k), Messages.ResetHow.STATE);
                continue;
            }
            String held = storeMark;
            if (!separateStores && opened.stream().noneMatch(x -> held.equals(x.heldMark()))) {
                throw new ClusterException("no worker holds BG's expected state of the store (" + storeMark + "): the "
                        + "run that left it was not made through these workers (a bg run without --workers, other "
                        + "--workers or --worker-rates), or they were all restarted since. " + advice, null, k);
            }
            throw new ClusterException("worker " + k + " " + names.get(k) + " does not hold BG's expected state of "
                    + where + " (" + storeMark + ", left by an earlier run through these workers): "
                    + (o.keptState() ? "it holds the state of another run (" + o.heldMark() + ")"
                            : "it was restarted, or given another share of the graph (other --workers or "
                                    + "--worker-rates than that run's), since then")
                    + ", so the writes of that run on its members are unknown to it. " + advice, null, k);
        }
    }

    /** A database image is taken and restored with no other client connected: the other workers let go first. */
    private void releaseOthers() {
        for (int k = 1; k < workers.size(); k++) {
            workers.get(k).call(Operations.RELEASE, Messages.tree(Messages.Ack.OK), CALL);
        }
    }

    /** What {@link #saveImage} found. */
    public enum ImageState { SAVED, UNSUPPORTED, NOT_LOADED }

    /**
     * Saves a database image (on the first worker, or every worker with stores of their own) unless one exists;
     * {@link ImageState#NOT_LOADED} when none exists and the store is not marked as freshly loaded (reload first).
     */
    public ImageState saveImage() {
        if (!separateStores) {
            releaseOthers();
        }
        JsonNode none = Messages.tree(Messages.Ack.OK);
        List<JsonNode> r = separateStores ? all(w -> w.call(Operations.SAVE_IMAGE, none, Duration.ofHours(1)))
                : List.of(workers.get(0).call(Operations.SAVE_IMAGE, none, Duration.ofHours(1)));
        List<Messages.ImageSaved> answers = r.stream().map(n -> Messages.read(n, Messages.ImageSaved.class)).toList();
        if (!answers.stream().allMatch(Messages.ImageSaved::supported)) {
            return ImageState.UNSUPPORTED;
        }
        return answers.stream().anyMatch(Messages.ImageSaved::notLoaded) ? ImageState.NOT_LOADED : ImageState.SAVED;
    }

    /** Each worker's differences between its part of the store and its expected state (empty lists: all match). */
    public List<Messages.Verified> verify(int limit) {
        JsonNode args = Messages.tree(new Messages.Verify(limit));
        return all(w -> w.call(Operations.VERIFY, args, Duration.ofHours(1))).stream()
                .map(n -> Messages.read(n, Messages.Verified.class)).toList();
    }

    /** Ends every worker process. */
    public void shutdownWorkers() {
        all(w -> w.call(Operations.SHUTDOWN, Messages.tree(Messages.Ack.OK), CALL));
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
                w.call(Operations.CLOSE, Messages.tree(Messages.Ack.OK), Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                // A dead worker has nothing to close.
            }
            w.close();
        }
        pool.shutdownNow();
    }
}
