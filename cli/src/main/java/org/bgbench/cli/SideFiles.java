package org.bgbench.cli;

import java.nio.file.Path;
import java.util.Set;

/**
 * BG's own files beside its run results that are not results themselves: a run's graph.json, a rating's
 * rating.json, a scaling's scale.json, state files and the validation logs. A folder given to {@code bg compare} holds
 * them by design, so they are passed over without a word.
 */
final class SideFiles {
    private static final Set<String> NAMES = Set.of("graph.json", "rating.json", "scale.json");

    private SideFiles() {}

    /** Whether {@code file}, found while walking a folder of results, is one of BG's side files. */
    static boolean isSide(Path file) {
        String name = file.getFileName().toString();
        if (NAMES.contains(name) || name.endsWith(".state.json") || !name.endsWith(".json")) {
            return true;
        }
        Path parent = file.getParent();
        return parent != null
                && parent.getFileName() != null
                && "logs".equals(parent.getFileName().toString());
    }
}
