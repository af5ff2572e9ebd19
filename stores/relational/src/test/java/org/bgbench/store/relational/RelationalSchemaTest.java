package org.bgbench.store.relational;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

class RelationalSchemaTest {
    @Test
    void memberColumnsUseUscNamesThenNumberedAttributes() {
        assertThat(RelationalSchema.attributeColumn(0)).isEqualTo("username");
        assertThat(RelationalSchema.attributeColumn(10)).isEqualTo("tel");
        assertThat(RelationalSchema.attributeColumn(11)).isEqualTo("attr11");
        assertThat(RelationalSchema.attributeColumn(63)).isEqualTo("attr63");
        assertThat(new RelationalSchema(12, 1).memberColumns()).isEqualTo(
                "userid, username, pw, firstname, lastname, gender, dob, jdate, ldate, address, email, tel, attr11, pic, tpic");
    }

    @Test
    void keysAreDeclaredUpFrontOnlyWhenTheDialectSaysSo() {
        List<String> withKeys = new RelationalSchema(11, 1).createStatements(dialect(true));
        assertThat(withKeys.get(0)).startsWith("CREATE TABLE members (userid INTEGER NOT NULL PRIMARY KEY").endsWith("pic BLOB, tpic BLOB)");
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
