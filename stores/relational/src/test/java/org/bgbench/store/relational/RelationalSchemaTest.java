package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.Test;

class RelationalSchemaTest {
    @Test
    void memberColumnsUseUscNamesThenNumberedAttributes() {
        assertThat(RelationalSchema.attributeColumn(0)).isEqualTo("username");
        assertThat(RelationalSchema.attributeColumn(10)).isEqualTo("tel");
        assertThat(RelationalSchema.attributeColumn(11)).isEqualTo("attr11");
        assertThat(RelationalSchema.attributeColumn(63)).isEqualTo("attr63");
        assertThat(new RelationalSchema(12, 1).memberColumns())
                .isEqualTo(
                        "userid, username, pw, firstname, lastname, gender, dob, jdate, ldate, address, email, tel, attr11, pic, tpic");
    }

    @Test
    void keysAreDeclaredUpFrontOnlyWhenTheDialectSaysSo() {
        List<String> withKeys = new RelationalSchema(11, 1).createStatements(dialect(true));
        assertThat(withKeys.get(0))
                .startsWith("CREATE TABLE members (userid INTEGER NOT NULL PRIMARY KEY")
                .endsWith("pic BLOB, tpic BLOB)");
        assertThat(withKeys.get(1)).endsWith("PRIMARY KEY (inviterid, inviteeid)) WITHOUT ROWID");
        List<String> bare = new RelationalSchema(11, 1).createStatements(dialect(false));
        assertThat(bare.subList(0, 4)).noneMatch(sql -> sql.contains("PRIMARY KEY"));
        assertThat(bare.get(4)).isEqualTo("CREATE TABLE bg_meta (\"key\" TEXT PRIMARY KEY, value TEXT)");
    }

    @Test
    void friendReadsLookAtBothColumnsOnlyWithOneRowPerFriendship() {
        assertThat(new RelationalSchema(11, 1).listFriends).contains("UNION ALL");
        assertThat(new RelationalSchema(11, 2).listFriends).doesNotContain("UNION ALL");
        assertThat(new RelationalSchema(11, 1).viewProfile).contains("inviteeid = m.userid AND status = 2");
        assertThat(new RelationalSchema(11, 2).viewProfile).doesNotContain("inviteeid = m.userid AND status = 2");
        assertThatThrownBy(() -> new RelationalSchema(11, 3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void twoTablesKeepConfirmedFriendshipsAndInvitationsApartWithoutStatus() {
        PhysicalDesign two = new PhysicalDesign(2, false, false, null);
        RelationalSchema one = new RelationalSchema(11, 1, FeedDesign.PULL, false, two);
        List<String> ddl = one.createStatements(dialect(true));
        assertThat(ddl)
                .contains(
                        "CREATE TABLE friends (frdid1 INTEGER NOT NULL, frdid2 INTEGER NOT NULL,"
                                + " PRIMARY KEY (frdid1, frdid2)) WITHOUT ROWID",
                        "CREATE TABLE pending (inviterid INTEGER NOT NULL, inviteeid INTEGER NOT NULL,"
                                + " PRIMARY KEY (inviterid, inviteeid)) WITHOUT ROWID");
        assertThat(ddl).noneMatch(sql -> sql.startsWith("CREATE TABLE friendship"));
        assertThat(one.tables()).contains("friends", "pending").doesNotContain("friendship");
        assertThat(one.friendshipIndexes())
                .containsExactly(RelationalSchema.FRIENDS_SECOND_INDEX, RelationalSchema.PENDING_INVITEE_INDEX);
        // Every statement that reads or writes friendships uses the two tables (CIKM 2013 table 3), none the status.
        for (String sql : List.of(
                one.viewProfile,
                one.viewOwnProfile,
                one.listFriends,
                one.viewFriendRequests,
                one.invite,
                one.accept,
                one.acceptInsert,
                one.reject,
                one.thaw,
                one.counts,
                one.fanOut,
                one.pushPast,
                one.pullFeed)) {
            assertThat(sql).doesNotContain("friendship").doesNotContain("status");
        }
        assertThat(one.listFriends)
                .contains("FROM friends f JOIN members m ON m.userid = f.frdid2 WHERE f.frdid1 = ?")
                .contains("UNION ALL")
                .contains("m.userid = f.frdid1 WHERE f.frdid2 = ?");
        assertThat(one.viewFriendRequests)
                .contains("FROM pending f JOIN members m ON m.userid = f.inviterid" + " WHERE f.inviteeid = ?");
        assertThat(one.invite).isEqualTo("INSERT INTO pending (inviterid, inviteeid) VALUES (?, ?)");
        assertThat(one.accept).isEqualTo("DELETE FROM pending WHERE inviterid = ? AND inviteeid = ?");
        assertThat(one.acceptInsert).isEqualTo("INSERT INTO friends (frdid1, frdid2) VALUES (?, ?)");
        assertThat(one.thaw)
                .isEqualTo("DELETE FROM friends WHERE (frdid1 = ? AND frdid2 = ?) OR (frdid1 = ? AND frdid2 = ?)");
        assertThat(one.viewProfile)
                .contains("(SELECT count(*) FROM friends WHERE frdid1 = m.userid) + "
                        + "(SELECT count(*) FROM friends WHERE frdid2 = m.userid)");
        assertThat(one.viewOwnProfile).contains("(SELECT count(*) FROM pending WHERE inviteeid = m.userid)");
        RelationalSchema twoRows = new RelationalSchema(11, 2, new FeedDesign(FeedDesign.Kind.PUSH, false), false, two);
        assertThat(twoRows.listFriends).doesNotContain("UNION ALL");
        assertThat(twoRows.fanOut)
                .contains("SELECT frdid2 AS id FROM friends WHERE frdid1 = ?")
                .doesNotContain("frdid2 = ?");
        assertThat(new RelationalSchema(11, 1).acceptInsert).isNull();
    }

    @Test
    void countsAsAttributesAreColumnsOfMembersThatViewProfileReadsAlone() {
        RelationalSchema manual =
                new RelationalSchema(11, 1, FeedDesign.PULL, false, new PhysicalDesign(1, true, false, null));
        assertThat(manual.createStatements(dialect(true)).get(0))
                .endsWith("pic BLOB, tpic BLOB,"
                        + " friendcount INTEGER NOT NULL DEFAULT 0, pendingcount INTEGER NOT NULL DEFAULT 0,"
                        + " resourcecount INTEGER NOT NULL DEFAULT 0)");
        assertThat(manual.memberColumns()).endsWith("pic, tpic, friendcount, pendingcount, resourcecount");
        assertThat(manual.viewProfile)
                .doesNotContain("count(")
                .endsWith(", m.pic, m.friendcount, m.resourcecount FROM members m WHERE m.userid = ?");
        assertThat(manual.viewOwnProfile)
                .doesNotContain("count(")
                .endsWith(", m.pic, m.friendcount, m.resourcecount, m.pendingcount FROM members m WHERE m.userid = ?");
        assertThat(manual.adjustCounts)
                .isEqualTo("UPDATE members SET friendcount = friendcount + ?,"
                        + " pendingcount = pendingcount + ? WHERE userid = ?");
        assertThat(manual.memberExtraColumns()).isEqualTo(5);
        assertThat(new RelationalSchema(11, 1).viewProfile).contains("count(*)");
    }

    @Test
    void profileImagesInFilesLeaveAPathInTheRowAndTheThumbnailInline() {
        RelationalSchema fs = new RelationalSchema(
                11, 1, FeedDesign.PULL, false, new PhysicalDesign(1, false, true, Path.of("/tmp/images")));
        assertThat(fs.createStatements(dialect(false)).get(0)).endsWith("tel TEXT, picpath TEXT, tpic BLOB)");
        assertThat(fs.memberColumns()).endsWith("tel, picpath, tpic");
        assertThat(fs.viewProfile).contains("m.picpath,").doesNotContain("m.pic,");
        assertThat(fs.listFriends).contains("m.tpic");
    }

    private static SqlDialect dialect(boolean keys) {
        return new SqlDialect() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String binaryType() {
                return "BLOB";
            }

            @Override
            public String bigIdType() {
                return "BIGINT";
            }

            @Override
            public boolean keysAtCreate() {
                return keys;
            }

            @Override
            public String friendshipTableOptions() {
                return " WITHOUT ROWID";
            }

            @Override
            public List<List<String>> afterLoad(RelationalSchema schema) {
                return List.of();
            }

            @Override
            public String tableExistsQuery() {
                return "";
            }

            @Override
            public RowSink openSink(Connection c, RelationalSchema schema) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
