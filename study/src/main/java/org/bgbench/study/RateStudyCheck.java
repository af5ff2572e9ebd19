package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a study file a rate study ({@code kind: rate}) reads differently: a scale has no T grid or point
 * length (the rating's search chooses T, δ is its experiments' length) but rating options; a setting may add its own.
 */
final class RateStudyCheck {
    private static final Set<String> SCALE = new LinkedHashSet<>(List.of("graph", "repetitions", "rating"));

    private RateStudyCheck() {}

    /** A setting: its name and keys, a rate study's rating options, and graph keys per scale. */
    static Study.Setting setting(Fields s, Study.Kind kind) {
        s.only(new LinkedHashSet<>(List.of("name", "keys", "rating", "graph")));
        Map<String, JsonNode> rating = Map.of();
        if (s.has("rating")) {
            if (kind != Study.Kind.RATE) {
                throw s.refuse("rating", "only a rate study (kind: rate) has rating options");
            }
            rating = RatingOptions.check(s.object("rating"));
        }
        Map<Scale, Map<String, String>> graph = new EnumMap<>(Scale.class);
        if (s.has("graph")) {
            Fields g = s.object("graph").only(new LinkedHashSet<>(List.of("tiny", "small", "paper")));
            for (Scale scale : Scale.values()) {
                if (g.has(scale.key())) {
                    graph.put(scale, g.keys(scale.key()));
                }
            }
        }
        return new Study.Setting(s.text("name"), s.keys("keys"), rating, graph);
    }

    /** A rate study's scale: its graph keys, repetitions and rating options. */
    static Study.ScalePlan scale(Fields p) {
        for (String runOnly : List.of("threads", "duration", "warmup")) {
            if (p.has(runOnly)) {
                throw p.refuse(
                        runOnly,
                        "a rate study's ratings choose T and run experiments of δ: give delta, warmup, max_threads"
                                + " under rating; accepted: " + String.join(", ", SCALE));
            }
        }
        p.only(SCALE);
        Map<String, JsonNode> rating = p.has("rating") ? RatingOptions.check(p.object("rating")) : Map.of();
        return new Study.ScalePlan(
                p.keys("graph"),
                List.of(),
                Duration.ZERO,
                Duration.ZERO,
                p.has("repetitions") ? p.positiveInt("repetitions") : 1,
                Map.of(),
                rating);
    }

    /** Refuses a δ longer than the SLA's Δ in any scale and setting, naming where δ (or the SLA) was given. */
    static void deltas(Fields f, Study.Subjects subjects, Map<Scale, Study.ScalePlan> scales) {
        List<Study.Setting> settings =
                subjects.settings().isEmpty() ? List.of(new Study.Setting("", Map.of())) : subjects.settings();
        for (Scale scale : Scale.values()) {
            Map<String, JsonNode> own = scales.get(scale).rating();
            for (int i = 0; i < settings.size(); i++) {
                Map<String, JsonNode> over = settings.get(i).rating();
                String problem = RatingOptions.of(own, over).deltaProblem();
                if (problem != null) {
                    String where = over.containsKey("delta") || over.containsKey("sla")
                            ? "settings[" + i + "].rating." + (over.containsKey("delta") ? "delta" : "sla")
                            : "scales." + scale.key() + ".rating." + (own.containsKey("delta") ? "delta" : "sla");
                    throw new StudyFileException(f.file(), where, problem);
                }
            }
        }
    }

    /** The rating options of {@code setting} (null: none) at {@code plan}: the defaults, the scale's, the setting's. */
    static RatingOptions options(Study.ScalePlan plan, Study.Setting setting) {
        return RatingOptions.of(plan.rating(), setting == null ? Map.of() : setting.rating());
    }

    /** The graph keys a setting adds at {@code scale}. */
    static Map<String, String> graph(Study.Setting setting, Scale scale) {
        return setting == null ? Map.of() : new LinkedHashMap<>(setting.graph().getOrDefault(scale, Map.of()));
    }
}
