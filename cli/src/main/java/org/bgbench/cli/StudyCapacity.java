package org.bgbench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.study.StudyPlan;

/**
 * Refuses a scale this machine cannot hold before anything runs: every group's load on the disk under the study's
 * directory (each group keeps its own data), and, for a store that keeps the graph in BG's heap, the largest graph in
 * the heap. The sizes are floors (a row's bytes without the store's indexes and overhead), so a scale it refuses never
 * fits, while one it passes may still fill a store with large rows.
 */
final class StudyCapacity {
    /** The least a stored row takes: its key and a few columns, before any index. */
    static final long BYTES_PER_ROW = 48;
    /** The stores that keep the graph in BG's own heap. */
    private static final Set<String> IN_HEAP = Set.of("memory");

    private StudyCapacity() {}

    /** The least bytes one load of the graph named by {@code keys} takes. */
    static long graphBytes(Map<String, String> keys) {
        GraphSpec g = GraphParameters.toSpec(keys);
        double m = g.members();
        double resources = m * g.resourcesPerMember();
        double rows = m + m * g.friendsPerMember() / 2.0 + resources + resources * g.commentsPerResource();
        double member = (double) g.attributeCount() * g.attributeLength()
                + (g.images() ? (double) g.thumbnailBytes() + g.profileImageBytes() : 0);
        double comments = resources * g.commentsPerResource() * g.commentLength();
        return (long) Math.min(Long.MAX_VALUE, rows * BYTES_PER_ROW + m * member + comments);
    }

    /**
     * Refuses {@code plan} when its groups' loads cannot fit on the disk under {@code dir}, or the largest graph of an
     * in-heap store cannot fit in BG's heap; {@code done} names the groups a resumed study has measured already.
     */
    static void check(StudyPlan plan, Path dir, Set<String> done) {
        long disk = 0;
        long heap = 0;
        int loads = 0;
        for (StudyPlan.Group g : plan.groups()) {
            if (done.contains(g.name())) {
                continue;
            }
            Map<String, String> keys = new LinkedHashMap<>(plan.graphKeys());
            keys.putAll(g.keys());
            long bytes = graphBytes(keys);
            if (IN_HEAP.contains(g.store().store())) {
                heap = Math.max(heap, bytes);
            } else {
                disk += bytes;
                loads++;
            }
        }
        long free = usableSpace(dir);
        if (disk > free) {
            throw new InvalidParameterException(
                    "--scale",
                    String.format(
                            Locale.ROOT,
                            "%s needs at least %s of disk for its %d load%s of the graph and %s are free under %s;"
                                    + " free space, give another --out, or choose a smaller scale",
                            plan.scale().key(),
                            size(disk),
                            loads,
                            loads == 1 ? "" : "s",
                            size(free),
                            existing(dir).toAbsolutePath()));
        }
        long max = Runtime.getRuntime().maxMemory();
        if (heap > max * 0.8) {
            throw new InvalidParameterException(
                    "--scale",
                    String.format(
                            Locale.ROOT,
                            "%s keeps a graph of at least %s in BG's heap (the memory store) and BG's heap is %s;"
                                    + " give BG more (BG_JAVA_OPTS=-Xmx%dg), leave that store out (--store), or choose a"
                                    + " smaller scale",
                            plan.scale().key(),
                            size(heap),
                            size(max),
                            (long) Math.ceil(heap / 0.8 / (1L << 30)) + 1));
        }
    }

    private static long usableSpace(Path dir) {
        try {
            return Files.getFileStore(existing(dir)).getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE; // a file system that tells nothing: the loads say when it is full
        }
    }

    /** {@code dir}, or its nearest ancestor that exists (the study's directory is made later). */
    private static Path existing(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p == null ? Path.of(".").toAbsolutePath() : p;
    }

    static String size(long bytes) {
        double gb = bytes / 1e9;
        return gb >= 1 ? String.format(Locale.ROOT, "%.1f GB", gb) : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }
}
