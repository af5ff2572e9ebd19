package org.bgbench.workload.mix;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.bgbench.model.Action;
import org.bgbench.workload.SessionType;

/**
 * The frequency keys of USC BG's workload files and their mapping to {@link Mix} choices. Keys are matched
 * case-insensitively; the dissertation's session spellings ({@code ViewFrndProfileSession}, {@code InviteFrndSession})
 * are accepted beside USC's.
 */
public final class MixKeys {
    private static final String[] ACTION_KEYS = new String[Action.count()];

    /**
     * Keys USC BG knows but this BG does not implement (feed following, graph actions, two legacy sessions). A file may
     * carry them with frequency 0, as USC's own workload files do; a non-zero frequency is rejected.
     */
    public static final Set<String> UNSUPPORTED = Set.of(
            "ShareResourceAction", "ViewNewsFeedAction", "GetShortestDistanceAction", "ListCommonFriendsAction",
            "ListFriendsOfFriendsAction", "unFriendAcceptProportion", "unFriendRejectProportion");

    private static final Map<String, Integer> BY_LOWER_KEY = new HashMap<>();
    private static final Set<String> UNSUPPORTED_LOWER;

    static {
        ACTION_KEYS[Action.VP.ordinal()] = "ViewProfileAction";
        ACTION_KEYS[Action.LF.ordinal()] = "ListFriendsAction";
        ACTION_KEYS[Action.VFR.ordinal()] = "ViewFriendReqAction";
        ACTION_KEYS[Action.IF.ordinal()] = "InviteFriendAction";
        ACTION_KEYS[Action.AFR.ordinal()] = "AcceptFriendReqAction";
        ACTION_KEYS[Action.RFR.ordinal()] = "RejectFriendReqAction";
        ACTION_KEYS[Action.TF.ordinal()] = "ThawFriendshipAction";
        ACTION_KEYS[Action.VTR.ordinal()] = "ViewTopKResourcesAction";
        ACTION_KEYS[Action.VCR.ordinal()] = "ViewCommentsOnResourceAction";
        ACTION_KEYS[Action.PCR.ordinal()] = "PostCommentOnResourceAction";
        ACTION_KEYS[Action.DCR.ordinal()] = "DeleteCommentOnResourceAction";
        for (Action a : Action.values()) {
            BY_LOWER_KEY.put(lower(ACTION_KEYS[a.ordinal()]), Mix.choice(a));
        }
        for (SessionType s : SessionType.values()) {
            BY_LOWER_KEY.put(lower(s.uscKey()), Mix.choice(s));
            for (String alias : s.keyAliases()) {
                BY_LOWER_KEY.put(lower(alias), Mix.choice(s));
            }
        }
        Set<String> u = new java.util.HashSet<>();
        for (String k : UNSUPPORTED) {
            u.add(lower(k));
        }
        UNSUPPORTED_LOWER = Collections.unmodifiableSet(u);
    }

    private MixKeys() {
    }

    private static String lower(String s) {
        return s.trim().toLowerCase(Locale.ROOT);
    }

    /** USC BG's key for an action, e.g. {@code ViewProfileAction} for VP. */
    public static String key(Action action) {
        return ACTION_KEYS[action.ordinal()];
    }

    /** USC BG's key for a session, e.g. {@code ViewSelfProfileSession}. */
    public static String key(SessionType session) {
        return session.uscKey();
    }

    /** USC BG's key for a {@link Mix} choice. */
    public static String key(int choice) {
        return Mix.isAction(choice) ? key(Mix.actionOf(choice)) : key(Mix.sessionOf(choice));
    }

    /** The {@link Mix} choice a frequency key stands for (any accepted spelling, any case), or -1. */
    public static int choiceOf(String key) {
        Integer c = BY_LOWER_KEY.get(lower(key));
        return c == null ? -1 : c;
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
        return BY_LOWER_KEY.containsKey(k) || UNSUPPORTED_LOWER.contains(k) || k.endsWith("action")
                || k.endsWith("session");
    }

    /** Every accepted key in USC spelling, actions then sessions, for help texts and error messages. */
    public static List<String> all() {
        List<String> keys = new ArrayList<>(Mix.CHOICES);
        for (int c = 0; c < Mix.CHOICES; c++) {
            keys.add(key(c));
        }
        return List.copyOf(keys);
    }
}
