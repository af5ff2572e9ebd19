package org.bgbench.workload;

import static org.bgbench.model.GraphParameters.boolOf;
import static org.bgbench.model.GraphParameters.intOf;
import static org.bgbench.model.GraphParameters.longOf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.bgbench.model.Action;
import org.bgbench.model.Durations;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.workload.distribution.DistributionKind;
import org.bgbench.workload.distribution.DistributionSpec;
import org.bgbench.workload.distribution.Zipfian;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.MixKeys;
import org.bgbench.workload.mix.Mixes;

/**
 * The property keys of a workload, as in USC BG's workload files ({@code ViewProfileAction=0.4},
 * {@code requestdistribution}, {@code zipfianmean}, {@code threadcount}, ...) plus BG's own, and their mapping to a
 * {@link WorkloadSpec}.
 *
 * <p><b>Mix.</b> If any action or session frequency key is given, those keys define the mix: missing ones are 0 and
 * the given ones must sum to 100 % within {@link Mix#TOLERANCE}. Frequency keys are matched case-insensitively (USC
 * and dissertation spellings, see {@link Kind#byUscKey(String)}). A value is a fraction ({@code 0.4}) or a percentage with a
 * {@code %} sign ({@code 40%}); when no value has a {@code %} sign and the plain values sum to 100, they are all read as
 * percentages. Otherwise {@code mix} names a mix of {@link Mixes} (USC's {@code workload} key may name one too; its
 * usual value, a Java class such as {@code edu.usc.bg.workloads.CoreWorkload}, is ignored); without either, the mix is
 * {@value WorkloadSpec#DEFAULT_MIX}. A key ending in "Action" or "Session" that is none of these is rejected, so a
 * misspelt frequency does not silently become 0.
 */
public final class WorkloadParameters {
    /** The key naming a mix given by frequencies, for results ({@code custom} when not given). */
    public static final String MIX_NAME = "mixname";

    /** Key → description, in the order {@code bg run --help} lists them. */
    public static final Map<String, String> KEYS;

    static {
        Map<String, String> k = new LinkedHashMap<>();
        k.put(
                "mix",
                "named mix: " + String.join(", ", Mixes.names()) + " (default " + WorkloadSpec.DEFAULT_MIX
                        + "; not together with frequency keys)");
        k.put("workload", "USC BG's workload class (ignored), or a named mix like mix");
        k.put(
                MIX_NAME,
                "the name results give a mix set by frequency keys (default custom; a workload file's own "
                        + "name when the file sets them)");
        for (Action a : Action.values()) {
            k.put(
                    a.uscKey(),
                    "fraction of requests that are " + a.title() + " (" + a.name()
                            + "), 0..1 or a percentage such as 40%");
        }
        for (SessionType s : SessionType.values()) {
            k.put(
                    s.uscKey(),
                    "fraction of requests that are the " + s.title() + " session (" + s.code() + ": "
                            + String.join(
                                    " ", s.steps().stream().map(Action::name).toList()) + ")");
        }
        for (String u : MixKeys.UNSUPPORTED) {
            k.put(u, "USC BG key for an action or session this BG does not implement; only 0 is accepted");
        }
        k.put(
                "requestdistribution",
                "how socialites are picked: uniform, zipfian, dzipfian or latest (default dzipfian)");
        k.put(
                "targetdistribution",
                "how the other member or resource of an action is picked, among the worker's "
                        + "members: uniform, zipfian or latest (default uniform)");
        k.put(
                "zipfianmean",
                "θ of the Zipfian, 0 (most skewed) to 1 (uniform); 0.27 sends ~62 % of requests to 20 % "
                        + "of the members (default 0.27; 0.01 for latest, YCSB's exponent 0.99)");
        k.put("requestmean", "alias of zipfianmean (older USC BG files)");
        k.put(
                "zipfianscramble",
                "true: Zipfian ranks are scattered over the members by a seeded permutation; "
                        + "false: rank 1 is the first member (default true)");
        k.put("topk", "k of View Top-K Resources (default 5)");
        k.put("feedk", "k of View News Feed: the most recent shares it shows (default 10)");
        k.put(
                "pageshareratio",
                "fraction of Share Resource actions issued by a page the member follows instead "
                        + "of the member, 0..1 (default 0.01, as the dissertation's figures 8.12–8.19)");
        k.put(
                "sharelistratio",
                "fraction of shares made with a list of recipients instead of publicly, 0..1 " + "(default 0.1)");
        k.put("sharelistsize", "recipients of a list share, drawn from the sharer's friends or followers (default 10)");
        k.put("commentlength", "characters of a posted comment; the same key sizes the graph's comments (default 100)");
        k.put(
                "thinktime",
                "ε, pause between the actions of a session: plain milliseconds as USC BG, or 50ms, 1s "
                        + "(default 0)");
        k.put(
                "interarrivaltime",
                "ψ, pause of a thread between two requests: plain milliseconds as USC BG, or 50ms, "
                        + "1s (default 0)");
        k.put("threadcount", "T, emulator threads = simultaneous socialites (default 1)");
        k.put(
                "maxexecutiontime",
                "run length including warm-up: plain seconds as USC BG, or 30s, 10m, 1h; 0 = no "
                        + "time limit (default 60s unless operationcount is given)");
        k.put(
                "operationcount",
                "requests (actions or sessions) to issue after warm-up; 0 = no limit; the run ends "
                        + "at the first limit reached (default 0)");
        k.put(
                "warmup",
                "warm-up: a plain whole number is a count of requests, as USC BG; a number with a unit "
                        + "(30s, 2m) is a time (default 0 = none)");
        k.put("warmupthreads", "threads issuing the warm-up (default threadcount)");
        k.put(
                "locks",
                "true: IF and TF lock both members, AFR and RFR the socialite [dissertation table 5.1] (default true)");
        k.put(
                "uniquesocialites",
                "true: a member is emulated by at most one thread at a time [dissertation 5.3] " + "(default true)");
        k.put("numclients", "N, workers sharing the graph by D-Zipfian (default 1, or the number of probs)");
        k.put("machineid", "this worker's index, 0..numclients-1 (default 0)");
        k.put(
                "probs",
                "request rate of each worker, as USC BG: 0.3@0.6@0.1@ (commas also accepted); only ratios "
                        + "matter (default equal rates)");
        k.put("workloadseed", "seed of the member permutation and the emulator's random generators");
        KEYS = Collections.unmodifiableMap(k);
    }

    private WorkloadParameters() {}

    /**
     * Whether {@code key} is a workload key: one of {@link #KEYS} exactly, or any spelling and case of a frequency key
     * ({@link Kind#byUscKey(String)}, {@link MixKeys}).
     */
    public static boolean isKey(String key) {
        return KEYS.containsKey(key) || Kind.byUscKey(key).isPresent() || MixKeys.isUnsupported(key);
    }

    /**
     * Builds a spec from {@code props}. Keys that are not workload keys are ignored here (callers check them), except
     * keys that look like action or session frequencies, which are rejected when unknown.
     *
     * @throws InvalidParameterException naming the key at fault and what it accepts
     */
    public static WorkloadSpec toSpec(Map<String, String> props) {
        WorkloadSpec d = WorkloadSpec.defaults();
        NamedOrCustom mix = mixOf(props);

        DistributionKind socialKind = props.containsKey("requestdistribution")
                ? DistributionKind.parse("requestdistribution", props.get("requestdistribution"))
                : d.socialites().kind();
        DistributionKind targetKind = props.containsKey("targetdistribution")
                ? DistributionKind.parse("targetdistribution", props.get("targetdistribution"))
                : d.targets().kind();
        Double theta = theta(props);
        boolean scramble = boolOf(props, "zipfianscramble", true);
        DistributionSpec socialites =
                new DistributionSpec(socialKind, theta != null ? theta : defaultTheta(socialKind), scramble);
        DistributionSpec targets =
                new DistributionSpec(targetKind, theta != null ? theta : defaultTheta(targetKind), scramble);

        int threads = intOf(props, "threadcount", d.threads());
        boolean hasTime = present(props, "maxexecutiontime");
        long operations = longOf(props, "operationcount", 0);
        Duration time = hasTime
                ? Durations.parse("maxexecutiontime", props.get("maxexecutiontime"))
                : operations > 0 ? Duration.ZERO : WorkloadSpec.DEFAULT_DURATION;

        int workers = workers(props);
        return WorkloadSpec.builder()
                .mix(mix.mix())
                .mixName(mix.name())
                .socialites(socialites)
                .targets(targets)
                .topK(intOf(props, "topk", d.topK()))
                .commentLength(intOf(props, "commentlength", d.commentLength()))
                .thinkTime(millis(props, "thinktime"))
                .interArrivalTime(millis(props, "interarrivaltime"))
                .threads(threads)
                .maxExecutionTime(time)
                .operations(operations)
                .warmup(warmup(props))
                .warmupThreads(intOf(props, "warmupthreads", threads))
                .locks(boolOf(props, "locks", d.locks()))
                .uniqueSocialites(boolOf(props, "uniquesocialites", d.uniqueSocialites()))
                .workers(workers)
                .workerIndex(intOf(props, "machineid", d.workerIndex()))
                .workerRates(rates(props, workers))
                .seed(longOf(props, "workloadseed", d.seed()))
                .feeds(new FeedWorkload(
                        intOf(props, "feedk", d.feeds().k()),
                        fraction(props, "pageshareratio", d.feeds().pageShareFraction()),
                        fraction(props, "sharelistratio", d.feeds().listFraction()),
                        intOf(props, "sharelistsize", d.feeds().listSize())))
                .build();
    }

    /** The frequency keys of implemented actions and sessions among {@code props}' keys. */
    public static List<String> frequencyKeys(Map<String, String> props) {
        return props.keySet().stream().filter(k -> Kind.byUscKey(k).isPresent()).toList();
    }

    /** Whether {@code props} name a mix ({@code mix}, or USC's {@code workload} when it is not a Java class). */
    public static boolean namesMix(Map<String, String> props) {
        return present(props, "mix")
                || present(props, "workload") && !props.get("workload").contains(".");
    }

    /** A mix and its name: a named mix's, or {@code custom} (or {@value #MIX_NAME}'s). */
    public record NamedOrCustom(String name, Mix mix) {}

    /**
     * The mix that {@code props} define, by frequency keys or by name (see the class comment).
     *
     * @throws InvalidParameterException naming the key of a bad frequency, the keys and sum when they do not add up to
     *                                   100 %, or the unknown mix name
     */
    public static NamedOrCustom mixOf(Map<String, String> props) {
        record Given(String key, Kind kind, double value, boolean percent) {}
        List<Given> given = new ArrayList<>();
        Given[] byKind = new Given[Kind.count()];
        for (Map.Entry<String, String> e : props.entrySet()) {
            String key = e.getKey();
            Kind kind = Kind.byUscKey(key).orElse(null);
            if (kind != null) {
                Frequency f = frequency(key, e.getValue());
                if (byKind[kind.index()] != null) {
                    throw new InvalidParameterException(
                            key,
                            "sets the same frequency as " + byKind[kind.index()].key() + " (" + kind.code()
                                    + "); give it once");
                }
                Given g = new Given(key, kind, f.value(), f.percent());
                byKind[kind.index()] = g;
                given.add(g);
            } else if (MixKeys.isUnsupported(key)) {
                if (frequency(key, e.getValue()).value() != 0) {
                    throw new InvalidParameterException(
                            key,
                            "this BG does not implement that action or session "
                                    + "yet (feed following SR/VNF, graph actions and USC's legacy sessions); set it to 0 or "
                                    + "remove it");
                }
            } else if (MixKeys.looksLikeFrequencyKey(key)) {
                throw new InvalidParameterException(
                        key,
                        "unknown action or session frequency key; accepted (any " + "case): "
                                + String.join(", ", MixKeys.all()));
            }
        }
        String named = present(props, "mix") ? props.get("mix").trim() : null;
        String workload = present(props, "workload") ? props.get("workload").trim() : null;
        if (workload != null && workload.contains(".")) {
            workload = null; // USC's workload class, e.g. edu.usc.bg.workloads.CoreWorkload
        }
        String label = present(props, MIX_NAME) ? props.get(MIX_NAME).trim() : null;
        if (label != null && given.isEmpty()) {
            throw new InvalidParameterException(MIX_NAME, "names a mix given by frequency keys, and none is given");
        }
        if (given.isEmpty()) {
            if (named != null) {
                return new NamedOrCustom(
                        Mixes.find(named).map(Mixes.NamedMix::name).orElse(named), Mixes.byName("mix", named));
            }
            if (workload != null) {
                Mix m = Mixes.byName("workload", workload);
                return new NamedOrCustom(Mixes.find(workload).orElseThrow().name(), m);
            }
            return new NamedOrCustom(WorkloadSpec.DEFAULT_MIX, Mixes.byName(WorkloadSpec.DEFAULT_MIX));
        }
        StringJoiner keys = new StringJoiner(", ");
        given.forEach(g -> keys.add(g.key() + "=" + props.get(g.key()).trim()));
        if (named != null || workload != null) {
            throw new InvalidParameterException(
                    named != null ? "mix" : "workload",
                    "names a mix but the frequencies " + keys + " are given too; give one or the other");
        }
        boolean anyPercent = given.stream().anyMatch(Given::percent);
        double plainSum = given.stream()
                .filter(g -> !g.percent())
                .mapToDouble(Given::value)
                .sum();
        boolean plainArePercent = !anyPercent && Math.abs(plainSum - 100) <= 100 * Mix.TOLERANCE;
        double[] w = new double[Kind.count()];
        double sum = 0;
        for (Given g : given) {
            w[g.kind().index()] = g.percent() || plainArePercent ? g.value() / 100 : g.value();
            sum += w[g.kind().index()];
        }
        if (Math.abs(sum - 1) > Mix.TOLERANCE) {
            throw new InvalidParameterException(
                    "mix",
                    "the action and session frequencies must sum to 1 (100 %), "
                            + "got " + sum + " (" + Mix.percent(sum) + ") from " + keys
                            + "; keys not given count as 0 (fractions such as 0.4, or percentages such as 40%)");
        }
        return new NamedOrCustom(label != null ? label : "custom", Mix.ofWeights(w));
    }

    private record Frequency(double value, boolean percent) {}

    private static Frequency frequency(String key, String value) {
        String v = value == null ? "" : value.trim();
        boolean percent = v.endsWith("%");
        String num = percent ? v.substring(0, v.length() - 1).trim() : v;
        double f;
        try {
            f = num.isEmpty() ? 0 : Double.parseDouble(num);
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(
                    key, "expected a fraction such as 0.4 or a percentage such as 40%, " + "got '" + value + "'");
        }
        if (!Double.isFinite(f) || f < 0) {
            throw new InvalidParameterException(key, "a frequency must be 0 or more, got '" + value + "'");
        }
        return new Frequency(f, percent);
    }

    private static boolean present(Map<String, String> props, String key) {
        String v = props.get(key);
        return v != null && !v.isBlank();
    }

    private static Double theta(Map<String, String> props) {
        boolean z = present(props, "zipfianmean");
        boolean r = present(props, "requestmean");
        if (!z && !r) {
            return null;
        }
        double t = z ? doubleOf(props, "zipfianmean") : doubleOf(props, "requestmean");
        if (z && r && t != doubleOf(props, "requestmean")) {
            throw new InvalidParameterException(
                    "requestmean",
                    "is an alias of zipfianmean and disagrees with it ("
                            + props.get("requestmean").trim() + " vs "
                            + props.get("zipfianmean").trim() + "); give one");
        }
        Zipfian.checkTheta(z ? "zipfianmean" : "requestmean", t);
        return t;
    }

    /** A fraction given as 0.01 or as a percentage such as 1%. */
    private static double fraction(Map<String, String> props, String key, double fallback) {
        String v = props.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        v = v.trim();
        boolean percent = v.endsWith("%");
        try {
            double x =
                    Double.parseDouble(percent ? v.substring(0, v.length() - 1).trim() : v);
            return percent ? x / 100 : x;
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, "expected a fraction such as 0.01 or 1%, got '" + v + "'");
        }
    }

    private static double doubleOf(Map<String, String> props, String key) {
        return GraphParameters.doubleOf(props, key, Double.NaN);
    }

    /** YCSB's latest uses the Zipfian constant 0.99, θ = 1 − 0.99 in BG's terms; the others BG's 0.27. */
    private static double defaultTheta(DistributionKind kind) {
        return kind == DistributionKind.LATEST ? 0.01 : Zipfian.DEFAULT_THETA;
    }

    private static Duration millis(Map<String, String> props, String key) {
        return present(props, key) ? Durations.parse(key, props.get(key), ChronoUnit.MILLIS) : Duration.ZERO;
    }

    private static Warmup warmup(Map<String, String> props) {
        if (!present(props, "warmup")) {
            return Warmup.NONE;
        }
        String v = props.get("warmup").trim();
        if (v.startsWith("-")) {
            throw new InvalidParameterException(
                    "warmup",
                    "must be 0 or more: a whole number of requests (1000) or a " + "time with a unit (30s, 2m), got '"
                            + v + "'");
        }
        if (Durations.hasUnit(v)) {
            Duration t = Durations.parse("warmup", v);
            return t.isZero() ? Warmup.NONE : new Warmup.Time(t);
        }
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(
                    "warmup",
                    "expected a whole number of requests (1000) or a time " + "with a unit (30s, 2m), got '" + v + "'");
        }
        if (n < 0) {
            throw new InvalidParameterException("warmup", "must be 0 or more, got " + n);
        }
        return n == 0 ? Warmup.NONE : new Warmup.Requests(n);
    }

    /** N: from numclients, else the number of probs, else 1. */
    private static int workers(Map<String, String> props) {
        if (present(props, "numclients")) {
            return intOf(props, "numclients", 1);
        }
        if (present(props, "probs")) {
            return parseRates("probs", props.get("probs")).length;
        }
        return 1;
    }

    private static List<Double> rates(Map<String, String> props, int workers) {
        List<Double> out = new ArrayList<>(Math.max(0, workers));
        if (present(props, "probs")) {
            double[] r = parseRates("probs", props.get("probs"));
            if (r.length != workers) {
                throw new InvalidParameterException(
                        "probs", "gives " + r.length + " rates but numclients is " + workers);
            }
            for (double x : r) {
                out.add(x);
            }
        } else {
            for (int k = 0; k < workers; k++) {
                out.add(1.0);
            }
        }
        return out;
    }

    /**
     * Worker rates as USC BG writes them, {@code 0.3@0.6@0.1@} (the trailing {@code @} optional), or separated by
     * commas or blanks.
     */
    public static double[] parseRates(String key, String value) {
        String[] parts = value.trim().split("[@,\\s]+");
        List<Double> r = new ArrayList<>();
        for (String s : parts) {
            if (s.isEmpty()) {
                continue;
            }
            try {
                double x = Double.parseDouble(s);
                if (!(x > 0) || Double.isInfinite(x)) {
                    throw new InvalidParameterException(key, "rates must be positive numbers, got '" + s + "'");
                }
                r.add(x);
            } catch (NumberFormatException e) {
                throw new InvalidParameterException(
                        key, "expected rates such as 0.3@0.6@0.1@ or 1,2,2, got '" + value + "'");
            }
        }
        if (r.isEmpty()) {
            throw new InvalidParameterException(key, "expected at least one rate, got '" + value + "'");
        }
        return r.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
