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
    /** Every table BG creates, in drop order. */
    public static final List<String> TABLES = List.of(META, MANIPULATION, RESOURCES, FRIENDSHIP, MEMBERS);

    public static final String RESOURCE_COLUMNS = "rid, creatorid, walluserid, type, body, doc";
    public static final String MANIPULATION_COLUMNS = "mid, creatorid, rid, modifierid, timestamp, type, content";
    public static final String FRIENDSHIP_COLUMNS = "inviterid, inviteeid, status";

    /** USC BG's member columns; attributes past these are attr11, attr12, ... */
    private static final String[] USC_ATTRIBUTES = {
        "username", "pw", "firstname", "lastname", "gender", "dob", "jdate", "ldate", "address", "email", "tel"};

    private final int attributeCount;
    private final int friendshipRows;
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

    /**
     * @param attributeCount member attribute columns
     * @param friendshipRows rows per confirmed friendship, 1 or 2
     */
    public RelationalSchema(int attributeCount, int friendshipRows) {
        if (friendshipRows != 1 && friendshipRows != 2) {
            throw new IllegalArgumentException("friendship rows must be 1 or 2, got " + friendshipRows);
        }
        this.attributeCount = attributeCount;
        this.friendshipRows = friendshipRows;
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
        counts = "SELECT (SELECT count(*) FROM members), (SELECT count(*) FROM friendship WHERE status = 2), "
                + "(SELECT count(*) FROM friendship WHERE status = 1), (SELECT count(*) FROM resources), "
                + "(SELECT count(*) FROM manipulation)";
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

    /** What the store records beside the fingerprint, so a store loaded with another design is not reused. */
    public String design() {
        return "basic friendship.rows=" + friendshipRows;
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
        return ddl;
    }

    /** Index for pending counts, VFR and the invitee half of friend lookups; covers them. */
    public static final String FRIENDSHIP_INVITEE_INDEX =
            "CREATE INDEX friendship_invitee ON friendship (inviteeid, status, inviterid)";
    /** Index for VTR and resource counts: a wall's resources in rid order. */
    public static final String RESOURCES_WALL_INDEX = "CREATE INDEX resources_wall ON resources (walluserid, rid)";
    /** Index for VCR. */
    public static final String MANIPULATION_RID_INDEX = "CREATE INDEX manipulation_rid ON manipulation (rid)";
}
