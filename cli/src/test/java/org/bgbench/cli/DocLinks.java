package org.bgbench.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the relative links of Markdown files that name a file that does not exist, or a heading that the file it names
 * does not have. Anchors are GitHub's: the heading in lower case, punctuation dropped, spaces as hyphens, a repeated
 * heading suffixed -1, -2, …
 */
final class DocLinks {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    /** The broken links of one Markdown file, each as "file:line: link (what is wrong)". */
    List<String> broken(Path file) {
        List<String> problems = new ArrayList<>();
        List<String> lines = read(file);
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (m.find()) {
                String problem = check(file, m.group(1));
                if (problem != null) {
                    problems.add(file + ":" + (i + 1) + ": " + m.group(1) + " (" + problem + ")");
                }
            }
        }
        return problems;
    }

    private String check(Path file, String link) {
        if (link.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // http:, https:, mailto: — not checked here
        }
        int hash = link.indexOf('#');
        String target = hash < 0 ? link : link.substring(0, hash);
        String anchor = hash < 0 ? null : link.substring(hash + 1);
        Path to = target.isEmpty()
                ? file
                : file.toAbsolutePath().getParent().resolve(target).normalize();
        if (!Files.exists(to)) {
            return "no such file";
        }
        if (anchor != null && to.toString().endsWith(".md") && !anchorsOf(to).contains(anchor)) {
            return "no heading with this anchor in " + to.getFileName();
        }
        return null;
    }

    private Set<String> anchorsOf(Path file) {
        return anchors.computeIfAbsent(file.toAbsolutePath().normalize(), f -> {
            Set<String> found = new HashSet<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean fenced = false;
            for (String line : read(f)) {
                if (line.stripLeading().startsWith("```")) {
                    fenced = !fenced;
                }
                Matcher h = HEADING.matcher(line);
                if (!fenced && h.matches()) {
                    String slug = slug(h.group(1));
                    int n = seen.merge(slug, 1, Integer::sum);
                    found.add(n == 1 ? slug : slug + "-" + (n - 1));
                }
            }
            return found;
        });
    }

    /** GitHub's anchor of a heading. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        return text.replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
