package org.bgbench.measurement.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.bgbench.measurement.KindCounts;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.Latencies;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.SecondSample;
import org.bgbench.measurement.SeriesPoint;

/**
 * A run's per-second latency histograms in HdrHistogram's interval log format ({@code .hlog}), which HdrHistogram's
 * {@code HistogramLogReader} and {@code HistogramLogProcessor} read.
 *
 * <p>What it holds: a header (the measured period's start as {@code StartTime} and {@code BaseTime}, the legend), then
 * for every measured second (warm-up seconds are left out) one histogram per kind that had executions in it, tagged
 * with the kind's code ({@code VP}, {@code LF}, … and the session codes), and one untagged histogram of all actions
 * together (sessions excluded), the one {@code HistogramLogProcessor} reads when given no {@code -tag}. Values are
 * nanoseconds with BG's histogram configuration ({@link Latencies}); the {@code Interval_Max} column is in
 * milliseconds, and so are {@code HistogramLogProcessor}'s figures with its default {@code -outputValueUnitRatio}
 * of 1e6. Timestamps are seconds since the start of the measured period.
 *
 * <p>{@link #finish} makes the log add up to the result: whatever the result's histograms hold beyond the seconds
 * written (executions still waiting on the store when the period ended, the stuck ones, recorded with the time they
 * had waited; in a merged result also seconds not every worker reported) goes into one last interval, after a
 * comment line, that starts and ends where the last second ended. So per tag, the log's total count is the result's
 * {@code count + stuck} of that kind, and untagged the result's {@code total.count + total.stuck}.
 *
 * <p>Every second is flushed, so a killed run keeps its log up to its last second. A write failure (a full disk)
 * never fails the run: the log stops there and {@link #finish} adds a warning to the result.
 */
public final class IntervalLog implements AutoCloseable {
    /** The comment line before the interval of what the result holds beyond the seconds. */
    public static final String REST_COMMENT =
            "executions the result holds beyond the seconds above " + "(stuck ones, with the time they had waited)";

    private final Path file;
    private PrintStream stream;
    private HistogramLogWriter writer;
    private String failure;
    private boolean closed;
    private int intervals;
    private double lastEndS;
    /** What the written intervals hold, per tag; the key "" is the untagged one. */
    private final Map<String, Histogram> written = new LinkedHashMap<>();
    /**
     * Where the warm-up's seconds are encoded and dropped. The log starts with the measured period, so its code (the
     * histograms' compressed encoding and sums) was first run, and compiled by the JIT, there, on cores a store may
     * share: C2's compilations of HdrHistogram's encoding were half of its work in a run's measured seconds
     * (docs/benchmarks.md). Rehearsed every warm-up second, they are compiled before it.
     */
    private HistogramLogWriter rehearsal;

    private final Map<String, Histogram> rehearsed = new LinkedHashMap<>();
    private int rehearsals;

    /** A log to be written to {@code file} (created with the first measured second; an existing file is replaced). */
    public IntervalLog(Path file) {
        this.file = file.toAbsolutePath();
    }

    public Path file() {
        return file;
    }

    /** Writes a measured sample's second (a warm-up sample is ignored); a listener for the measurements. */
    public synchronized void second(SecondSample sample) {
        Map<String, Histogram> kinds = new LinkedHashMap<>();
        for (KindCounts k : sample.kinds()) {
            if (k.latencies().getTotalCount() > 0) {
                kinds.put(k.code(), k.latencies());
            }
        }
        SeriesPoint p = sample.point();
        if (sample.warmup()) {
            rehearse(p.elapsedS() - p.intervalS(), p.elapsedS(), kinds, sample.actionLatencies());
            return;
        }
        interval(p.elapsedS() - p.intervalS(), p.elapsedS(), kinds, sample.actionLatencies());
    }

    /** Encodes a warm-up second as {@link #interval} would write it, into nothing. Never fails the run. */
    private void rehearse(double startS, double endS, Map<String, Histogram> kinds, Histogram actions) {
        if (closed || failure != null) {
            return;
        }
        try {
            if (rehearsal == null) {
                rehearsal = new HistogramLogWriter(
                        new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8));
            }
            for (Map.Entry<String, Histogram> e : kinds.entrySet()) {
                output(rehearsal, rehearsed, startS, endS, e.getKey(), e.getValue());
            }
            output(rehearsal, rehearsed, startS, endS, null, actions);
            rehearsals++;
        } catch (RuntimeException e) {
            // A rehearsal only warms code up; the measured seconds report their own failures.
        }
    }

    /**
     * Writes one interval, {@code startS} to {@code endS} seconds since the start of the measured period: a histogram
     * per kind code (those with executions) and the untagged one of all actions. The first interval writes the header,
     * with the measured period's start as now less {@code endS}. The histograms are read, not kept.
     */
    public synchronized void interval(double startS, double endS, Map<String, Histogram> kinds, Histogram actions) {
        if (closed || failure != null) {
            return;
        }
        try {
            if (writer == null) {
                open(Instant.now().minusNanos((long) (endS * 1e9)));
            }
            for (Map.Entry<String, Histogram> e : kinds.entrySet()) {
                if (e.getValue().getTotalCount() > 0) {
                    output(startS, endS, e.getKey(), e.getValue());
                }
            }
            output(startS, endS, null, actions);
            intervals++;
            lastEndS = Math.max(lastEndS, endS);
            check();
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    private void open(Instant start) throws IOException {
        Files.createDirectories(file.getParent());
        stream = new PrintStream(
                new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), false, StandardCharsets.UTF_8);
        writer = new HistogramLogWriter(stream);
        writer.outputComment("BG per-second latency histograms: tag = action or session code, untagged = all "
                + "actions; values in ns, Interval_Max in ms; warm-up excluded");
        writer.outputLogFormatVersion();
        writer.outputStartTime(start.toEpochMilli());
        writer.outputBaseTime(start.toEpochMilli());
        writer.setBaseTime(start.toEpochMilli());
        writer.outputLegend();
    }

    private void output(double startS, double endS, String tag, Histogram h) {
        output(writer, written, startS, endS, tag, h);
    }

    private static void output(
            HistogramLogWriter to, Map<String, Histogram> sums, double startS, double endS, String tag, Histogram h) {
        String was = h.getTag();
        h.setTag(tag);
        try {
            to.outputIntervalHistogram(startS, endS, h);
        } finally {
            h.setTag(was);
        }
        sums.computeIfAbsent(tag == null ? "" : tag, t -> Latencies.newHistogram())
                .add(h);
    }

    /** Flushes; a PrintStream keeps its errors to itself until asked. */
    private void check() throws IOException {
        if (stream.checkError()) {
            throw new IOException("writing failed (is the disk full?)");
        }
    }

    private void fail(Exception e) {
        failure = "the histogram log " + file + " stops after " + intervals + " intervals: " + e.getMessage()
                + "; the result is not affected";
        closeStream();
    }

    /**
     * Ends the log so that it adds up to {@code result} (see the class comment) and closes it; returns the result,
     * with a warning when the log could not be written in full. Call once, with the final result.
     */
    public synchronized RunResult finish(RunResult result) {
        if (!closed && failure == null) {
            try {
                Map<String, Histogram> rest = new LinkedHashMap<>();
                Map<String, KindResult> all = new LinkedHashMap<>(result.actions());
                all.putAll(result.sessions());
                for (Map.Entry<String, KindResult> e : all.entrySet()) {
                    Histogram h = beyond(e.getValue(), e.getKey());
                    if (h.getTotalCount() > 0) {
                        rest.put(e.getKey(), h);
                    }
                }
                Histogram actions = beyond(result.total(), "");
                if (!rest.isEmpty() || actions.getTotalCount() > 0) {
                    if (writer == null) {
                        open(Instant.parse(result.startTime()));
                    }
                    writer.outputComment(REST_COMMENT);
                    for (Map.Entry<String, Histogram> e : rest.entrySet()) {
                        output(lastEndS, lastEndS, e.getKey(), e.getValue());
                    }
                    output(lastEndS, lastEndS, null, actions);
                    check();
                }
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }
        close();
        return failure == null ? result : result.withWarning(failure);
    }

    /** What {@code kind}'s histogram in the result holds beyond the intervals written under {@code tag}. */
    private Histogram beyond(KindResult kind, String tag) {
        Histogram h = kind == null ? Latencies.newHistogram() : kind.histogram();
        Histogram w = written.get(tag);
        if (w != null) {
            if (w.getTotalCount() > h.getTotalCount()) {
                throw new IllegalStateException("the log's " + (tag.isEmpty() ? "untagged" : tag) + " intervals hold "
                        + w.getTotalCount() + " values, the result " + h.getTotalCount());
            }
            h.subtract(w);
        }
        return h;
    }

    /** Warm-up seconds encoded and dropped so far (tests). */
    synchronized int rehearsals() {
        return rehearsals;
    }

    /** The reason the log stopped early, or null. */
    public synchronized String failure() {
        return failure;
    }

    /** Closes the file (without {@link #finish}: a run that failed keeps its seconds). */
    @Override
    public synchronized void close() {
        closed = true;
        closeStream();
    }

    private void closeStream() {
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }
}
