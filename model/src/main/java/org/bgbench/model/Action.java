package org.bgbench.model;

/** The social-networking actions BG emulates [SPEC §4]. The enum order is the reporting order. */
public enum Action {
    VP("View Profile", false),
    LF("List Friends", false),
    VFR("View Friend Requests", false),
    IF("Invite Friend", true),
    AFR("Accept Friend Request", true),
    RFR("Reject Friend Request", true),
    TF("Thaw Friendship", true),
    VTR("View Top-K Resources", false),
    VCR("View Comments on Resource", false),
    PCR("Post Comment on Resource", true),
    DCR("Delete Comment from Resource", true);

    private static final Action[] VALUES = values();

    private final String title;
    private final boolean write;

    Action(String title, boolean write) {
        this.title = title;
        this.write = write;
    }

    public String title() {
        return title;
    }

    public boolean isWrite() {
        return write;
    }

    public static Action byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    public static int count() {
        return VALUES.length;
    }
}
