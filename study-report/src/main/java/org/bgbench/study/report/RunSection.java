package org.bgbench.study.report;

import java.util.List;

/** The report's closing section: the machine, scale and command, every deviation, and the failed points. */
final class RunSection {
    private RunSection() {}

    static void html(StringBuilder s, Study study, Links links) {
        Study.Header h = study.header();
        Study.Machine m = study.machine();
        s.append("<section class=\"run\">\n<h2>How it was run</h2>\n<dl>\n");
        item(
                s,
                "Machine",
                m.host() + ": " + m.cores() + " cores, " + Numbers.format(m.memoryGb()) + " GB memory, " + m.os()
                        + ", Java " + m.java());
        item(s, "Scale", h.scale());
        s.append("<dt>Command</dt><dd><code>").append(Html.esc(h.command())).append("</code></dd>\n");
        item(s, "Started", h.started());
        item(s, "Updated", h.updated());
        s.append("</dl>\n<h3>Deviations from the paper</h3>\n");
        if (study.deviations().isEmpty()) {
            s.append("<p class=\"none\">None stated.</p>\n");
        } else {
            s.append("<ul class=\"deviations\">\n");
            study.deviations().forEach(d -> s.append("<li>").append(Html.esc(d)).append("</li>\n"));
            s.append("</ul>\n");
        }
        List<Study.PointRun> failed =
                study.points().stream().filter(Study.PointRun::failed).toList();
        s.append("<h3>Points</h3>\n<p>")
                .append(study.points().size())
                .append(" planned, ")
                .append(study.points().stream()
                        .filter(p -> "done".equals(p.status()))
                        .count())
                .append(" done, ")
                .append(failed.size())
                .append(" failed.</p>\n");
        if (!failed.isEmpty()) {
            s.append("<table class=\"failed\"><thead><tr><th>point</th><th>error</th></tr></thead><tbody>\n");
            for (Study.PointRun p : failed) {
                String href = links.to(p.result());
                s.append("<tr data-point=\"")
                        .append(Html.esc(p.key()))
                        .append("\"><td>")
                        .append(
                                href.isEmpty()
                                        ? Html.esc(p.key())
                                        : "<a href=\"" + Html.esc(href) + "\">" + Html.esc(p.key()) + "</a>")
                        .append("</td><td class=\"error\">")
                        .append(Html.esc(p.error() == null ? "(no message)" : p.error()))
                        .append("</td></tr>\n");
            }
            s.append("</tbody></table>\n");
        }
        s.append("</section>\n");
    }

    private static void item(StringBuilder s, String term, String value) {
        if (value == null || value.isBlank()) {
            return;
        }
        s.append("<dt>")
                .append(term)
                .append("</dt><dd>")
                .append(Html.esc(value))
                .append("</dd>\n");
    }
}
