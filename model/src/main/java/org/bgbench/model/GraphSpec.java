package org.bgbench.model;

import java.util.Locale;

/**
 * The database parameters of a BG social graph (dissertation table 3.1). Two equal specs generate the
 * same graph, so a spec (its {@link #fingerprint()}) identifies what a store holds.
 *
 * @param members             M, number of members
 * @param memberIdOffset      id of the first member (USC BG's {@code useroffset})
 * @param friendsPerMember    φ, confirmed plus pending relationships per member
 * @param resourcesPerMember  ρ, resources posted on each member's wall
 * @param commentsPerResource initial comments on every resource
 * @param confirmedFraction   fraction of generated relationships that start confirmed (USC {@code confperc})
 * @param images              whether members carry a thumbnail and a profile image
 * @param thumbnailBytes      thumbnail size in bytes (when images are on)
 * @param profileImageBytes   profile image size in bytes (when images are on)
 * @param attributeCount      string attributes per member
 * @param attributeLength     characters per string attribute
 * @param commentLength       characters in a comment's content
 * @param fragments           disjoint sub-graphs the members are split into; 0 picks a default
 * @param seed                seed of every pseudo-random choice of the generator
 * @param feed                pages and follows for feed following (dissertation 3.2, 5.1); {@link FeedSpec#NONE}: none
 */
public record GraphSpec(
        int members,
        int memberIdOffset,
        int friendsPerMember,
        int resourcesPerMember,
        int commentsPerResource,
        double confirmedFraction,
        boolean images,
        int thumbnailBytes,
        int profileImageBytes,
        int attributeCount,
        int attributeLength,
        int commentLength,
        int fragments,
        long seed,
        FeedSpec feed) {

    public static final int MAX_ATTRIBUTES = 64;

    /** The dissertation's standard graph: M=10,000, φ=ρ=100, no images. */
    public static GraphSpec defaults() {
        return new GraphSpec(10_000, 0, 100, 100, 0, 1.0, false, 2 * 1024, 12 * 1024, 11, 20, 100, 0, 0xB6L);
    }

    /** A graph without pages. */
    public GraphSpec(int members, int memberIdOffset, int friendsPerMember, int resourcesPerMember,
                     int commentsPerResource, double confirmedFraction, boolean images, int thumbnailBytes,
                     int profileImageBytes, int attributeCount, int attributeLength, int commentLength, int fragments,
                     long seed) {
        this(members, memberIdOffset, friendsPerMember, resourcesPerMember, commentsPerResource, confirmedFraction,
                images, thumbnailBytes, profileImageBytes, attributeCount, attributeLength, commentLength, fragments,
                seed, FeedSpec.NONE);
    }

    public GraphSpec {
        if (feed == null) {
            feed = FeedSpec.NONE;
        }
        feed.checkFor(members, resourcesPerMember);
        check(members >= 1, "members", "must be at least 1, got " + members);
        check(memberIdOffset >= 0, "useroffset", "must be 0 or more, got " + memberIdOffset);
        check((long) memberIdOffset + members <= Integer.MAX_VALUE, "useroffset",
                "useroffset + members must fit a 32-bit member id");
        check(friendsPerMember >= 0, "friendcountperuser", "must be 0 or more, got " + friendsPerMember);
        check(friendsPerMember < members, "friendcountperuser",
                "φ=" + friendsPerMember + " must be less than the number of members M=" + members);
        check(resourcesPerMember >= 0, "resourcecountperuser", "must be 0 or more, got " + resourcesPerMember);
        check(commentsPerResource >= 0, "commentcountperresource", "must be 0 or more, got " + commentsPerResource);
        check((long) members * resourcesPerMember * Math.max(1, commentsPerResource) < (1L << 40),
                "resourcecountperuser", "M × ρ × comments must stay below 2^40");
        check(confirmedFraction >= 0 && confirmedFraction <= 1, "confperc",
                "must be a fraction from 0 to 1, got " + confirmedFraction);
        check(thumbnailBytes >= 0, "thumbnailsize", "must be 0 or more bytes, got " + thumbnailBytes);
        check(profileImageBytes >= 0, "imagesize", "must be 0 or more bytes, got " + profileImageBytes);
        check(attributeCount >= 1 && attributeCount <= MAX_ATTRIBUTES, "attributecount",
                "must be from 1 to " + MAX_ATTRIBUTES + ", got " + attributeCount);
        check(attributeLength >= 1, "attributelength", "must be at least 1, got " + attributeLength);
        check(commentLength >= 1, "commentlength", "must be at least 1, got " + commentLength);
        check(fragments >= 0, "fragments", "must be 0 (automatic) or more, got " + fragments);
        if (fragments > 0) {
            check(members / fragments > friendsPerMember, "fragments",
                    "each of the " + fragments + " fragments must hold more than φ=" + friendsPerMember
                            + " members; at most " + maxFragments(members, friendsPerMember) + " fragments fit M=" + members);
        }
        check(friendsPerMember % 2 == 0 || members % 2 == 0, "friendcountperuser",
                "an odd φ needs an even number of members (every member gets exactly φ friends)");
        if (fragments > 0 && feed.hasPages()) {
            check(feedCompatible(fragments, members, friendsPerMember, feed), "fragments",
                    fragments + " fragments must divide both M=" + members + " and P=" + feed.pages()
                            + " (pages and their followers stay in one fragment) and each must keep at least ϱ="
                            + feed.pagesPerMember() + " pages");
        }
    }

    /** Whether {@code f} equal fragments can each hold whole pages with all their followers. */
    private static boolean feedCompatible(int f, int members, int friendsPerMember, FeedSpec feed) {
        return members % f == 0 && feed.pages() % f == 0 && feed.pages() / f >= feed.pagesPerMember()
                && members / f > friendsPerMember && (friendsPerMember % 2 == 0 || (members / f) % 2 == 0);
    }

    private static void check(boolean ok, String parameter, String message) {
        if (!ok) {
            throw new InvalidParameterException(parameter, message);
        }
    }

    static int maxFragments(int members, int friendsPerMember) {
        return Math.max(1, members / (friendsPerMember + 1));
    }

    /** The fragment count actually used: the given one, or one fragment per ~1,000 members (at most 64). */
    public int resolvedFragments() {
        if (fragments > 0) {
            return fragments;
        }
        if (feed.hasPages()) {
            // Pages and all their followers must share a fragment: take the largest equal split of both.
            int f = Math.min(64, Math.max(1, members / 1000));
            while (f > 1 && !feedCompatible(f, members, friendsPerMember, feed)) {
                f--;
            }
            return f;
        }
        int byFriends = maxFragments(members, friendsPerMember);
        int bySize = Math.max(1, members / 1000);
        int f = Math.min(64, Math.min(byFriends, bySize));
        // Odd φ needs even fragment sizes; halving the bound keeps every fragment at two or more pairs.
        return friendsPerMember % 2 == 1 ? Math.max(1, Math.min(f, members / 2 / (friendsPerMember + 1))) : f;
    }

    /** Canonical text of every parameter that shapes the graph; equal fingerprints mean equal graphs. */
    public String fingerprint() {
        return String.format(Locale.ROOT,
                "bg-graph/1 M=%d offset=%d phi=%d rho=%d comments=%d confirmed=%s images=%b thumb=%d profile=%d "
                        + "attrs=%dx%d commentlen=%d fragments=%d seed=%d",
                members, memberIdOffset, friendsPerMember, resourcesPerMember, commentsPerResource,
                Double.toString(confirmedFraction), images, images ? thumbnailBytes : 0, images ? profileImageBytes : 0,
                attributeCount, attributeLength, commentLength, resolvedFragments(), seed)
                + feed.fingerprint(members, resourcesPerMember);
    }

    public GraphSpec withMembers(int m) {
        return new GraphSpec(m, memberIdOffset, friendsPerMember, resourcesPerMember, commentsPerResource,
                confirmedFraction, images, thumbnailBytes, profileImageBytes, attributeCount, attributeLength,
                commentLength, fragments, seed, feed);
    }

    public GraphSpec withFeed(FeedSpec f) {
        return new GraphSpec(members, memberIdOffset, friendsPerMember, resourcesPerMember, commentsPerResource,
                confirmedFraction, images, thumbnailBytes, profileImageBytes, attributeCount, attributeLength,
                commentLength, fragments, seed, f);
    }
}
