package org.bgbench.workload.mix;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bgbench.model.Kind;

/**
 * What a workload file may say about frequencies beyond the keys BG implements: each {@link Kind} has its USC BG key
 * ({@link Kind#uscKey()}, looked up by {@link Kind#byUscKey(String)}); this class knows the keys USC BG has and BG
 * does not, and which unknown keys look like misspelt frequencies.
 */
public final class MixKeys {
    /**
     * Keys USC BG knows but this BG does not implement (graph actions, two legacy sessions). A file may
     * carry them with frequency 0, as USC's own workload files do; a non-zero frequency is rejected.
     */
    public static final Set<String> UNSUPPORTED = Set.of(
            "GetShortestDistanceAction",
            "ListCommonFriendsAction",
            "ListFriendsOfFriendsAction",
            "unFriendAcceptProportion",
            "unFriendRejectProportion");

    private static final Set<String> UNSUPPORTED_LOWER;

    static {
        Set<String> u = new HashSet<>();
        for (String k : UNSUPPORTED) {
            u.add(lower(k));
        }
        UNSUPPORTED_LOWER = Collections.unmodifiableSet(u);
    }

    private MixKeys() {}

    private static String lower(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code key} is one of {@link #UNSUPPORTED}, in any case. */
    public static boolean isUnsupported(String key) {
        return UNSUPPORTED_LOWER.contains(lower(key));
    }

    /**
     * Whether {@code key} looks like a frequency key: an accepted one, an unsupported one, or any key ending in
     * "Action" or "Session". The parameter parser rejects the last kind, which catches misspelt frequencies that would
     * otherwise silently count as 0.
     */
    public static boolean looksLikeFrequencyKey(String key) {
        String k = lower(key);
        return Kind.byUscKey(key).isPresent()
                || UNSUPPORTED_LOWER.contains(k)
                || k.endsWith("action")
                || k.endsWith("session");
    }

    /** Every accepted key in USC spelling, actions then sessions, for help texts and error messages. */
    public static List<String> all() {
        return Kind.all().stream().map(Kind::uscKey).toList();
    }
}
