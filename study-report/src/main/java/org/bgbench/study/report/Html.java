package org.bgbench.study.report;

import java.nio.file.Path;

/** Escaping for the report's HTML and SVG, and relative links to result files. */
final class Html {
    private Html() {}

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    /**
     * The link from the report's directory to {@code result}, a path relative to study.json's directory, with the
     * characters a URL path cannot hold percent-encoded; empty when there is no result.
     */
    static String link(Path reportDir, Path studyDir, String result) {
        if (result == null || result.isBlank()) {
            return "";
        }
        Path target = studyDir.resolve(result).toAbsolutePath().normalize();
        String rel = reportDir
                .toAbsolutePath()
                .normalize()
                .relativize(target)
                .toString()
                .replace('\\', '/');
        StringBuilder b = new StringBuilder();
        for (char ch : rel.toCharArray()) {
            if (ch == ' ' || ch == '#' || ch == '?' || ch == '%' || ch == '"' || ch == '<' || ch == '>') {
                b.append('%').append(String.format("%02X", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    /** A number as an SVG coordinate: one decimal. */
    static String f(double v) {
        return String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
