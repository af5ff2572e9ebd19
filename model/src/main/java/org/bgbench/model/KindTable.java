package org.bgbench.model;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lookup tables behind {@link Kind}'s static methods. A class of its own because an interface cannot hold private
 * fields, and so the tables are built only once both enums are initialised.
 */
final class KindTable {
    static final Kind[] ALL;
    static final List<Kind> LIST;
    static final Map<String, Kind> BY_CODE;
    static final Map<String, Kind> BY_LOWER_USC_KEY;

    static {
        Action[] actions = Action.values();
        SessionType[] sessions = SessionType.values();
        Kind[] all = new Kind[actions.length + sessions.length];
        System.arraycopy(actions, 0, all, 0, actions.length);
        System.arraycopy(sessions, 0, all, actions.length, sessions.length);
        Map<String, Kind> byCode = new HashMap<>();
        Map<String, Kind> byKey = new HashMap<>();
        for (int i = 0; i < all.length; i++) {
            Kind k = all[i];
            if (k.index() != i) {
                throw new AssertionError(k + " has index " + k.index() + " but is kind " + i);
            }
            unique(byCode, k.code(), k);
            unique(byKey, lower(k.uscKey()), k);
            if (k instanceof SessionType s) {
                for (String alias : s.keyAliases()) {
                    unique(byKey, lower(alias), k);
                }
            }
        }
        ALL = all;
        LIST = List.of(all);
        BY_CODE = Map.copyOf(byCode);
        BY_LOWER_USC_KEY = Map.copyOf(byKey);
    }

    private KindTable() {}

    private static void unique(Map<String, Kind> map, String key, Kind kind) {
        Kind before = map.put(key, kind);
        if (before != null) {
            throw new AssertionError(before + " and " + kind + " share the name " + key);
        }
    }

    static String lower(String s) {
        return s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
    }
}
