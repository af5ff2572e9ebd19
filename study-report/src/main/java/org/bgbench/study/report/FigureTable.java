package org.bgbench.study.report;

import java.util.List;

/** A figure's numbers as a table: a row per x, for each series our median (linked, with its runs) and the paper's. */
final class FigureTable {
    private FigureTable() {}

    static String html(Figure f, Links links) {
        StringBuilder s = new StringBuilder("<div class=\"scroll\"><table class=\"numbers\" data-figure=\"")
                .append(Html.esc(f.id()))
                .append("\">\n<thead><tr><th rowspan=\"2\">")
                .append(Html.esc(f.x().label()))
                .append("</th>");
        List<String> names = List.copyOf(ChartKit.colours(f).keySet());
        for (String n : names) {
            int span = (f.series(n) != null ? 1 : 0) + (hasPaper(f, n) ? 1 : 0);
            s.append("<th colspan=\"")
                    .append(span)
                    .append("\">")
                    .append(Html.esc(n))
                    .append("</th>");
        }
        s.append("</tr>\n<tr>");
        for (String n : names) {
            if (f.series(n) != null) {
                s.append("<th class=\"sub\">ours</th>");
            }
            if (hasPaper(f, n)) {
                s.append("<th class=\"sub\">paper</th>");
            }
        }
        s.append("</tr></thead>\n<tbody>\n");
        for (Figure.X x : f.xs()) {
            s.append("<tr><th>").append(Html.esc(x.toString())).append("</th>");
            for (String n : names) {
                Figure.Series series = f.series(n);
                if (series != null) {
                    s.append("<td>").append(ours(series.at(x), n, links)).append("</td>");
                }
                if (hasPaper(f, n)) {
                    s.append("<td class=\"paper\">").append(paper(f, n, x)).append("</td>");
                }
            }
            s.append("</tr>\n");
        }
        s.append("</tbody></table></div>\n<p class=\"unit\">")
                .append(Html.esc(f.y().label()))
                .append("; each value links to its result file, the small ones are the repetitions.</p>\n");
        return s.toString();
    }

    private static String ours(Figure.Point p, String series, Links links) {
        if (p == null) {
            return "<span class=\"none\">–</span>";
        }
        if (!p.measured()) {
            return "<span class=\"none\">not measured</span>";
        }
        StringBuilder s = new StringBuilder();
        String value = "<span class=\"value\"" + ChartKit.data(series, p.x(), p.y(), false) + ">"
                + Numbers.format(p.y()) + "</span>";
        s.append(anchor(p.results().isEmpty() ? "" : links.to(p.results().get(0)), value));
        if (p.runs().size() > 1) {
            s.append("<span class=\"runs\">");
            for (int i = 0; i < p.runs().size(); i++) {
                String href = i < p.results().size() ? links.to(p.results().get(i)) : "";
                s.append(i == 0 ? "" : " · ")
                        .append(anchor(href, Numbers.format(p.runs().get(i))));
            }
            s.append("</span>");
        }
        return s.toString();
    }

    private static String paper(Figure f, String series, Figure.X x) {
        return f.paper().stream()
                .filter(p -> p.series().equals(series) && p.x().equals(x))
                .findFirst()
                .map(p -> "<span class=\"value\"" + ChartKit.data(series, x, p.y(), true) + ">" + Numbers.format(p.y())
                        + "</span>")
                .orElse("<span class=\"none\">–</span>");
    }

    private static String anchor(String href, String inner) {
        return href.isEmpty() ? inner : "<a href=\"" + Html.esc(href) + "\">" + inner + "</a>";
    }

    private static boolean hasPaper(Figure f, String series) {
        return f.paper().stream().anyMatch(p -> p.series().equals(series));
    }
}
