package org.bgbench.study.report;

import java.util.List;

/**
 * A finding computed from the data: what the paper found and what we found, in words, and whether they agree. A table
 * finding also carries its rows.
 */
public record Verdict(
        String id, String kind, String figure, Claim claim, Outcome outcome, List<Row> rows, String where) {

    /** Whether our data agrees with the paper. */
    public enum Outcome {
        AGREES("agrees"),
        DIFFERS("differs"),
        NOT_ENOUGH_DATA("not enough data");

        private final String words;

        Outcome(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /** The paper's finding and ours, each one computed sentence. */
    public record Claim(String paper, String ours) {}

    /** One row of a table finding: the paper's number beside ours ({@code null} when not measured). */
    public record Row(String series, String x, double paper, Double ours, Outcome outcome) {}

    static Verdict of(String id, String kind, String figure, String paper, String ours, Outcome outcome) {
        return new Verdict(id, kind, figure, new Claim(paper, ours), outcome, List.of(), "");
    }

    /** This verdict with where the paper states the finding ("figure 3.3"). */
    Verdict where(String where) {
        return new Verdict(id, kind, figure, claim, outcome, rows, where);
    }

    /** The whole statement: "ours; the paper: theirs — agrees". */
    public String statement() {
        return claim.ours() + "; the paper: " + claim.paper() + " — " + outcome.words();
    }
}
