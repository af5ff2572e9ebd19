package org.bgbench.store.postgres.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PgWire} against a real (embedded) PostgreSQL: binary int2/int4/int8, UTF-8 text, NULL and bytea columns;
 * several rows, each reply in a fresh array that the next reply leaves alone; a row larger than the receive buffer;
 * unsupported column types and server errors (a cancelled statement, bad SQL, a duplicate key) fail the call with the
 * server's SQLSTATE and leave the connection usable; updates return the rows they changed; the server's Unix socket
 * works as TCP does; trust, cleartext, MD5 and SCRAM-SHA-256 logins with right and wrong passwords; a backend that
 * stops answering (SIGSTOP) fails the call with 08006 after the read timeout and closes the connection.
 */
@Tag("server")
class PgWireTest {
    private static final int CONNECT_MS = 5_000;
    private static final int READ_MS = 10_000;

    @TempDir
    static Path tmp;
    private static EmbeddedPostgres pg;

    @BeforeAll
    static void start() throws Exception {
        Files.createDirectories(tmp.resolve("s"));
        pg = EmbeddedPostgres.builder().setDataDirectory(tmp.resolve("data")).setCleanDataDirectory(true)
                .setServerConfig("unix_socket_directories", tmp.resolve("s").toString())
                .setPGStartupWait(Duration.ofSeconds(60)).start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    private static PgWire connect(String user, String password) throws WireException {
        return PgWire.connect("127.0.0.1", pg.getPort(), "postgres", user, password, CONNECT_MS, READ_MS);
    }

    private static void sql(String... statements) throws Exception {
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            for (String s : statements) {
                st.execute(s);
            }
        }
    }

    /** A query on {@code w} answers: the connection is usable. */
    private static void assertUsable(PgWire w) throws WireException {
        assertThat(w.isClosed()).isFalse();
        Rows r = w.query(w.prepare("SELECT $1::int4 + 1"), 41);
        assertThat(r.size()).isEqualTo(1);
        assertThat(r.getInt(0, 0)).isEqualTo(42);
    }

    @Test
    void integersTextNullAndByteaComeBackInBinaryAndTheRowsAreReused() throws Exception {
        try (PgWire w = connect("postgres", null)) {
            PgWire.Statement st = w.prepare("SELECT $1::int4, ($1)::int8 * 3, ($1)::int2, 'héllo'::text, NULL::text,"
                    + " decode('00ff', 'hex'), 'ab'::varchar, 'c'::char(3), ''::text");
            assertThat(st.parameters()).isEqualTo(1);
            Rows r = w.query(st, 7);
            assertThat(r.size()).isEqualTo(1);
            assertThat(r.columns()).isEqualTo(9);
            assertThat(r.getInt(0, 0)).isEqualTo(7);
            assertThat(r.length(0, 0)).isEqualTo(4);
            assertThat(r.getInt(0, 1)).isEqualTo(21);
            assertThat(r.length(0, 1)).isEqualTo(8);
            assertThat(r.getInt(0, 2)).isEqualTo(7);
            assertThat(r.length(0, 2)).isEqualTo(2);
            assertThat(r.string(0, 3)).isEqualTo("héllo");
            assertThat(r.length(0, 3)).isEqualTo(6); // é is two bytes in UTF-8
            assertThat(r.isNull(0, 4)).isTrue();
            assertThat(r.length(0, 4)).isEqualTo(-1);
            assertThat(r.string(0, 4)).isNull();
            assertThat(r.bytes(0, 4)).isNull();
            assertThat(r.getInt(0, 4)).isZero();
            assertThat(r.isNull(0, 3)).isFalse();
            assertThat(r.bytes(0, 5)).containsExactly(0, (byte) 0xff);
            assertThat(r.string(0, 6)).isEqualTo("ab");
            assertThat(r.string(0, 7)).isEqualTo("c  ");
            assertThat(r.string(0, 8)).isEmpty();
            assertThat(r.isNull(0, 8)).isFalse();
            assertThatThrownBy(() -> r.getInt(1, 0)).isInstanceOf(IndexOutOfBoundsException.class);

            Rows again = w.query(st, -1234);
            assertThat(again).isSameAs(r);
            assertThat(again.size()).isEqualTo(1);
            assertThat(again.getInt(0, 0)).isEqualTo(-1234);
            assertThat(again.getInt(0, 1)).isEqualTo(-3702);
            assertThat(again.getInt(0, 2)).isEqualTo(-1234);
            assertThat(again.string(0, 3)).isEqualTo("héllo");
            assertThat(st.rows()).isSameAs(again);
            Rows big = w.query(w.prepare("SELECT ($1)::int8 * 3"), 1_000_000_000);
            assertThat(big.length(0, 0)).isEqualTo(8);
            assertThatThrownBy(() -> big.getInt(0, 0)).as("an int8 beyond int")
                    .isInstanceOf(ArithmeticException.class);
            assertThat(big.getLong(0, 0)).as("but it is a long").isEqualTo(3_000_000_000L);
            Rows small = w.query(w.prepare("SELECT $1::int4, ($1)::int2, NULL::int8"), -5);
            assertThat(small.getLong(0, 0)).isEqualTo(-5L);
            assertThat(small.getLong(0, 1)).isEqualTo(-5L);
            assertThat(small.getLong(0, 2)).as("NULL, as JDBC's getLong").isZero();
        }
    }

    @Test
    void manyRowsTwoParametersAndEachReplyInAFreshArray() throws Exception {
        try (PgWire w = connect("postgres", null)) {
            PgWire.Statement st = w.prepare("SELECT g, repeat('x', g) FROM generate_series(?, ?) g");
            assertThat(st.parameters()).isEqualTo(2);
            Rows r = w.query(st, 1, 5);
            assertThat(r.size()).isEqualTo(5);
            for (int i = 0; i < 5; i++) {
                assertThat(r.getInt(i, 0)).isEqualTo(i + 1);
                assertThat(r.length(i, 1)).isEqualTo(i + 1);
                assertThat(r.string(i, 1)).isEqualTo("x".repeat(i + 1));
                assertThat(r.data()[r.offset(i, 1)]).isEqualTo((byte) 'x');
            }
            byte[] first = r.data();
            byte[] copy = first.clone();
            int offset4 = r.offset(4, 1);
            int[] offsets = r.offsets();
            int[] lengths = r.lengths();
            int[] offsetsCopy = offsets.clone();
            int[] lengthsCopy = lengths.clone();
            assertThat(offsets[r.index(4, 1)]).isEqualTo(offset4);
            assertThat(lengths[r.index(4, 1)]).isEqualTo(5);
            Rows small = w.query(st, 6, 8); // fits the arrays reply 1 had, were they reused
            assertThat(small.string(2, 1)).isEqualTo("x".repeat(8));
            assertThat(offsets).as("reply 1's offsets, untouched by a smaller reply").isEqualTo(offsetsCopy);
            assertThat(lengths).as("reply 1's lengths, untouched by a smaller reply").isEqualTo(lengthsCopy);

            Rows r2 = w.query(st, 100, 400);
            assertThat(r2.size()).isEqualTo(301);
            assertThat(r2.getInt(300, 0)).isEqualTo(400);
            // Rows read before the reply outgrew its buffer (sized by the small replies before it) stay readable.
            assertThat(r2.getInt(0, 0)).isEqualTo(100);
            assertThat(r2.string(0, 1)).isEqualTo("x".repeat(100));
            assertThat(r2.string(300, 1)).hasSize(400).matches("x+");
            assertThat(r2.data()).isNotSameAs(first);
            assertThat(first).as("reply 1's array, untouched by reply 2").isEqualTo(copy);
            assertThat(new String(first, offset4, 5, StandardCharsets.UTF_8)).isEqualTo("xxxxx");
            // The column arrays too: a view keeps all three (Attributes.setUtf8Row).
            assertThat(r2.offsets()).isNotSameAs(offsets);
            assertThat(offsets).as("reply 1's offsets, untouched by reply 2").isEqualTo(offsetsCopy);
            assertThat(lengths).as("reply 1's lengths, untouched by reply 2").isEqualTo(lengthsCopy);

            Rows empty = w.query(st, 5, 1);
            assertThat(empty.size()).isZero();
            assertThatThrownBy(() -> w.query(st, 1)).isInstanceOf(WireException.class)
                    .extracting(e -> ((WireException) e).getSQLState()).isEqualTo("07001");
            assertThat(w.query(st, 2, 3).getInt(1, 0)).isEqualTo(3);
        }
    }

    @Test
    void aReplysBytesStayPutWhileTheConnectionReadsOtherReplies() throws Exception {
        sql("DROP TABLE IF EXISTS kept", "CREATE TABLE kept (a int4, b int4, PRIMARY KEY (a, b))");
        try (PgWire w = connect("postgres", null)) {
            PgWire.Statement st = w.prepare("SELECT g, repeat(chr(97 + g % 26), 50) FROM generate_series(1, ?) g");
            PgWire.Statement insert = w.prepareUpdate("INSERT INTO kept (a, b) VALUES (?, ?)");
            Rows r = w.query(st, 200);
            assertThat(r.size()).isEqualTo(200);
            assertThat(r.string(0, 1)).isEqualTo("b".repeat(50));
            assertThat(r.string(199, 1)).isEqualTo("s".repeat(50));
            byte[] data = r.data();
            byte[] copy = data.clone();
            int at = r.offset(199, 1);
            // Every other kind of reply the connection reads next: a row count, a setting, a statement's description.
            assertThat(w.update(insert, 1, 2)).isEqualTo(1);
            w.execute("SET application_name = 'bg-test'");
            PgWire.Statement other = w.prepare("SELECT $1 + 1");
            assertThat(w.query(other, 41).getInt(0, 0)).isEqualTo(42);
            assertThat(Arrays.equals(data, copy)).as("the first reply's bytes, which views may still hold, unchanged").isTrue();
            assertThat(new String(data, at, 50, StandardCharsets.UTF_8)).isEqualTo("s".repeat(50));
            Rows again = w.query(st, 3);
            assertThat(again.data()).isNotSameAs(data);
            assertThat(again.string(2, 1)).isEqualTo("d".repeat(50));
            assertThat(Arrays.equals(data, copy)).as("still unchanged after the statement's next reply").isTrue();
        }
    }

    @Test
    void aRowLargerThanTheReceiveBuffer() throws Exception {
        try (PgWire w = connect("postgres", null)) {
            PgWire.Statement st = w.prepare("SELECT repeat('y', $1), $1 + 1");
            Rows r = w.query(st, 300_000);
            assertThat(r.size()).isEqualTo(1);
            assertThat(r.string(0, 0)).hasSize(300_000).matches("y+");
            assertThat(r.getInt(0, 1)).isEqualTo(300_001);
            assertThat(w.query(st, 3).string(0, 0)).isEqualTo("yyy");
        }
    }

    @Test
    void anUnsupportedColumnTypeIsRefusedAndTheConnectionGoesOn() throws Exception {
        try (PgWire w = connect("postgres", null)) {
            WireException e = thrown(() -> w.prepare("SELECT 1::int4, now()"));
            assertThat(e.getSQLState()).isEqualTo("0A000");
            assertThat(e.getMessage()).contains("column 2").contains("1184"); // timestamptz
            assertUsable(w);
        }
    }

    @Test
    void serverErrorsKeepTheConnectionUsable() throws Exception {
        try (PgWire w = connect("postgres", null)) {
            w.execute("SET statement_timeout = 200");
            PgWire.Statement slow = w.prepare(
                    "SELECT count(*)::int4 FROM generate_series(1, $1) a, generate_series(1, $1) b");
            long t0 = System.nanoTime();
            WireException e = thrown(() -> w.query(slow, 100_000));
            assertThat(e.getSQLState()).isEqualTo("57014");
            assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
            assertThat(slow.rows().size()).isZero();
            assertThat(w.isClosed()).isFalse();
            w.execute("SET statement_timeout = 0");
            assertThat(w.query(slow, 3).getInt(0, 0)).isEqualTo(9);

            WireException syntax = thrown(() -> w.prepare("SELEC $1"));
            assertThat(syntax.getSQLState()).isEqualTo("42601");
            WireException noTable = thrown(() -> w.prepare("SELECT x FROM no_such_table"));
            assertThat(noTable.getSQLState()).isEqualTo("42P01");
            WireException badSet = thrown(() -> w.execute("SET no_such = 1"));
            assertThat(badSet.getSQLState()).isEqualTo("42704");
            WireException noRows = thrown(() -> w.prepare("SET work_mem = '8MB'"));
            assertThat(noRows.getSQLState()).isEqualTo("42000");
            // An error after some rows have come: no rows, the error.
            PgWire.Statement divide = w.prepare("SELECT 6 / (g - $1) FROM generate_series(1, 5) g");
            WireException division = thrown(() -> w.query(divide, 3));
            assertThat(division.getSQLState()).isEqualTo("22012");
            assertThat(divide.rows().size()).isZero();
            assertThat(w.query(divide, 9).getInt(4, 0)).isEqualTo(-1);
            assertUsable(w);
        }
    }

    @Test
    void updatesReturnTheRowsTheyChangedAndTheirErrorsKeepTheConnectionUsable() throws Exception {
        sql("DROP TABLE IF EXISTS pair", "CREATE TABLE pair (a int4, b int4, s int4, PRIMARY KEY (a, b))");
        try (PgWire w = connect("postgres", null)) {
            PgWire.Statement insert = w.prepareUpdate("INSERT INTO pair (a, b, s) VALUES (?, ?, 1)");
            PgWire.Statement accept = w.prepareUpdate("UPDATE pair SET s = 2 WHERE a = ? AND b = ? AND s = 1");
            PgWire.Statement drop = w.prepareUpdate(
                    "DELETE FROM pair WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)");
            assertThat(insert.parameters()).isEqualTo(2);
            assertThat(drop.parameters()).isEqualTo(4);
            assertThat(w.update(insert, 1, 2)).isEqualTo(1);
            assertThat(w.update(insert, 2, 1)).isEqualTo(1);
            for (int i = 10; i < 1_234; i++) {
                w.update(insert, i, -i);
            }
            assertThat(w.update(accept, 1, 2)).isEqualTo(1);
            assertThat(w.update(accept, 1, 2)).isZero(); // no longer pending
            assertThat(w.update(drop, 1, 2, 2, 1)).isEqualTo(2);
            assertThat(w.update(drop, 1, 2, 2, 1)).isZero();
            // A count of several digits, and autocommit: another connection sees every row at once.
            PgWire.Statement all = w.prepareUpdate("UPDATE pair SET s = 3 WHERE a >= ? AND a < ?");
            assertThat(w.update(all, 0, 1_000_000)).isEqualTo(1_224);
            try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT count(*) FROM pair WHERE s = 3")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1_224);
            }

            WireException duplicate = thrown(() -> w.update(insert, 10, -10));
            assertThat(duplicate.getSQLState()).isEqualTo("23505");
            WireException arity = thrown(() -> w.update(insert, 1, 2, 3, 4));
            assertThat(arity.getSQLState()).isEqualTo("07001");
            WireException rows = thrown(() -> w.prepareUpdate("SELECT 1::int4"));
            assertThat(rows.getSQLState()).isEqualTo("42000");
            assertThat(w.update(insert, 3, 4)).isEqualTo(1);
            assertUsable(w);
        }
    }

    @Test
    void overTheServersUnixSocket() throws Exception {
        String dir = tmp.resolve("s").toString();
        assertThat(PgWire.isSocketDirectory(dir)).isTrue();
        assertThat(PgWire.isSocketDirectory("localhost")).isFalse();
        try (PgWire w = PgWire.connect(dir, pg.getPort(), "postgres", "postgres", null, CONNECT_MS, READ_MS)) {
            // inet_client_addr() is NULL only on a Unix socket.
            Rows r = w.query(w.prepare("SELECT (inet_client_addr() IS NULL)::int4, repeat('z', $1)"), 200_000);
            assertThat(r.getInt(0, 0)).as("connected over the Unix socket, not TCP").isEqualTo(1);
            assertThat(r.string(0, 1)).hasSize(200_000);
            sql("DROP TABLE IF EXISTS local_pair", "CREATE TABLE local_pair (a int4, b int4)");
            PgWire.Statement insert = w.prepareUpdate("INSERT INTO local_pair VALUES (?, ?)");
            assertThat(w.update(insert, 1, 2)).isEqualTo(1);
            WireException bad = thrown(() -> w.prepare("SELECT x FROM no_such_table"));
            assertThat(bad.getSQLState()).isEqualTo("42P01");
            assertUsable(w);
        }
        Path elsewhere = tmp.resolve("no-server-here");
        Files.createDirectories(elsewhere);
        WireException none = thrown(() -> PgWire.connect(elsewhere.toString(), pg.getPort(), "postgres", "postgres",
                null, CONNECT_MS, READ_MS));
        assertThat(none.getSQLState()).isEqualTo("08001");
        assertThat(none.getMessage()).contains(elsewhere.resolve(".s.PGSQL." + pg.getPort()).toString());
    }

    @Test
    void passwordMd5AndScramLogins() throws Exception {
        // PostgreSQL 14 still stores and accepts MD5 passwords. The passwords are not ASCII: UTF-8 throughout.
        sql("SET password_encryption = 'md5'", "CREATE ROLE u_md5 LOGIN PASSWORD 'pw1-é'",
                "SET password_encryption = 'scram-sha-256'", "CREATE ROLE u_scram LOGIN PASSWORD 'pw2-é'",
                "CREATE ROLE u_plain LOGIN PASSWORD 'pw3-é'");
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT left(rolpassword, 6) FROM pg_authid WHERE rolname = 'u_md5'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("stored as MD5, so md5 in pg_hba.conf really is MD5").startsWith("md5");
        }
        Path hba = tmp.resolve("data").resolve("pg_hba.conf");
        List<String> lines = new ArrayList<>(List.of("host all u_md5 127.0.0.1/32 md5",
                "host all u_scram 127.0.0.1/32 scram-sha-256", "host all u_plain 127.0.0.1/32 password"));
        lines.addAll(Files.readAllLines(hba));
        Files.write(hba, lines);
        sql("SELECT pg_reload_conf()");
        // The reload is asynchronous: wait until u_scram is asked for a password.
        WireException asked = null;
        for (long end = System.nanoTime() + 10_000_000_000L; asked == null && System.nanoTime() < end; ) {
            try (PgWire w = connect("u_scram", null)) {
                Thread.sleep(50);
            } catch (WireException e) {
                asked = e;
            }
        }
        assertThat((Throwable) asked).as("pg_hba.conf reloaded").isNotNull();
        assertThat(asked.getSQLState()).isEqualTo("28P01");
        assertThat(asked.getMessage()).contains("postgres.password");

        String[][] users = {{"u_md5", "pw1-é"}, {"u_scram", "pw2-é"}, {"u_plain", "pw3-é"}};
        for (String[] u : users) {
            try (PgWire w = connect(u[0], u[1])) {
                Rows r = w.query(w.prepare("SELECT current_user::text, $1::int4"), 5);
                assertThat(r.string(0, 0)).isEqualTo(u[0]);
                assertThat(r.getInt(0, 1)).isEqualTo(5);
            }
            WireException wrong = thrown(() -> connect(u[0], u[1] + "x"));
            assertThat(wrong.getSQLState()).as(u[0]).isEqualTo("28P01");
            assertThat(wrong.getMessage()).as(u[0]).contains("password authentication failed");
        }
    }

    @Test
    void aBackendThatStopsAnsweringFailsTheCallAfterTheReadTimeout() throws Exception {
        PgWire w = PgWire.connect("127.0.0.1", pg.getPort(), "postgres", "postgres", null, CONNECT_MS, 1_500);
        try {
            PgWire.Statement pid = w.prepare("SELECT pg_backend_pid() + $1");
            long backend = w.query(pid, 0).getInt(0, 0);
            assertThat(ProcessHandle.of(backend)).as("the backend is a local process").isPresent();
            long t0 = System.nanoTime();
            try {
                signal("STOP", backend);
                WireException e = thrown(() -> w.query(pid, 0));
                double waited = (System.nanoTime() - t0) / 1e9;
                assertThat(e.getSQLState()).isEqualTo("08006");
                assertThat(waited).as("the read timeout").isBetween(1.5, 5.0);
                assertThat(w.isClosed()).isTrue();
            } finally {
                signal("CONT", backend);
            }
            assertThatThrownBy(() -> w.query(pid, 0)).isInstanceOf(WireException.class)
                    .extracting(e -> ((WireException) e).getSQLState()).isEqualTo("08006");
        } finally {
            w.close();
        }
        try (PgWire fresh = connect("postgres", null)) {
            assertUsable(fresh);
        }
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        PgWire w = connect("postgres", null);
        assertUsable(w);
        w.close();
        assertThat(w.isClosed()).isTrue();
        w.close();
        assertThat(w.isClosed()).isTrue();
    }

    @Test
    void aServerThatIsNotThereFailsTheConnect() {
        WireException e = thrown(
                () -> PgWire.connect("127.0.0.1", 1, "postgres", "postgres", null, CONNECT_MS, READ_MS));
        assertThat(e.getSQLState()).isEqualTo("08001");
    }

    /** The WireException {@code call} throws; fails if it throws nothing or something else. */
    private static WireException thrown(ThrowingCallable call) {
        Throwable t = catchThrowable(call);
        assertThat(t).isInstanceOf(WireException.class);
        return (WireException) t;
    }

    private static void signal(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as("kill -" + signal + " " + pid).isZero();
    }

    @Test
    void placeholdersInQuotedTextAreNotParameters() {
        assertThat(PgWire.numbered("SELECT '?', \"a?\" FROM t WHERE x = ? AND y = ?"))
                .isEqualTo("SELECT '?', \"a?\" FROM t WHERE x = $1 AND y = $2");
        assertThat(PgWire.parameters("SELECT '$3' WHERE a = $1 AND b = $2")).isEqualTo(2);
    }
}
