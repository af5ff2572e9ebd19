package org.bgbench.store.casql;

/**
 * The cache key of each read action's result. The requester never enters a key: no result depends on who asks,
 * except that VP shows the pending count only to the member herself, which the session masks after the lookup.
 */
final class CacheKeys {
    private CacheKeys() {}

    /** VP of {@code member}: attributes, profile image, friend, resource and pending counts. */
    static String profile(int member) {
        return "vp:" + member;
    }

    /** LF of {@code member}: her friends with attributes and thumbnails. */
    static String friends(int member) {
        return "lf:" + member;
    }

    /** VFR of {@code member}: the members with a pending invitation to her. */
    static String friendRequests(int member) {
        return "vfr:" + member;
    }

    /** VTR of {@code member} with {@code k}: the k newest resources on her wall. */
    static String topResources(int member, int k) {
        return "vtr:" + member + ":" + k;
    }

    /** VCR of {@code resource}: its comments. */
    static String comments(long resource) {
        return "vcr:" + resource;
    }

    /**
     * VNF of {@code member}: her feed. One key whatever k (the entry records the k it was filled for), so a write
     * knows every feed key it must delete.
     */
    static String feed(int member) {
        return "vnf:" + member;
    }
}
