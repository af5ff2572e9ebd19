package org.bgbench.cluster.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SeriesPoint;

/**
 * The arguments and answers of the {@link Operations}, as records. They cross the transport as JSON trees
 * ({@link #tree}, {@link #read}) with named properties. A coordinator and its workers speak one version of them
 * ({@link Operations#VERSION}, checked both ways at {@code hello}); within a version a field a peer does not know is
 * ignored.
 */
public final class Messages {
    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private Messages() {}

    /** A message as the transport carries it. */
    public static JsonNode tree(Object message) {
        return JSON.valueToTree(message);
    }

    /** A message read from the transport. */
    public static <T> T read(JsonNode node, Class<T> type) {
        try {
            return JSON.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** An answer that carries nothing but success. */
    public record Ack(boolean ok) {
        public static final Ack OK = new Ack(true);
    }

    /**
     * The coordinator's {@code hello}: the protocol version it speaks ({@link Operations#VERSION}); a worker of another
     * version refuses it. A coordinator before version 5 sent no version (read as 0).
     */
    public record Greeting(int protocol) {
        public static Greeting mine() {
            return new Greeting(Operations.VERSION);
        }
    }

    /** The worker's answer to {@code hello}, with the protocol version it speaks. */
    public record Hello(String host, long pid, int cores, long maxHeap, String java, int protocol) {}

    /** {@code held-graph}: the store and its settings, as {@code open} would open it. */
    public record AskGraph(String store, Map<String, String> params) {}

    /**
     * The answer to {@code held-graph}: the fingerprint of the graph the worker's store records with its last
     * completed load ({@link org.bgbench.model.GraphSpec#fingerprint()}), or null when it records none (or forgets
     * its contents on close and the worker does not hold it open).
     */
    public record HeldGraph(String fingerprint) {}

    /** {@code open}: the store, every -p parameter and the worker's place in the plan. */
    public record Open(String store, Map<String, String> params, ClusterPlan.Layout plan, int worker) {}

    /**
     * Whether the store holds the graph, and whether the worker kept its expected state from an earlier command.
     *
     * @param storeMark the state mark the worker's store holds ({@link org.bgbench.store.StateMark}), or null for none
     * @param heldMark  the mark of the state this worker holds: {@code loaded:<fingerprint>} for the generated graph,
     *                  the {@code state:} token the coordinator sealed its last run's writes with, or {@code running:}
     *                  while writes are not sealed; the coordinator runs only when every worker's matches the store's
     */
    public record Opened(
            int members, boolean loaded, boolean keptState, int touched, String storeMark, String heldMark) {}

    /**
     * {@code mark}: the worker's state now is the one {@code mark} names (it adopts it as its held mark), and, when
     * {@code write}, the worker writes it into its store as the store's state mark; with {@code expected} (null: none)
     * only if the store's mark is still that one, in one compare-and-set, and refuses otherwise. With
     * {@code ifUnacted} the worker does nothing and answers {@code Ack(false)} when its members acted in its last
     * run: a mark given back after a failed run must not hide a write that may have reached the store.
     */
    public record Mark(String mark, boolean write, String expected, boolean ifUnacted) {
        public Mark(String mark, boolean write) {
            this(mark, write, null, false);
        }

        public Mark(String mark, boolean write, String expected) {
            this(mark, write, expected, false);
        }
    }

    /**
     * The answer to {@code check}: null {@code parameter} when the worker can run its share, else the parameter it
     * refuses and why (the message of BG's bad-input line without the parameter's name).
     */
    public record Checked(String parameter, String problem) {
        public static final Checked OK = new Checked(null, null);
    }

    /** {@code load}: loader threads on the worker. */
    public record Load(int threads) {}

    /** Rows loaded so far (streamed), or in all (the answer). */
    public record Loaded(long rows, double seconds) {}

    /** {@code finish-load}: what the load took, for the report; {@code partial} for a store of the worker's own. */
    public record FinishLoad(long rows, double loadS, boolean partial) {}

    /** The sanity check's totals after {@code finish-load}. */
    public record Finished(
            double finishS, long members, long friendships, long pending, long resources, long comments) {}

    /**
     * One second of a run as a worker streams it: its figures, the latency histogram of all its actions (base64
     * HdrHistogram, {@link Latencies#encode}), and per action or session code that had executions, no-ops or errors
     * in it, that kind's figures ({@link KindSecond}), so the coordinator's merged seconds carry per-action figures
     * for its interval log and its observers (the deck's live file). Warm-up seconds carry no kinds.
     */
    public record Second(boolean warmup, SeriesPoint point, String hdr, Map<String, KindSecond> kinds) {}

    /**
     * One kind's part of a streamed {@link Second}.
     *
     * @param hdr        latencies of its executions (base64 HdrHistogram), or null when none completed or got stuck
     * @param withinBeta executions with latency within β
     * @param noops      executions skipped for want of a valid target
     * @param errors     executions that failed
     * @param errorNanos total time of the failed executions, ns
     * @param cpuNanos   BG's thread CPU time in the sampled store calls, ns
     * @param cpuSamples the store calls sampled for {@code cpuNanos}
     */
    public record KindSecond(
            String hdr, long withinBeta, long noops, long errors, long errorNanos, long cpuNanos, long cpuSamples) {
        /** A kind that did nothing in the second. */
        public static final KindSecond NONE = new KindSecond(null, 0, 0, 0, 0, 0, 0);

        /** What a worker streams of {@code k}; null when the kind did nothing in the second. */
        public static KindSecond of(KindCounts k) {
            boolean executed = k.latencies().getTotalCount() > 0;
            if (!executed && k.noops() == 0 && k.errors() == 0) {
                return null;
            }
            return new KindSecond(
                    executed ? Latencies.encode(k.latencies()) : null,
                    k.withinBeta(),
                    k.noops(),
                    k.errors(),
                    k.errorNanos(),
                    k.cpuNanos(),
                    k.cpuSamples());
        }

        /** The latencies as a histogram (empty when none were sent). */
        public Histogram latencies() {
            return hdr == null ? Latencies.newHistogram() : Latencies.decode(hdr);
        }

        /** The sum of both kinds' counts; the histogram is left out (the coordinator adds those itself). */
        public KindSecond plusCounts(KindSecond o) {
            return new KindSecond(
                    null,
                    withinBeta + o.withinBeta,
                    noops + o.noops,
                    errors + o.errors,
                    errorNanos + o.errorNanos,
                    cpuNanos + o.cpuNanos,
                    cpuSamples + o.cpuSamples);
        }
    }

    /**
     * The end of a run on a worker: its own validated result, where the worker keeps it, and how many of its members
     * writes have changed since its part of the store last held the generated graph (a repair's size), and whether
     * its members acted (false: the run ended before its first action, so nothing of it reached the store).
     */
    public record RunDone(
            boolean completed, String abortReason, String file, RunResult result, int touched, boolean acted) {}

    /**
     * How a worker resets its part: forget its state, undo its writes (RepairDB), restore the image, or read its
     * members back and fix every difference from the generated graph ({@code bg verify --repair}).
     */
    public enum ResetHow {
        STATE,
        REPAIR,
        IMAGE,
        FULL
    }

    /** {@code reset}. */
    public record Reset(ResetHow how, int threads) {}

    /** What a reset did; a repair says whether the store's read-back agreed. */
    public record ResetDone(
            boolean verified, long relationships, long comments, int touched, String mismatch, double seconds) {}

    /**
     * {@code save-image}: whether the store has images, and how long taking it took (null when it existed);
     * {@code notLoaded}: none existed and none was taken, since the store's mark does not say it holds the freshly
     * loaded graph (the coordinator reloads first).
     */
    public record ImageSaved(boolean supported, Double seconds, boolean notLoaded) {}

    /** {@code verify}: how many differences to report at most. */
    public record Verify(int limit) {}

    /** The differences between the worker's part of the store and its expected state. */
    public record Verified(int members, int touched, List<String> differences) {}

    /** {@code stop}: why the coordinator ends the run. */
    public record Stop(String reason) {}

    /** Whether a run was going on when {@code stop} arrived. */
    public record Stopped(boolean wasRunning) {}

    /** Whether the worker will end its process after {@code shutdown}. */
    public record ShuttingDown(boolean shuttingDown) {}
}
