package org.bgbench.measurement.resource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Parses the samples of Prometheus's text exposition format (version 0.0.4, what a node exporter serves on /metrics):
 * {@code name{label="value",...} value [timestamp]}. Comment lines ({@code # HELP}, {@code # TYPE}, anything starting
 * with {@code #}) and blank lines are skipped; label values may hold the escapes {@code \\}, {@code \"} and
 * {@code \n}; values may be {@code +Inf}, {@code -Inf} or {@code NaN}. A malformed line is skipped, never fatal: one
 * odd metric must not cost the host's figures. No Maven library parses this format (Prometheus's Java client only
 * writes it), hence this class; see measurement/README.md.
 */
public final class ExpositionParser {
    /** One sample: metric name, labels in their order, value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        public String label(String key) {
            return labels.get(key);
        }
    }

    private ExpositionParser() {}

    /** All samples of {@code text}. */
    public static List<Sample> parse(String text) {
        return parse(text, name -> true);
    }

    /** The samples of {@code text} whose metric name {@code wanted} accepts (others are not parsed further). */
    public static List<Sample> parse(String text, Predicate<String> wanted) {
        List<Sample> out = new ArrayList<>();
        int start = 0;
        int n = text.length();
        while (start < n) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = n;
            }
            Sample s = line(text.substring(start, end), wanted);
            if (s != null) {
                out.add(s);
            }
            start = end + 1;
        }
        return out;
    }

    /** One line's sample, or null for a comment, a blank, an unwanted or a malformed line. */
    static Sample line(String raw, Predicate<String> wanted) {
        String line = raw.strip();
        if (line.isEmpty() || line.charAt(0) == '#') {
            return null;
        }
        int i = 0;
        while (i < line.length() && isNameChar(line.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            return null;
        }
        String name = line.substring(0, i);
        if (!wanted.test(name)) {
            return null;
        }
        Map<String, String> labels = Map.of();
        if (i < line.length() && line.charAt(i) == '{') {
            labels = new LinkedHashMap<>();
            i = labels(line, i + 1, labels);
            if (i < 0) {
                return null;
            }
        }
        String[] rest = line.substring(i).strip().split("[ \t]+");
        if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
            return null;
        }
        Double value = value(rest[0]);
        return value == null ? null : new Sample(name, labels, value);
    }

    /** Reads {@code key="value",...}} from {@code i}; returns the index after '}', or -1 when malformed. */
    private static int labels(String line, int i, Map<String, String> into) {
        int n = line.length();
        while (true) {
            while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
                i++;
            }
            if (i < n && line.charAt(i) == '}') {
                return i + 1;
            }
            int keyStart = i;
            while (i < n && isNameChar(line.charAt(i), i == keyStart)) {
                i++;
            }
            if (i == keyStart) {
                return -1;
            }
            String key = line.substring(keyStart, i);
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (i + 1 >= n || line.charAt(i) != '=' || line.charAt(i + 1) != '"') {
                return -1;
            }
            i += 2;
            StringBuilder value = new StringBuilder();
            while (true) {
                if (i >= n) {
                    return -1;
                }
                char c = line.charAt(i++);
                if (c == '"') {
                    break;
                }
                if (c == '\\') {
                    if (i >= n) {
                        return -1;
                    }
                    char e = line.charAt(i++);
                    value.append(
                            switch (e) {
                                case 'n' -> '\n';
                                case '\\' -> '\\';
                                case '"' -> '"';
                                default -> {
                                    // Not an escape the format defines: kept as written.
                                    value.append('\\');
                                    yield e;
                                }
                            });
                } else {
                    value.append(c);
                }
            }
            into.put(key, value.toString());
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            if (i < n && line.charAt(i) == ',') {
                i++;
            } else if (i < n && line.charAt(i) == '}') {
                return i + 1;
            } else {
                return -1;
            }
        }
    }

    private static Double value(String text) {
        switch (text) {
            case "+Inf", "Inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "NaN" -> {
                return Double.NaN;
            }
            default -> {
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
    }

    private static boolean isNameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }
}
