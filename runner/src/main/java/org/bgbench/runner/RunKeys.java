package org.bgbench.runner;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Numbers;

/** The keys of a run that belong to the engine (threads, validation), with their meaning and their parsing. */
public final class RunKeys {
    /** Keys of BG's emulator and validation that USC BG does not have, with what they mean. */
    public static final Map<String, String> RUN = new LinkedHashMap<>();

    /** Keys of BG's loader. */
    public static final Map<String, String> LOADER = Map.of("numloadthreads", "loader threads (default: 2 × cores)");

    /** Keys of the original BG that name its own classes or features BG does differently; accepted, ignored. */
    public static final Set<String> IGNORED_USC = Set.of(
            "db",
            "userworkload",
            "friendshipworkload",
            "resourceworkload",
            "exportfile",
            "exporter",
            "measurementtype",
            "timeseries.granularity",
            "validationapproach",
            "initapproach",
            "port",
            "monitor",
            "ratingmode",
            "expectedlatency",
            "expectedavgstaleness",
            "expectedstalenessperc",
            "insertorder",
            "fieldcount",
            "fieldlength",
            "readallfields",
            "writeallfields",
            "dbclients",
            "logdir",
            "lockreads",
            "maxtime",
            "benchmarkstats");

    static {
        RUN.put(
                "threadkind",
                "auto, virtual or platform: threads emulating members (auto: platform threads up "
                        + "to T = 8 × cores for a networked store and T = 64 for one inside BG's process, virtual beyond; "
                        + "see docs/architecture.md)");
        RUN.put(
                "validation",
                "true or false: log every read and write and check each read for unpredictable data "
                        + "after the run (default true; USC BG's enablelogging is read when this is not given)");
        RUN.put("enablelogging", "USC BG's name for validation (true or false)");
        RUN.put(
                "validation.memory",
                "heap the validator may use before it spills the logs to disk, e.g. 512m, 2g " + "(default 1g)");
        RUN.put("validation.threads", "validator threads (default: cores)");
        RUN.put("freshness.buckets", "b, buckets of the freshness-confidence curve (default 10)");
        RUN.put("tau", "τ of the SLA: the largest % of reads that may observe unpredictable data (default 0.01)");
        RUN.put(
                "verify.sample",
                "members of each kind (touched by earlier runs' writes, and any) that bg run and bg "
                        + "rate compare with BG's expected state before they start, with the store's totals; a difference "
                        + "refuses the run (default " + LocalStore.DEFAULT_VERIFY_SAMPLE + ", 0: no check)");
        RUN.put(
                "keeplogs",
                "true or false: keep the validation logs next to the result after validating " + "(default true)");
        RUN.put(
                "arrivals",
                "the open model's arrival schedule (--arrivals): RATE per second, or phases such as "
                        + "1000:30s,2000:30s,ramp:4000:60s; threadcount is then the in-flight limit (docs/open-model.md)");
        RUN.put("target", "USC BG's target rate, actions per second: the same as arrivals=RATE");
        RUN.put("arrivalprocess", "constant or poisson: how the open model spaces arrivals (default constant)");
        RUN.put(
                "maxlag",
                "the open model: an arrival starting later than this after its due time is late (default 1s)");
        RUN.put(
                "maxlatepct",
                "the open model: the run is invalid when more than this % of arrivals are late " + "(default 5)");
    }

    /** The open model's settings of a run ({@code arrivals} or USC's {@code target}), or null for the closed model. */
    public static OpenModel openModel(Parameters p) {
        String arrivals = p.get("arrivals");
        String target = p.get("target");
        if (arrivals == null
                && target != null
                && !target.isBlank()
                && !target.trim().equals("0")) {
            arrivals = target.trim();
        }
        if (arrivals == null || arrivals.isBlank()) {
            for (String k : List.of("arrivalprocess", "maxlag", "maxlatepct")) {
                if (p.get(k) != null) {
                    throw new InvalidParameterException(
                            k, "applies to the open model only: give " + "--arrivals RATE too");
                }
            }
            return null;
        }
        Duration lag = p.get("maxlag") == null ? OpenModel.DEFAULT_MAX_LAG : Durations.parse("maxlag", p.get("maxlag"));
        double late = OpenModel.DEFAULT_MAX_LATE_PCT;
        if (p.get("maxlatepct") != null) {
            try {
                late = Double.parseDouble(p.get("maxlatepct").trim());
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(
                        "maxlatepct", "expected a percentage from 0 " + "up to 100, got '" + p.get("maxlatepct") + "'");
            }
        }
        return new OpenModel(arrivals.trim(), p.get("arrivalprocess"), lag, late);
    }

    private RunKeys() {}

    /** Validation settings of a run, or null when validation is off. */
    public static ValidationOptions validation(Parameters p) {
        String v = p.get("validation");
        if (v == null) {
            v = p.get("enablelogging");
        }
        boolean on = v == null || parseBool(v.trim(), v == p.get("validation") ? "validation" : "enablelogging");
        if (!on) {
            return null;
        }
        long memory = 1L << 30;
        String m = p.get("validation.memory");
        if (m != null) {
            memory = ValidationOptions.parseBytes("validation.memory", m);
        }
        int threads = Runtime.getRuntime().availableProcessors();
        if (p.get("validation.threads") != null) {
            threads = positive("validation.threads", p.get("validation.threads"));
        }
        int buckets =
                p.get("freshness.buckets") == null ? 10 : positive("freshness.buckets", p.get("freshness.buckets"));
        double tau = 0.01;
        if (p.get("tau") != null) {
            try {
                tau = Double.parseDouble(p.get("tau").trim());
            } catch (NumberFormatException e) {
                tau = -1;
            }
            if (!(tau >= 0 && tau <= 100)) {
                throw new InvalidParameterException(
                        "tau", "expected a percentage from 0 to 100, got '" + p.get("tau") + "'");
            }
        }
        boolean keep = p.get("keeplogs") == null || parseBool(p.get("keeplogs").trim(), "keeplogs");
        return new ValidationOptions(memory, threads, buckets, tau, keep);
    }

    /** {@code verify.sample}: members of each kind the check before a run compares (0: none). */
    public static int verifySample(Parameters p) {
        String v = p.get("verify.sample");
        if (v == null) {
            return LocalStore.DEFAULT_VERIFY_SAMPLE;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new InvalidParameterException(
                "verify.sample", "expected a whole number of members, " + "0 or more, got '" + v + "'");
    }

    private static boolean parseBool(String v, String key) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new InvalidParameterException(key, "expected true or false, got '" + v + "'");
    }

    private static int positive(String key, String v) {
        if (Numbers.parseInt(key, v) >= 1) {
            return Numbers.parseInt(key, v);
        }
        throw new InvalidParameterException(key, "expected a whole number of at least 1, got '" + v + "'");
    }

    public static EmulatorConfig.ThreadKind threadKind(Parameters p) {
        String v = p.get("threadkind");
        if (v == null) {
            return EmulatorConfig.ThreadKind.AUTO;
        }
        if (v.trim().equalsIgnoreCase("shared")) {
            throw new InvalidParameterException(
                    "threadkind",
                    "shared is no longer offered: members run"
                            + " on platform or virtual threads (threadkind=auto, platform or virtual)");
        }
        try {
            return EmulatorConfig.ThreadKind.valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidParameterException("threadkind", "expected auto, virtual or platform, got '" + v + "'");
        }
    }
}
