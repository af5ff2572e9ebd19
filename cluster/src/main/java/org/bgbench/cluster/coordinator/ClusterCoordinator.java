package org.bgbench.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerClient;
import org.bgbench.cluster.security.TlsClient;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.model.GraphKeys;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.rating.RatingRunner;
import org.bgbench.workload.WorkloadSpec;

/**
 * BGCoord (dissertation 4.3, BGCoord): drives the workers given by {@code --workers} through their operations, merges what they
 * stream into a live line and their final results into one (losslessly, see {@link ResultMerger}), and fails an
 * experiment with the worker's address and what happened when a worker dies, hangs (nothing, not even a heartbeat,
 * for {@link #IDLE}) or refuses the secret. It never waits forever: every call has a deadline.
 *
 * <p>Its phases live in their own classes: {@link Workers} connects and greets the workers (refusing another protocol
 * version), {@link StateMarks} keeps the store's state mark in step with their states, {@link ClusterRun} runs one
 * experiment (check, start, collect, merge, seal) and {@link LiveSeconds} merges its seconds as they stream.
 */
public final class ClusterCoordinator implements AutoCloseable {
    /** A worker silent this long (its transport sends a heartbeat every second) is taken for hung or cut off. */
    public static final Duration IDLE = Duration.ofSeconds(Long.getLong("bg.cluster.idle.seconds", 10));

    /** A worker failed the operation; the message names it. */
    public static final class ClusterException extends RatingRunner.WorkerFailure {
        ClusterException(String message, Throwable cause) {
            this(message, cause, -1);
        }

        ClusterException(String message, Throwable cause, int worker) {
            super(message, cause, worker);
        }
    }

    private final Workers workers;
    private final PrintWriter err;
    private ClusterPlan plan;
    private SocialGraph graph;
    private WorkloadSpec workload;
    private boolean separateStores;
    private String storeName;
    private Map<String, String> params;
    /** The workers' answers to the last {@code open}. */
    private List<Messages.Opened> opened = List.of();
    /** The store's state mark as the last {@code open} found it and this coordinator wrote it since. */
    private StateMarks marks;

    /**
     * Connects to the workers at {@code addresses} and greets each; a worker of another protocol version is refused.
     *
     * @param tls the channel's TLS, or null for plaintext
     */
    public ClusterCoordinator(List<String> addresses, String secret, TlsClient tls, PrintWriter err) {
        this.err = err;
        this.workers = Workers.connect(addresses, secret, tls, err);
    }

    public List<String> names() {
        return workers.names();
    }

    public ClusterPlan plan() {
        return plan;
    }

    /**
     * The fingerprint of the graph the store records with its last completed load, as the workers read it through
     * their own connections (the coordinator need not reach the store); empty when none records one. Refused, naming
     * the workers, when their stores record different graphs.
     */
    public Optional<String> heldGraph(String store, Map<String, String> params) {
        List<Messages.HeldGraph> answers = workers.call(
                Operations.HELD_GRAPH,
                new Messages.AskGraph(store, new TreeMap<>(params)),
                Workers.CALL,
                Messages.HeldGraph.class);
        Map<String, List<String>> byGraph = new TreeMap<>();
        for (int k = 0; k < answers.size(); k++) {
            String f = answers.get(k).fingerprint();
            if (f != null) {
                byGraph.computeIfAbsent(f, x -> new ArrayList<>()).add(workers.label(k));
            }
        }
        if (byGraph.size() > 1) {
            throw new ClusterException(
                    "the workers' stores hold different graphs ("
                            + byGraph.entrySet().stream()
                                    .map(e -> String.join(" and ", e.getValue()) + ": "
                                            + GraphKeys.fromFingerprint(e.getKey())
                                                    .map(GraphKeys::text)
                                                    .orElse(e.getKey()))
                                    .collect(Collectors.joining("; "))
                            + "); reload them (bg load --store " + store + " --replace --workers …) with the -p "
                            + "graph keys of the one to use",
                    null);
        }
        return byGraph.keySet().stream().findFirst();
    }

    /** Sends every worker the store, all -p parameters and its share of the graph. Returns whether it is loaded. */
    public boolean open(
            String store,
            Map<String, String> params,
            SocialGraph graph,
            WorkloadSpec workload,
            double[] rates,
            boolean storePerWorker) {
        this.graph = graph;
        this.workload = workload;
        this.separateStores = storePerWorker;
        this.storeName = store;
        this.params = params;
        plan = ClusterPlan.assign(graph, rates, workload.seed());
        Map<String, String> sorted = new TreeMap<>(params);
        List<Messages.Opened> answers = workers
                .each((k, w) -> w.call(
                        Operations.OPEN,
                        Messages.tree(new Messages.Open(store, sorted, plan.layout(), k)),
                        Workers.CALL))
                .stream()
                .map(n -> Messages.read(n, Messages.Opened.class))
                .toList();
        opened = answers;
        marks = new StateMarks(workers, separateStores, graph.spec().fingerprint(), answers);
        for (int k = 0; k < workers.size(); k++) {
            err.printf(
                    Locale.ROOT,
                    "bg: worker %d owns %,d members in fragments %s%n",
                    k,
                    answers.get(k).members(),
                    Arrays.toString(plan.fragments(k)));
        }
        err.flush();
        return answers.stream().allMatch(Messages.Opened::loaded);
    }

    /**
     * Opens the workers with their shares as {@link #open} does, then, when {@code calibrate} is given and the store
     * holds the graph, measures each worker's rate alone ({@link #calibrate}) and plans the shares again by those
     * rates (heterogeneous workers). Returns whether the store holds the graph.
     */
    public boolean open(
            String store,
            Map<String, String> params,
            SocialGraph graph,
            WorkloadSpec workload,
            double[] rates,
            boolean storePerWorker,
            Duration calibrate,
            ExperimentSpec template,
            int calibrationThreads) {
        boolean loaded = open(store, params, graph, workload, rates, storePerWorker);
        if (calibrate == null || !loaded) {
            return loaded;
        }
        requireState();
        double[] measured = calibrate(template, calibrate, Math.max(1, calibrationThreads));
        double min = Arrays.stream(measured).min().orElse(1);
        double[] norm = Arrays.stream(measured).map(r -> r / min).toArray();
        err.printf(Locale.ROOT, "bg: calibrated worker rates %s%n", Arrays.toString(norm));
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
        marks.beginWrites("calibration");
        for (int k = 0; k < workers.size(); k++) {
            ExperimentSpec spec = template.withThreads(threads)
                    .withDuration(duration)
                    .withSeed(17L + k)
                    .withValidation(null);
            spec = spec.toBuilder()
                    .operations(0)
                    .warmup(Duration.ZERO)
                    .warmupOperations(0)
                    .validation(null)
                    .storeHosts(List.of())
                    .open(null)
                    .build();
            JsonNode r =
                    workers.get(k).stream(Operations.RUN, Messages.tree(spec), IDLE, duration.plusMinutes(10), m -> {});
            rates[k] = Messages.read(r, Messages.RunDone.class).result().throughput();
            err.printf(
                    Locale.ROOT,
                    "bg: calibration: worker %d %s alone with T=%d: %,.0f actions/s%n",
                    k,
                    workers.name(k),
                    threads,
                    rates[k]);
            err.flush();
            Messages.ResetDone rep = reset(workers.get(k), Messages.ResetHow.REPAIR);
            if (!rep.verified()) {
                throw new ClusterException(
                        workers.label(k) + " could not undo its calibration writes (" + rep.mismatch()
                                + "); reload the store",
                        null);
            }
        }
        marks.markLoaded();
        for (double r : rates) {
            if (!(r > 0)) {
                throw new ClusterException(
                        "a worker completed no action during calibration: rates " + Arrays.toString(rates), null);
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
        sorted.sort(Comparator.reverseOrder());
        for (int k : sorted) {
            err.printf(Locale.ROOT, "bg: dropping worker %d %s%n", k, workers.name(k));
            workers.drop(k);
        }
        if (workers.size() == 0) {
            throw new ClusterException("no worker left", null);
        }
        double[] rates = new double[workers.size()];
        Arrays.fill(rates, 1);
        open(storeName, params, graph, workload, rates, separateStores);
    }

    /** What a load on the workers did: rows, times and the sanity check's totals. */
    public record LoadSummary(long rows, double loadS, double finishS, double totalS, Messages.Finished counts) {}

    /** Creates the schema (once, or on every worker for stores inside each worker), loads every share in parallel. */
    public LoadSummary load(int loaders) {
        long t0 = System.nanoTime();
        JsonNode none = Messages.tree(Messages.Ack.OK);
        if (separateStores) {
            workers.all(w -> w.call(Operations.CREATE_SCHEMA, none, Workers.CALL));
        } else {
            workers.get(0).call(Operations.CREATE_SCHEMA, none, Workers.CALL);
        }
        List<JsonNode> done = workers.all(w -> w.stream(
                Operations.LOAD, Messages.tree(new Messages.Load(loaders)), IDLE, Duration.ofHours(24), m -> {}));
        long total = done.stream()
                .mapToLong(d -> Messages.read(d, Messages.Loaded.class).rows())
                .sum();
        double loadS = (System.nanoTime() - t0) / 1e9;
        Messages.Finished fin;
        if (separateStores) {
            List<Messages.Finished> each = workers.call(
                    Operations.FINISH_LOAD,
                    new Messages.FinishLoad(total, loadS, true),
                    Duration.ofHours(1),
                    Messages.Finished.class);
            fin = new Messages.Finished(
                    each.stream().mapToDouble(Messages.Finished::finishS).max().orElse(0),
                    each.stream().mapToLong(Messages.Finished::members).sum(),
                    each.stream().mapToLong(Messages.Finished::friendships).sum(),
                    each.stream().mapToLong(Messages.Finished::pending).sum(),
                    each.stream().mapToLong(Messages.Finished::resources).sum(),
                    each.stream().mapToLong(Messages.Finished::comments).sum());
        } else {
            fin = Messages.read(
                    workers.get(0)
                            .call(
                                    Operations.FINISH_LOAD,
                                    Messages.tree(new Messages.FinishLoad(total, loadS, false)),
                                    Duration.ofHours(1)),
                    Messages.Finished.class);
        }
        // finishLoad wrote the loaded graph's mark into the store.
        marks.storesLoaded();
        return new LoadSummary(total, loadS, fin.finishS(), (System.nanoTime() - t0) / 1e9, fin);
    }

    /**
     * Result of one experiment on all workers; {@code unwritten} says which of its files could not be written (a
     * full disk) or is null.
     */
    public record Outcome(
            RunResult result,
            List<RunResult> parts,
            boolean completed,
            String reason,
            List<Integer> failed,
            int touched,
            String unwritten) {}

    /**
     * One experiment with T threads spread over the workers ({@link ClusterRun}); prints a merged line per second to
     * {@code progress} (may be null) and writes the merged result to {@code out} (and each worker's to {@code out}'s
     * folder {@code workers/}). A worker failure ends the experiment with the reason; nothing measured is lost.
     */
    public Outcome run(ExperimentSpec spec, Path out, PrintWriter progress) throws IOException {
        ClusterRun.Setup setup = new ClusterRun.Setup(workers, marks, plan, workload, storeName, err);
        return new ClusterRun(setup, spec, out).run(progress);
    }

    private static Messages.ResetDone reset(WorkerClient w, Messages.ResetHow how) {
        return Messages.read(
                w.call(Operations.RESET, Messages.tree(new Messages.Reset(how, 4)), Duration.ofHours(1)),
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
            marks.restored(0);
            return r;
        }
        boolean writes = how == Messages.ResetHow.REPAIR || how == Messages.ResetHow.FULL;
        if (writes) {
            marks.beginWrites(how == Messages.ResetHow.FULL ? "bg verify --repair" : "RepairDB");
        }
        List<Messages.ResetDone> r = workers.all(w -> Messages.tree(reset(w, how))).stream()
                .map(n -> Messages.read(n, Messages.ResetDone.class))
                .toList();
        if (writes && r.stream().allMatch(Messages.ResetDone::verified)) {
            marks.markLoaded();
        }
        if (how == Messages.ResetHow.IMAGE) {
            marks.storesLoaded();
        }
        return r;
    }

    /** The store's mark as the workers that write it read it at {@code open} (one per worker for stores of their own). */
    public List<String> storeMarks() {
        return marks.atOpen();
    }

    /** What each worker answered to the last {@code open}. */
    public List<Messages.Opened> opened() {
        return opened;
    }

    /**
     * Refuses to go on (a {@link ClusterException} naming the worker and what to do) unless every worker holds the
     * state the store's mark names ({@link StateMarks#requireState}). Call after {@link #open} when the store holds
     * the graph.
     */
    public void requireState() {
        marks.requireState(storeName, k -> reset(workers.get(k), Messages.ResetHow.STATE));
    }

    /** A database image is taken and restored with no other client connected: the other workers let go first. */
    private void releaseOthers() {
        for (int k = 1; k < workers.size(); k++) {
            workers.get(k).call(Operations.RELEASE, Messages.tree(Messages.Ack.OK), Workers.CALL);
        }
    }

    /** What {@link #saveImage} found. */
    public enum ImageState {
        SAVED,
        UNSUPPORTED,
        NOT_LOADED
    }

    /**
     * Saves a database image (on the first worker, or every worker with stores of their own) unless one exists;
     * {@link ImageState#NOT_LOADED} when none exists and the store is not marked as freshly loaded (reload first).
     */
    public ImageState saveImage() {
        if (!separateStores) {
            releaseOthers();
        }
        JsonNode none = Messages.tree(Messages.Ack.OK);
        List<JsonNode> r = separateStores
                ? workers.all(w -> w.call(Operations.SAVE_IMAGE, none, Duration.ofHours(1)))
                : List.of(workers.get(0).call(Operations.SAVE_IMAGE, none, Duration.ofHours(1)));
        List<Messages.ImageSaved> answers =
                r.stream().map(n -> Messages.read(n, Messages.ImageSaved.class)).toList();
        if (!answers.stream().allMatch(Messages.ImageSaved::supported)) {
            return ImageState.UNSUPPORTED;
        }
        return answers.stream().anyMatch(Messages.ImageSaved::notLoaded) ? ImageState.NOT_LOADED : ImageState.SAVED;
    }

    /** Each worker's differences between its part of the store and its expected state (empty lists: all match). */
    public List<Messages.Verified> verify(int limit) {
        return workers.call(
                Operations.VERIFY, new Messages.Verify(limit), Duration.ofHours(1), Messages.Verified.class);
    }

    /** Ends every worker process. */
    public void shutdownWorkers() {
        workers.all(w -> w.call(Operations.SHUTDOWN, Messages.tree(Messages.Ack.OK), Workers.CALL));
    }

    @Override
    public void close() {
        workers.close();
    }
}
