package org.bgbench.model;

import java.util.Locale;
import java.util.Objects;

/**
 * The database parameters of a BG social graph (dissertation table 3.1). Two equal specs generate the
 * same graph, so a spec (its {@link #fingerprint()}) identifies what a store holds.
 *
 * <p>Build one with {@link #builder()} (the defaults, changed by name) or {@link #toBuilder()}.
 *
 * @param sizes     members, friends, resources and comments
 * @param media     members' images
 * @param text      attribute and comment lengths
 * @param fragments disjoint sub-graphs the members are split into; 0 picks a default
 * @param seed      seed of every pseudo-random choice of the generator
 * @param feed      pages and follows for feed following (dissertation 3.2, 5.1); {@link FeedSpec#NONE}: none
 */
public record GraphSpec(Sizes sizes, Media media, Text text, int fragments, long seed, FeedSpec feed) {

    /**
     * How many members, friends, resources and comments the graph has.
     *
     * @param members             M, number of members
     * @param memberIdOffset      id of the first member (USC BG's {@code useroffset})
     * @param friendsPerMember    φ, confirmed plus pending relationships per member
     * @param resourcesPerMember  ρ, resources posted on each member's wall
     * @param commentsPerResource initial comments on every resource
     * @param confirmedFraction   fraction of generated relationships that start confirmed (USC {@code confperc})
     */
    public record Sizes(
            int members,
            int memberIdOffset,
            int friendsPerMember,
            int resourcesPerMember,
            int commentsPerResource,
            double confirmedFraction) {}

    /**
     * Whether members carry images, and how large they are.
     *
     * @param images            whether members carry a thumbnail and a profile image
     * @param thumbnailBytes    thumbnail size in bytes (when images are on)
     * @param profileImageBytes profile image size in bytes (when images are on)
     */
    public record Media(boolean images, int thumbnailBytes, int profileImageBytes) {}

    /**
     * The shape of a member's string attributes and of a comment's content.
     *
     * @param attributeCount  string attributes per member
     * @param attributeLength characters per string attribute
     * @param commentLength   characters in a comment's content
     */
    public record Text(int attributeCount, int attributeLength, int commentLength) {}

    public static final int MAX_ATTRIBUTES = 64;

    /** The dissertation's standard graph: M=10,000, φ=ρ=100, no images. */
    public static GraphSpec defaults() {
        return new GraphSpec(
                new Sizes(10_000, 0, 100, 100, 0, 1.0),
                new Media(false, 2 * 1024, 12 * 1024),
                new Text(11, 20, 100),
                0,
                0xB6L,
                FeedSpec.NONE);
    }

    /** A builder that starts from {@link #defaults()}. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder that starts from this spec. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public GraphSpec {
        Objects.requireNonNull(sizes, "sizes");
        Objects.requireNonNull(media, "media");
        Objects.requireNonNull(text, "text");
        if (feed == null) {
            feed = FeedSpec.NONE;
        }
        int members = sizes.members();
        int memberIdOffset = sizes.memberIdOffset();
        int friendsPerMember = sizes.friendsPerMember();
        int resourcesPerMember = sizes.resourcesPerMember();
        int commentsPerResource = sizes.commentsPerResource();
        double confirmedFraction = sizes.confirmedFraction();
        int thumbnailBytes = media.thumbnailBytes();
        int profileImageBytes = media.profileImageBytes();
        int attributeCount = text.attributeCount();
        int attributeLength = text.attributeLength();
        int commentLength = text.commentLength();
        feed.checkFor(members, resourcesPerMember);
        check(members >= 1, "members", "must be at least 1, got " + members);
        check(memberIdOffset >= 0, "useroffset", "must be 0 or more, got " + memberIdOffset);
        check(
                (long) memberIdOffset + members <= Integer.MAX_VALUE,
                "useroffset",
                "useroffset + members must fit a 32-bit member id");
        check(friendsPerMember >= 0, "friendcountperuser", "must be 0 or more, got " + friendsPerMember);
        check(
                friendsPerMember < members,
                "friendcountperuser",
                "φ=" + friendsPerMember + " must be less than the number of members M=" + members);
        check(resourcesPerMember >= 0, "resourcecountperuser", "must be 0 or more, got " + resourcesPerMember);
        check(commentsPerResource >= 0, "commentcountperresource", "must be 0 or more, got " + commentsPerResource);
        check(
                (long) members * resourcesPerMember * Math.max(1, commentsPerResource) < (1L << 40),
                "resourcecountperuser",
                "M × ρ × comments must stay below 2^40");
        check(
                confirmedFraction >= 0 && confirmedFraction <= 1,
                "confperc",
                "must be a fraction from 0 to 1, got " + confirmedFraction);
        check(thumbnailBytes >= 0, "thumbnailsize", "must be 0 or more bytes, got " + thumbnailBytes);
        check(profileImageBytes >= 0, "imagesize", "must be 0 or more bytes, got " + profileImageBytes);
        check(
                attributeCount >= 1 && attributeCount <= MAX_ATTRIBUTES,
                "attributecount",
                "must be from 1 to " + MAX_ATTRIBUTES + ", got " + attributeCount);
        check(attributeLength >= 1, "attributelength", "must be at least 1, got " + attributeLength);
        check(commentLength >= 1, "commentlength", "must be at least 1, got " + commentLength);
        check(fragments >= 0, "fragments", "must be 0 (automatic) or more, got " + fragments);
        if (fragments > 0) {
            check(
                    members / fragments > friendsPerMember,
                    "fragments",
                    "each of the " + fragments + " fragments must hold more than φ=" + friendsPerMember
                            + " members; at most " + maxFragments(members, friendsPerMember) + " fragments fit M="
                            + members);
        }
        check(
                friendsPerMember % 2 == 0 || members % 2 == 0,
                "friendcountperuser",
                "an odd φ needs an even number of members (every member gets exactly φ friends)");
        if (fragments > 0 && feed.hasPages()) {
            check(
                    feedCompatible(fragments, members, friendsPerMember, feed),
                    "fragments",
                    fragments + " fragments must divide both M=" + members + " and P=" + feed.pages()
                            + " (pages and their followers stay in one fragment) and each must keep at least ϱ="
                            + feed.pagesPerMember() + " pages");
        }
    }

    /** Whether {@code f} equal fragments can each hold whole pages with all their followers. */
    private static boolean feedCompatible(int f, int members, int friendsPerMember, FeedSpec feed) {
        return members % f == 0
                && feed.pages() % f == 0
                && feed.pages() / f >= feed.pagesPerMember()
                && members / f > friendsPerMember
                && (friendsPerMember % 2 == 0 || (members / f) % 2 == 0);
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
            int f = Math.min(64, Math.max(1, members() / 1000));
            while (f > 1 && !feedCompatible(f, members(), friendsPerMember(), feed)) {
                f--;
            }
            return f;
        }
        int byFriends = maxFragments(members(), friendsPerMember());
        int bySize = Math.max(1, members() / 1000);
        int f = Math.min(64, Math.min(byFriends, bySize));
        // Odd φ needs even fragment sizes; halving the bound keeps every fragment at two or more pairs.
        return friendsPerMember() % 2 == 1 ? Math.max(1, Math.min(f, members() / 2 / (friendsPerMember() + 1))) : f;
    }

    /** Canonical text of every parameter that shapes the graph; equal fingerprints mean equal graphs. */
    public String fingerprint() {
        return String.format(
                        Locale.ROOT,
                        "bg-graph/1 M=%d offset=%d phi=%d rho=%d comments=%d confirmed=%s images=%b thumb=%d profile=%d "
                                + "attrs=%dx%d commentlen=%d fragments=%d seed=%d",
                        members(),
                        memberIdOffset(),
                        friendsPerMember(),
                        resourcesPerMember(),
                        commentsPerResource(),
                        Double.toString(confirmedFraction()),
                        images(),
                        images() ? thumbnailBytes() : 0,
                        images() ? profileImageBytes() : 0,
                        attributeCount(),
                        attributeLength(),
                        commentLength(),
                        resolvedFragments(),
                        seed)
                + feed.fingerprint(members(), resourcesPerMember());
    }

    public GraphSpec withMembers(int m) {
        return toBuilder().members(m).build();
    }

    public GraphSpec withFeed(FeedSpec f) {
        return new GraphSpec(sizes, media, text, fragments, seed, f);
    }

    public int members() {
        return sizes.members();
    }

    public int memberIdOffset() {
        return sizes.memberIdOffset();
    }

    public int friendsPerMember() {
        return sizes.friendsPerMember();
    }

    public int resourcesPerMember() {
        return sizes.resourcesPerMember();
    }

    public int commentsPerResource() {
        return sizes.commentsPerResource();
    }

    public double confirmedFraction() {
        return sizes.confirmedFraction();
    }

    public boolean images() {
        return media.images();
    }

    public int thumbnailBytes() {
        return media.thumbnailBytes();
    }

    public int profileImageBytes() {
        return media.profileImageBytes();
    }

    public int attributeCount() {
        return text.attributeCount();
    }

    public int attributeLength() {
        return text.attributeLength();
    }

    public int commentLength() {
        return text.commentLength();
    }

    /** Sets a spec's parameters by name; {@link #build()} checks them all at once, as the constructor does. */
    public static final class Builder {
        private int members;
        private int memberIdOffset;
        private int friendsPerMember;
        private int resourcesPerMember;
        private int commentsPerResource;
        private double confirmedFraction;
        private boolean images;
        private int thumbnailBytes;
        private int profileImageBytes;
        private int attributeCount;
        private int attributeLength;
        private int commentLength;
        private int fragments;
        private long seed;
        private FeedSpec feed;

        /** A builder with every parameter 0 (no feed), for readers that set each one (graph.json). */
        private Builder() {}

        private Builder(GraphSpec from) {
            members = from.members();
            memberIdOffset = from.memberIdOffset();
            friendsPerMember = from.friendsPerMember();
            resourcesPerMember = from.resourcesPerMember();
            commentsPerResource = from.commentsPerResource();
            confirmedFraction = from.confirmedFraction();
            images = from.images();
            thumbnailBytes = from.thumbnailBytes();
            profileImageBytes = from.profileImageBytes();
            attributeCount = from.attributeCount();
            attributeLength = from.attributeLength();
            commentLength = from.commentLength();
            fragments = from.fragments();
            seed = from.seed();
            feed = from.feed();
        }

        public Builder members(int v) {
            members = v;
            return this;
        }

        public Builder memberIdOffset(int v) {
            memberIdOffset = v;
            return this;
        }

        public Builder friendsPerMember(int v) {
            friendsPerMember = v;
            return this;
        }

        public Builder resourcesPerMember(int v) {
            resourcesPerMember = v;
            return this;
        }

        public Builder commentsPerResource(int v) {
            commentsPerResource = v;
            return this;
        }

        public Builder confirmedFraction(double v) {
            confirmedFraction = v;
            return this;
        }

        public Builder images(boolean v) {
            images = v;
            return this;
        }

        public Builder thumbnailBytes(int v) {
            thumbnailBytes = v;
            return this;
        }

        public Builder profileImageBytes(int v) {
            profileImageBytes = v;
            return this;
        }

        public Builder attributeCount(int v) {
            attributeCount = v;
            return this;
        }

        public Builder attributeLength(int v) {
            attributeLength = v;
            return this;
        }

        public Builder commentLength(int v) {
            commentLength = v;
            return this;
        }

        public Builder fragments(int v) {
            fragments = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder feed(FeedSpec v) {
            feed = v;
            return this;
        }

        public GraphSpec build() {
            return new GraphSpec(
                    new Sizes(
                            members,
                            memberIdOffset,
                            friendsPerMember,
                            resourcesPerMember,
                            commentsPerResource,
                            confirmedFraction),
                    new Media(images, thumbnailBytes, profileImageBytes),
                    new Text(attributeCount, attributeLength, commentLength),
                    fragments,
                    seed,
                    feed);
        }
    }
}
