package org.bgbench.scaling.speedup;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.bgbench.model.InvalidParameterException;

/**
 * Speedup or scaleup (scalability paper section A and E.2): what the graph of each configuration is and what the
 * ideal ratio is.
 */
public enum ScaleMode {
    /**
     * One graph for every configuration; ideally SoAR grows with the nodes, so the ideal ratio is N/N₁ (E.2.1: "if a
     * data store provides a SoAR of λ with one node, it should provide Nλ with N nodes").
     */
    SPEEDUP,
    /**
     * The graph grows with the nodes: M·N/N₁ members with the same φ, ρ and comments per member; ideally SoAR stays
     * the same, so the ideal ratio is 1 (E.2.2).
     */
    SCALEUP;

    /** {@code speedup} or {@code scaleup}, as {@code --mode} takes it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ScaleMode parse(String option, String text) {
        for (ScaleMode m : values()) {
            if (m.label().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return m;
            }
        }
        throw new InvalidParameterException(option, "expected speedup or scaleup, got '" + text + "'");
    }

    /** The ratio a perfectly scaling store would show with {@code nodes} against the baseline's {@code baseNodes}. */
    public double ideal(int nodes, int baseNodes) {
        return this == SPEEDUP ? (double) nodes / baseNodes : 1.0;
    }

    /**
     * The graph keys of a configuration with {@code nodes}: unchanged for speedup; for scaleup the member count
     * ({@code usercount}, default {@code defaultMembers}) and, when given, the page count times N/N₁, every per-member
     * key (φ, ρ, comments, pages per member) unchanged, so the graph per node stays the same.
     *
     * @throws InvalidParameterException when N/N₁ does not give a whole number of members
     */
    public Map<String, String> graphKeys(Map<String, String> keys, int nodes, int baseNodes, int defaultMembers) {
        Map<String, String> out = new LinkedHashMap<>(keys);
        if (this == SPEEDUP || nodes == baseNodes) {
            return out;
        }
        long members =
                scaled("usercount", keys.getOrDefault("usercount", Integer.toString(defaultMembers)), nodes, baseNodes);
        out.put("usercount", Long.toString(members));
        if (keys.containsKey("pagecount")) {
            out.put("pagecount", Long.toString(scaled("pagecount", keys.get("pagecount"), nodes, baseNodes)));
        }
        return out;
    }

    private static long scaled(String key, String value, int nodes, int baseNodes) {
        long base;
        try {
            base = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException("-p " + key, "expected a whole number, got '" + value + "'");
        }
        if (base * nodes % baseNodes != 0) {
            throw new InvalidParameterException(
                    "-p " + key,
                    "scaleup needs " + key + " × N / " + baseNodes
                            + " (the baseline's nodes) to be a whole number for every configuration; " + base + " × "
                            + nodes
                            + " is not a multiple of " + baseNodes);
        }
        return base * nodes / baseNodes;
    }
}
