package org.bgbench.model.generator;

import java.util.function.IntConsumer;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;

/**
 * The deterministic social graph of a {@link GraphSpec} (dissertation 5.1). Every relationship, resource, comment
 * and attribute is a pure function of the spec, so any component can tell the initial state of any member without
 * reading the store, and loading can be split across threads and hosts freely.
 *
 * <p>Members are addressed by <em>index</em> 0..M-1 (id = {@code memberIdOffset} + index). The members are split
 * into contiguous fragments; inside a fragment of m members, member at position p is related to p±1 … p±φ/2 (mod m)
 * and, when φ is odd, to the opposite member p+m/2 (fragments then have even sizes), so every member has exactly φ
 * relationships and no relationship crosses a fragment. A relationship starts confirmed with probability
 * {@code confirmedFraction}; otherwise it is a pending invitation from the member at the lower offset position.
 */
public final class SocialGraph {
    /** Timestamps of generated comments start here (2014-05-13, the dissertation's era). */
    public static final long BASE_TIMESTAMP_MS = 1_400_000_000_000L;

    private static final String[] RESOURCE_TYPES = {"image", "post", "question", "video"};

    private final GraphSpec spec;
    private final int members;
    private final int offset;
    private final int fragments;
    private final int half;
    private final boolean diameter;
    private final int bigSize;
    private final int smallSize;
    private final int boundary;
    private final int bigCount;
    private final double confirmed;
    private final long seed;
    private volatile long[] totals;
    private final int pages;
    private final int pagesPerMember;
    private final int pagesPerFragment;
    private final int resourcesPerPage;

    public SocialGraph(GraphSpec spec) {
        this.spec = spec;
        this.members = spec.members();
        this.offset = spec.memberIdOffset();
        this.fragments = spec.resolvedFragments();
        this.half = spec.friendsPerMember() / 2;
        this.diameter = spec.friendsPerMember() % 2 == 1;
        int unit = diameter ? 2 : 1;
        int units = members / unit;
        this.bigCount = units % fragments;
        this.smallSize = units / fragments * unit;
        this.bigSize = smallSize + unit;
        this.boundary = bigCount * bigSize;
        this.confirmed = spec.confirmedFraction();
        this.seed = spec.seed();
        this.pages = spec.feed().pages();
        this.pagesPerMember = spec.feed().pagesPerMember();
        this.pagesPerFragment = pages / fragments;
        this.resourcesPerPage = spec.feed().pageResources(spec.resourcesPerMember());
        if (smallSize <= spec.friendsPerMember()) {
            throw new InvalidParameterException(
                    "fragments",
                    fragments + " fragments leave " + smallSize + " members in a fragment, not more than φ="
                            + spec.friendsPerMember());
        }
    }

    public GraphSpec spec() {
        return spec;
    }

    public int members() {
        return members;
    }

    public int memberId(int index) {
        return offset + index;
    }

    public int memberIndex(int memberId) {
        return memberId - offset;
    }

    public boolean isMember(int memberId) {
        return memberId >= offset && memberId - offset < members;
    }

    // ---- fragments ----

    public int fragments() {
        return fragments;
    }

    public int fragmentOf(int index) {
        return index < boundary ? index / bigSize : bigCount + (index - boundary) / smallSize;
    }

    public int fragmentStart(int fragment) {
        return fragment <= bigCount ? fragment * bigSize : boundary + (fragment - bigCount) * smallSize;
    }

    public int fragmentSize(int fragment) {
        return fragment < bigCount ? bigSize : smallSize;
    }

    // ---- relationships ----

    private boolean edgeConfirmed(int fromIndex, int k) {
        if (confirmed >= 1.0) {
            return true;
        }
        if (confirmed <= 0.0) {
            return false;
        }
        return Mix64.unit(Mix64.hash(seed, fromIndex, k)) < confirmed;
    }

    /** Initial relation of {@code a} to {@code b}, both member indexes. */
    public Relation initialRelation(int a, int b) {
        if (a == b) {
            return Relation.NONE;
        }
        int f = fragmentOf(a);
        if (f != fragmentOf(b)) {
            return Relation.NONE;
        }
        int start = fragmentStart(f);
        int m = fragmentSize(f);
        int d = Math.floorMod(b - a, m);
        int from;
        int k;
        if (d <= half) {
            from = a;
            k = d;
        } else if (m - d <= half) {
            from = b;
            k = m - d;
        } else if (diameter && d * 2 == m) {
            from = Math.min(a - start, b - start) + start;
            k = m / 2;
        } else {
            return Relation.NONE;
        }
        if (edgeConfirmed(from, k)) {
            return Relation.FRIENDS;
        }
        return from == a ? Relation.INVITED : Relation.INVITED_BY;
    }

    /**
     * Visits the relationships that member {@code index} starts (its canonical edges): each relationship of the graph
     * is started by exactly one member, so visiting these for all members visits every relationship once. This is the
     * iteration a bulk loader wants.
     */
    public void forEachStartedRelationship(int index, EdgeVisitor visitor) {
        int f = fragmentOf(index);
        int start = fragmentStart(f);
        int m = fragmentSize(f);
        int p = index - start;
        for (int k = 1; k <= half; k++) {
            visitor.edge(index, start + (p + k) % m, edgeConfirmed(index, k));
        }
        if (diameter && p < m / 2) {
            visitor.edge(index, index + m / 2, edgeConfirmed(index, m / 2));
        }
    }

    /** Visits the initial confirmed friends of {@code index}. */
    public void forEachInitialFriend(int index, IntConsumer friend) {
        forEachNeighbour(index, Relation.FRIENDS, friend);
    }

    /** Visits the members whose initial pending invitation {@code index} has received. */
    public void forEachInitialInviter(int index, IntConsumer inviter) {
        forEachNeighbour(index, Relation.INVITED_BY, inviter);
    }

    /** Visits the members {@code index} initially invited, still pending. */
    public void forEachInitialInvitee(int index, IntConsumer invitee) {
        forEachNeighbour(index, Relation.INVITED, invitee);
    }

    /** Visits the neighbours of {@code index} whose initial relation to them is {@code wanted}. */
    public void forEachNeighbour(int index, Relation wanted, IntConsumer out) {
        int f = fragmentOf(index);
        int start = fragmentStart(f);
        int m = fragmentSize(f);
        int p = index - start;
        for (int k = 1; k <= half; k++) {
            int up = start + (p + k) % m;
            boolean c = edgeConfirmed(index, k);
            if (c ? wanted == Relation.FRIENDS : wanted == Relation.INVITED) {
                out.accept(up);
            }
            int down = start + (p - k + m) % m;
            c = edgeConfirmed(down, k);
            if (c ? wanted == Relation.FRIENDS : wanted == Relation.INVITED_BY) {
                out.accept(down);
            }
        }
        if (diameter) {
            int q = start + (p + m / 2) % m;
            boolean iStart = index < q;
            boolean c = edgeConfirmed(Math.min(index, q), m / 2);
            if (c ? wanted == Relation.FRIENDS : wanted == (iStart ? Relation.INVITED : Relation.INVITED_BY)) {
                out.accept(q);
            }
        }
    }

    /** Initial number of confirmed friends of {@code index}. */
    public int initialFriendCount(int index) {
        if (confirmed >= 1.0) {
            return spec.friendsPerMember();
        }
        int[] n = {0};
        forEachNeighbour(index, Relation.FRIENDS, x -> n[0]++);
        return n[0];
    }

    /** Initial number of pending invitations {@code index} has received. */
    public int initialPendingCount(int index) {
        if (confirmed >= 1.0) {
            return 0;
        }
        int[] n = {0};
        forEachNeighbour(index, Relation.INVITED_BY, x -> n[0]++);
        return n[0];
    }

    /** Whole-graph totals {confirmed friendships, pending invitations}; computed once. */
    private long[] totals() {
        long[] t = totals;
        if (t == null) {
            long[] sum = new long[2];
            if (confirmed >= 1.0) {
                sum[0] = (long) members * spec.friendsPerMember() / 2;
            } else {
                for (int i = 0; i < members; i++) {
                    forEachStartedRelationship(i, (a, b, c) -> sum[c ? 0 : 1]++);
                }
            }
            totals = t = sum;
        }
        return t;
    }

    public long totalFriendships() {
        return totals()[0];
    }

    public long totalPendingInvitations() {
        return totals()[1];
    }

    // ---- resources and comments ----

    public int resourcesPerMember() {
        return spec.resourcesPerMember();
    }

    public long totalResources() {
        return (long) members * spec.resourcesPerMember();
    }

    /** Id of the {@code j}-th resource owned by (and posted on the wall of) member {@code index}. */
    public long resourceId(int index, int j) {
        return (long) index * spec.resourcesPerMember() + j;
    }

    /** Index of the member whose wall holds resource {@code rid}; the member also created it. */
    public int resourceOwner(long rid) {
        return (int) (rid / spec.resourcesPerMember());
    }

    public boolean isResource(long rid) {
        return rid >= 0 && rid < totalResources();
    }

    public String resourceType(long rid) {
        return RESOURCE_TYPES[(int) (Mix64.hash(seed, rid, 11) & 3)];
    }

    public String resourceBody(long rid) {
        return text(Mix64.hash(seed, rid, 12), spec.attributeLength());
    }

    public String resourceDoc(long rid) {
        return "doc/" + rid;
    }

    public long totalInitialComments() {
        return totalResources() * spec.commentsPerResource();
    }

    public long commentId(long rid, int k) {
        return rid * spec.commentsPerResource() + k;
    }

    /** Comment ids below this are generated; BG numbers new comments from here on. */
    public long firstFreeCommentId() {
        return totalInitialComments();
    }

    /** Generated comments are posted by the resource's owner. */
    public int commentModifier(long mid) {
        return resourceOwner(mid / spec.commentsPerResource());
    }

    public long commentTimestamp(long mid) {
        return BASE_TIMESTAMP_MS + mid;
    }

    public String commentContent(long mid) {
        return text(Mix64.hash(seed, mid, 13), spec.commentLength());
    }

    // ---- pages, follows and accounts (feed following, dissertation 3.2 and 5.1) ----
    //
    // Members and pages are both accounts (dissertation figure 3.2). Account index a is a member index when a < M and
    // page a − M otherwise; account ids continue the member ids, so page p has id offset + M + p. Each fragment holds
    // P/F whole pages, and member q of a fragment follows the fragment's pages (q + j) mod (P/F), j = 0 … ϱ−1
    // (the dissertation's (i % P) … function applied inside the fragment), so every page has exactly ι = M·ϱ/P
    // followers, all in its fragment, and a worker owning whole fragments owns whole feeds.

    public int pages() {
        return pages;
    }

    public int pagesPerMember() {
        return pagesPerMember;
    }

    /** ι: followers of every page. */
    public int followersPerPage() {
        return spec.feed().followers(members);
    }

    /** Members plus pages. */
    public int accounts() {
        return members + pages;
    }

    /** Account index of page {@code page}. */
    public int pageAccount(int page) {
        return members + page;
    }

    public boolean isPageAccount(int account) {
        return account >= members;
    }

    /** Id (as stored) of account index {@code account}, member or page. */
    public int accountId(int account) {
        return offset + account;
    }

    public int fragmentOfPage(int page) {
        return page / pagesPerFragment;
    }

    /**
     * Visits the pages a loader of members [from, to) loads: those of the fragments whose first member is in the
     * range. Loaders' ranges never overlap and together cover every member, so each page is loaded exactly once
     * whatever the split.
     */
    public void forEachPageLoadedWith(int from, int to, IntConsumer page) {
        if (pages() == 0 || from >= to) {
            return;
        }
        for (int f = fragmentOf(from), last = fragmentOf(to - 1); f <= last; f++) {
            int start = fragmentStart(f);
            if (start >= from && start < to) {
                for (int p = f * pagesPerFragment, end = p + pagesPerFragment; p < end; p++) {
                    page.accept(p);
                }
            }
        }
    }

    /** Visits the pages (page indexes) member {@code index} follows, in follow order. */
    public void forEachFollowedPage(int index, IntConsumer page) {
        if (pagesPerMember == 0) {
            return;
        }
        int f = fragmentOf(index);
        int q = index - fragmentStart(f);
        int first = f * pagesPerFragment;
        for (int j = 0; j < pagesPerMember; j++) {
            page.accept(first + (q + j) % pagesPerFragment);
        }
    }

    /** Whether member {@code index} follows page {@code page}. */
    public boolean follows(int index, int page) {
        if (pagesPerMember == 0) {
            return false;
        }
        int f = fragmentOf(index);
        if (fragmentOfPage(page) != f) {
            return false;
        }
        int q = index - fragmentStart(f);
        int r = page - f * pagesPerFragment;
        return Math.floorMod(r - q, pagesPerFragment) < pagesPerMember;
    }

    /** Visits the followers (member indexes) of page {@code page}, ascending. */
    public void forEachFollower(int page, IntConsumer member) {
        if (pagesPerMember == 0) {
            return;
        }
        int f = fragmentOfPage(page);
        int start = fragmentStart(f);
        int m = fragmentSize(f);
        int r = page - f * pagesPerFragment;
        for (int q = 0; q < m; q++) {
            if (Math.floorMod(r - q, pagesPerFragment) < pagesPerMember) {
                member.accept(start + q);
            }
        }
    }

    public long totalFollows() {
        return (long) members * pagesPerMember;
    }

    public int resourcesPerPage() {
        return pages == 0 ? 0 : resourcesPerPage;
    }

    public long totalPageResources() {
        return (long) pages * resourcesPerPage();
    }

    /** Id of the {@code j}-th resource owned by page {@code page}; page resources follow the members'. */
    public long pageResourceId(int page, int j) {
        return totalResources() + (long) page * resourcesPerPage + j;
    }

    public boolean isPageResource(long rid) {
        return rid >= totalResources() && rid < totalResources() + totalPageResources();
    }

    /** Account index owning resource {@code rid}, member's or page's. */
    public int resourceAccount(long rid) {
        return rid < totalResources()
                ? resourceOwner(rid)
                : members + (int) ((rid - totalResources()) / resourcesPerPage);
    }

    /** Id of the {@code j}-th resource of account {@code account}, member or page. */
    public long accountResourceId(int account, int j) {
        return account < members ? resourceId(account, j) : pageResourceId(account - members, j);
    }

    /** Resources account {@code account} owns. */
    public int resourcesOf(int account) {
        return account < members ? spec.resourcesPerMember() : resourcesPerPage();
    }

    /** Stored name of page {@code page}. */
    public String pageName(int page) {
        return "page" + page + "-" + text(Mix64.hash(seed, page, 14), 8);
    }

    // ---- member attributes and images ----

    public int attributeCount() {
        return spec.attributeCount();
    }

    public String attribute(int index, int attribute) {
        return text(Mix64.hash(seed, index, 100 + attribute), spec.attributeLength());
    }

    public void attributes(int index, String[] out) {
        for (int a = 0; a < spec.attributeCount(); a++) {
            out[a] = attribute(index, a);
        }
    }

    public byte[] thumbnail(int index) {
        return spec.images() ? bytes(Mix64.hash(seed, index, 1), spec.thumbnailBytes()) : null;
    }

    public byte[] profileImage(int index) {
        return spec.images() ? bytes(Mix64.hash(seed, index, 2), spec.profileImageBytes()) : null;
    }

    private static byte[] bytes(long h, int n) {
        byte[] b = new byte[n];
        int i = 0;
        while (i < n) {
            h = Mix64.mix(h + 0x9e3779b97f4a7c15L);
            for (int s = 0; s < 8 && i < n; s++, i++) {
                b[i] = (byte) (h >>> (s * 8));
            }
        }
        return b;
    }

    /** Deterministic lower-case text of {@code len} characters. */
    public static String text(long h, int len) {
        char[] c = new char[len];
        int i = 0;
        while (i < len) {
            h = Mix64.mix(h + 0x9e3779b97f4a7c15L);
            for (int s = 0; s < 10 && i < len; s++, i++) {
                c[i] = (char) ('a' + (int) ((h >>> (s * 6)) & 63) % 26);
            }
        }
        return new String(c);
    }
}
