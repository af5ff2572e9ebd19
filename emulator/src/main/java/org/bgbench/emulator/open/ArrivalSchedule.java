package org.bgbench.emulator.open;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;

/**
 * The open model's arrival rate over a run ({@code --arrivals}): phases of a constant rate ({@code 1000:30s}) or of a
 * rate ramping linearly from the one before ({@code ramp:4000:60s}; a leading ramp starts from 0), one after the other,
 * and how arrivals are spaced at that rate: evenly ({@link Process#CONSTANT}, USC BG's {@code target}) or as a Poisson
 * process (exponential gaps of the same mean). A single rate without a duration ({@code 1000}) lasts the run's
 * {@code --duration}; only the last phase may omit its duration.
 *
 * <p>The schedule's clock starts with the measured period; the warm-up runs at the rate the first phase ends with.
 *
 * @param phases  at least one
 * @param process how arrivals are spaced
 */
public record ArrivalSchedule(List<Phase> phases, Process process) {
    /** The command-line option this schedule comes from, named in its error messages. */
    public static final String OPTION = "--arrivals";

    /**
     * The highest rate a phase may ask for, arrivals per second. {@link ArrivalClock} spaces arrivals in steps of
     * 1/1024 ns: at this rate a gap is 1024 steps, within 0.1 % of the rate asked for; far beyond it gaps round to a
     * step or two and the rate offered is not the one asked for. It is a thousand times what one BG starts.
     */
    public static final double MAX_RATE = 1e9;

    /** {@link #MAX_RATE} as the messages write it. */
    public static String maxRateText() {
        return String.format(Locale.ROOT, "%,d", (long) MAX_RATE);
    }

    /** How arrivals are spaced at a given rate. */
    public enum Process {
        CONSTANT,
        POISSON
    }

    /**
     * One phase: {@code fromRate} to {@code toRate} arrivals per second over {@code duration} (equal for a step);
     * {@code duration} null for an open-ended last phase.
     */
    public record Phase(double fromRate, double toRate, Duration duration, boolean ramp) {
        /** The phase as written: {@code 1000:30s} or {@code ramp:4000:60s}. */
        public String label() {
            String rate = rate(toRate);
            String d = duration == null ? "" : ":" + seconds(duration);
            return ramp ? "ramp:" + rate + d : rate + d;
        }
    }

    public ArrivalSchedule {
        if (phases == null || phases.isEmpty()) {
            throw new InvalidParameterException(OPTION, "needs at least one rate");
        }
        phases = List.copyOf(phases);
        for (int i = 0; i < phases.size() - 1; i++) {
            if (phases.get(i).duration() == null) {
                throw new InvalidParameterException(
                        OPTION, "only the last phase may omit its duration (RATE:DURATION)");
            }
        }
        if (process == null) {
            process = Process.CONSTANT;
        }
    }

    /**
     * Parses {@code 1000}, {@code 1000:30s,2000:30s,ramp:4000:60s}; rates are arrivals per second, at least one
     * arrival in a step phase's second being possible (rates above 0). {@code process} is {@code constant} or
     * {@code poisson} (null: constant).
     */
    public static ArrivalSchedule parse(String text, String process) {
        if (text == null || text.isBlank()) {
            throw new InvalidParameterException(OPTION, "needs a rate per second, e.g. 1000 or 1000:30s,ramp:4000:60s");
        }
        List<Phase> phases = new ArrayList<>();
        double before = 0;
        for (String item : text.split(",")) {
            String[] p = item.trim().split(":");
            boolean ramp = p.length > 0 && p[0].equalsIgnoreCase("ramp");
            int at = ramp ? 1 : 0;
            if (p.length - at < 1 || p.length - at > 2 || (ramp && p.length != 3)) {
                throw new InvalidParameterException(
                        OPTION,
                        "'" + item.trim() + "' is not RATE, RATE:DURATION or "
                                + "ramp:RATE:DURATION (e.g. 1000:30s,ramp:4000:60s)");
            }
            double rate = rate(p[at], item);
            Duration d = p.length - at == 2 ? Durations.parse(OPTION, p[at + 1]) : null;
            if (d != null && !d.isPositive()) {
                throw new InvalidParameterException(OPTION, "'" + item.trim() + "': a phase must last longer than 0");
            }
            phases.add(new Phase(ramp ? before : rate, rate, d, ramp));
            before = rate;
        }
        return new ArrivalSchedule(phases, process(process));
    }

    private static Process process(String text) {
        if (text == null || text.isBlank() || text.equalsIgnoreCase("constant")) {
            return Process.CONSTANT;
        }
        if (text.equalsIgnoreCase("poisson")) {
            return Process.POISSON;
        }
        throw new InvalidParameterException("--arrival-process", "must be constant or poisson, got '" + text + "'");
    }

    private static double rate(String text, String item) {
        double r;
        try {
            r = Double.parseDouble(text.replace("_", ""));
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r > 0) || Double.isInfinite(r)) {
            throw new InvalidParameterException(
                    OPTION,
                    "'" + item.trim() + "': the rate must be a number of arrivals " + "per second above 0, got '" + text
                            + "'");
        }
        if (r > MAX_RATE) {
            throw new InvalidParameterException(
                    OPTION,
                    "'" + item.trim() + "': the rate must be at most "
                            + maxRateText()
                            + " arrivals per second (the finest spacing BG's arrival clock keeps), got '"
                            + text + "'");
        }
        return r;
    }

    /** The schedule as {@link #parse} reads it back (the process is not part of it). */
    public String text() {
        return String.join(",", phases.stream().map(Phase::label).toList());
    }

    /** The schedule's length, or null when its last phase lasts as long as the run. */
    public Duration length() {
        Duration total = Duration.ZERO;
        for (Phase p : phases) {
            if (p.duration() == null) {
                return null;
            }
            total = total.plus(p.duration());
        }
        return total;
    }

    /** The rate the warm-up runs at: the one the first phase ends with. */
    public double warmupRate() {
        return phases.get(0).toRate();
    }

    /** The highest rate the schedule asks for. */
    public double peakRate() {
        return phases.stream()
                .mapToDouble(p -> Math.max(p.fromRate(), p.toRate()))
                .max()
                .orElse(0);
    }

    /** The phase that holds {@code nanos} after the schedule started (the last one beyond its end). */
    public int phaseAt(long nanos) {
        long start = 0;
        for (int i = 0; i < phases.size() - 1; i++) {
            start += phases.get(i).duration().toNanos();
            if (nanos < start) {
                return i;
            }
        }
        return phases.size() - 1;
    }

    /** When phase {@code i} starts, ns after the schedule started. */
    public long phaseStart(int i) {
        long start = 0;
        for (int k = 0; k < i; k++) {
            start += phases.get(k).duration().toNanos();
        }
        return start;
    }

    /** The rate (arrivals per second) {@code nanos} after the schedule started; the last phase's end rate beyond. */
    public double rateAt(long nanos) {
        int i = phaseAt(nanos);
        Phase p = phases.get(i);
        if (!p.ramp() || p.duration() == null) {
            return p.toRate();
        }
        double f = Math.min(
                1, Math.max(0, (double) (nanos - phaseStart(i)) / p.duration().toNanos()));
        return p.fromRate() + f * (p.toRate() - p.fromRate());
    }

    /**
     * The arrivals the schedule makes from its start to {@code nanos} after it (the integral of its rate), for the
     * arrivals due in a period and the share of a rate split over workers.
     */
    public double arrivalsUntil(long nanos) {
        double n = 0;
        long start = 0;
        for (Phase p : phases) {
            long len = p.duration() == null ? Long.MAX_VALUE : p.duration().toNanos();
            long in = Math.min(len, nanos - start);
            if (in <= 0) {
                break;
            }
            double end = p.ramp() && p.duration() != null
                    ? p.fromRate() + (double) in / len * (p.toRate() - p.fromRate())
                    : p.toRate();
            double from = p.ramp() ? p.fromRate() : p.toRate();
            n += (from + end) / 2 * in / 1e9;
            if (len == Long.MAX_VALUE) {
                break;
            }
            start += len;
        }
        return n;
    }

    /** The same schedule at {@code factor} times every rate (a worker's share of the rate). */
    public ArrivalSchedule scaled(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("factor must be above 0, got " + factor);
        }
        return new ArrivalSchedule(
                phases.stream()
                        .map(p -> new Phase(p.fromRate() * factor, p.toRate() * factor, p.duration(), p.ramp()))
                        .toList(),
                process);
    }

    /** A duration {@link Durations#parse} reads back: whole seconds, else milliseconds or nanoseconds. */
    private static String seconds(Duration d) {
        long ns = d.toNanos();
        return ns % 1_000_000_000L == 0
                ? ns / 1_000_000_000L + "s"
                : ns % 1_000_000 == 0 ? ns / 1_000_000 + "ms" : ns + "ns";
    }

    private static String rate(double r) {
        return r == Math.rint(r) && Math.abs(r) < 1e15
                ? Long.toString((long) r)
                : String.format(Locale.ROOT, "%.6g", r);
    }
}
