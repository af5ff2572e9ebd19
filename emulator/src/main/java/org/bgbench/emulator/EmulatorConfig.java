package org.bgbench.emulator;

import java.time.Duration;
import org.bgbench.model.InvalidParameterException;

/**
 * How a run emulates members (dissertation 5.2).
 *
 * @param threads          T, emulated members acting at once (closed model)
 * @param duration         measured run length after warm-up; ignored when {@code operations} > 0
 * @param operations       total actions and sessions to issue after warm-up; 0 runs for {@code duration}
 * @param warmup           time at the start whose actions are not measured
 * @param warmupOperations actions and sessions at the start that are not measured (used when {@code warmup} is 0)
 * @param thinkTimeMs      ε, pause between the actions of a session
 * @param interArrivalMs   ψ, pause of a thread between two actions or sessions
 * @param topK             k of View Top-K Resources
 * @param commentLength    characters of a posted comment
 * @param locks            lock members as [dissertation table 5.1]: IF and TF both members, AFR/RFR/DCR the socialite
 * @param uniqueSocialites a member is emulated by at most one thread at a time
 * @param seed             seed of the threads' random generators
 * @param threadKind       virtual or platform threads for the members, or {@link ThreadKind#AUTO}
 * @param feeds            how SR and VNF are issued
 * @param arrivals         the open model's arrival schedule, or null for the closed model; then {@code threads} is
 *                         the in-flight limit (the arrivals BG has started and not finished at once)
 */
public record EmulatorConfig(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                             int thinkTimeMs,
                             int interArrivalMs, int topK, int commentLength, boolean locks,
                             boolean uniqueSocialites, long seed, ThreadKind threadKind,
                             org.bgbench.model.FeedWorkload feeds,
                             org.bgbench.emulator.open.ArrivalSchedule arrivals) {
    /** Which threads emulate the members. */
    public enum ThreadKind {
        /**
         * Platform threads for small T, virtual threads beyond. Measured on 2 cores against PostgreSQL: at T=4
         * platform threads cost BG 17–33 µs of CPU per action against 57–64 µs for virtual ones (whose carriers wake
         * and park on every reply); at T=16 still half (VP 26 against 46–59 µs, 20,000 against 14,000–17,000 VP/s;
         * LF 88 against 148–193 µs), and only at T=64 do the OS context switches of so many platform threads cost
         * more than the carriers; so a store reached over the network gets platform threads up to
         * {@link #NETWORKED_PLATFORM_PER_CORE} × cores (docs/benchmarks.md, issue 20). A store inside
         * BG's process never blocks, and virtual threads are not time-sliced: a member woken from a contended lock
         * could wait for a carrier until another member blocks, so such a store gets platform threads up to
         * {@link #PLATFORM_LIMIT}, and virtual threads beyond yield every few requests.
         */
        AUTO,
        VIRTUAL,
        PLATFORM,
        /**
         * Members share one platform thread per core and take turns on it, each leaving it while its store waits for
         * a reply ({@code SharedThreads}): one wake-up serves several replies, as in a client with asynchronous I/O.
         * Only for stores whose sessions hand off while waiting ({@code DataStore.handsOffWhileWaiting}).
         */
        SHARED;

        public static final int PLATFORM_LIMIT = 64;
        /** A networked store gets platform threads up to this many per core. */
        public static final int NETWORKED_PLATFORM_PER_CORE = 8;
    }

    /** A closed-model configuration. */
    public EmulatorConfig(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed, ThreadKind threadKind,
                          org.bgbench.model.FeedWorkload feeds) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, threadKind, feeds, null);
    }

    /** Whether this is the open model (arrivals at a rate) rather than the closed one (T members in a loop). */
    public boolean open() {
        return arrivals != null;
    }

    /** The same configuration with the default feed settings. */
    public EmulatorConfig(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed, ThreadKind threadKind) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, threadKind, org.bgbench.model.FeedWorkload.DEFAULTS);
    }

    /** The same configuration with automatic thread kind. */
    public EmulatorConfig(int threads, Duration duration, long operations, Duration warmup, long warmupOperations,
                          int thinkTimeMs, int interArrivalMs, int topK, int commentLength, boolean locks,
                          boolean uniqueSocialites, long seed) {
        this(threads, duration, operations, warmup, warmupOperations, thinkTimeMs, interArrivalMs, topK,
                commentLength, locks, uniqueSocialites, seed, ThreadKind.AUTO);
    }

    public EmulatorConfig {
        if (feeds == null) {
            feeds = org.bgbench.model.FeedWorkload.DEFAULTS;
        }
        if (threadKind == null) {
            threadKind = ThreadKind.AUTO;
        }
        if (threads < 1) {
            throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
        }
        if (operations < 0) {
            throw new InvalidParameterException("operationcount", "must be 0 or more, got " + operations);
        }
        if (operations == 0 && (duration == null || duration.isZero() || duration.isNegative())) {
            throw new InvalidParameterException("--duration", "must be longer than 0, got "
                    + (duration == null ? "none" : org.bgbench.model.Durations.format(duration)));
        }
        if (warmup == null || warmup.isNegative() || warmupOperations < 0) {
            throw new InvalidParameterException("warmup", "must be 0 or more");
        }
        if (thinkTimeMs < 0 || interArrivalMs < 0) {
            throw new InvalidParameterException(thinkTimeMs < 0 ? "thinktime" : "interarrivaltime", "must be 0 or more ms");
        }
        if (topK < 1) {
            throw new InvalidParameterException("topk", "must be at least 1, got " + topK);
        }
        if (commentLength < 1) {
            throw new InvalidParameterException("commentlength", "must be at least 1, got " + commentLength);
        }
        if (arrivals != null) {
            if (operations > 0) {
                throw new InvalidParameterException("--operations", "the open model (--arrivals) runs for a duration or"
                        + " its schedule's length, not a request count");
            }
            if (interArrivalMs > 0) {
                throw new InvalidParameterException("interarrivaltime", "the open model spaces arrivals by --arrivals;"
                        + " ψ must be 0, got " + interArrivalMs + " ms");
            }
        }
    }
}
