package org.bgbench.measurement.open;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * What the open model adds to a run's result (docs/open-model.md): the schedule asked for, how well BG kept to it,
 * whether the run is valid, the service times beside the response times (which the result's {@code actions} and
 * {@code total} hold, counted from each arrival's due time), and each phase of the schedule on its own.
 *
 * @param schedule       the arrival schedule as given ({@code 1000:30s,ramp:4000:60s}), this process's share of it
 * @param process        {@code constant} or {@code poisson}
 * @param inFlightLimit  arrivals BG keeps started and unfinished at most (its threads)
 * @param maxLagMs       an arrival that started later than this after it was due is late
 * @param maxLatePct     the run is invalid when more than this % of arrivals were late
 * @param offered        arrivals due in the measured period: started ones plus the backlog left at its end
 * @param started        arrivals of the measured period that started
 * @param offeredRate    offered / the measured period's length, per second
 * @param queued         arrivals already due when a thread took them: every thread was busy (the in-flight limit)
 * @param unstarted      arrivals due in the measured period that no thread had started when it ended
 * @param oldestUnstartedMs how long the oldest of those had been due when the period ended, ms
 * @param late           started arrivals that started more than {@code maxLagMs} after their due time, plus every
 *                       unstarted one (never offered to the store)
 * @param latePct        100 × late / offered
 * @param startDelay     how long after its due time each arrival started
 * @param valid          false when BG fell behind its schedule beyond the bound: the store was not offered the rate
 * @param invalidReason  why, in words; null when valid
 * @param service        per action and session code: service times, from the send to the reply
 * @param phases         the schedule's phases, each measured on its own
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record OpenModelResult(
        String schedule,
        String process,
        int inFlightLimit,
        double maxLagMs,
        double maxLatePct,
        long offered,
        long started,
        double offeredRate,
        long queued,
        long unstarted,
        Double oldestUnstartedMs,
        long late,
        double latePct,
        LatencySummary startDelay,
        boolean valid,
        String invalidReason,
        Map<String, LatencySummary> service,
        List<PhaseResult> phases) {

    public OpenModelResult {
        service = service == null ? Map.of() : service;
        phases = phases == null ? List.of() : List.copyOf(phases);
    }

    /**
     * One phase of the schedule: its target rate, the arrivals that started in it and the response times of the
     * actions that completed in its seconds (a second belongs to the phase that holds its middle).
     *
     * @param label      as written: {@code 2000:30s}, {@code ramp:4000:60s}
     * @param startS     when it started, s into the measured period
     * @param endS       when it ended
     * @param fromRate   its rate at its start, per second
     * @param toRate     its rate at its end
     * @param started    arrivals due in it that started
     * @param throughput actions completed per second of its seconds
     * @param response   response times of the actions completed in its seconds
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PhaseResult(
            int index,
            String label,
            double startS,
            double endS,
            double fromRate,
            double toRate,
            long started,
            double throughput,
            LatencySummary response) {
        /** A builder with every figure zero or absent, to be set by name. */
        public static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link PhaseResult} by name rather than by position. */
        public static final class Builder {
            private int index;
            private String label;
            private double startS;
            private double endS;
            private double fromRate;
            private double toRate;
            private long started;
            private double throughput;
            private LatencySummary response;

            private Builder() {}

            public Builder index(int v) {
                index = v;
                return this;
            }

            public Builder label(String v) {
                label = v;
                return this;
            }

            public Builder startS(double v) {
                startS = v;
                return this;
            }

            public Builder endS(double v) {
                endS = v;
                return this;
            }

            public Builder fromRate(double v) {
                fromRate = v;
                return this;
            }

            public Builder toRate(double v) {
                toRate = v;
                return this;
            }

            public Builder started(long v) {
                started = v;
                return this;
            }

            public Builder throughput(double v) {
                throughput = v;
                return this;
            }

            public Builder response(LatencySummary v) {
                response = v;
                return this;
            }

            public PhaseResult build() {
                return new PhaseResult(index, label, startS, endS, fromRate, toRate, started, throughput, response);
            }
        }
    }

    /** A builder with every figure zero or absent, to be set by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link OpenModelResult} by name rather than by position. */
    public static final class Builder {
        private String schedule;
        private String process;
        private int inFlightLimit;
        private double maxLagMs;
        private double maxLatePct;
        private long offered;
        private long started;
        private double offeredRate;
        private long queued;
        private long unstarted;
        private Double oldestUnstartedMs;
        private long late;
        private double latePct;
        private LatencySummary startDelay;
        private boolean valid;
        private String invalidReason;
        private Map<String, LatencySummary> service;
        private List<PhaseResult> phases;

        private Builder() {}

        public Builder schedule(String v) {
            schedule = v;
            return this;
        }

        public Builder process(String v) {
            process = v;
            return this;
        }

        public Builder inFlightLimit(int v) {
            inFlightLimit = v;
            return this;
        }

        public Builder maxLagMs(double v) {
            maxLagMs = v;
            return this;
        }

        public Builder maxLatePct(double v) {
            maxLatePct = v;
            return this;
        }

        public Builder offered(long v) {
            offered = v;
            return this;
        }

        public Builder started(long v) {
            started = v;
            return this;
        }

        public Builder offeredRate(double v) {
            offeredRate = v;
            return this;
        }

        public Builder queued(long v) {
            queued = v;
            return this;
        }

        public Builder unstarted(long v) {
            unstarted = v;
            return this;
        }

        public Builder oldestUnstartedMs(Double v) {
            oldestUnstartedMs = v;
            return this;
        }

        public Builder late(long v) {
            late = v;
            return this;
        }

        public Builder latePct(double v) {
            latePct = v;
            return this;
        }

        public Builder startDelay(LatencySummary v) {
            startDelay = v;
            return this;
        }

        public Builder valid(boolean v) {
            valid = v;
            return this;
        }

        public Builder invalidReason(String v) {
            invalidReason = v;
            return this;
        }

        public Builder service(Map<String, LatencySummary> v) {
            service = v;
            return this;
        }

        public Builder phases(List<PhaseResult> v) {
            phases = v;
            return this;
        }

        public OpenModelResult build() {
            return new OpenModelResult(
                    schedule,
                    process,
                    inFlightLimit,
                    maxLagMs,
                    maxLatePct,
                    offered,
                    started,
                    offeredRate,
                    queued,
                    unstarted,
                    oldestUnstartedMs,
                    late,
                    latePct,
                    startDelay,
                    valid,
                    invalidReason,
                    service,
                    phases);
        }
    }
}
