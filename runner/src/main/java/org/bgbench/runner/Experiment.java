package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.bgbench.emulator.Emulator;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.emulator.InFlight;
import org.bgbench.emulator.RunOutcome;
import org.bgbench.emulator.open.ArrivalClock;
import org.bgbench.emulator.open.ArrivalSchedule;
import org.bgbench.measurement.Measurements;
import org.bgbench.measurement.RunContext;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.Stalls;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.open.OpenModelRecorder;
import org.bgbench.measurement.report.IntervalLog;
import org.bgbench.measurement.report.ResultWriter;
import org.bgbench.measurement.report.SummaryPrinter;
import org.bgbench.model.Action;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.observe.ExperimentInfo;
import org.bgbench.runner.observe.Observers;
import org.bgbench.store.DataStore;
import org.bgbench.store.SchedulingPolicy;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.distribution.MemberSampler;

/**
 * One experiment: T emulated members against a loaded store for a duration, measured, with the result written to
 * JSON as it goes (every few seconds, so a crash keeps what was measured) and at the end, then validated. The one way
 * every command and every worker runs an experiment.
 */
public final class Experiment {
    private Experiment() {}

    /**
     * What an experiment runs against and where its output goes.
     *
     * @param subject  the store under test
     * @param state    BG's knowledge of the loaded graph
     * @param workload the workload's settings
     * @param spec     the experiment's settings
     * @param output   where the result and progress go
     * @param hooks    how a worker narrows, watches and ends the run; {@link Hooks#NONE} for a process on its own
     */
    public record Setup(
            Subject subject, GraphState state, WorkloadSpec workload, ExperimentSpec spec, Output output, Hooks hooks) {
        public Setup {
            if (hooks == null) {
                hooks = Hooks.NONE;
            }
        }

        /** A process's own experiment: all members, no sample listener, no aborter. */
        public Setup(Subject subject, GraphState state, WorkloadSpec workload, ExperimentSpec spec, Output output) {
            this(subject, state, workload, spec, output, Hooks.NONE);
        }

        public DataStore store() {
            return subject.store();
        }

        public String storeName() {
            return subject.name();
        }

        public Map<String, String> storeSettings() {
            return subject.settings();
        }

        public Path out() {
            return output.out();
        }

        public PrintWriter progress() {
            return output.progress();
        }

        public Members members() {
            return hooks.members();
        }

        public Consumer<SecondSample> samples() {
            return hooks.samples();
        }

        public Consumer<Consumer<String>> aborter() {
            return hooks.aborter();
        }

        EmulatorConfig emulator() {
            return spec.toEmulatorConfig();
        }

        ValidationOptions validation() {
            return spec.validation();
        }

        Duration beta() {
            return spec.beta();
        }
    }

    /**
     * The store under test.
     *
     * @param store    the open store
     * @param name     its provider's name, for the result
     * @param settings its settings as given, for the result
     */
    public record Subject(DataStore store, String name, Map<String, String> settings) {}

    /**
     * Where an experiment's output goes.
     *
     * @param out      the result JSON, or null for none
     * @param progress where progress lines go, or null for none
     */
    public record Output(Path out, PrintWriter progress) {}

    /**
     * How a worker narrows, watches and ends an experiment.
     *
     * @param members the members this process emulates (a worker's share of the graph), or null for all; its samplers
     *                draw socialites and targets from them only
     * @param samples also receives every sampled second (a worker streams them to its coordinator), or null
     * @param aborter receives a way to end the run early (with a reason), or null
     */
    public record Hooks(Members members, Consumer<SecondSample> samples, Consumer<Consumer<String>> aborter) {
        /** No narrowing, no listener, no aborter. */
        public static final Hooks NONE = new Hooks(null, null, null);
    }

    /** A worker's members and the samplers that draw from them. */
    public record Members(MemberSampler socialites, MemberSampler targets) {}

    /**
     * The measured (and validated) result, and how the run ended.
     *
     * @param unwritten why the result could not be written to its file (the disk, the folder), or null when it was
     */
    /**
     * @param unwritten why the result could not be written, or null
     * @param unsealed  why the store's mark could not be sealed with the run's state after it (the store failed at the
     *                  end, another command wrote to it), or null: the store stays marked as written by a run that did
     *                  not end
     */
    public record Outcome(RunResult result, RunOutcome run, String unwritten, String unsealed) {
        public Outcome(RunResult result, RunOutcome run) {
            this(result, run, null, null);
        }

        public Outcome withUnsealed(String why) {
            return new Outcome(result, run, unwritten, why);
        }
    }

    public static Outcome run(Setup s) {
        return run(s, () -> {});
    }

    /**
     * Refuses (as bad input) an experiment that cannot run on this store and graph, or whose members cannot fit in
     * what BG has left ({@link MemberBudget}), before anything is sized by it: a caller checks it before it marks the
     * store as being written.
     */
    public static void check(Setup s) {
        Emulator.check(s.emulator(), s.state().graph().members(), s.store());
        boolean logs = s.validation() != null && s.out() != null;
        MemberBudget.check(
                s.spec().threads(),
                logs,
                logs ? RunArtifacts.logBufferBytes(s.spec().threads()) : 0);
    }

    /**
     * {@link #run(Setup)}, with {@code beforeFirstAction} run once every member has its session, right before the
     * first acts: nothing of the experiment reached the store before it, and when it throws no member acts and this
     * throws what it threw.
     */
    public static Outcome run(Setup s, Runnable beforeFirstAction) {
        check(s);
        int members = s.state().graph().members();
        WorkloadAdapter workload = s.members() != null
                ? new WorkloadAdapter(
                        s.workload().mix(),
                        s.members().socialites(),
                        s.members().targets())
                : new WorkloadAdapter(
                        s.workload().mix(),
                        s.workload().socialites().sampler(members, s.workload().seed()),
                        s.workload().targets().sampler(members, s.workload().seed() + 1));
        // The run's id binds its result to the logs and the expected state it leaves beside it.
        RunEvidence evidence = new RunEvidence(RunEvidence.newRunId(), null, null, -1, null);
        RunContext context = context(s, evidence.runId());
        if (s.out() != null) {
            // The same command run again: its earlier result and logs move aside instead of mixing with this run's.
            Path earlier = RunArtifacts.keepEarlier(s.out());
            if (earlier != null && s.progress() != null) {
                s.progress().println("bg: " + s.out() + " held an earlier run; kept it as " + earlier);
            }
        }
        ResultWriter writer = s.out() == null ? null : new ResultWriter(s.out());
        try (Measurements m = Measurements.builder()
                        .threads(s.emulator().threads())
                        .beta(s.beta())
                        .storePids(s.store().localServerPids())
                        // A server restarted during the run has new processes: asked for again, as at the start.
                        .storePidFinder(s.store()::localServerPids)
                        .storeHosts(s.spec().storeHosts())
                        // A store in BG's process does its work on BG's CPU: a saturated BG says nothing about BG.
                        .bgCpuIncludesStore(s.store().inProcess())
                        .build();
                // The measured seconds' histograms, per kind, in HdrHistogram's interval log format beside the result.
                IntervalLog hlog = s.out() == null ? null : new IntervalLog(RunArtifacts.hlogFor(s.out()))) {
            int[] seconds = {0, 0}; // measured seconds, warm-up seconds
            ExperimentInfo info = info(s);
            Observers.each(o -> o.started(info));
            if (hlog != null) {
                m.addListener(hlog::second);
            }
            m.addListener(sample -> onSample(s, m, writer, context, sample, seconds));
            m.addListener(sample -> Observers.each(o -> o.second(info, sample)));
            if (s.samples() != null) {
                m.addListener(s.samples()::accept);
            }
            if (writer != null) {
                // Space for the result, sized from the result itself, before anything else can fill the disk.
                writer.rehearse(m.result(context));
            }
            m.startSampler();
            Emulator emulator = new Emulator(s.store(), s.state(), workload, s.emulator(), m::recorder)
                    .beforeFirstAction(beforeFirstAction);
            OpenModelRecorder open = openRecorder(s, m);
            long[] backlog = new long[2];
            if (open != null) {
                m.addListener(open);
                emulator.withArrivals(open::stripe);
            }
            // A second in which nothing returned while a member waited on the store throughout is a stalled second.
            m.watchWaiting(emulator.inFlight()::waitingSince);
            // One in which nothing completed and every call failed is a refused second: the store is as stopped.
            m.watchFailures(emulator::failingSince, emulator::lastFailure);
            if (s.aborter() != null) {
                s.aborter().accept(emulator::abort);
            }
            RunArtifacts artifacts = null;
            LogDirectory logs = null;
            if (s.validation() != null && s.out() != null) {
                artifacts = RunArtifacts.forResult(s.out());
                LogDirectory dir = artifacts.createLogs(s.emulator().threads());
                dir.runId(evidence.runId());
                logs = dir;
                emulator.withLogs(t -> dir.newWriter());
            }
            RunOutcome outcome = null;
            // Ctrl-C or SIGTERM: the members finish the action they are in, and what follows still runs.
            // The measured period ends on time: what returns after it does not count, what still waits is stuck.
            try (Interrupts.Registration r = Interrupts.onInterrupt(emulator::abort)) {
                outcome = emulator.run(m::startMeasuring, () -> {
                    long end = System.nanoTime();
                    if (!m.isMeasuring()) {
                        m.startMeasuring();
                    }
                    m.stopMeasuring();
                    if (open != null) {
                        takeBacklog(emulator, backlog, end);
                    }
                });
            } finally {
                if (logs != null) {
                    // The manifest records whether a thread could still log: then writes may be missing.
                    logs.close(
                            outcome == null
                                    ? "the run failed before its threads had stopped"
                                    : outcome.stuckThreads() > 0
                                            ? outcome.stuckThreads() + " threads were still inside a "
                                                    + "store call when the logs were closed; what they did after that is not logged"
                                            : null);
                }
            }
            for (InFlight.Call call : outcome.inFlight()) {
                if (call.action()) {
                    m.stillWaiting(call.kind(), call.elapsedNanos());
                }
            }
            RunResult result = finish(m.result(context), outcome, s, emulator, m);
            if (open != null) {
                result = result.withOpen(open.result(result.durationS(), backlog[0], backlog[1]));
            }
            if (hlog != null) {
                // Its last interval: what the result has beyond the seconds (the stuck executions).
                result = hlog.finish(result);
                if (!Files.exists(hlog.file())) {
                    result = result.withWarning(hlog.file() + " was deleted during the run: its per-second histograms "
                            + "are lost (the result holds the run's own)");
                }
            }
            if (artifacts != null) {
                evidence = artifacts.withManifest(evidence);
                result = evidence.into(result);
            }
            String unwritten = write(writer, result, s);
            if (artifacts != null) {
                // The measured result is on disk before validation starts, so nothing measured is lost if it fails.
                try {
                    evidence = artifacts.saveExpectedState(s.state(), evidence);
                    result = evidence.into(result);
                } catch (UncheckedIOException e) {
                    // validation below uses the state in memory; only a later 'bg validate' needs the file
                    result = result.withWarning("BG's expected state could not be saved, so 'bg validate' cannot "
                            + "check this run again: " + e.getMessage());
                }
                if (Interrupts.interrupted()) {
                    // The user wants BG to stop: validation (which can take minutes) is left to bg validate.
                    result = result.withWarning("validation was skipped because the run was " + Interrupts.reason()
                            + "; 'bg validate " + s.out() + "' checks the reads from the logs kept beside it");
                } else {
                    result = validate(result, artifacts, s, logs);
                }
                unwritten = write(writer, result, s);
            }
            if (writer != null) {
                writer.release();
            }
            RunResult done = result;
            Observers.each(o -> o.finished(info, done));
            return new Outcome(result, outcome, unwritten, null);
        }
    }

    /** The open model's recorder, with the schedule's phases in seconds of the measured period; null when closed. */
    private static OpenModelRecorder openRecorder(Setup s, Measurements m) {
        OpenModel o = s.spec().open();
        if (o == null) {
            return null;
        }
        ArrivalSchedule schedule = o.schedule();
        List<OpenModelRecorder.PhasePlan> phases = new ArrayList<>();
        for (int i = 0; i < schedule.phases().size(); i++) {
            ArrivalSchedule.Phase p = schedule.phases().get(i);
            double start = schedule.phaseStart(i) / 1e9;
            double end = p.duration() == null
                    ? Double.POSITIVE_INFINITY
                    : start + p.duration().toNanos() / 1e9;
            phases.add(new OpenModelRecorder.PhasePlan(p.label(), start, end, p.fromRate(), p.toRate()));
        }
        return new OpenModelRecorder(
                schedule.text(), o.process(), s.spec().threads(), o.maxLag(), o.maxLatePct(), m.kindCodes(), phases);
    }

    /**
     * The arrivals due in the measured period that no thread had taken when it ended: how many and how long the oldest
     * had waited, at {@code now}, when the period ended (they all count as late: a store that froze at the end must
     * not look punctual because BG never got to its backlog).
     */
    private static void takeBacklog(Emulator emulator, long[] backlog, long now) {
        ArrivalClock clock = emulator.arrivalClock();
        if (clock == null) {
            return;
        }
        backlog[0] = Math.round(clock.untakenBefore(now));
        backlog[1] = Math.max(0, now - clock.oldestUntaken());
    }

    private static ExperimentInfo info(Setup s) {
        ExperimentSpec e = s.spec();
        return new ExperimentInfo(
                s.storeName(),
                s.workload().mixName(),
                e.threads(),
                e.beta().toNanos() / 1e6,
                e.operations() > 0 ? 0 : e.duration().toNanos() / 1e9,
                e.warmup().toNanos() / 1e9,
                s.out());
    }

    /**
     * Validates the run's reads; when its logs cannot be read at all (the folder was deleted during the run), the
     * verdict says why instead of failing the run, whose measurements and store state do not depend on them.
     */
    private static RunResult validate(RunResult result, RunArtifacts artifacts, Setup s, LogDirectory logs) {
        try {
            return RunValidation.validateInto(result, artifacts, s.state(), s.validation(), s.progress(), logs);
        } catch (RuntimeException e) {
            String reason = !Files.isDirectory(artifacts.logs())
                    ? "the validation logs " + artifacts.logs() + " were deleted during the run, so no read can be "
                            + "checked"
                    : "the validation logs could not be read: " + e.getMessage();
            return RunValidation.into(
                    result,
                    Unpredictable.notChecked(reason, s.validation().tauPct(), List.of()),
                    s.validation(),
                    artifacts);
        }
    }

    /**
     * Writes the final result (a full disk frees the writer's reserve first); why it could not be, or null. The run
     * goes on either way: its summary, verdict and the store's state do not depend on the file.
     */
    private static String write(ResultWriter writer, RunResult result, Setup s) {
        if (writer == null) {
            return null;
        }
        try {
            writer.writeFinal(result);
            return null;
        } catch (IOException | RuntimeException e) {
            String why = "cannot write the result to " + s.out() + ": " + e.getMessage();
            if (s.progress() != null) {
                s.progress().println("bg: warning: " + why);
                s.progress().flush();
            }
            return why;
        }
    }

    private static void onSample(
            Setup s, Measurements m, ResultWriter writer, RunContext context, SecondSample sample, int[] seconds) {
        if (s.progress() != null && SummaryPrinter.worthALine(sample.point())) {
            s.progress().println(SummaryPrinter.progress(sample));
            s.progress().flush();
        }
        // The run's first result built and serialized costs a one-off ~0.3 s of CPU (Jackson introspects the result's
        // classes for its serializers, classes load, the JIT compiles them); in the measured period that was BG's CPU
        // taken from a store on the same cores (docs/benchmarks.md). One is built and dropped in the
        // warm-up's second second instead.
        if (writer != null && sample.warmup() && ++seconds[1] == 2) {
            writer.rehearse(m.result(context));
        }
        // Rewriting the partial result takes the measurements' lock for ~0.1 s, so not every second.
        if (writer != null && !sample.warmup() && ++seconds[0] % 10 == 0) {
            try {
                writer.write(m.result(context));
            } catch (IOException e) {
                if (s.progress() != null) {
                    s.progress()
                            .println("bg: warning: cannot write partial result to " + s.out() + ": " + e.getMessage());
                }
            }
        }
    }

    /**
     * Adds how the run ended (the measurements flag no-ops that distort the mix themselves): it is incomplete when it
     * stopped early, or when the store stopped answering (actions stuck at the end, stalled seconds, seconds in which
     * it failed every call, threads that did not leave the store in time; {@link Stalls}).
     */
    private static RunResult finish(RunResult r, RunOutcome outcome, Setup s, Emulator emulator, Measurements m) {
        List<Integer> stalled = m.stalledSeconds();
        List<Stalls.Refusal> refused = m.refusals();
        String incomplete = Stalls.reason(
                r.total().stuck(),
                m.longestStuckNanos(),
                stalled,
                refused,
                outcome.stuckThreads(),
                emulator.grace().toNanos() / 1e9);
        Map<String, Object> config = new LinkedHashMap<>(r.config());
        config.put("thread_kind", emulator.threadKindName());
        // Whether BG ran as a batch process (the bg launcher's default) or at the normal policy: it changes BG's CPU.
        config.put("sched_policy", SchedulingPolicy.current());
        config.put("completed", outcome.completed() && incomplete == null);
        config.put("abort_reason", outcome.abortReason());
        config.put("stuck_threads", outcome.stuckThreads());
        config.put("error_samples", outcome.errorSamples());
        config.put(Stalls.STALLED_SECONDS, stalled);
        config.put(Stalls.REFUSED_SECONDS, Stalls.seconds(refused));
        config.put(Stalls.INCOMPLETE_REASON, incomplete);
        // A store inside BG's process does its work on BG's CPU, so a saturated BG says nothing about BG itself:
        // the result records that instead of a warning the user cannot act on.
        config.put("bg_cpu_includes_store", s.store().inProcess());
        RunResult out = r.withContext(new RunContext(r.workload(), r.store(), r.graph(), config));
        if (outcome.abortReason() != null) {
            out = out.withWarning("the run stopped early: " + outcome.abortReason());
        }
        if (outcome.stuckThreads() > 0) {
            out = out.withWarning(String.format(Locale.ROOT, "%,d", outcome.stuckThreads())
                    + " threads were still inside a store call "
                    + Durations.format(emulator.grace()) + " after the run ended and were abandoned; writes among "
                    + "their calls may or may not be in the store, so BG's expected state may be off by them");
        }
        return out;
    }

    private static RunContext context(Setup s, String runId) {
        WorkloadSpec w = s.workload();
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("mix_name", w.mixName());
        workload.put("mix", w.mix().toProperties());
        workload.put("write_fraction", w.mix().writeFraction());
        workload.put("symmetric", w.mix().isSymmetric());
        workload.put("socialites", w.socialites().describe());
        workload.put("targets", w.targets().describe());
        workload.put("topk", w.topK());
        workload.put("think_time_ms", s.emulator().pacing().thinkTimeMs());
        workload.put("inter_arrival_ms", s.emulator().pacing().interArrivalMs());
        Map<String, Object> store = new LinkedHashMap<>();
        store.put("name", s.storeName());
        Map<String, String> settings = new LinkedHashMap<>(s.storeSettings());
        settings.replaceAll((k, v) -> k.contains("password") || k.contains("passwd") ? "***" : v);
        store.put("settings", settings);
        GraphSpec g = s.state().graph().spec();
        Map<String, Object> graph = new LinkedHashMap<>();
        graph.put("members", g.members());
        graph.put("friends_per_member", g.friendsPerMember());
        graph.put("resources_per_member", g.resourcesPerMember());
        graph.put("comments_per_resource", g.commentsPerResource());
        graph.put("confirmed_fraction", g.confirmedFraction());
        graph.put("images", g.images());
        graph.put("fingerprint", g.fingerprint());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("threads", s.emulator().threads());
        config.put("operations", s.emulator().length().operations());
        config.put("locks", s.emulator().members().locks());
        config.put("unique_socialites", s.emulator().members().uniqueSocialites());
        config.put("seed", s.emulator().members().seed());
        config.put(
                "actions", List.of(Action.values()).stream().map(Action::name).toList());
        config.put(RunEvidence.RUN_ID, runId);
        return new RunContext(workload, store, graph, config);
    }
}
