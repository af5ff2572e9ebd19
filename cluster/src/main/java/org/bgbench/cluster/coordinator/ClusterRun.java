package org.bgbench.cluster.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.bgbench.cluster.coordinator.ClusterCoordinator.ClusterException;
import org.bgbench.cluster.coordinator.ClusterCoordinator.Outcome;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.cluster.protocol.Messages;
import org.bgbench.cluster.protocol.Operations;
import org.bgbench.cluster.rpc.WorkerClient;
import org.bgbench.cluster.rpc.WorkerException;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.merge.ResultMerger;
import org.bgbench.measurement.open.OpenModelMerger;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Interrupts;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.Observers;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.distribution.ChiSquare;

/**
 * One experiment with T threads spread over the workers, in its phases: every worker with threads checks its share
 * ({@link #checkShares}), the store is marked as being written, the shares start streaming ({@link #start}), their
 * ends are collected as they come ({@link #collect}), and what they measured is merged ({@link #merge}), written
 * ({@link #write}) and, when every worker ended, sealed with one state token. A worker failure ends the experiment
 * with the reason; nothing measured is lost.
 */
final class ClusterRun {
    /** The coordinator's setup for the experiment: its workers, the store's marks, the plan and the mix. */
    record Setup(
            Workers workers,
            StateMarks marks,
            ClusterPlan plan,
            WorkloadSpec workload,
            String storeName,
            PrintWriter err) {}

    /** What the workers' streams ended with, collected in the order they ended. */
    private static final class Ends {
        final List<RunResult> parts = new ArrayList<>();
        final List<Integer> partWorkers = new ArrayList<>();
        final List<Integer> failed = new ArrayList<>();
        /** Workers whose members never acted. */
        final Set<Integer> idle = new HashSet<>();

        String reason;
        boolean completed = true;
        int touched;

        void abort(String why) {
            completed = false;
            reason = reason != null ? reason : why;
        }
    }

    private final Setup s;
    private final ExperimentSpec spec;
    private final Path out;
    private final int[] split;
    private final List<Integer> active = new ArrayList<>();
    private final Duration total;

    ClusterRun(Setup setup, ExperimentSpec spec, Path out) {
        this.s = setup;
        this.spec = spec;
        this.out = out;
        this.split = setup.plan().threads(spec.threads());
        for (int k = 0; k < split.length; k++) {
            if (split[k] > 0) {
                active.add(k);
            }
        }
        this.total = spec.duration().plus(spec.warmup()).plusMinutes(30);
    }

    /** Runs the experiment; prints a merged line per second to {@code progress} (may be null). */
    Outcome run(PrintWriter progress) throws IOException {
        boolean writes = s.workload().mix().writeFraction() > 0;
        checkShares();
        Map<Integer, String> before = s.marks().snapshot();
        if (writes) {
            s.marks()
                    .beginWrites("a run of the " + s.workload().mixName() + " mix with T=" + spec.threads() + " on "
                            + s.workers().size() + " workers");
        }
        // The merged seconds' histograms per kind, beside the merged result (X.hlog for X.json).
        IntervalLog hlog = out == null ? null : new IntervalLog(RunArtifacts.hlogFor(out));
        // Space for the merged result before the run can fill the disk; its files are written through it at the end.
        ReportFiles files = new ReportFiles();
        if (out != null) {
            files.reserve(out);
        }
        long betaNs = spec.beta().toNanos();
        // The merged seconds for this process's observers (the deck's live file of the merged result).
        ExperimentInfo info = new ExperimentInfo(
                s.storeName(),
                s.workload().mixName(),
                spec.threads(),
                betaNs / 1e6,
                spec.operations() > 0 ? 0 : spec.duration().toNanos() / 1e9,
                spec.warmup().toNanos() / 1e9,
                out,
                true);
        Observers.each(o -> o.started(info));
        LiveSeconds seconds = new LiveSeconds(active.size(), betaNs, hlog, info, progress);
        Ends ends = collect(start(seconds), seconds);
        boolean seal = writes
                && ends.failed.isEmpty()
                && ends.parts.size() == active.size()
                && ends.parts.stream().noneMatch(Stalls::writesUncertain);
        if (writes && !seal) {
            s.marks().giveBack(before, active, ends.idle, ends.failed);
        }
        if (ends.parts.isEmpty()) {
            seconds.abandon();
            throw new ClusterException("the experiment failed on every worker: " + ends.reason, null);
        }
        inWorkerOrder(ends);
        RunResult merged = seconds.finish(merge(ends, seconds));
        write(files, merged, ends);
        Observers.each(o -> o.finished(info, merged));
        if (seal) {
            // Every worker's state holds exactly the writes the store acknowledged: seal them with one token (after
            // the results are on disk, so a worker lost now loses nothing measured). A worker that failed, or whose
            // store stopped answering or refused every call for a second, leaves the store marked as written by a
            // run that did not end.
            s.marks().sealWrites(ends.touched == 0, s.err());
        }
        return new Outcome(
                merged, ends.parts, ends.completed, ends.reason, List.copyOf(ends.failed), ends.touched, files.why());
    }

    /** Worker {@code k}'s share of {@code spec}: its threads, and in the open model its share of the rate. */
    private JsonNode share(int k) {
        return Messages.tree(spec.withThreads(split[k])
                .withOpen(spec.open() == null ? null : spec.open().scaled((double) split[k] / spec.threads())));
    }

    /**
     * Every worker with threads checks its share before the store is marked: a share a worker refuses (T its heap
     * cannot hold, a thread kind its store cannot use) is bad input naming the parameter and the worker, and leaves
     * no mark behind.
     */
    private void checkShares() {
        List<JsonNode> answers = s.workers()
                .each((k, w) -> active.contains(k)
                        ? w.call(Operations.CHECK, share(k), Workers.CALL)
                        : Messages.tree(Messages.Checked.OK));
        for (int k = 0; k < answers.size(); k++) {
            Messages.Checked c = Messages.read(answers.get(k), Messages.Checked.class);
            if (c.parameter() != null) {
                throw new InvalidParameterException(
                        c.parameter(),
                        s.workers().label(k) + " refuses its share of the " + "experiment (T=" + split[k] + " of "
                                + spec.threads() + "): " + c.problem());
            }
        }
    }

    /** Starts every active worker's share; each stream's seconds go to {@code seconds} as they arrive. */
    private Streams start(LiveSeconds seconds) {
        Streams streams =
                new Streams(new ExecutorCompletionService<>(s.workers().pool()), new ArrayList<>());
        for (int k : active) {
            JsonNode a = share(k);
            WorkerClient w = s.workers().get(k);
            streams.futures()
                    .add(streams.completions()
                            .submit(() -> w.stream(
                                    Operations.RUN,
                                    a,
                                    ClusterCoordinator.IDLE,
                                    total,
                                    m -> seconds.add(Messages.read(m, Messages.Second.class)))));
        }
        return streams;
    }

    /** The running shares, in {@link #active} order, and where they complete. */
    private record Streams(ExecutorCompletionService<JsonNode> completions, List<Future<JsonNode>> futures) {}

    /**
     * Takes the workers' ends in the order they come: one failure must end the experiment now, not after the others'
     * δ, so the others are stopped and what they measured is kept. Ctrl-C on the coordinator stops them too.
     */
    private Ends collect(Streams streams, LiveSeconds seconds) {
        List<Future<JsonNode>> futures = streams.futures();
        Ends ends = new Ends();
        long deadline = System.nanoTime() + total.toNanos() + ClusterCoordinator.IDLE.toNanos();
        boolean[] done = new boolean[futures.size()];
        // Ctrl-C on the coordinator: the workers stop now and what they measured is merged and written as usual.
        Interrupts.Registration interrupt =
                Interrupts.onInterrupt(why -> stopOthers(done, "the coordinator was " + why));
        for (int left = futures.size(); left > 0; left--) {
            Future<JsonNode> f;
            try {
                f = streams.completions().poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (f == null) {
                    ends.abort("the workers did not finish in time");
                    futures.forEach(x -> x.cancel(true));
                    f = streams.completions().take(); // cancelled tasks complete at once
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.forEach(x -> x.cancel(true));
                seconds.abandon();
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
            int i = futures.indexOf(f);
            done[i] = true;
            try {
                ended(ends, active.get(i), Messages.read(f.get(), Messages.RunDone.class));
            } catch (ExecutionException e) {
                int k = active.get(i);
                Throwable c = e.getCause();
                ends.failed.add(k);
                if (ends.reason == null) {
                    // The others cannot make a whole experiment any more: stop them now rather than wait δ, and
                    // keep what they measured.
                    stopOthers(done, "another worker failed");
                }
                ends.abort(
                        c instanceof WorkerException we
                                ? we.getMessage()
                                : s.workers().label(k) + ": " + c);
            } catch (CancellationException e) {
                ends.completed = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                seconds.abandon();
                throw new ClusterException("interrupted while waiting for the workers", e);
            }
        }
        interrupt.close();
        return ends;
    }

    /** Worker {@code k}'s stream ended with its result. */
    private void ended(Ends ends, int k, Messages.RunDone r) {
        ends.parts.add(r.result());
        ends.partWorkers.add(k);
        ends.touched += r.touched();
        if (!r.acted()) {
            ends.idle.add(k);
        }
        if (!r.completed()) {
            ends.abort(s.workers().label(k) + ": " + r.abortReason());
        }
    }

    /** Asks the workers still running to end the experiment now; each then answers with what it measured. */
    private void stopOthers(boolean[] done, String why) {
        for (int i = 0; i < active.size(); i++) {
            if (!done[i]) {
                WorkerClient w = s.workers().get(active.get(i));
                s.workers().submit(() -> {
                    try {
                        w.call(Operations.STOP, Messages.tree(new Messages.Stop(why)), Duration.ofSeconds(10));
                    } catch (RuntimeException e) {
                        // Its own stream reports what is wrong with it.
                    }
                    return null;
                });
            }
        }
    }

    /** The parts in worker order, whatever order they finished in. */
    private static void inWorkerOrder(Ends ends) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ends.parts.size(); i++) {
            order.add(i);
        }
        List<Integer> finished = List.copyOf(ends.partWorkers);
        List<RunResult> results = List.copyOf(ends.parts);
        order.sort(Comparator.comparingInt(finished::get));
        ends.parts.clear();
        ends.partWorkers.clear();
        order.forEach(i -> {
            ends.parts.add(results.get(i));
            ends.partWorkers.add(finished.get(i));
        });
    }

    /** The workers' results merged into one, with the plan's figures and, when it failed, why. */
    private RunResult merge(Ends ends, LiveSeconds seconds) {
        ClusterPlan plan = s.plan();
        double[] planned = new double[plan.workers()];
        double[] measured = new double[plan.workers()];
        for (int k = 0; k < split.length; k++) {
            planned[k] = split[k];
        }
        long requests = 0;
        for (int i = 0; i < ends.parts.size(); i++) {
            measured[ends.partWorkers.get(i)] = ends.parts.get(i).total().count();
            requests += ends.parts.get(i).total().count();
        }
        long members = 0;
        for (int k = 0; k < plan.workers(); k++) {
            members += plan.members(k).length;
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("workers_count", plan.workers());
        extra.put("threads_per_worker", split);
        extra.put("worker_rates", plan.rates());
        extra.put("chi_square_planned", finite(plan.chiSquare(s.workload().socialites(), planned)));
        extra.put("chi_square_measured", finite(plan.chiSquare(s.workload().socialites(), measured)));
        // What O references drawn from exactly the centralised distribution would show, as bg dzipf prints it.
        extra.put(
                "chi_square_noise_floor", members > 0 && requests > 0 ? ChiSquare.noiseFloor(members, requests) : null);
        extra.put("chi_square_requests", requests);
        extra.put("completed", ends.completed);
        extra.put("abort_reason", ends.reason);
        List<String> partNames =
                ends.partWorkers.stream().map(s.workers()::name).toList();
        RunResult merged = ResultMerger.merge(ends.parts, partNames, seconds.series(), extra);
        if (spec.open() != null) {
            merged = merged.withOpen(OpenModelMerger.merge(
                    ends.parts.stream().map(RunResult::open).toList(),
                    spec.open().schedule().text(),
                    spec.threads()));
        }
        if (!ends.completed) {
            merged = merged.withWarning("the experiment failed: " + ends.reason);
        }
        return merged;
    }

    /**
     * The merged result to {@code out}, through its reserve (freed then for the workers' copies), and each worker's
     * to {@code out}'s folder {@code -workers/}; a file that cannot be written is reported with the outcome, after
     * the summary of what was measured.
     */
    private void write(ReportFiles files, RunResult merged, Ends ends) {
        if (out == null) {
            return;
        }
        files.write(out, merged);
        files.release();
        Path dir = out.resolveSibling(out.getFileName().toString().replaceFirst("\\.json$", "") + "-workers");
        try {
            Files.createDirectories(dir);
            for (int i = 0; i < ends.parts.size(); i++) {
                files.write(dir.resolve("w" + ends.partWorkers.get(i) + ".json"), ends.parts.get(i));
            }
        } catch (IOException e) {
            files.failed("cannot write the workers' results to " + dir + ": " + e.getMessage());
        }
        files.release();
    }

    private static Double finite(double x) {
        return Double.isFinite(x) ? x : null;
    }
}
