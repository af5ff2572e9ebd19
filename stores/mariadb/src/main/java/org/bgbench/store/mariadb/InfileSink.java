package org.bgbench.store.mariadb;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.bgbench.store.relational.RelationalSchema;
import org.bgbench.store.relational.TextBulkSink;
import org.bgbench.store.relational.TextRows;

/**
 * The bulk path of MariaDB and MySQL: rows are encoded into one tab-separated buffer per table (LOAD DATA's default
 * format: {@code \t} between fields, {@code \n} after rows, backslash escapes, {@code \N} for NULL) and each flush
 * sends them with {@code LOAD DATA LOCAL INFILE} from an in-memory stream (Connector/J's
 * {@code setLocalInfileInputStream}), no file involved, then commits. {@code CHARACTER SET binary} loads the bytes as
 * they are: text as UTF-8 into the utf8mb4 columns, images unchanged.
 */
final class InfileSink extends TextBulkSink {
    private static final int DEADLOCK_ATTEMPTS = 5;

    private final Statement st;

    InfileSink(Connection c, RelationalSchema schema) throws SQLException {
        super(
                c,
                schema,
                (table, columns) -> "LOAD DATA LOCAL INFILE 'bg-" + table + ".tsv' INTO TABLE " + table
                        + " CHARACTER SET binary (" + columns + ")",
                Buffer::new);
        try {
            c.setAutoCommit(false);
            st = c.createStatement();
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Two loaders' first LOAD DATA into an empty table both ask for its table X lock (InnoDB's bulk insert into an
     * empty table with unique_checks=0, MariaDB 10.6+; seen in SHOW ENGINE INNODB STATUS) and one is chosen as
     * deadlock victim. InnoDB rolled the whole flush back and the buffers are intact: send them again (the table is
     * no longer empty).
     */
    @Override
    protected boolean sendAgain(SQLException e, int attempt) {
        return deadlock(e) && attempt < DEADLOCK_ATTEMPTS;
    }

    /** ER_LOCK_DEADLOCK (1213) or SQLSTATE 40001. */
    private static boolean deadlock(SQLException e) {
        return e.getErrorCode() == 1213 || "40001".equals(e.getSQLState());
    }

    @Override
    protected void send(Table table) throws SQLException {
        org.mariadb.jdbc.Statement ms = st.unwrap(org.mariadb.jdbc.Statement.class);
        ms.setLocalInfileInputStream(
                new ByteArrayInputStream(table.rows().array(), 0, table.rows().length()));
        st.executeUpdate(table.statement());
    }

    /** Rows in LOAD DATA's default text format. */
    static final class Buffer extends TextRows {
        @Override
        public Buffer text(String s) {
            if (s == null) {
                nul();
                return this;
            }
            boolean ascii = true;
            for (int i = 0; i < s.length() && ascii; i++) {
                ascii = s.charAt(i) < 0x80;
            }
            if (ascii) {
                ensure(2 * s.length());
                for (int i = 0; i < s.length(); i++) {
                    put((byte) s.charAt(i));
                }
                return this;
            }
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public Buffer bytes(byte[] b) {
            if (b == null) {
                nul();
                return this;
            }
            ensure(2 * b.length);
            for (byte x : b) {
                put(x);
            }
            return this;
        }

        /** One byte, escaped when LOAD DATA would read it as a separator or escape; capacity already ensured. */
        private void put(byte x) {
            switch (x) {
                case '\\' -> {
                    buf[len++] = '\\';
                    buf[len++] = '\\';
                }
                case '\t' -> {
                    buf[len++] = '\\';
                    buf[len++] = 't';
                }
                case '\n' -> {
                    buf[len++] = '\\';
                    buf[len++] = 'n';
                }
                case '\r' -> {
                    buf[len++] = '\\';
                    buf[len++] = 'r';
                }
                case 0 -> {
                    buf[len++] = '\\';
                    buf[len++] = '0';
                }
                default -> buf[len++] = x;
            }
        }
    }
}
