package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.rating.Sla;

/**
 * The options of a rate study's ratings, named as {@code bg rate} names them and with its defaults: given per scale
 * ({@code scales.S.rating}) and per setting ({@code settings[i].rating}, over the scale's).
 *
 * @param sla     the SLA α:β:τ:Δ (Δ is the confirmation run)
 * @param delta   δ, the length of each search experiment
 * @param search  the local search and its bounds
 * @param reset   how the store is reset between experiments: auto, loadfree, repair, image or reload
 * @param target  soar, socialites or both
 * @param warmup  the warm-up of each experiment
 * @param confirm whether the rating confirms its result with a run of Δ
 */
public record RatingOptions(
        String sla, Duration delta, Search search, String reset, String target, Duration warmup, boolean confirm) {

    /**
     * The search over T.
     *
     * @param method         optimal or approximate
     * @param climbingFactor r, T's factor while climbing
     * @param maxThreads     the largest T tried
     */
    public record Search(String method, double climbingFactor, int maxThreads) {}

    /** The fields a {@code rating} mapping accepts. */
    static final Set<String> FIELDS = new LinkedHashSet<>(List.of(
            "sla", "delta", "search", "climbing_factor", "reset", "target", "max_threads", "warmup", "confirm"));

    static final List<String> SEARCHES = List.of("optimal", "approximate");
    static final List<String> RESETS = List.of("auto", "loadfree", "repair", "image", "reload");
    static final List<String> TARGETS = List.of("soar", "socialites", "both");

    /** bg rate's defaults. */
    static final RatingOptions DEFAULTS = new RatingOptions(
            "95%:100ms:0.01%:60s",
            Duration.ofSeconds(10), new Search("optimal", 2, 1024), "auto", "both", Duration.ofSeconds(2), true);

    /** The SLA, parsed. */
    public Sla parsedSla() {
        return Sla.parse("sla", sla);
    }

    /**
     * Reads a {@code rating} mapping strictly: each field checked as bg rate checks its option, in one line naming
     * the field. The result holds only the fields given, as JSON values, so a setting's override a scale's one by one.
     */
    static Map<String, JsonNode> check(Fields r) {
        r.only(FIELDS);
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (r.has("sla")) {
            String text = r.text("sla");
            try {
                Sla.parse("sla", text);
            } catch (InvalidParameterException e) {
                throw r.refuse("sla", without("sla", e.getMessage()));
            }
        }
        if (r.has("delta")) {
            r.duration("delta", false);
        }
        if (r.has("warmup")) {
            r.duration("warmup", true);
        }
        oneOf(r, "search", SEARCHES);
        oneOf(r, "reset", RESETS);
        oneOf(r, "target", TARGETS);
        if (r.has("climbing_factor")) {
            double f = r.number("climbing_factor");
            if (!(f > 1 && f <= 1024)) {
                throw r.refuse(
                        "climbing_factor",
                        "the climbing factor r must be a number above 1 (and at most 1024) such as 2, got " + f);
            }
        }
        if (r.has("max_threads")) {
            r.positiveInt("max_threads");
        }
        r.bool("confirm", true);
        for (String f : FIELDS) {
            if (r.has(f)) {
                out.put(f, r.node(f));
            }
        }
        return out;
    }

    private static void oneOf(Fields r, String field, List<String> accepted) {
        if (r.has(field)) {
            String v = r.text(field);
            if (!accepted.contains(v)) {
                throw r.refuse(field, "expected " + String.join(", ", accepted) + ", got '" + v + "'");
            }
        }
    }

    private static String without(String parameter, String message) {
        return message.startsWith(parameter + ": ") ? message.substring(parameter.length() + 2) : message;
    }

    /** The options of {@code layers} (each checked by {@link #check}), later ones over earlier ones, over the defaults. */
    @SafeVarargs
    static RatingOptions of(Map<String, JsonNode>... layers) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        for (Map<String, JsonNode> l : layers) {
            m.putAll(l);
        }
        RatingOptions d = DEFAULTS;
        return new RatingOptions(
                m.containsKey("sla") ? m.get("sla").asText() : d.sla(),
                m.containsKey("delta") ? StudyDurations.parse(m.get("delta").asText()) : d.delta(),
                new Search(
                        m.containsKey("search")
                                ? m.get("search").asText()
                                : d.search().method(),
                        m.containsKey("climbing_factor")
                                ? m.get("climbing_factor").asDouble()
                                : d.search().climbingFactor(),
                        m.containsKey("max_threads")
                                ? m.get("max_threads").asInt()
                                : d.search().maxThreads()),
                m.containsKey("reset") ? m.get("reset").asText() : d.reset(),
                m.containsKey("target") ? m.get("target").asText() : d.target(),
                m.containsKey("warmup") ? StudyDurations.parse(m.get("warmup").asText()) : d.warmup(),
                m.containsKey("confirm") ? m.get("confirm").asBoolean() : d.confirm());
    }

    /** Why δ does not fit the SLA (longer than Δ), or null. */
    String deltaProblem() {
        try {
            parsedSla().checkExperimentDuration("delta", delta);
            return null;
        } catch (InvalidParameterException e) {
            return without("delta", e.getMessage());
        }
    }

    /** The options as study.json and the deviations name them, in bg rate's words. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sla", sla);
        m.put("delta", StudyDurations.format(delta));
        m.put("search", search.method());
        m.put("climbing_factor", search.climbingFactor());
        m.put("max_threads", search.maxThreads());
        m.put("reset", reset);
        m.put("target", target);
        m.put("warmup", StudyDurations.format(warmup));
        m.put("confirm", confirm);
        return m;
    }
}
