package org.bgbench.emulator;

import org.bgbench.model.Action;

/**
 * What a thread can issue, encoded as one int so mixes, counters and histograms index arrays directly: the actions by
 * ordinal, then the sessions from {@link #FIRST_SESSION}.
 */
public final class Kinds {
    /** Equals {@code Action.count()}; a literal so the kinds are constants usable in switches. */
    public static final int FIRST_SESSION = 11;

    public static final int VIEW_SELF_PROFILE = FIRST_SESSION;
    public static final int VIEW_FRIEND_PROFILE = FIRST_SESSION + 1;
    public static final int POST_COMMENT = FIRST_SESSION + 2;
    public static final int DELETE_COMMENT = FIRST_SESSION + 3;
    public static final int INVITE_FRIEND = FIRST_SESSION + 4;
    public static final int ACCEPT_FRIEND_REQUEST = FIRST_SESSION + 5;
    public static final int REJECT_FRIEND_REQUEST = FIRST_SESSION + 6;
    public static final int THAW_FRIENDSHIP = FIRST_SESSION + 7;

    public static final int SESSIONS = 8;
    public static final int COUNT = FIRST_SESSION + SESSIONS;

    static {
        if (FIRST_SESSION != Action.count()) {
            throw new AssertionError("Kinds.FIRST_SESSION must equal the number of actions");
        }
    }

    private Kinds() {
    }
}
