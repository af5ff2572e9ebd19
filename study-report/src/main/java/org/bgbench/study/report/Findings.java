package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kinds of finding a study file may state about its paper (winner, ratio, crossing, trend, table, breakeven): each checks
 * its own fields strictly and computes, from a figure's data, a statement of ours beside the paper's with a verdict.
 */
public final class Findings {
    /** Fields every kind has: its id, its kind, the figure it reads and, optionally, where the paper says it. */
    static final Set<String> COMMON = Set.of("id", "kind", "figure", "where");

    private static final Map<String, FindingKind> KINDS = new LinkedHashMap<>();

    static {
        for (FindingKind k : List.of(
                new WinnerKind(),
                new RatioKind(),
                new CrossingKind(),
                new TrendKind(),
                new TableKind(),
                new BreakEvenKind())) {
            KINDS.put(k.name(), k);
        }
    }

    private Findings() {}

    /** The kinds' names, in the order the documentation lists them. */
    public static List<String> kinds() {
        return List.copyOf(KINDS.keySet());
    }

    /**
     * Empty when {@code finding} is well formed; otherwise one line naming its first bad field and what is accepted.
     */
    public static Optional<String> check(JsonNode finding) {
        try {
            kind(finding);
            return Optional.empty();
        } catch (FieldCheck.Bad e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * {@link #check(JsonNode)}, and that the finding's figure is one of {@code seriesByFigure}'s (figure id to the
     * names of its series) and each series it names is one of that figure's; an empty set of names is not checked.
     */
    public static Optional<String> check(JsonNode finding, Map<String, Set<String>> seriesByFigure) {
        try {
            FieldCheck c = kind(finding);
            String figure = finding.get("figure").asText();
            Set<String> names = seriesByFigure.get(figure);
            if (names == null) {
                throw c.bad(
                        "figure",
                        "must be one of the study's figures: "
                                + String.join(", ", new TreeSet<>(seriesByFigure.keySet())),
                        finding.get("figure"));
            }
            for (Map.Entry<String, String> other :
                    KINDS.get(finding.get("kind").asText()).figuresNamed(c)) {
                if (!seriesByFigure.containsKey(other.getValue())) {
                    throw c.bad(
                            other.getKey(),
                            "must be one of the study's figures: "
                                    + String.join(", ", new TreeSet<>(seriesByFigure.keySet())),
                            new com.fasterxml.jackson.databind.node.TextNode(other.getValue()));
                }
            }
            for (Map.Entry<String, String> named :
                    KINDS.get(finding.get("kind").asText()).seriesNamed(c)) {
                if (!names.isEmpty() && !names.contains(named.getValue())) {
                    throw c.bad(
                            named.getKey(),
                            "must name a series of figure '" + figure + "': " + String.join(", ", new TreeSet<>(names)),
                            new com.fasterxml.jackson.databind.node.TextNode(named.getValue()));
                }
            }
            return Optional.empty();
        } catch (FieldCheck.Bad e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Computes {@code finding} from the study's figures; a malformed finding is refused with its one line. */
    public static Verdict evaluate(JsonNode finding, Study study) {
        FieldCheck c;
        FindingKind kind;
        try {
            c = kind(finding);
            kind = KINDS.get(finding.get("kind").asText());
        } catch (FieldCheck.Bad e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        String id = finding.get("id").asText();
        String figureId = finding.get("figure").asText();
        Figure figure = study.figure(figureId);
        if (figure == null) {
            return Verdict.of(
                            id,
                            kind.name(),
                            figureId,
                            kind.paper(c, null),
                            "the study has no figure '" + figureId + "'",
                            Verdict.Outcome.NOT_ENOUGH_DATA)
                    .where(c.optionalText("where", ""));
        }
        return kind.evaluate(c, figure, study).where(c.optionalText("where", ""));
    }

    /** Every finding of the study, computed; a malformed one becomes a not-enough-data verdict quoting its line. */
    public static List<Verdict> evaluateAll(Study study) {
        List<Verdict> out = new ArrayList<>();
        int n = 0;
        for (JsonNode f : study.findings()) {
            n++;
            try {
                out.add(evaluate(f, study));
            } catch (IllegalArgumentException e) {
                String id = f.path("id").asText("finding " + n);
                out.add(Verdict.of(
                        id,
                        f.path("kind").asText("?"),
                        f.path("figure").asText(""),
                        "–",
                        "not computed: " + e.getMessage(),
                        Verdict.Outcome.NOT_ENOUGH_DATA));
            }
        }
        return out;
    }

    private static FieldCheck kind(JsonNode finding) {
        if (finding == null || !finding.isObject()) {
            throw new FieldCheck.Bad("finding: must be an object with the fields id, kind, figure and its kind's");
        }
        JsonNode idNode = finding.get("id");
        String where = idNode != null && idNode.isTextual() ? "finding '" + idNode.asText() + "'" : "finding";
        FieldCheck c = new FieldCheck(finding, where);
        c.text("id");
        String kind = c.oneOf("kind", kinds(), null);
        FindingKind k = KINDS.get(kind);
        Set<String> allowed = new TreeSet<>(COMMON);
        allowed.addAll(k.fields());
        c.only(allowed);
        c.text("figure");
        c.optionalText("where", "");
        k.check(c);
        return c;
    }
}
