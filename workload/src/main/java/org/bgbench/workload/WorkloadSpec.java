package org.bgbench.workload;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.Mixes;

/**
 * The workload parameters of a BG run: what to issue, how to pick members, how long, with how many threads.
 * Built from USC-style properties by {@link WorkloadParameters#toSpec(java.util.Map)}.
 *
 * @param mix              the fractions of actions and sessions
 * @param mixName          the named mix ({@link Mixes}) or {@code custom} when given key by key
 * @param socialites       how the socialite (the member performing the action or session) is picked
 * @param targets          how the other member (VP/LF/VTR of another member, IF's invitee, PCR's resource owner) is
 *                         picked, among the same worker's members
 * @param topK             k of View Top-K Resources
 * @param commentLength    characters of a comment posted by PCR
 * @param thinkTime        ε, pause between the actions of a session
 * @param interArrivalTime ψ, pause of a thread between two requests (actions or sessions)
 * @param threads          T, emulator threads (closed model: simultaneous socialites)
 * @param maxExecutionTime run length, warm-up included; {@link Duration#ZERO} = no time limit
 * @param operations       requests to issue, warm-up excluded; 0 = no count limit. The run ends at the first limit
 * @param warmup           warm-up before measuring
 * @param warmupThreads    threads issuing the warm-up
 * @param locks            lock the members of IF/TF (both) and AFR/RFR (the socialite) [dissertation table 5.1]
 * @param uniqueSocialites a member is emulated by at most one thread at a time [dissertation 5.3]
 * @param workers          N, workers (BGClients) sharing the graph by D-Zipfian
 * @param workerIndex      this worker's index, 0..N−1
 * @param workerRates      R_k, request rate of each worker (size N); only ratios matter
 * @param seed             seed of the rank → member permutation and of the emulator's generators
 * @param feeds            how SR and VNF are issued (VNF's k, pages' share of SR, list shares)
 */
public record WorkloadSpec(
        Mix mix,
        String mixName,
        DistributionSpec socialites,
        DistributionSpec targets,
        int topK,
        int commentLength,
        Duration thinkTime,
        Duration interArrivalTime,
        int threads,
        Duration maxExecutionTime,
        long operations,
        Warmup warmup,
        int warmupThreads,
        boolean locks,
        boolean uniqueSocialites,
        int workers,
        int workerIndex,
        List<Double> workerRates,
        long seed,
        org.bgbench.model.FeedWorkload feeds) {

    /** Run length when neither {@code maxexecutiontime} nor {@code operationcount} is given. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);
    public static final String DEFAULT_MIX = "low";
    public static final long DEFAULT_SEED = 0xB6_0005EEDL;

    /** Mix {@code low}, D-Zipfian θ=0.27 socialites, uniform targets, k=5, one thread for 60 s, locks on. */
    public static WorkloadSpec defaults() {
        return new WorkloadSpec(Mixes.byName(DEFAULT_MIX), DEFAULT_MIX, DistributionSpec.dzipfian(0.27),
                DistributionSpec.uniform(), 5, 100, Duration.ZERO, Duration.ZERO, 1, DEFAULT_DURATION, 0,
                Warmup.NONE, 1, true, true, 1, 0, List.of(1.0), DEFAULT_SEED);
    }

    /** A workload with the default feed settings. */
    public WorkloadSpec(Mix mix, String mixName, DistributionSpec socialites, DistributionSpec targets, int topK,
                        int commentLength, Duration thinkTime, Duration interArrivalTime, int threads,
                        Duration maxExecutionTime, long operations, Warmup warmup, int warmupThreads, boolean locks,
                        boolean uniqueSocialites, int workers, int workerIndex, List<Double> workerRates, long seed) {
        this(mix, mixName, socialites, targets, topK, commentLength, thinkTime, interArrivalTime, threads,
                maxExecutionTime, operations, warmup, warmupThreads, locks, uniqueSocialites, workers, workerIndex,
                workerRates, seed, org.bgbench.model.FeedWorkload.DEFAULTS);
    }

    public WorkloadSpec {
        if (feeds == null) {
            feeds = org.bgbench.model.FeedWorkload.DEFAULTS;
        }
        require(mix != null, "mix", "is required");
        require(mixName != null && !mixName.isBlank(), "mix", "needs a name");
        require(socialites != null, "requestdistribution", "is required");
        require(targets != null, "targetdistribution", "is required");
        require(targets.kind() != DistributionKind.DZIPFIAN, "targetdistribution",
                "targets are drawn among the worker's own members; use uniform, zipfian or latest");
        require(topK >= 1, "topk", "must be at least 1, got " + topK);
        require(commentLength >= 1, "commentlength", "must be at least 1, got " + commentLength);
        require(thinkTime != null && !thinkTime.isNegative(), "thinktime", "must be 0 or more");
        require(interArrivalTime != null && !interArrivalTime.isNegative(), "interarrivaltime", "must be 0 or more");
        require(threads >= 1, "threadcount", "must be at least 1, got " + threads);
        require(maxExecutionTime != null && !maxExecutionTime.isNegative(), "maxexecutiontime", "must be 0 or more");
        require(operations >= 0, "operationcount", "must be 0 or more, got " + operations);
        require(!maxExecutionTime.isZero() || operations > 0, "maxexecutiontime",
                "the run needs an end: give maxexecutiontime > 0 or operationcount > 0");
        require(warmup != null, "warmup", "is required (Warmup.NONE for none)");
        require(warmupThreads >= 1, "warmupthreads", "must be at least 1, got " + warmupThreads);
        require(workers >= 1, "numclients", "must be at least 1, got " + workers);
        require(workerIndex >= 0 && workerIndex < workers, "machineid",
                "must be from 0 to numclients−1 = " + (workers - 1) + ", got " + workerIndex);
        require(workerRates != null && workerRates.size() == workers, "probs",
                "needs one rate per worker: " + workers + " workers, "
                        + (workerRates == null ? 0 : workerRates.size()) + " rates");
        for (Double r : workerRates) {
            require(r != null && r > 0 && !r.isInfinite(), "probs", "rates must be positive numbers, got "
                    + workerRates);
        }
        workerRates = List.copyOf(workerRates);
    }

    private static void require(boolean ok, String parameter, String message) {
        if (!ok) {
            throw new InvalidParameterException(parameter, message);
        }
    }

    /** {@link #workerRates()} as an array, for {@link org.bgbench.workload.distribution.DZipfian}. */
    public double[] rates() {
        double[] r = new double[workerRates.size()];
        for (int k = 0; k < r.length; k++) {
            r[k] = workerRates.get(k);
        }
        return r;
    }

    public boolean timeLimited() {
        return !maxExecutionTime.isZero();
    }

    public boolean countLimited() {
        return operations > 0;
    }

    /** One line for logs and reports. */
    public String describe() {
        String end = (timeLimited() ? Durations.format(maxExecutionTime) : "")
                + (timeLimited() && countLimited() ? " or " : "") + (countLimited() ? operations + " requests" : "");
        return String.format(Locale.ROOT, "mix %s [%s]; socialites %s, targets %s; T=%d for %s; warm-up %s; ε=%s ψ=%s; "
                        + "k=%d; locks %s, unique socialites %s; worker %d of %d",
                mixName, mix.describe(), socialites.describe(), targets.describe(), threads, end, warmup.describe(),
                Durations.format(thinkTime), Durations.format(interArrivalTime), topK, locks ? "on" : "off",
                uniqueSocialites ? "on" : "off", workerIndex, workers);
    }
}
