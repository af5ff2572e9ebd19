package org.bgbench.study.report;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** One kind of finding: its own fields, their strict check, the paper's claim in words, and our computed verdict. */
interface FindingKind {
    String name();

    /** The fields this kind adds to {@link Findings#COMMON}. */
    Set<String> fields();

    /** Reads every field of this kind, throwing {@link FieldCheck.Bad} at the first bad one. */
    void check(FieldCheck c);

    /** Each series name the finding gives, with the field that gives it, for a check against the figure's series. */
    List<Map.Entry<String, String>> seriesNamed(FieldCheck c);

    /** The paper's finding in words, from the checked fields; x reads as {@code figure} writes it, when there is one. */
    String paper(FieldCheck c, Figure figure);

    /** Our finding computed from {@code figure}, beside the paper's, with its outcome. */
    Verdict evaluate(FieldCheck c, Figure figure);

    /** Our finding computed from {@code figure} and, for a kind that reads several, the study's other figures. */
    default Verdict evaluate(FieldCheck c, Figure figure, Study study) {
        return evaluate(c, figure);
    }

    /** The other figures the finding reads, each with the field that names it, for a check against the study's. */
    default List<Map.Entry<String, String>> figuresNamed(FieldCheck c) {
        return List.of();
    }

    /** A verdict of this kind for the finding {@code c} reads. */
    default Verdict verdict(FieldCheck c, Figure figure, String ours, Verdict.Outcome outcome) {
        return Verdict.of(
                c.node().get("id").asText(), name(), c.node().get("figure").asText(), paper(c, figure), ours, outcome);
    }

    /** An x as {@code figure} writes it in a sentence ("T=8"), or as the plain value without a figure. */
    static String at(Figure figure, Figure.X x) {
        return figure == null ? x.toString() : figure.at(x);
    }

    /** "4,210 actions/s": a y value with its axis's unit, the part in brackets of a label such as "SoAR (actions/s)". */
    static String y(Figure f, double v) {
        String label = f.y().label().isBlank() ? f.y().key() : f.y().label();
        int open = label.lastIndexOf('(');
        if (open > 0 && label.endsWith(")")) {
            label = label.substring(open + 1, label.length() - 1);
        }
        return Numbers.format(v) + " " + label;
    }
}
