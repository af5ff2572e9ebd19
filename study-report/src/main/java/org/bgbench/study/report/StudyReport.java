package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A study's report: one self-contained HTML page (inline CSS and SVG, no scripts, no network) with the study's source,
 * the computed findings beside the paper's, each figure as the paper shows it with its numbers, and how it was run.
 */
public final class StudyReport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StudyReport() {}

    /** Reads {@code studyJson} and writes its report to {@code reportHtml} atomically (a temporary file, moved). */
    public static void write(Path studyJson, Path reportHtml) throws IOException {
        JsonNode root = JSON.readTree(studyJson.toFile());
        Path studyDir = studyJson.toAbsolutePath().getParent();
        Path reportDir = reportHtml.toAbsolutePath().getParent();
        String page = html(Study.of(root), new Links(reportDir, studyDir));
        Files.createDirectories(reportDir);
        Path tmp = Files.createTempFile(reportDir, ".report", ".html.tmp");
        try {
            Files.writeString(tmp, page, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, reportHtml, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(tmp, reportHtml, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The page of {@code study}, linking result files through {@code links}. */
    static String html(Study study, Links links) {
        Study.Header h = study.header();
        StringBuilder s = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
                .append(Html.esc(h.title().isBlank() ? h.study() : h.title()))
                .append("</title>\n<style>\n")
                .append(ReportStyle.CSS)
                .append("</style>\n</head>\n<body data-study=\"")
                .append(Html.esc(h.study()))
                .append("\">\n");
        header(s, study);
        List<Verdict> verdicts = Findings.evaluateAll(study);
        FindingsSection.html(s, verdicts);
        for (Figure f : study.figures()) {
            s.append("<section class=\"figure\" id=\"figure-")
                    .append(Html.esc(f.id()))
                    .append("\">\n<h2>")
                    .append(Html.esc(f.title().isBlank() ? f.id() : f.title()))
                    .append("</h2>\n");
            boolean empty =
                    f.series().stream().flatMap(x -> x.points().stream()).noneMatch(Figure.Point::measured)
                            && f.paper().isEmpty();
            if (empty) {
                s.append("<p class=\"none\">No point of this figure is measured yet.</p>\n");
            } else {
                s.append("<div class=\"scroll\">")
                        .append(f.numericX() ? LineChart.svg(f, links) : BarChart.svg(f, links))
                        .append("</div>\n")
                        .append(FigureTable.html(f, links));
            }
            s.append("</section>\n");
        }
        RunSection.html(s, study, links);
        return s.append("</body>\n</html>\n").toString();
    }

    private static void header(StringBuilder s, Study study) {
        Study.Header h = study.header();
        Study.Source src = h.source();
        s.append("<header>\n<h1>")
                .append(Html.esc(h.title().isBlank() ? h.study() : h.title()))
                .append("</h1>\n");
        s.append("<p class=\"source\">Study <code>")
                .append(Html.esc(h.study()))
                .append("</code> reproduces ")
                .append(Html.esc(src.where().isBlank() ? "a result" : src.where()))
                .append(src.paper().isBlank() ? "" : " of " + Html.esc(src.paper()))
                .append(".</p>\n");
        if (!src.finding().isBlank()) {
            s.append("<blockquote>The paper finds: ")
                    .append(Html.esc(src.finding()))
                    .append("</blockquote>\n");
        }
        long done =
                study.points().stream().filter(p -> "done".equals(p.status())).count();
        s.append("<p class=\"status\">Scale <b>").append(Html.esc(h.scale())).append("</b> · ");
        if (h.complete()) {
            s.append("<span class=\"complete\">complete: ").append(done).append(" points</span>");
        } else {
            s.append("<span class=\"incomplete\" data-done=\"")
                    .append(done)
                    .append("\" data-planned=\"")
                    .append(study.points().size())
                    .append("\">incomplete: ")
                    .append(done)
                    .append(" of ")
                    .append(study.points().size())
                    .append(" points</span>");
        }
        if (!h.updated().isBlank()) {
            s.append(" · updated ").append(Html.esc(h.updated()));
        }
        s.append("</p>\n</header>\n");
    }
}
