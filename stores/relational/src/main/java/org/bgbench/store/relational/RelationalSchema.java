package org.bgbench.store.relational;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.bgbench.model.Action;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.MemberAttributes;

/**
 * The Basic relational design of BG [CIKM 2013, fig. 1]: tables, columns and the SQL text of every statement, for a
 * given number of member attributes and friendship representation. Immutable; the SQL is built once per schema so
 * sessions only prepare it.
 *
 * <p>Friendships live in one table with a status column. With one row per relationship (USC BG's Basic) a pending
 * invitation is (inviter, invitee, 1) and a friendship is one (inviter, invitee, 2) row, so reads look at both
 * columns. With two rows a friendship is stored in both directions, which turns reads into single-column lookups at
 * the cost of a two-statement accept.
 *
 * <p>The {@link PhysicalDesign} varies this as CIKM 2013 sections C–E do: friendships in two tables without status
 * ({@code friends}, {@code pending}; table 3), VP's counts as member columns kept by the writes (E.1, Manual), and
 * the profile image as a file named by {@code members.picpath} (C). Every statement that touches friendships is built
 * from the layout, so sessions, loaders and counts need not know which one is in use.
 */
public final class RelationalSchema {
    public static final int PENDING = 1;
    public static final int CONFIRMED = 2;
    public static final String COMMENT_TYPE = "comment";

    public static final String MEMBERS = "members";
    public static final String FRIENDSHIP = "friendship";
    /** {@code friendship.tables=2}: confirmed friendships (CIKM 2013 figure 8's Frds). */
    public static final String FRIENDS = "friends";
    /** {@code friendship.tables=2}: pending invitations (CIKM 2013 figure 8's PdgFrds). */
    public static final String PENDING_TABLE = "pending";

    public static final String RESOURCES = "resources";
    public static final String MANIPULATION = "manipulation";
    public static final String META = "bg_meta";
    public static final String PAGES = "pages";
    public static final String FOLLOWS = "follows";
    public static final String SHARES = "shares";
    public static final String SHARE_RECIPIENTS = "share_recipients";
    public static final String NEWSFEED = "newsfeed";
    /** Every table BG creates, in drop order. */
    public static final List<String> TABLES = List.of(
            META,
            NEWSFEED,
            SHARE_RECIPIENTS,
            SHARES,
            FOLLOWS,
            PAGES,
            MANIPULATION,
            RESOURCES,
            FRIENDSHIP,
            FRIENDS,
            PENDING_TABLE,
            MEMBERS);

    public static final String RESOURCE_COLUMNS = "rid, creatorid, walluserid, type, body, doc";
    public static final String MANIPULATION_COLUMNS = "mid, creatorid, rid, modifierid, timestamp, type, content";
    public static final String FRIENDSHIP_COLUMNS = "inviterid, inviteeid, status";
    public static final String FRIENDS_COLUMNS = "frdid1, frdid2";
    public static final String PENDING_COLUMNS = "inviterid, inviteeid";
    public static final String PAGE_COLUMNS = "pageid, name";
    public static final String FOLLOW_COLUMNS = "userid, pageid";

    private final int attributeCount;
    private final int friendshipRows;
    private final FeedDesign feed;
    private final PhysicalDesign physical;
    private final String memberColumns;

    final String viewProfile;
    final String viewOwnProfile;
    final String listFriends;
    final String viewFriendRequests;
    final String invite;
    final String accept;
    /** {@code friendship.tables=2}: the friends row an accept inserts after deleting the invitation; else null. */
    final String acceptInsert;

    final String acceptMirror;
    final String reject;
    final String thaw;
    final String topResources;
    final String comments;
    final String postComment;
    final String deleteComment;
    final String counts;
    /** {@code counts=attributes}: adds to a member's friend and pending counts (deltas, then the member). */
    final String adjustCounts;

    // Feed following (dissertation 8.4.2, figures 8.11 and 8.13); see README.md.
    final String share;
    final String shareRecipient;
    final String lockAccount;
    final String pullFeed;
    final String fanOut;
    final String pushPast;
    final String dropPast;
    final String pushFeed;
    final String feedResource;
    final String sortedFeed;
    /** Sessions read member attributes with {@code getBytes} as UTF-8 and leave the Strings to whoever asks. */
    final boolean utf8Text;
    /** Parameters of {@link #friendsOf}: the member id once per half. */
    final int friendsParams;
    /** How many times {@link #pullFeed} takes k, after the member ids. */
    final int pullLimits;

    /** The Basic design with the pull feed. */
    public RelationalSchema(int attributeCount, int friendshipRows) {
        this(attributeCount, friendshipRows, FeedDesign.PULL);
    }

    /**
     * @param attributeCount member attribute columns
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     * @param feed           how feeds are served
     */
    public RelationalSchema(int attributeCount, int friendshipRows, FeedDesign feed) {
        this(attributeCount, friendshipRows, feed, false);
    }

    /**
     * @param lateral whether the engine takes {@code LATERAL} joins ({@link SqlDialect#lateralJoins()}): pull then
     *                reads at most k shares per producer through its index instead of leaving the plan to the
     *                optimizer
     */
    public RelationalSchema(int attributeCount, int friendshipRows, FeedDesign feed, boolean lateral) {
        this(attributeCount, friendshipRows, feed, lateral, PhysicalDesign.BASIC);
    }

    /** @param physical friendship tables, where VP's counts come from, where profile images are (CIKM 2013 C–E) */
    public RelationalSchema(
            int attributeCount, int friendshipRows, FeedDesign feed, boolean lateral, PhysicalDesign physical) {
        this(attributeCount, friendshipRows, feed, lateral, physical, false);
    }

    /**
     * @param utf8Text whether sessions read text columns as their UTF-8 bytes ({@link SqlDialect#textAsUtf8Bytes()})
     */
    public RelationalSchema(
            int attributeCount,
            int friendshipRows,
            FeedDesign feed,
            boolean lateral,
            PhysicalDesign physical,
            boolean utf8Text) {
        this.utf8Text = utf8Text;
        if (friendshipRows != 1 && friendshipRows != 2) {
            throw new IllegalArgumentException("friendship rows must be 1 or 2, got " + friendshipRows);
        }
        this.attributeCount = attributeCount;
        this.friendshipRows = friendshipRows;
        this.feed = feed;
        this.physical = physical;
        this.memberColumns = "userid, " + attributeList("") + ", " + profileImageColumn() + ", tpic"
                + (physical.countAttributes() ? ", friendcount, pendingcount, resourcecount" : "");
        // The friendship layout (CIKM 2013 tables 2 and 3): confirmed friendships are (a, b) rows of one table,
        // pending invitations (inviterid, inviteeid) rows of the same table or of their own.
        boolean two = physical.twoTables();
        String friends = two ? FRIENDS : FRIENDSHIP;
        String a = two ? "frdid1" : "inviterid";
        String b = two ? "frdid2" : "inviteeid";
        String pending = two ? PENDING_TABLE : FRIENDSHIP;
        this.confirmed = two ? "" : " AND status = 2";
        this.friendsTable = friends;
        this.friendColumns = new String[] {a, b};
        String isConfirmed = two ? "" : " AND f.status = 2";
        String isPending = two ? "" : " AND f.status = 1";

        String image = "m." + profileImageColumn();
        String profile;
        if (physical.countAttributes()) {
            // Manual (E.1): one single-row lookup, the counts kept by the writes.
            profile = "SELECT " + attributeList("m.") + ", " + image + ", m.friendcount, m.resourcecount";
            viewProfile = profile + " FROM members m WHERE m.userid = ?";
            viewOwnProfile = profile + ", m.pendingcount FROM members m WHERE m.userid = ?";
        } else {
            String friendCount = "(SELECT count(*) FROM " + friends + " WHERE " + a + " = m.userid" + confirmed + ")"
                    + (friendshipRows == 1
                            ? " + (SELECT count(*) FROM " + friends + " WHERE " + b + " = m.userid" + confirmed + ")"
                            : "");
            profile = "SELECT " + attributeList("m.") + ", " + image + ", " + friendCount
                    + ", (SELECT count(*) FROM resources WHERE walluserid = m.userid)";
            viewProfile = profile + " FROM members m WHERE m.userid = ?";
            viewOwnProfile = profile + ", (SELECT count(*) FROM " + pending + " WHERE inviteeid = m.userid"
                    + (two ? "" : " AND status = 1") + ") FROM members m WHERE m.userid = ?";
        }

        String listed =
                "SELECT m.userid, " + attributeList("m.") + ", m.tpic FROM " + friends + " f JOIN members m ON ";
        // One row per friendship: the friend is on either side; UNION ALL keeps each half an index range scan.
        listFriends = listed + "m.userid = f." + b + " WHERE f." + a + " = ?" + isConfirmed
                + (friendshipRows == 1
                        ? " UNION ALL " + listed + "m.userid = f." + a + " WHERE f." + b + " = ?" + isConfirmed
                        : "");
        viewFriendRequests = "SELECT m.userid, " + attributeList("m.") + ", m.tpic FROM " + pending
                + " f JOIN members m ON m.userid = f.inviterid WHERE f.inviteeid = ?" + isPending;

        if (two) {
            // Table 3: accept moves the invitation from pending to friends, in one transaction.
            invite = "INSERT INTO pending (" + PENDING_COLUMNS + ") VALUES (?, ?)";
            accept = "DELETE FROM pending WHERE inviterid = ? AND inviteeid = ?";
            acceptInsert = "INSERT INTO friends (" + FRIENDS_COLUMNS + ") VALUES (?, ?)";
            acceptMirror = acceptInsert;
            reject = "DELETE FROM pending WHERE inviterid = ? AND inviteeid = ?";
            thaw = "DELETE FROM friends WHERE (frdid1 = ? AND frdid2 = ?) OR (frdid1 = ? AND frdid2 = ?)";
        } else {
            invite = "INSERT INTO friendship (" + FRIENDSHIP_COLUMNS + ") VALUES (?, ?, 1)";
            accept = "UPDATE friendship SET status = 2 WHERE inviterid = ? AND inviteeid = ? AND status = 1";
            acceptInsert = null;
            acceptMirror = "INSERT INTO friendship (" + FRIENDSHIP_COLUMNS + ") VALUES (?, ?, 2)";
            reject = "DELETE FROM friendship WHERE inviterid = ? AND inviteeid = ? AND status = 1";
            thaw =
                    "DELETE FROM friendship WHERE ((inviterid = ? AND inviteeid = ?) OR (inviterid = ? AND inviteeid = ?))"
                            + " AND status = 2";
        }
        adjustCounts = "UPDATE members SET friendcount = friendcount + ?, pendingcount = pendingcount + ?"
                + " WHERE userid = ?";
        topResources = "SELECT " + RESOURCE_COLUMNS + " FROM resources WHERE walluserid = ? ORDER BY rid DESC LIMIT ?";
        comments = "SELECT " + MANIPULATION_COLUMNS + " FROM manipulation WHERE rid = ?";
        postComment = "INSERT INTO manipulation (" + MANIPULATION_COLUMNS + ") VALUES (?, ?, ?, ?, ?, '" + COMMENT_TYPE
                + "', ?)";
        deleteComment = "DELETE FROM manipulation WHERE mid = ? AND rid = ?";
        // Resources counts every resource; the page resources (column 7) are subtracted in Java.
        counts = "SELECT (SELECT count(*) FROM members), (SELECT count(*) FROM " + friends
                + (two ? "" : " WHERE status = 2") + "), (SELECT count(*) FROM " + pending
                + (two ? "" : " WHERE status = 1") + "), (SELECT count(*) FROM resources), "
                + "(SELECT count(*) FROM manipulation), (SELECT count(*) FROM pages), (SELECT count(*) FROM follows), "
                + "(SELECT count(*) FROM resources r JOIN pages p ON p.pageid = r.creatorid), "
                + "(SELECT count(*) FROM shares)";

        friendsParams = friendshipRows == 1 ? 2 : 1;
        // The id of every account whose shares the member may see: friends (either column with one row per
        // friendship) and followed pages. A page has no friends and a member no followers, so the same union with
        // followers instead of followed pages gives a sharer's audience, whichever kind of account it is.
        String friendIds = friendsOf();
        // The sharer must own the resource: the insert copies the owner from resources and changes no row otherwise.
        share = "INSERT INTO shares (srid, rid, creatorid, ispublic) SELECT ?, rid, creatorid, ? FROM resources"
                + " WHERE rid = ? AND creatorid = ?";
        shareRecipient = "INSERT INTO share_recipients (srid, userid) VALUES (?, ?)";
        lockAccount = "SELECT userid FROM members WHERE userid = ? FOR UPDATE";
        String visibleTo = "(s.ispublic = 1 OR EXISTS (SELECT 1 FROM share_recipients t WHERE t.srid = s.srid"
                + " AND t.userid = ";
        String producers = friendIds + " UNION ALL SELECT pageid AS id FROM follows WHERE userid = ?";
        if (lateral) {
            // Each producer's k newest visible shares through shares(creatorid, srid), then the k newest of those:
            // at most (friends + pages) × k index entries, however rarely the producers share.
            pullFeed = "SELECT f.srid, f.rid, f.creatorid, r.type, r.body, r.doc FROM (" + producers + ") p"
                    + " CROSS JOIN LATERAL (SELECT s.srid, s.rid, s.creatorid FROM shares s WHERE s.creatorid = p.id"
                    + " AND " + visibleTo + "?)) ORDER BY s.srid DESC LIMIT ?) f JOIN resources r ON r.rid = f.rid"
                    + " ORDER BY f.srid DESC LIMIT ?";
            pullLimits = 2;
        } else {
            pullFeed = "SELECT s.srid, s.rid, s.creatorid, r.type, r.body, r.doc FROM shares s JOIN resources r"
                    + " ON r.rid = s.rid WHERE s.creatorid IN (" + producers + ") AND " + visibleTo + "?))"
                    + " ORDER BY s.srid DESC LIMIT ?";
            pullLimits = 1;
        }
        String feedColumns = "userid, srid, rid, creatorid" + (feed.content() ? ", type, body, doc" : "");
        String copied = feed.content() ? ", r.type, r.body, r.doc" : "";
        String shares = "shares s" + (feed.content() ? " JOIN resources r ON r.rid = s.rid" : "");
        fanOut = "INSERT INTO newsfeed (" + feedColumns + ") SELECT c.id, s.srid, s.rid, s.creatorid" + copied
                + " FROM " + shares + " CROSS JOIN (" + friendIds + " UNION ALL SELECT userid FROM follows WHERE pageid"
                + " = ?) c WHERE s.srid = ? AND " + visibleTo + "c.id))";
        pushPast = "INSERT INTO newsfeed (" + feedColumns + ") SELECT ?, s.srid, s.rid, s.creatorid" + copied + " FROM "
                + shares + " WHERE s.creatorid = ? AND " + visibleTo + "?))";
        dropPast = "DELETE FROM newsfeed WHERE userid = ? AND creatorid = ?";
        pushFeed = "SELECT srid, rid, creatorid" + (feed.content() ? ", type, body, doc" : "")
                + " FROM newsfeed WHERE userid = ?";
        feedResource = "SELECT type, body, doc FROM resources WHERE rid = ?";
        sortedFeed = feed.content()
                ? "SELECT srid, rid, creatorid, type, body, doc FROM newsfeed WHERE userid = ? ORDER BY srid DESC LIMIT ?"
                : "SELECT n.srid, n.rid, n.creatorid, r.type, r.body, r.doc FROM newsfeed n JOIN resources r"
                        + " ON r.rid = n.rid WHERE n.userid = ? ORDER BY n.srid DESC LIMIT ?";
    }

    /**
     * The feed statements this design runs, by name, for plans and documentation: {@code share}, {@code recipient},
     * and {@code pull} (parameters: the member {@link #friendsParams} + 2 times, then k once or, with LATERAL,
     * twice), or {@code fanOut},
     * {@code pushPast}, {@code dropPast} and {@code push} (member) or {@code sortedPush} (member, k).
     */
    public Map<String, String> feedStatements() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("share", share);
        m.put("recipient", shareRecipient);
        if (!feed.push()) {
            m.put("pull", pullFeed);
            return m;
        }
        m.put("fanOut", fanOut);
        m.put("pushPast", pushPast);
        m.put("dropPast", dropPast);
        if (feed.kind() == FeedDesign.Kind.PUSH) {
            m.put("push", pushFeed);
        } else {
            m.put("sortedPush", sortedFeed);
        }
        return m;
    }

    /** Ids of a member's friends, one parameter (the member) per half; {@link #friendsParams} of them. */
    private String friendsOf() {
        String a = friendColumns[0];
        String b = friendColumns[1];
        String half = "SELECT " + b + " AS id FROM " + friendsTable + " WHERE " + a + " = ?" + confirmed;
        return friendshipRows == 1
                ? half + " UNION ALL SELECT " + a + " AS id FROM " + friendsTable + " WHERE " + b + " = ?" + confirmed
                : half;
    }

    /** Table of confirmed friendships and its two member columns, and the condition that picks confirmed rows. */
    private final String friendsTable;

    private final String[] friendColumns;
    private final String confirmed;

    /**
     * The one statement that does friendship write {@code action} (IF, AFR, RFR or TF) in this design, run in
     * autocommit, or null when the design does it in a transaction of several (two rows per friendship or two tables
     * for AFR, a push feed for AFR and TF, counts as attributes for all four). Its parameters are the action's
     * members: inviter, invitee for IF, AFR and RFR; member, friend, friend, member for TF. It changes {@link
     * #oneStatementRows} rows when the state is the one the action was chosen for.
     */
    public String oneStatementWrite(Action action) {
        if (physical.countAttributes()) {
            return null;
        }
        return switch (action) {
            case IF -> invite;
            case AFR -> friendshipRows == 1 && acceptInsert == null && !feed.push() ? accept : null;
            case RFR -> reject;
            case TF -> feed.push() ? null : thaw;
            default -> throw new IllegalArgumentException(action + " is not a friendship write");
        };
    }

    /** The rows {@link #oneStatementWrite}'s statement changes: TF's two with two rows per friendship, else one. */
    public int oneStatementRows(Action action) {
        return action == Action.TF && friendshipRows == 2 ? 2 : 1;
    }

    /** Column of member attribute {@code i} (0-based). */
    public static String attributeColumn(int i) {
        return MemberAttributes.name(i);
    }

    public int attributeCount() {
        return attributeCount;
    }

    public int friendshipRows() {
        return friendshipRows;
    }

    public FeedDesign feed() {
        return feed;
    }

    public PhysicalDesign physical() {
        return physical;
    }

    /** {@code pic} (the image, inline) or {@code picpath} (its file's path, {@code images=fs}). */
    public String profileImageColumn() {
        return physical.imagesInFiles() ? "picpath" : "pic";
    }

    /** What the store records beside the fingerprint, so a store loaded with another design is not reused. */
    public String design() {
        return "basic friendship.rows=" + friendshipRows + " " + physical.describe() + " " + feed.describe();
    }

    /** Member columns besides userid and the attributes: the two images and, with counts as attributes, three more. */
    public int memberExtraColumns() {
        return physical.countAttributes() ? 5 : 2;
    }

    /** {@code userid}, the attribute columns, {@code pic}, {@code tpic}: the order loaders write members in. */
    public String memberColumns() {
        return memberColumns;
    }

    /** Attribute columns joined by commas, each prefixed by {@code prefix} (a table alias and dot, or empty). */
    public String attributeList(String prefix) {
        StringJoiner j = new StringJoiner(", ");
        for (int a = 0; a < attributeCount; a++) {
            j.add(prefix + attributeColumn(a));
        }
        return j.toString();
    }

    /** CREATE TABLE statements for {@code dialect}; keys only where the dialect declares them up front. */
    public List<String> createStatements(SqlDialect dialect) {
        boolean keys = dialect.keysAtCreate();
        String big = dialect.bigIdType();
        StringBuilder members =
                new StringBuilder("CREATE TABLE members (userid INTEGER NOT NULL").append(keys ? " PRIMARY KEY" : "");
        for (int a = 0; a < attributeCount; a++) {
            members.append(", ").append(attributeColumn(a)).append(" TEXT");
        }
        members.append(physical.imagesInFiles() ? ", picpath TEXT" : ", pic " + dialect.binaryType())
                .append(", tpic ")
                .append(dialect.binaryType());
        if (physical.countAttributes()) {
            members.append(", friendcount INTEGER NOT NULL DEFAULT 0, pendingcount INTEGER NOT NULL DEFAULT 0")
                    .append(", resourcecount INTEGER NOT NULL DEFAULT 0");
        }
        members.append(')');
        List<String> ddl = new ArrayList<>();
        ddl.add(members.toString());
        if (physical.twoTables()) {
            ddl.add("CREATE TABLE friends (frdid1 INTEGER NOT NULL, frdid2 INTEGER NOT NULL"
                    + (keys ? ", PRIMARY KEY (frdid1, frdid2))" + dialect.friendshipTableOptions() : ")"));
            ddl.add("CREATE TABLE pending (inviterid INTEGER NOT NULL, inviteeid INTEGER NOT NULL"
                    + (keys ? ", PRIMARY KEY (inviterid, inviteeid))" + dialect.friendshipTableOptions() : ")"));
        } else {
            ddl.add(
                    "CREATE TABLE friendship (inviterid INTEGER NOT NULL, inviteeid INTEGER NOT NULL, status SMALLINT NOT NULL"
                            + (keys
                                    ? ", PRIMARY KEY (inviterid, inviteeid))" + dialect.friendshipTableOptions()
                                    : ")"));
        }
        ddl.add("CREATE TABLE resources (rid " + big + " NOT NULL" + (keys ? " PRIMARY KEY" : "")
                + ", creatorid INTEGER NOT NULL, walluserid INTEGER NOT NULL, type TEXT, body TEXT, doc TEXT)");
        ddl.add("CREATE TABLE manipulation (mid " + big + " NOT NULL" + (keys ? " PRIMARY KEY" : "")
                + ", creatorid INTEGER NOT NULL, rid " + big + " NOT NULL, modifierid INTEGER NOT NULL"
                + ", timestamp BIGINT NOT NULL, type TEXT, content TEXT)");
        // "key" quoted: a reserved word in MySQL/MariaDB (which run with ANSI_QUOTES); standard SQL elsewhere.
        ddl.add("CREATE TABLE bg_meta (\"key\" " + dialect.metaKeyType() + " PRIMARY KEY, value TEXT)");
        // Pages and follows are loaded in bulk: keyed like the other loaded tables.
        ddl.add("CREATE TABLE pages (pageid INTEGER NOT NULL" + (keys ? " PRIMARY KEY" : "") + ", name TEXT)");
        ddl.add("CREATE TABLE follows (userid INTEGER NOT NULL, pageid INTEGER NOT NULL"
                + (keys ? ", PRIMARY KEY (userid, pageid))" + dialect.friendshipTableOptions() : ")"));
        // Shares and feed rows are written only by actions, starting empty: keys and indexes from the start.
        ddl.add("CREATE TABLE shares (srid " + big + " NOT NULL PRIMARY KEY, rid " + big + " NOT NULL"
                + ", creatorid INTEGER NOT NULL, ispublic SMALLINT NOT NULL)");
        ddl.add(SHARES_CREATOR_INDEX);
        ddl.add("CREATE TABLE share_recipients (srid " + big + " NOT NULL, userid INTEGER NOT NULL"
                + ", PRIMARY KEY (srid, userid))" + dialect.friendshipTableOptions());
        ddl.add(RECIPIENTS_USER_INDEX);
        if (feed.push()) {
            String content = feed.content() ? ", type TEXT, body TEXT, doc TEXT" : "";
            if (feed.kind() == FeedDesign.Kind.SORTED_PUSH) {
                // Clustered on (userid, srid) where the engine clusters on the key: a feed is stored in share order.
                ddl.add("CREATE TABLE newsfeed (userid INTEGER NOT NULL, srid " + big + " NOT NULL, rid " + big
                        + " NOT NULL, creatorid INTEGER NOT NULL" + content + ", PRIMARY KEY (userid, srid))"
                        + dialect.friendshipTableOptions());
            } else {
                // Rows in arrival order, found by member only: VNF sorts in the application.
                ddl.add("CREATE TABLE newsfeed (userid INTEGER NOT NULL, srid " + big + " NOT NULL, rid " + big
                        + " NOT NULL, creatorid INTEGER NOT NULL" + content + ")");
                ddl.add("CREATE INDEX newsfeed_user ON newsfeed (userid)");
            }
        }
        return ddl;
    }

    /** The tables this design creates, in drop order. */
    public List<String> tables() {
        return TABLES.stream()
                .filter(t -> feed.push() || !t.equals(NEWSFEED))
                .filter(t ->
                        physical.twoTables() ? !t.equals(FRIENDSHIP) : !t.equals(FRIENDS) && !t.equals(PENDING_TABLE))
                .toList();
    }

    /** The friendship tables of this design: {@code friendship}, or {@code friends} and {@code pending}. */
    public List<String> friendshipTables() {
        return physical.twoTables() ? List.of(FRIENDS, PENDING_TABLE) : List.of(FRIENDSHIP);
    }

    /**
     * Secondary indexes of the friendship tables, built after the load: the invitee side of pending invitations (VFR,
     * pending counts) and, for confirmed friendships, the second column (the other half of friend lookups with one
     * row per friendship, and TF's reverse direction).
     */
    public List<String> friendshipIndexes() {
        return physical.twoTables()
                ? List.of(FRIENDS_SECOND_INDEX, PENDING_INVITEE_INDEX)
                : List.of(FRIENDSHIP_INVITEE_INDEX);
    }

    /**
     * Indexes of the loaded feed tables a design needs besides their keys: push designs fan a page's shares out to its
     * followers, found by page.
     */
    public List<String> feedIndexes() {
        return feed.push() ? List.of(FOLLOWS_PAGE_INDEX) : List.of();
    }

    /** Index for pending counts, VFR and the invitee half of friend lookups; covers them. */
    public static final String FRIENDSHIP_INVITEE_INDEX =
            "CREATE INDEX friendship_invitee ON friendship (inviteeid, status, inviterid)";
    /** {@code friendship.tables=2}: friends by their second column. */
    public static final String FRIENDS_SECOND_INDEX = "CREATE INDEX friends_frdid2 ON friends (frdid2, frdid1)";
    /** {@code friendship.tables=2}: invitations received, for VFR and pending counts. */
    public static final String PENDING_INVITEE_INDEX = "CREATE INDEX pending_invitee ON pending (inviteeid, inviterid)";
    /** Index for VTR and resource counts: a wall's resources in rid order. */
    public static final String RESOURCES_WALL_INDEX = "CREATE INDEX resources_wall ON resources (walluserid, rid)";
    /** Shares of one account in id order: pull's per-producer scan and push's catch-up at AFR. */
    public static final String SHARES_CREATOR_INDEX = "CREATE INDEX shares_creator ON shares (creatorid, srid)";
    /** The shares naming a member: the planner may check visibility once per VNF from it rather than per share. */
    public static final String RECIPIENTS_USER_INDEX =
            "CREATE INDEX share_recipients_user ON share_recipients (userid, srid)";
    /** Followers of a page, for push fan-out. */
    public static final String FOLLOWS_PAGE_INDEX = "CREATE INDEX follows_page ON follows (pageid, userid)";
    /** Index for VCR. */
    public static final String MANIPULATION_RID_INDEX = "CREATE INDEX manipulation_rid ON manipulation (rid)";
}
