package org.bgbench.runner;

import java.time.Duration;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.emulator.EmulatorConfig.ThreadKind;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Durations;
import org.bgbench.workload.Warmup;
import org.bgbench.workload.WorkloadSpec;

/**
 * Everything one experiment needs beyond the store and the workload's mix: how many members act at once and for how
 * long, the warm-up, the pauses, the locks, β, and how its reads are validated. Every command builds one from the
 * workload ({@link #of}) and changes it with the {@code with…} methods; a coordinator sends it to its workers as the
 * run message (it is plain data, so it travels as JSON).
 *
 * @param threads          T, emulated members at once (closed model)
 * @param duration         measured time after warm-up; ignored when {@code operations} > 0
 * @param operations       requests to issue after warm-up; 0 runs for {@code duration}
 * @param warmup           time at the start that is not measured
 * @param warmupOperations requests at the start that are not measured (when {@code warmup} is 0)
 * @param thinkTimeMs      ε, pause between the actions of a session
 * @param interArrivalMs   ψ, pause of a member between two requests
 * @param topK             k of View Top-K Resources
 * @param commentLength    characters of a posted comment
 * @param locks            lock members as the dissertation's table 5.1 says
 * @param uniqueSocialites a member is emulated by at most one thread at a time
 * @param seed             seed of the members' random generators
 * @param threadKind       which threads emulate the members
 * @param beta             β of the SLA, for the share of actions within it
 * @param validation       how reads are validated, or null for no validation logs
 * @param feeds            how SR and VNF are issued
 * @param storeHosts       store hosts whose Prometheus node exporters are read each second ({@code HOST:PORT},
 *                         {@code --store-host}; docs/resources.md), empty for none
 * @param open             the open model's arrivals (docs/open-model.md), or null for the closed model; then
 *                         {@code threads} is the in-flight limit
 */
public record ExperimentSpec(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                             int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                             boolean uniqueSocialites, long seed, ThreadKind threadKind, Duration beta,
                             ValidationOptions validation, org.bgbench.model.FeedWorkload feeds,
                             java.util.List<String> storeHosts, OpenModel open) {
    /** β when none is given: the dissertation's 100 ms. */
    public static final Duration DEFAULT_BETA = Duration.ofMillis(100);

    /** A closed-model experiment. */
    public ExperimentSpec(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed, ThreadKind threadKind, Duration beta,
                          ValidationOptions validation, org.bgbench.model.FeedWorkload feeds,
                          java.util.List<String> storeHosts) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK, commentLength,
                locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, storeHosts, null);
    }

    /** An experiment without store hosts. */
    public ExperimentSpec(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed, ThreadKind threadKind, Duration beta,
                          ValidationOptions validation, org.bgbench.model.FeedWorkload feeds) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK, commentLength,
                locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, java.util.List.of());
    }

    /** An experiment with the default feed settings. */
    public ExperimentSpec(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed, ThreadKind threadKind, Duration beta,
                          ValidationOptions validation) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK, commentLength,
                locks, uniqueSocialites, seed, threadKind, beta, validation, org.bgbench.model.FeedWorkload.DEFAULTS);
    }

    public ExperimentSpec {
        storeHosts = storeHosts == null ? java.util.List.of() : java.util.List.copyOf(storeHosts);
        if (feeds == null) {
            feeds = org.bgbench.model.FeedWorkload.DEFAULTS;
        }
        if (beta == null) {
            beta = DEFAULT_BETA;
        }
        if (!beta.isPositive()) {
            throw new InvalidParameterException("--beta", "β must be longer than 0, got " + Durations.format(beta));
        }
        // The emulator's own checks, so a bad spec fails where it is built, not on a worker (the fields are not
        // assigned yet in a compact constructor: pass the parameters).
        EmulatorConfig.builder().threads(threads).threadKind(threadKind).locks(locks)
                .uniqueSocialites(uniqueSocialites).seed(seed).duration(duration).operations(operations)
                .warmup(warmup).warmupOperations(warmupOperations).thinkTimeMs(thinkTimeMs)
                .interArrivalMs(interArrivalMs).topK(topK).commentLength(commentLength).feeds(feeds)
                .arrivals(open == null ? null : open.schedule()).build();
    }

    /**
     * The experiment a workload's keys describe (USC: threadcount, maxexecutiontime, operationcount, warmup,
     * thinktime, …), with {@code duration}, {@code operations} and {@code warmup} given on the command line taking
     * precedence (each may be null). A warm-up is a time ({@code 10s}) or a request count ({@code 500}).
     */
    public static ExperimentSpec of(WorkloadSpec ws, String duration, Long operations, String warmup,
                                    ThreadKind threadKind, Duration beta, ValidationOptions validation) {
        Warmup w = ws.warmup();
        if (warmup != null) {
            String text = warmup.trim();
            if (text.startsWith("-")) {
                throw new InvalidParameterException("--warmup", "must be 0 or more: a time (10s) or a request count "
                        + "(500), got '" + text + "'");
            }
            if (text.matches("\\d+")) {
                long n = Long.parseLong(text);
                w = n == 0 ? Warmup.NONE : new Warmup.Requests(n);
            } else {
                Duration d = Durations.parse("--warmup", text);
                if (d.isNegative()) {
                    throw new InvalidParameterException("--warmup", "must not be negative, got " + warmup);
                }
                w = d.isZero() ? Warmup.NONE : new Warmup.Time(d);
            }
        }
        Duration warm = w instanceof Warmup.Time t ? t.duration() : Duration.ZERO;
        long warmOps = w instanceof Warmup.Requests r ? r.requests() : 0;
        long ops = operations != null ? operations : ws.operations();
        Duration measured;
        if (duration != null) {
            measured = Durations.parse("--duration", duration);
            if (operations == null) {
                ops = 0;
            }
        } else if (ws.maxExecutionTime().isZero()) {
            measured = Duration.ofDays(365);
        } else {
            measured = ws.maxExecutionTime().minus(warm);
            if (!measured.isPositive()) {
                throw new InvalidParameterException("maxexecutiontime", "must be longer than the warm-up "
                        + Durations.format(warm));
            }
        }
        return new ExperimentSpec(ws.threads(), measured, ops, warm, warmOps, (int) ws.thinkTime().toMillis(),
                (int) ws.interArrivalTime().toMillis(), ws.topK(), ws.commentLength(), ws.locks(),
                ws.uniqueSocialites(), ws.seed(), threadKind, beta, validation, ws.feeds());
    }

    /** A timed experiment of the workload's settings: T threads for {@code duration} after {@code warmup}. */
    public static ExperimentSpec timed(WorkloadSpec ws, int threads, Duration duration, Duration warmup,
                                       ThreadKind threadKind, Duration beta, ValidationOptions validation) {
        return new ExperimentSpec(threads, duration, 0, warmup, 0, (int) ws.thinkTime().toMillis(),
                (int) ws.interArrivalTime().toMillis(), ws.topK(), ws.commentLength(), ws.locks(),
                ws.uniqueSocialites(), ws.seed(), threadKind, beta, validation, ws.feeds());
    }

    public ExperimentSpec withThreads(int t) {
        return new ExperimentSpec(t, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, storeHosts, open);
    }

    /** A timed run of {@code d} (no request count). */
    public ExperimentSpec withDuration(Duration d) {
        return new ExperimentSpec(threads, d, 0, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, storeHosts, open);
    }

    public ExperimentSpec withSeed(long s) {
        return new ExperimentSpec(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs,
                topK, commentLength, locks, uniqueSocialites, s, threadKind, beta, validation, feeds, storeHosts, open);
    }

    public ExperimentSpec withBeta(Duration b) {
        return new ExperimentSpec(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs,
                topK, commentLength, locks, uniqueSocialites, seed, threadKind, b, validation, feeds, storeHosts, open);
    }

    public ExperimentSpec withValidation(ValidationOptions v) {
        return new ExperimentSpec(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs,
                topK, commentLength, locks, uniqueSocialites, seed, threadKind, beta, v, feeds, storeHosts, open);
    }

    /** The same experiment reading these store hosts' node exporters ({@code HOST:PORT} each). */
    public ExperimentSpec withStoreHosts(java.util.List<String> hosts) {
        return new ExperimentSpec(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs,
                topK, commentLength, locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, hosts, open);
    }

    /**
     * The same experiment in the open model ({@code null}: the closed one). A schedule with a length sets the measured
     * period's length to it.
     */
    public ExperimentSpec withOpen(OpenModel o) {
        Duration d = duration;
        long ops = operations;
        if (o != null) {
            Duration length = o.schedule().length();
            if (length != null) {
                d = length;
            }
            if (ops > 0) {
                throw new InvalidParameterException("--operations", "the open model (--arrivals) runs for a duration "
                        + "or its schedule's length, not a request count");
            }
        }
        return new ExperimentSpec(threads, d, ops, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, threadKind, beta, validation, feeds, storeHosts, o);
    }

    /** The emulator's view of this experiment. */
    public EmulatorConfig toEmulatorConfig() {
        return EmulatorConfig.builder().threads(threads).threadKind(threadKind).locks(locks)
                .uniqueSocialites(uniqueSocialites).seed(seed).duration(duration).operations(operations)
                .warmup(warmup).warmupOperations(warmupOperations).thinkTimeMs(thinkTimeMs)
                .interArrivalMs(interArrivalMs).topK(topK).commentLength(commentLength).feeds(feeds)
                .arrivals(open == null ? null : open.schedule()).build();
    }
}
