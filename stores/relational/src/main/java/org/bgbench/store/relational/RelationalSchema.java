package org.bgbench.store.relational;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The Basic relational design of BG [CIKM 2013, fig. 1]: tables, columns and the SQL text of every statement, for a
 * given number of member attributes and friendship representation. Immutable; the SQL is built once per schema so
 * sessions only prepare it.
 *
 * <p>Friendships live in one table with a status column. With one row per relationship (USC BG's Basic) a pending
 * invitation is (inviter, invitee, 1) and a friendship is one (inviter, invitee, 2) row, so reads look at both
 * columns. With two rows a friendship is stored in both directions, which turns reads into single-column lookups at
 * the cost of a two-statement accept.
 */
public final class RelationalSchema {
    public static final int PENDING = 1;
    public static final int CONFIRMED = 2;
    public static final String COMMENT_TYPE = "comment";

    public static final String MEMBERS = "members";
    public static final String FRIENDSHIP = "friendship";
    public static final String RESOURCES = "resources";
    public static final String MANIPULATION = "manipulation";
    public static final String META = "bg_meta";
    public static final String PAGES = "pages";
    public static final String FOLLOWS = "follows";
    public static final String SHARES = "shares";
    public static final String SHARE_RECIPIENTS = "share_recipients";
    public static final String NEWSFEED = "newsfeed";
    /** Every table BG creates, in drop order. */
    public static final List<String> TABLES = List.of(META, NEWSFEED, SHARE_RECIPIENTS, SHARES, FOLLOWS, PAGES,
            MANIPULATION, RESOURCES, FRIENDSHIP, MEMBERS);

    public static final String RESOURCE_COLUMNS = "rid, creatorid, walluserid, type, body, doc";
    public static final String MANIPULATION_COLUMNS = "mid, creatorid, rid, modifierid, timestamp, type, content";
    public static final String FRIENDSHIP_COLUMNS = "inviterid, inviteeid, status";
    public static final String PAGE_COLUMNS = "pageid, name";
    public static final String FOLLOW_COLUMNS = "userid, pageid";

    /** USC BG's member columns; attributes past these are attr11, attr12, ... */
    private static final String[] USC_ATTRIBUTES = {
        "username", "pw", "firstname", "lastname", "gender", "dob", "jdate", "ldate", "address", "email", "tel"};

    private final int attributeCount;
    private final int friendshipRows;
    private final FeedDesign feed;
    private final String memberColumns;

    final String viewProfile;
    final String viewOwnProfile;
    final String listFriends;
    final String viewFriendRequests;
    final String invite;
    final String accept;
    final String acceptMirror;
    final String reject;
    final String thaw;
    final String topResources;
    final String comments;
    final String postComment;
    final String deleteComment;
    final String counts;

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
    /** Parameters of {@link #friendsOf}: the member id once per half. */
    final int friendsParams;

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
        if (friendshipRows != 1 && friendshipRows != 2) {
            throw new IllegalArgumentException("friendship rows must be 1 or 2, got " + friendshipRows);
        }
        this.attributeCount = attributeCount;
        this.friendshipRows = friendshipRows;
        this.feed = feed;
        this.memberColumns = "userid, " + attributeList("") + ", pic, tpic";

        String friendCount = "(SELECT count(*) FROM friendship WHERE inviterid = m.userid AND status = 2)"
                + (friendshipRows == 1
                        ? " + (SELECT count(*) FROM friendship WHERE inviteeid = m.userid AND status = 2)" : "");
        String profile = "SELECT " + attributeList("m.") + ", m.pic, " + friendCount
                + ", (SELECT count(*) FROM resources WHERE walluserid = m.userid)";
        viewProfile = profile + " FROM members m WHERE m.userid = ?";
        viewOwnProfile = profile + ", (SELECT count(*) FROM friendship WHERE inviteeid = m.userid AND status = 1)"
                + " FROM members m WHERE m.userid = ?";

        String listed = "SELECT m.userid, " + attributeList("m.") + ", m.tpic FROM friendship f JOIN members m ON ";
        // One row per friendship: the friend is on either side; UNION ALL keeps each half an index range scan.
        listFriends = listed + "m.userid = f.inviteeid WHERE f.inviterid = ? AND f.status = 2"
                + (friendshipRows == 1
                        ? " UNION ALL " + listed + "m.userid = f.inviterid WHERE f.inviteeid = ? AND f.status = 2" : "");
        viewFriendRequests = listed + "m.userid = f.inviterid WHERE f.inviteeid = ? AND f.status = 1";

        invite = "INSERT INTO friendship (" + FRIENDSHIP_COLUMNS + ") VALUES (?, ?, 1)";
        accept = "UPDATE friendship SET status = 2 WHERE inviterid = ? AND inviteeid = ? AND status = 1";
        acceptMirror = "INSERT INTO friendship (" + FRIENDSHIP_COLUMNS + ") VALUES (?, ?, 2)";
        reject = "DELETE FROM friendship WHERE inviterid = ? AND inviteeid = ? AND status = 1";
        thaw = "DELETE FROM friendship WHERE ((inviterid = ? AND inviteeid = ?) OR (inviterid = ? AND inviteeid = ?))"
                + " AND status = 2";
        topResources = "SELECT " + RESOURCE_COLUMNS + " FROM resources WHERE walluserid = ? ORDER BY rid DESC LIMIT ?";
        comments = "SELECT " + MANIPULATION_COLUMNS + " FROM manipulation WHERE rid = ?";
        postComment = "INSERT INTO manipulation (" + MANIPULATION_COLUMNS + ") VALUES (?, ?, ?, ?, ?, '"
                + COMMENT_TYPE + "', ?)";
        deleteComment = "DELETE FROM manipulation WHERE mid = ? AND rid = ?";
        // Resources counts every resource; the page resources (column 7) are subtracted in Java.
        counts = "SELECT (SELECT count(*) FROM members), (SELECT count(*) FROM friendship WHERE status = 2), "
                + "(SELECT count(*) FROM friendship WHERE status = 1), (SELECT count(*) FROM resources), "
                + "(SELECT count(*) FROM manipulation), (SELECT count(*) FROM pages), (SELECT count(*) FROM follows), "
                + "(SELECT count(*) FROM resources r JOIN pages p ON p.pageid = r.creatorid), "
                + "(SELECT count(*) FROM shares)";

        friendsParams = friendshipRows == 1 ? 2 : 1;
        // The id of every account whose shares the member may see: friends (either column with one row per
        // friendship) and followed pages. A page has no friends and a member no followers, so the same union with
        // followers instead of followed pages gives a sharer's audience, whichever kind of account it is.
        String friends = friendsOf();
        // The sharer must own the resource: the insert copies the owner from resources and changes no row otherwise.
        share = "INSERT INTO shares (srid, rid, creatorid, ispublic) SELECT ?, rid, creatorid, ? FROM resources"
                + " WHERE rid = ? AND creatorid = ?";
        shareRecipient = "INSERT INTO share_recipients (srid, userid) VALUES (?, ?)";
        lockAccount = "SELECT userid FROM members WHERE userid = ? FOR UPDATE";
        String visibleTo = "(s.ispublic = 1 OR EXISTS (SELECT 1 FROM share_recipients t WHERE t.srid = s.srid"
                + " AND t.userid = ";
        pullFeed = "SELECT s.srid, s.rid, s.creatorid, r.type, r.body, r.doc FROM shares s JOIN resources r"
                + " ON r.rid = s.rid WHERE s.creatorid IN (" + friends + " UNION ALL SELECT pageid FROM follows"
                + " WHERE userid = ?) AND " + visibleTo + "?)) ORDER BY s.srid DESC LIMIT ?";
        String feedColumns = "userid, srid, rid, creatorid" + (feed.content() ? ", type, body, doc" : "");
        String copied = feed.content() ? ", r.type, r.body, r.doc" : "";
        String shares = "shares s" + (feed.content() ? " JOIN resources r ON r.rid = s.rid" : "");
        fanOut = "INSERT INTO newsfeed (" + feedColumns + ") SELECT c.id, s.srid, s.rid, s.creatorid" + copied
                + " FROM " + shares + " CROSS JOIN (" + friends + " UNION ALL SELECT userid FROM follows WHERE pageid"
                + " = ?) c WHERE s.srid = ? AND " + visibleTo + "c.id))";
        pushPast = "INSERT INTO newsfeed (" + feedColumns + ") SELECT ?, s.srid, s.rid, s.creatorid" + copied
                + " FROM " + shares + " WHERE s.creatorid = ? AND " + visibleTo + "?))";
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
     * and {@code pull} (parameters: the member {@link #friendsParams} + 2 times, then k), or {@code fanOut},
     * {@code pushPast}, {@code dropPast} and {@code push} (member) or {@code sortedPush} (member, k).
     */
    public java.util.Map<String, String> feedStatements() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
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
        String half = "SELECT inviteeid AS id FROM friendship WHERE inviterid = ? AND status = 2";
        return friendshipRows == 1
                ? half + " UNION ALL SELECT inviterid AS id FROM friendship WHERE inviteeid = ? AND status = 2" : half;
    }

    /** Column of member attribute {@code i} (0-based). */
    public static String attributeColumn(int i) {
        return i < USC_ATTRIBUTES.length ? USC_ATTRIBUTES[i] : "attr" + i;
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

    /** What the store records beside the fingerprint, so a store loaded with another design is not reused. */
    public String design() {
        return "basic friendship.rows=" + friendshipRows + " " + feed.describe();
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
        StringBuilder members = new StringBuilder("CREATE TABLE members (userid INTEGER NOT NULL")
                .append(keys ? " PRIMARY KEY" : "");
        for (int a = 0; a < attributeCount; a++) {
            members.append(", ").append(attributeColumn(a)).append(" TEXT");
        }
        members.append(", pic ").append(dialect.binaryType()).append(", tpic ").append(dialect.binaryType()).append(')');
        List<String> ddl = new ArrayList<>();
        ddl.add(members.toString());
        ddl.add("CREATE TABLE friendship (inviterid INTEGER NOT NULL, inviteeid INTEGER NOT NULL, status SMALLINT NOT NULL"
                + (keys ? ", PRIMARY KEY (inviterid, inviteeid))" + dialect.friendshipTableOptions() : ")"));
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
        return feed.push() ? TABLES : TABLES.stream().filter(t -> !t.equals(NEWSFEED)).toList();
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
    /** Index for VTR and resource counts: a wall's resources in rid order. */
    public static final String RESOURCES_WALL_INDEX = "CREATE INDEX resources_wall ON resources (walluserid, rid)";
    /** Shares of one account in id order: pull's per-producer scan and push's catch-up at AFR. */
    public static final String SHARES_CREATOR_INDEX = "CREATE INDEX shares_creator ON shares (creatorid, srid)";
    /** Followers of a page, for push fan-out. */
    public static final String FOLLOWS_PAGE_INDEX = "CREATE INDEX follows_page ON follows (pageid, userid)";
    /** Index for VCR. */
    public static final String MANIPULATION_RID_INDEX = "CREATE INDEX manipulation_rid ON manipulation (rid)";
}
