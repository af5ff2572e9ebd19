package org.bgbench.emulator;

import java.time.Duration;
import org.bgbench.emulator.open.ArrivalSchedule;
import org.bgbench.model.Durations;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.InvalidParameterException;

/**
 * How a run emulates members (dissertation 5.2), in named parts; {@link #builder()} makes one.
 *
 * @param members  who acts: T, the threads that run them, locking and the seed
 * @param length   how long the measured run lasts: a duration or a count of actions and sessions
 * @param warmup   what at the start is not measured
 * @param pacing   ε and ψ, the pauses between steps and between requests
 * @param actions  what the actions write and show: k of View Top-K Resources, comment length, feeds
 * @param arrivals the open model's arrival schedule, or null for the closed model; then {@code members.threads()}
 *                 is the in-flight limit (the arrivals BG has started and not finished at once)
 */
public record EmulatorConfig(
        Members members, Length length, Warmup warmup, Pacing pacing, ActionShape actions, ArrivalSchedule arrivals) {
    /** Which threads emulate the members. */
    public enum ThreadKind {
        /**
         * Platform threads for small T, virtual threads beyond: a store reached over the network gets platform threads
         * up to {@link #NETWORKED_PLATFORM_PER_CORE} × cores, as their CPU per action is lower until the OS context
         * switches of many threads cost more than virtual threads' carriers (docs/benchmarks.md). A store inside
         * BG's process never blocks, and virtual threads are not time-sliced: a member woken from a contended lock
         * could wait for a carrier until another member blocks, so such a store gets platform threads up to
         * {@link #PLATFORM_LIMIT}, and virtual threads beyond yield every few requests.
         */
        AUTO,
        VIRTUAL,
        PLATFORM;

        public static final int PLATFORM_LIMIT = 64;
        /** A networked store gets platform threads up to this many per core. */
        public static final int NETWORKED_PLATFORM_PER_CORE = 8;
    }

    /**
     * The emulated members.
     *
     * @param threads          T, emulated members acting at once (closed model)
     * @param threadKind       virtual or platform threads for the members, or {@link ThreadKind#AUTO}
     * @param locks            lock members as [dissertation table 5.1]: IF and TF both members, AFR/RFR/DCR the
     *                         socialite
     * @param uniqueSocialites a member is emulated by at most one thread at a time
     * @param seed             seed of the threads' random generators
     */
    public record Members(int threads, ThreadKind threadKind, boolean locks, boolean uniqueSocialites, long seed) {
        public Members {
            if (threadKind == null) {
                threadKind = ThreadKind.AUTO;
            }
            if (threads < 1) {
                throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
            }
        }
    }

    /**
     * The measured run's length.
     *
     * @param duration   measured run length after warm-up; ignored when {@code operations} > 0
     * @param operations total actions and sessions to issue after warm-up; 0 runs for {@code duration}
     */
    public record Length(Duration duration, long operations) {
        public Length {
            if (operations < 0) {
                throw new InvalidParameterException("operationcount", "must be 0 or more, got " + operations);
            }
            if (operations == 0 && (duration == null || duration.isZero() || duration.isNegative())) {
                throw new InvalidParameterException(
                        "--duration",
                        "must be longer than 0, got " + (duration == null ? "none" : Durations.format(duration)));
            }
        }
    }

    /**
     * The warm-up, whose actions are not measured.
     *
     * @param time       time at the start whose actions are not measured
     * @param operations actions and sessions at the start that are not measured (used when {@code time} is 0)
     */
    public record Warmup(Duration time, long operations) {
        public static final Warmup NONE = new Warmup(Duration.ZERO, 0);

        public Warmup {
            if (time == null || time.isNegative() || operations < 0) {
                throw new InvalidParameterException("warmup", "must be 0 or more");
            }
        }
    }

    /**
     * The pauses of a member.
     *
     * @param thinkTimeMs    ε, pause between the actions of a session
     * @param interArrivalMs ψ, pause of a thread between two actions or sessions
     */
    public record Pacing(int thinkTimeMs, int interArrivalMs) {
        public static final Pacing NONE = new Pacing(0, 0);

        public Pacing {
            if (thinkTimeMs < 0 || interArrivalMs < 0) {
                throw new InvalidParameterException(
                        thinkTimeMs < 0 ? "thinktime" : "interarrivaltime", "must be 0 or more ms");
            }
        }
    }

    /**
     * What the actions show and write.
     *
     * @param topK          k of View Top-K Resources
     * @param commentLength characters of a posted comment
     * @param feeds         how SR and VNF are issued
     */
    public record ActionShape(int topK, int commentLength, FeedWorkload feeds) {
        public ActionShape {
            if (feeds == null) {
                feeds = FeedWorkload.DEFAULTS;
            }
            if (topK < 1) {
                throw new InvalidParameterException("topk", "must be at least 1, got " + topK);
            }
            if (commentLength < 1) {
                throw new InvalidParameterException("commentlength", "must be at least 1, got " + commentLength);
            }
        }
    }

    public EmulatorConfig {
        if (warmup == null) {
            warmup = Warmup.NONE;
        }
        if (pacing == null) {
            pacing = Pacing.NONE;
        }
        if (arrivals != null) {
            if (length.operations() > 0) {
                throw new InvalidParameterException(
                        "--operations",
                        "the open model (--arrivals) runs for a duration or"
                                + " its schedule's length, not a request count");
            }
            if (pacing.interArrivalMs() > 0) {
                throw new InvalidParameterException(
                        "interarrivaltime",
                        "the open model spaces arrivals by --arrivals;" + " ψ must be 0, got " + pacing.interArrivalMs()
                                + " ms");
            }
        }
    }

    /** Whether this is the open model (arrivals at a rate) rather than the closed one (T members in a loop). */
    public boolean open() {
        return arrivals != null;
    }

    /** T, the emulated members acting at once. */
    public int threads() {
        return members.threads();
    }

    /** A builder; what is not set is: one platform-or-virtual thread (auto), no locks, seed 0, no warm-up, no pauses,
     *  k = 5, 100-character comments, the default feeds and the closed model. A duration or operations must be set. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link EmulatorConfig} setting by setting. */
    public static final class Builder {
        private int threads = 1;
        private ThreadKind threadKind = ThreadKind.AUTO;
        private boolean locks;
        private boolean uniqueSocialites;
        private long seed;
        private Duration duration;
        private long operations;
        private Duration warmup = Duration.ZERO;
        private long warmupOperations;
        private int thinkTimeMs;
        private int interArrivalMs;
        private int topK = 5;
        private int commentLength = 100;
        private FeedWorkload feeds = FeedWorkload.DEFAULTS;
        private ArrivalSchedule arrivals;

        private Builder() {}

        public Builder threads(int t) {
            this.threads = t;
            return this;
        }

        public Builder threadKind(ThreadKind kind) {
            this.threadKind = kind;
            return this;
        }

        public Builder locks(boolean on) {
            this.locks = on;
            return this;
        }

        public Builder uniqueSocialites(boolean on) {
            this.uniqueSocialites = on;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder duration(Duration d) {
            this.duration = d;
            return this;
        }

        public Builder operations(long n) {
            this.operations = n;
            return this;
        }

        public Builder warmup(Duration d) {
            this.warmup = d;
            return this;
        }

        public Builder warmupOperations(long n) {
            this.warmupOperations = n;
            return this;
        }

        public Builder thinkTimeMs(int ms) {
            this.thinkTimeMs = ms;
            return this;
        }

        public Builder interArrivalMs(int ms) {
            this.interArrivalMs = ms;
            return this;
        }

        public Builder topK(int k) {
            this.topK = k;
            return this;
        }

        public Builder commentLength(int n) {
            this.commentLength = n;
            return this;
        }

        public Builder feeds(FeedWorkload f) {
            this.feeds = f;
            return this;
        }

        /** The open model's schedule; null keeps the closed model. */
        public Builder arrivals(ArrivalSchedule schedule) {
            this.arrivals = schedule;
            return this;
        }

        public EmulatorConfig build() {
            return new EmulatorConfig(
                    new Members(threads, threadKind, locks, uniqueSocialites, seed),
                    new Length(duration, operations),
                    new Warmup(warmup, warmupOperations),
                    new Pacing(thinkTimeMs, interArrivalMs),
                    new ActionShape(topK, commentLength, feeds),
                    arrivals);
        }
    }
}
