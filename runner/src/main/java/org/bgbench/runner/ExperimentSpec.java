package org.bgbench.runner;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.emulator.EmulatorConfig.ThreadKind;
import org.bgbench.model.Durations;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.workload.Warmup;
import org.bgbench.workload.WorkloadSpec;

/**
 * Everything one experiment needs beyond the store and the workload's mix: how many members act at once and for how
 * long, the warm-up, the pauses, the locks, β, and how its reads are validated. Every command builds one from the
 * workload ({@link #of}) and changes it with the {@code with…} methods; a coordinator sends it to its workers as the
 * run message (it is plain data, so it travels as JSON).
 *
 * <p>Build one with {@link #builder()} or {@link #toBuilder()}.
 *
 * @param threads    T, emulated members at once (closed model)
 * @param length     how long it runs, and its warm-up
 * @param requests   what each member issues
 * @param seed       seed of the members' random generators
 * @param threadKind which threads emulate the members
 * @param measuring  β, validation and store hosts
 * @param open       the open model's arrivals (docs/open-model.md), or null for the closed model; then
 *                   {@code threads} is the in-flight limit
 */
public record ExperimentSpec(
        int threads,
        Length length,
        Requests requests,
        long seed,
        ThreadKind threadKind,
        Measuring measuring,
        OpenModel open) {
    /** β when none is given: the dissertation's 100 ms. */
    public static final Duration DEFAULT_BETA = Duration.ofMillis(100);

    /**
     * How long the experiment runs and how much of its start is not measured.
     *
     * @param duration         measured time after warm-up; ignored when {@code operations} > 0
     * @param operations       requests to issue after warm-up; 0 runs for {@code duration}
     * @param warmup           time at the start that is not measured
     * @param warmupOperations requests at the start that are not measured (when {@code warmup} is 0)
     */
    public record Length(Duration duration, long operations, Duration warmup, long warmupOperations) {}

    /**
     * What each member issues, and how members are guarded.
     *
     * @param thinkTimeMs      ε, pause between the actions of a session
     * @param interArrivalMs   ψ, pause of a member between two requests
     * @param topK             k of View Top-K Resources
     * @param commentLength    characters of a posted comment
     * @param locks            lock members as the dissertation's table 5.1 says
     * @param uniqueSocialites a member is emulated by at most one thread at a time
     * @param feeds            how SR and VNF are issued
     */
    public record Requests(
            int thinkTimeMs,
            int interArrivalMs,
            int topK,
            int commentLength,
            boolean locks,
            boolean uniqueSocialites,
            FeedWorkload feeds) {}

    /**
     * What is measured besides the actions: β, validation and the store hosts' resources.
     *
     * @param beta       β of the SLA, for the share of actions within it
     * @param validation how reads are validated, or null for no validation logs
     * @param storeHosts store hosts whose Prometheus node exporters are read each second ({@code HOST:PORT},
     *                   {@code --store-host}; docs/resources.md), empty for none
     */
    public record Measuring(Duration beta, ValidationOptions validation, List<String> storeHosts) {}

    /** A builder with nothing set: no feeds or β given means the defaults, no store hosts means none. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this experiment. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public ExperimentSpec {
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(requests, "requests");
        if (measuring == null) {
            measuring = new Measuring(null, null, null);
        }
        List<String> storeHosts = measuring.storeHosts() == null ? List.of() : List.copyOf(measuring.storeHosts());
        FeedWorkload feeds = requests.feeds() == null ? FeedWorkload.DEFAULTS : requests.feeds();
        Duration beta = measuring.beta() == null ? DEFAULT_BETA : measuring.beta();
        Duration duration = length.duration();
        long operations = length.operations();
        Duration warmup = length.warmup();
        long warmupOperations = length.warmupOperations();
        int thinkTimeMs = requests.thinkTimeMs();
        int interArrivalMs = requests.interArrivalMs();
        int topK = requests.topK();
        int commentLength = requests.commentLength();
        boolean locks = requests.locks();
        boolean uniqueSocialites = requests.uniqueSocialites();
        requests = new Requests(thinkTimeMs, interArrivalMs, topK, commentLength, locks, uniqueSocialites, feeds);
        measuring = new Measuring(beta, measuring.validation(), storeHosts);
        if (!beta.isPositive()) {
            throw new InvalidParameterException("--beta", "β must be longer than 0, got " + Durations.format(beta));
        }
        // The emulator's own checks, so a bad spec fails where it is built, not on a worker (the fields are not
        // assigned yet in a compact constructor: pass the parameters).
        EmulatorConfig.builder()
                .threads(threads)
                .threadKind(threadKind)
                .locks(locks)
                .uniqueSocialites(uniqueSocialites)
                .seed(seed)
                .duration(duration)
                .operations(operations)
                .warmup(warmup)
                .warmupOperations(warmupOperations)
                .thinkTimeMs(thinkTimeMs)
                .interArrivalMs(interArrivalMs)
                .topK(topK)
                .commentLength(commentLength)
                .feeds(feeds)
                .arrivals(open == null ? null : open.schedule())
                .build();
    }

    /**
     * The experiment a workload's keys describe (USC: threadcount, maxexecutiontime, operationcount, warmup,
     * thinktime, …), with {@code duration}, {@code operations} and {@code warmup} given on the command line taking
     * precedence (each may be null). A warm-up is a time ({@code 10s}) or a request count ({@code 500}).
     */
    public static ExperimentSpec of(
            WorkloadSpec ws,
            String duration,
            Long operations,
            String warmup,
            ThreadKind threadKind,
            Duration beta,
            ValidationOptions validation) {
        Warmup w = ws.warmup();
        if (warmup != null) {
            String text = warmup.trim();
            if (text.startsWith("-")) {
                throw new InvalidParameterException(
                        "--warmup",
                        "must be 0 or more: a time (10s) or a request count " + "(500), got '" + text + "'");
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
                throw new InvalidParameterException(
                        "maxexecutiontime", "must be longer than the warm-up " + Durations.format(warm));
            }
        }
        return fromWorkload(ws)
                .threads(ws.threads())
                .duration(measured)
                .operations(ops)
                .warmup(warm)
                .warmupOperations(warmOps)
                .threadKind(threadKind)
                .beta(beta)
                .validation(validation)
                .build();
    }

    /** A timed experiment of the workload's settings: T threads for {@code duration} after {@code warmup}. */
    public static ExperimentSpec timed(
            WorkloadSpec ws,
            int threads,
            Duration duration,
            Duration warmup,
            ThreadKind threadKind,
            Duration beta,
            ValidationOptions validation) {
        return fromWorkload(ws)
                .threads(threads)
                .duration(duration)
                .operations(0)
                .warmup(warmup)
                .warmupOperations(0)
                .threadKind(threadKind)
                .beta(beta)
                .validation(validation)
                .build();
    }

    /** A builder with the workload's pauses, k, comment length, locks, seed and feed settings. */
    private static Builder fromWorkload(WorkloadSpec ws) {
        return builder()
                .thinkTimeMs((int) ws.thinkTime().toMillis())
                .interArrivalMs((int) ws.interArrivalTime().toMillis())
                .topK(ws.topK())
                .commentLength(ws.commentLength())
                .locks(ws.locks())
                .uniqueSocialites(ws.uniqueSocialites())
                .seed(ws.seed())
                .feeds(ws.feeds());
    }

    public ExperimentSpec withThreads(int t) {
        return toBuilder().threads(t).build();
    }

    /** A timed run of {@code d} (no request count). */
    public ExperimentSpec withDuration(Duration d) {
        return toBuilder().duration(d).operations(0).build();
    }

    public ExperimentSpec withSeed(long s) {
        return toBuilder().seed(s).build();
    }

    public ExperimentSpec withBeta(Duration b) {
        return toBuilder().beta(b).build();
    }

    public ExperimentSpec withValidation(ValidationOptions v) {
        return toBuilder().validation(v).build();
    }

    /** The same experiment reading these store hosts' node exporters ({@code HOST:PORT} each). */
    public ExperimentSpec withStoreHosts(List<String> hosts) {
        return toBuilder().storeHosts(hosts).build();
    }

    /**
     * The same experiment in the open model ({@code null}: the closed one). A schedule with a length sets the measured
     * period's length to it.
     */
    public ExperimentSpec withOpen(OpenModel o) {
        Duration d = duration();
        long ops = operations();
        if (o != null) {
            Duration length = o.schedule().length();
            if (length != null) {
                d = length;
            }
            if (ops > 0) {
                throw new InvalidParameterException(
                        "--operations",
                        "the open model (--arrivals) runs for a duration "
                                + "or its schedule's length, not a request count");
            }
        }
        return toBuilder().duration(d).operations(ops).open(o).build();
    }

    /** The emulator's view of this experiment. */
    public EmulatorConfig toEmulatorConfig() {
        return EmulatorConfig.builder()
                .threads(threads)
                .threadKind(threadKind)
                .locks(locks())
                .uniqueSocialites(uniqueSocialites())
                .seed(seed)
                .duration(duration())
                .operations(operations())
                .warmup(warmup())
                .warmupOperations(warmupOperations())
                .thinkTimeMs(thinkTimeMs())
                .interArrivalMs(interArrivalMs())
                .topK(topK())
                .commentLength(commentLength())
                .feeds(feeds())
                .arrivals(open == null ? null : open.schedule())
                .build();
    }

    public Duration duration() {
        return length.duration();
    }

    public long operations() {
        return length.operations();
    }

    public Duration warmup() {
        return length.warmup();
    }

    public long warmupOperations() {
        return length.warmupOperations();
    }

    public int thinkTimeMs() {
        return requests.thinkTimeMs();
    }

    public int interArrivalMs() {
        return requests.interArrivalMs();
    }

    public int topK() {
        return requests.topK();
    }

    public int commentLength() {
        return requests.commentLength();
    }

    public boolean locks() {
        return requests.locks();
    }

    public boolean uniqueSocialites() {
        return requests.uniqueSocialites();
    }

    public FeedWorkload feeds() {
        return requests.feeds();
    }

    public Duration beta() {
        return measuring.beta();
    }

    public ValidationOptions validation() {
        return measuring.validation();
    }

    public List<String> storeHosts() {
        return measuring.storeHosts();
    }

    /** Sets an experiment's parameters by name; {@link #build()} checks them all at once. */
    public static final class Builder {
        private int threads;
        private Duration duration;
        private long operations;
        private Duration warmup;
        private long warmupOperations;
        private int thinkTimeMs;
        private int interArrivalMs;
        private int topK;
        private int commentLength;
        private boolean locks;
        private boolean uniqueSocialites;
        private FeedWorkload feeds;
        private long seed;
        private ThreadKind threadKind;
        private Duration beta;
        private ValidationOptions validation;
        private List<String> storeHosts;
        private OpenModel open;

        private Builder() {}

        private Builder(ExperimentSpec from) {
            threads = from.threads();
            duration = from.duration();
            operations = from.operations();
            warmup = from.warmup();
            warmupOperations = from.warmupOperations();
            thinkTimeMs = from.thinkTimeMs();
            interArrivalMs = from.interArrivalMs();
            topK = from.topK();
            commentLength = from.commentLength();
            locks = from.locks();
            uniqueSocialites = from.uniqueSocialites();
            feeds = from.feeds();
            seed = from.seed();
            threadKind = from.threadKind();
            beta = from.beta();
            validation = from.validation();
            storeHosts = from.storeHosts();
            open = from.open();
        }

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        public Builder duration(Duration v) {
            duration = v;
            return this;
        }

        public Builder operations(long v) {
            operations = v;
            return this;
        }

        public Builder warmup(Duration v) {
            warmup = v;
            return this;
        }

        public Builder warmupOperations(long v) {
            warmupOperations = v;
            return this;
        }

        public Builder thinkTimeMs(int v) {
            thinkTimeMs = v;
            return this;
        }

        public Builder interArrivalMs(int v) {
            interArrivalMs = v;
            return this;
        }

        public Builder topK(int v) {
            topK = v;
            return this;
        }

        public Builder commentLength(int v) {
            commentLength = v;
            return this;
        }

        public Builder locks(boolean v) {
            locks = v;
            return this;
        }

        public Builder uniqueSocialites(boolean v) {
            uniqueSocialites = v;
            return this;
        }

        public Builder feeds(FeedWorkload v) {
            feeds = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder threadKind(ThreadKind v) {
            threadKind = v;
            return this;
        }

        public Builder beta(Duration v) {
            beta = v;
            return this;
        }

        public Builder validation(ValidationOptions v) {
            validation = v;
            return this;
        }

        public Builder storeHosts(List<String> v) {
            storeHosts = v;
            return this;
        }

        public Builder open(OpenModel v) {
            open = v;
            return this;
        }

        public ExperimentSpec build() {
            return new ExperimentSpec(
                    threads,
                    new Length(duration, operations, warmup, warmupOperations),
                    new Requests(thinkTimeMs, interArrivalMs, topK, commentLength, locks, uniqueSocialites, feeds),
                    seed,
                    threadKind,
                    new Measuring(beta, validation, storeHosts),
                    open);
        }
    }
}
