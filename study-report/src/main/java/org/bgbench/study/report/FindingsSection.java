package org.bgbench.study.report;

import java.util.List;

/** The report's verdict summary: each finding, the paper's and ours, agrees or differs; a table finding's rows. */
final class FindingsSection {
    private FindingsSection() {}

    static void html(StringBuilder s, List<Verdict> verdicts) {
        s.append("<section class=\"findings\">\n<h2>Findings</h2>\n");
        if (verdicts.isEmpty()) {
            s.append("<p class=\"none\">The study states no finding of the paper.</p>\n</section>\n");
            return;
        }
        long agree = verdicts.stream()
                .filter(v -> v.outcome() == Verdict.Outcome.AGREES)
                .count();
        long differ = verdicts.stream()
                .filter(v -> v.outcome() == Verdict.Outcome.DIFFERS)
                .count();
        s.append("<p class=\"tally\">")
                .append(agree)
                .append(" of ")
                .append(verdicts.size())
                .append(" findings agree with the paper, ")
                .append(differ)
                .append(" differ")
                .append(
                        verdicts.size() - agree - differ > 0
                                ? ", " + (verdicts.size() - agree - differ) + " lack data"
                                : "")
                .append(".</p>\n");
        s.append("<table class=\"verdicts\">\n<thead><tr><th>Finding</th><th>The paper</th><th>Ours</th>")
                .append("<th>Verdict</th></tr></thead>\n<tbody>\n");
        for (Verdict v : verdicts) {
            s.append("<tr data-finding=\"")
                    .append(Html.esc(v.id()))
                    .append("\" data-outcome=\"")
                    .append(v.outcome().words())
                    .append("\"><td><b>")
                    .append(Html.esc(v.id()))
                    .append("</b><br><span class=\"kind\">")
                    .append(Html.esc(v.kind()))
                    .append(
                            v.figure().isBlank()
                                    ? ""
                                    : ", <a href=\"#figure-" + Html.esc(v.figure()) + "\">"
                                            + Html.esc(v.where().isBlank() ? v.figure() : v.where())
                                            + "</a>")
                    .append("</span></td><td>")
                    .append(Html.esc(v.claim().paper()))
                    .append("</td><td>")
                    .append(Html.esc(v.claim().ours()))
                    .append("</td><td><span class=\"badge ")
                    .append(v.outcome().name().toLowerCase(java.util.Locale.ROOT))
                    .append("\">")
                    .append(v.outcome().words())
                    .append("</span></td></tr>\n");
            if (!v.rows().isEmpty()) {
                s.append("<tr class=\"rows\"><td></td><td colspan=\"3\">")
                        .append(rows(v))
                        .append("</td></tr>\n");
            }
        }
        s.append("</tbody></table>\n</section>\n");
    }

    private static String rows(Verdict v) {
        StringBuilder s = new StringBuilder("<table class=\"table-rows\" data-finding=\"")
                .append(Html.esc(v.id()))
                .append("\"><thead><tr><th>series</th><th>at</th><th>paper</th><th>ours</th><th>off</th><th></th>")
                .append("</tr></thead><tbody>");
        for (Verdict.Row r : v.rows()) {
            s.append("<tr><td>")
                    .append(Html.esc(r.series()))
                    .append("</td><td>")
                    .append(Html.esc(r.x()))
                    .append("</td><td class=\"num\">")
                    .append(Numbers.format(r.paper()))
                    .append("</td><td class=\"num\">")
                    .append(r.ours() == null ? "–" : Numbers.format(r.ours()))
                    .append("</td><td class=\"num\">")
                    .append(r.ours() == null ? "" : Numbers.percent(TableKind.off(r.ours(), r.paper())))
                    .append("</td><td><span class=\"badge ")
                    .append(r.outcome().name().toLowerCase(java.util.Locale.ROOT))
                    .append("\">")
                    .append(r.outcome().words())
                    .append("</span></td></tr>");
        }
        return s.append("</tbody></table>").toString();
    }
}
