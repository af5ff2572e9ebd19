package org.bgbench.rating;

import java.util.Map;

/** Reading values of JSON-like maps (as Jackson or a hand-written parser produces them). */
final class MapValues {
    private MapValues() {}

    static Number number(Map<String, ?> m, String key) {
        Object v = m.get(key);
        if (v instanceof Number n) {
            return n;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException(
                "'" + key + "' must be a number, got " + (v == null ? "nothing" : "'" + v + "'"));
    }

    static Number number(Map<String, ?> m, String key, Number fallback) {
        return m.get(key) == null ? fallback : number(m, key);
    }

    static String string(Map<String, ?> m, String key, String fallback) {
        Object v = m.get(key);
        return v == null ? fallback : v.toString();
    }

    static boolean bool(Map<String, ?> m, String key, boolean fallback) {
        Object v = m.get(key);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        return Boolean.parseBoolean(v.toString().trim());
    }
}
