package org.bgbench.store;

/**
 * The actions of dissertation 3.2 as one emulator thread issues them. Member ids are the ids stored in the store
 * ({@code useroffset} + index). Inputs are always valid (BG checks them against its graph state). Read actions fill a
 * caller-owned, reused view object so the hot path allocates little. Any failure is a {@link StoreException} (or
 * another runtime exception), which BG counts as an error of that action.
 */
public interface StoreSession extends AutoCloseable {
    /**
     * VP: {@code profile}'s attributes, profile image, friend count and resource count; the pending-invitation count
     * too when {@code requester == profile} (else leave it -1).
     */
    void viewProfile(int requester, int profile, ProfileView out);

    /** LF: each friend of {@code profile} with attributes and thumbnail. */
    void listFriends(int requester, int profile, MemberList out);

    /** VFR: each member with a pending invitation to {@code member}, with attributes and thumbnail. */
    void viewFriendRequests(int member, MemberList out);

    /** IF: {@code inviter} invites {@code invitee}. */
    void inviteFriend(int inviter, int invitee);

    /** AFR: {@code invitee} accepts the pending invitation of {@code inviter}; they become friends. */
    void acceptFriendRequest(int invitee, int inviter);

    /** RFR: {@code invitee} rejects the pending invitation of {@code inviter}. */
    void rejectFriendRequest(int invitee, int inviter);

    /** TF: {@code member} and {@code friend} stop being friends. */
    void thawFriendship(int member, int friend);

    /** VTR: the {@code k} resources on {@code profile}'s wall with the highest resource id, highest first. */
    void viewTopKResources(int requester, int profile, int k, ResourceList out);

    /** VCR: every comment on resource {@code resource}, posted on {@code owner}'s wall. */
    void viewCommentsOnResource(int requester, int owner, long resource, CommentList out);

    /** PCR: {@code commenter} posts comment {@code commentId} on {@code owner}'s resource. */
    void postCommentOnResource(
            int commenter, int owner, long resource, long commentId, long timestampMs, String content);

    /** DCR: {@code owner} deletes comment {@code commentId} from her resource. */
    void deleteCommentFromResource(int owner, long resource, long commentId);

    /**
     * SR (dissertation 3.2, 8.4): account {@code sharer} (a member id or a page's account id) shares its resource
     * {@code resource} as share {@code shareId} with all its friends (a member) or followers (a page) when
     * {@code recipients} is null, or else with exactly the member ids in {@code recipients}. Share ids grow with time:
     * the larger, the more recent. Visibility is decided when the feed is read: a member sees a share while its sharer
     * is her friend or a page she follows.
     */
    void shareResource(int sharer, long resource, long shareId, int[] recipients);

    /**
     * VNF: the {@code k} most recent shares (highest share id first) that {@code member}'s current friends and the
     * pages she follows shared publicly or with her, each with the shared resource's attributes.
     */
    void viewNewsFeed(int member, int k, FeedList out);

    @Override
    void close();
}
