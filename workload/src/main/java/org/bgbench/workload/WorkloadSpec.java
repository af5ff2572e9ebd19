package org.bgbench.workload;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.bgbench.model.Durations;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.workload.distribution.DZipfian;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.Mixes;

/**
 * The workload parameters of a BG run: what to issue, how to pick members, how long, with how many threads.
 * Built from USC-style properties by {@link WorkloadParameters#toSpec(Map)}.
 *
 * <p>Build one with {@link #builder()} (the defaults, changed by name) or {@link #toBuilder()}.
 *
 * @param requests what to issue
 * @param members  how members are picked and guarded
 * @param pacing   threads and pauses
 * @param length   how long the run lasts, and its warm-up
 * @param share    this worker's share among the workers
 * @param seed     seed of the rank → member permutation and of the emulator's generators
 */
public record WorkloadSpec(Requests requests, Members members, Pacing pacing, Length length, Share share, long seed) {

    /**
     * What to issue: the mix, View Top-K's k, comment length and feed settings.
     *
     * @param mix           the fractions of actions and sessions
     * @param mixName       the named mix ({@link Mixes}) or {@code custom} when given key by key
     * @param topK          k of View Top-K Resources
     * @param commentLength characters of a comment posted by PCR
     * @param feeds         how SR and VNF are issued (VNF's k, pages' share of SR, list shares)
     */
    public record Requests(Mix mix, String mixName, int topK, int commentLength, FeedWorkload feeds) {}

    /**
     * How socialites and targets are picked, and how members are guarded while emulated.
     *
     * @param socialites       how the socialite (the member performing the action or session) is picked
     * @param targets          how the other member (VP/LF/VTR of another member, IF's invitee, PCR's resource owner) is
     *                         picked, among the same worker's members
     * @param locks            lock the members of IF/TF (both) and AFR/RFR (the socialite) [dissertation table 5.1]
     * @param uniqueSocialites a member is emulated by at most one thread at a time [dissertation 5.3]
     */
    public record Members(
            DistributionSpec socialites, DistributionSpec targets, boolean locks, boolean uniqueSocialites) {}

    /**
     * How many threads issue requests, and their pauses.
     *
     * @param threads          T, emulator threads (closed model: simultaneous socialites)
     * @param thinkTime        ε, pause between the actions of a session
     * @param interArrivalTime ψ, pause of a thread between two requests (actions or sessions)
     */
    public record Pacing(int threads, Duration thinkTime, Duration interArrivalTime) {}

    /**
     * How long the run lasts and how it warms up.
     *
     * @param maxExecutionTime run length, warm-up included; {@link Duration#ZERO} = no time limit
     * @param operations       requests to issue, warm-up excluded; 0 = no count limit. The run ends at the first limit
     * @param warmup           warm-up before measuring
     * @param warmupThreads    threads issuing the warm-up
     */
    public record Length(Duration maxExecutionTime, long operations, Warmup warmup, int warmupThreads) {}

    /**
     * This worker's share of the graph among the workers (BGClients).
     *
     * @param workers     N, workers sharing the graph by D-Zipfian
     * @param workerIndex this worker's index, 0..N−1
     * @param workerRates R_k, request rate of each worker (size N); only ratios matter
     */
    public record Share(int workers, int workerIndex, List<Double> workerRates) {}

    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    public static final String DEFAULT_MIX = "low";
    public static final long DEFAULT_SEED = 0xB6_0005EEDL;

    /** Mix {@code low}, D-Zipfian θ=0.27 socialites, uniform targets, k=5, one thread for 60 s, locks on. */
    public static WorkloadSpec defaults() {
        return new WorkloadSpec(
                new Requests(Mixes.byName(DEFAULT_MIX), DEFAULT_MIX, 5, 100, FeedWorkload.DEFAULTS),
                new Members(DistributionSpec.dzipfian(0.27), DistributionSpec.uniform(), true, true),
                new Pacing(1, Duration.ZERO, Duration.ZERO),
                new Length(DEFAULT_DURATION, 0, Warmup.NONE, 1),
                new Share(1, 0, List.of(1.0)),
                DEFAULT_SEED);
    }

    /** A builder that starts from {@link #defaults()}. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder that starts from this spec. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public WorkloadSpec {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(members, "members");
        Objects.requireNonNull(pacing, "pacing");
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(share, "share");
        if (requests.feeds() == null) {
            requests = new Requests(
                    requests.mix(),
                    requests.mixName(),
                    requests.topK(),
                    requests.commentLength(),
                    FeedWorkload.DEFAULTS);
        }
        Mix mix = requests.mix();
        String mixName = requests.mixName();
        DistributionSpec socialites = members.socialites();
        DistributionSpec targets = members.targets();
        int topK = requests.topK();
        int commentLength = requests.commentLength();
        Duration thinkTime = pacing.thinkTime();
        Duration interArrivalTime = pacing.interArrivalTime();
        int threads = pacing.threads();
        Duration maxExecutionTime = length.maxExecutionTime();
        long operations = length.operations();
        Warmup warmup = length.warmup();
        int warmupThreads = length.warmupThreads();
        int workers = share.workers();
        int workerIndex = share.workerIndex();
        List<Double> workerRates = share.workerRates();
        require(mix != null, "mix", "is required");
        require(mixName != null && !mixName.isBlank(), "mix", "needs a name");
        require(socialites != null, "requestdistribution", "is required");
        require(targets != null, "targetdistribution", "is required");
        require(
                targets.kind() != DistributionKind.DZIPFIAN,
                "targetdistribution",
                "targets are drawn among the worker's own members; use uniform, zipfian or latest");
        require(topK >= 1, "topk", "must be at least 1, got " + topK);
        require(commentLength >= 1, "commentlength", "must be at least 1, got " + commentLength);
        require(thinkTime != null && !thinkTime.isNegative(), "thinktime", "must be 0 or more");
        require(interArrivalTime != null && !interArrivalTime.isNegative(), "interarrivaltime", "must be 0 or more");
        require(threads >= 1, "threadcount", "must be at least 1, got " + threads);
        require(maxExecutionTime != null && !maxExecutionTime.isNegative(), "maxexecutiontime", "must be 0 or more");
        require(operations >= 0, "operationcount", "must be 0 or more, got " + operations);
        require(
                !maxExecutionTime.isZero() || operations > 0,
                "maxexecutiontime",
                "the run needs an end: give maxexecutiontime > 0 or operationcount > 0");
        require(warmup != null, "warmup", "is required (Warmup.NONE for none)");
        require(warmupThreads >= 1, "warmupthreads", "must be at least 1, got " + warmupThreads);
        require(workers >= 1, "numclients", "must be at least 1, got " + workers);
        require(
                workerIndex >= 0 && workerIndex < workers,
                "machineid",
                "must be from 0 to numclients−1 = " + (workers - 1) + ", got " + workerIndex);
        require(
                workerRates != null && workerRates.size() == workers,
                "probs",
                "needs one rate per worker: " + workers + " workers, " + (workerRates == null ? 0 : workerRates.size())
                        + " rates");
        for (Double r : workerRates) {
            require(
                    r != null && r > 0 && !r.isInfinite(),
                    "probs",
                    "rates must be positive numbers, got " + workerRates);
        }
        share = new Share(workers, workerIndex, List.copyOf(workerRates));
    }

    private static void require(boolean ok, String parameter, String message) {
        if (!ok) {
            throw new InvalidParameterException(parameter, message);
        }
    }

    /** {@link #workerRates()} as an array, for {@link DZipfian}. */
    public double[] rates() {
        double[] r = new double[workerRates().size()];
        for (int k = 0; k < r.length; k++) {
            r[k] = workerRates().get(k);
        }
        return r;
    }

    public boolean timeLimited() {
        return !maxExecutionTime().isZero();
    }

    public boolean countLimited() {
        return operations() > 0;
    }

    /** One line for logs and reports. */
    public String describe() {
        String end = (timeLimited() ? Durations.format(maxExecutionTime()) : "")
                + (timeLimited() && countLimited() ? " or " : "")
                + (countLimited() ? operations() + " requests" : "");
        return String.format(
                Locale.ROOT,
                "mix %s [%s]; socialites %s, targets %s; T=%d for %s; warm-up %s; ε=%s ψ=%s; "
                        + "k=%d; locks %s, unique socialites %s; worker %d of %d",
                mixName(),
                mix().describe(),
                socialites().describe(),
                targets().describe(),
                threads(),
                end,
                warmup().describe(),
                Durations.format(thinkTime()),
                Durations.format(interArrivalTime()),
                topK(),
                locks() ? "on" : "off",
                uniqueSocialites() ? "on" : "off",
                workerIndex(),
                workers());
    }

    public Mix mix() {
        return requests.mix();
    }

    public String mixName() {
        return requests.mixName();
    }

    public int topK() {
        return requests.topK();
    }

    public int commentLength() {
        return requests.commentLength();
    }

    public FeedWorkload feeds() {
        return requests.feeds();
    }

    public DistributionSpec socialites() {
        return members.socialites();
    }

    public DistributionSpec targets() {
        return members.targets();
    }

    public boolean locks() {
        return members.locks();
    }

    public boolean uniqueSocialites() {
        return members.uniqueSocialites();
    }

    public int threads() {
        return pacing.threads();
    }

    public Duration thinkTime() {
        return pacing.thinkTime();
    }

    public Duration interArrivalTime() {
        return pacing.interArrivalTime();
    }

    public Duration maxExecutionTime() {
        return length.maxExecutionTime();
    }

    public long operations() {
        return length.operations();
    }

    public Warmup warmup() {
        return length.warmup();
    }

    public int warmupThreads() {
        return length.warmupThreads();
    }

    public int workers() {
        return share.workers();
    }

    public int workerIndex() {
        return share.workerIndex();
    }

    public List<Double> workerRates() {
        return share.workerRates();
    }

    /** Sets a workload's parameters by name; {@link #build()} checks them all at once, as the constructor does. */
    public static final class Builder {
        private Mix mix;
        private String mixName;
        private int topK;
        private int commentLength;
        private FeedWorkload feeds;
        private DistributionSpec socialites;
        private DistributionSpec targets;
        private boolean locks;
        private boolean uniqueSocialites;
        private int threads;
        private Duration thinkTime;
        private Duration interArrivalTime;
        private Duration maxExecutionTime;
        private long operations;
        private Warmup warmup;
        private int warmupThreads;
        private int workers;
        private int workerIndex;
        private List<Double> workerRates;
        private long seed;

        private Builder(WorkloadSpec from) {
            mix = from.mix();
            mixName = from.mixName();
            topK = from.topK();
            commentLength = from.commentLength();
            feeds = from.feeds();
            socialites = from.socialites();
            targets = from.targets();
            locks = from.locks();
            uniqueSocialites = from.uniqueSocialites();
            threads = from.threads();
            thinkTime = from.thinkTime();
            interArrivalTime = from.interArrivalTime();
            maxExecutionTime = from.maxExecutionTime();
            operations = from.operations();
            warmup = from.warmup();
            warmupThreads = from.warmupThreads();
            workers = from.workers();
            workerIndex = from.workerIndex();
            workerRates = from.workerRates();
            seed = from.seed();
        }

        public Builder mix(Mix v) {
            mix = v;
            return this;
        }

        public Builder mixName(String v) {
            mixName = v;
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

        public Builder feeds(FeedWorkload v) {
            feeds = v;
            return this;
        }

        public Builder socialites(DistributionSpec v) {
            socialites = v;
            return this;
        }

        public Builder targets(DistributionSpec v) {
            targets = v;
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

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        public Builder thinkTime(Duration v) {
            thinkTime = v;
            return this;
        }

        public Builder interArrivalTime(Duration v) {
            interArrivalTime = v;
            return this;
        }

        public Builder maxExecutionTime(Duration v) {
            maxExecutionTime = v;
            return this;
        }

        public Builder operations(long v) {
            operations = v;
            return this;
        }

        public Builder warmup(Warmup v) {
            warmup = v;
            return this;
        }

        public Builder warmupThreads(int v) {
            warmupThreads = v;
            return this;
        }

        public Builder workers(int v) {
            workers = v;
            return this;
        }

        public Builder workerIndex(int v) {
            workerIndex = v;
            return this;
        }

        public Builder workerRates(List<Double> v) {
            workerRates = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public WorkloadSpec build() {
            return new WorkloadSpec(
                    new Requests(mix, mixName, topK, commentLength, feeds),
                    new Members(socialites, targets, locks, uniqueSocialites),
                    new Pacing(threads, thinkTime, interArrivalTime),
                    new Length(maxExecutionTime, operations, warmup, warmupThreads),
                    new Share(workers, workerIndex, workerRates),
                    seed);
        }
    }
}
