package org.bgbench.model;

/**
 * The social-networking actions BG emulates (dissertation 3.2). The enum order is the reporting order and, through
 * {@link Kind#index()}, the number every mix, recorder and validation log uses; new actions go at the end.
 */
public enum Action implements Kind {
    VP("View Profile", false, "ViewProfileAction"),
    LF("List Friends", false, "ListFriendsAction"),
    VFR("View Friend Requests", false, "ViewFriendReqAction"),
    IF("Invite Friend", true, "InviteFriendAction"),
    AFR("Accept Friend Request", true, "AcceptFriendReqAction"),
    RFR("Reject Friend Request", true, "RejectFriendReqAction"),
    TF("Thaw Friendship", true, "ThawFriendshipAction"),
    VTR("View Top-K Resources", false, "ViewTopKResourcesAction"),
    VCR("View Comments on Resource", false, "ViewCommentsOnResourceAction"),
    PCR("Post Comment on Resource", true, "PostCommentOnResourceAction"),
    DCR("Delete Comment from Resource", true, "DeleteCommentOnResourceAction"),
    /** Feed following (dissertation 3.2): an account shares a resource it owns, publicly or with a list. */
    SR("Share Resource", true, "ShareResourceAction"),
    /** Feed following: the k most recent shares a member sees from her friends and the pages she follows. */
    VNF("View News Feed", false, "ViewNewsFeedAction");

    private static final Action[] VALUES = values();

    private final String title;
    private final boolean write;
    private final String uscKey;

    Action(String title, boolean write, String uscKey) {
        this.title = title;
        this.write = write;
        this.uscKey = uscKey;
    }

    /** Its ordinal: actions come first among the kinds. */
    @Override
    public int index() {
        return ordinal();
    }

    /** The enum name, e.g. {@code VP}. */
    @Override
    public String code() {
        return name();
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public String uscKey() {
        return uscKey;
    }

    @Override
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
