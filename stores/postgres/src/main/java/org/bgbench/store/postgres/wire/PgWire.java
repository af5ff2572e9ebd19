package org.bgbench.store.postgres.wire;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import org.bgbench.store.relational.net.BufferedSocketFactory;
import org.bgbench.store.relational.net.LocalSocket;

/**
 * One connection to PostgreSQL speaking the frontend/backend protocol version 3 itself, for BG's read actions and
 * one-statement friendship writes with {@code postgres.client=wire}: prepared statements with int parameters whose
 * every result column comes back in binary, and whose rows land in one array per reply ({@link Rows}) instead of an
 * object per field. pgJDBC spends most of List Friends' client CPU allocating, copying and wrapping ~1,300 fields a
 * call; this reads the reply once into the array the views then point into.
 *
 * <p>What it speaks is what those actions need and no more: the startup message, authentication by trust, password,
 * MD5 or SCRAM-SHA-256 (RFC 5802 and 7677, without channel binding), the extended query protocol (Parse, Describe,
 * Bind, Execute, Sync) for statements with int parameters and either int, text or bytea columns or a row count (an
 * INSERT, UPDATE or DELETE in autocommit), a simple query for settings, and Terminate, over TCP or the server's Unix
 * domain socket ({@link LocalSocket}, which skips TCP's CPU on both ends). No TLS: the store uses it only where pgJDBC
 * would not encrypt either (see the store's README). The socket is blocking and its read timeout is enforced by
 * {@link BufferedSocketFactory}'s watchdog: a server that does not answer fails the call with a {@link WireException}
 * and the connection is closed, as pgJDBC does. An error the server reports leaves the connection usable. Not
 * thread-safe: one member's session.
 */
public final class PgWire implements AutoCloseable {
    /** Column types a statement may return: int2, int4, int8, text, varchar, bpchar, bytea. */
    private static final int[] COLUMN_TYPES = {21, 23, 20, 25, 1043, 1042, 17};
    private static final int INT4 = 23;

    /** The TCP socket or the Unix domain socket ({@link LocalSocket}). */
    private final Closeable socket;
    private final InputStream in;
    private final OutputStream out;
    /**
     * Received bytes; [pos, limit) not yet parsed. A reply with rows is read into a buffer of its own, which then
     * becomes the reply's {@link Rows#data()}: the rows are not copied out of it, and the next read takes a fresh one.
     */
    private byte[] buf = new byte[8 * 1024];
    private int pos;
    private int limit;
    /** Whether buf now belongs to the last reply's rows (views may still read it), so nothing may write to it. */
    private boolean handedOver;
    /** Whether a reply with rows is being read: its rows point into buf from index 0, so buf must not compact. */
    private boolean inReply;
    private int statements;
    private boolean closed;

    private PgWire(Closeable socket, InputStream in, OutputStream out) {
        this.socket = socket;
        this.in = in;
        this.out = out;
    }

    /**
     * Connects and logs in.
     *
     * @param host         a host name or address for TCP; or, as libpq takes it, a directory that starts with
     *                     {@code /}, where the server's Unix domain socket {@code .s.PGSQL.<port>} is (its {@code
     *                     unix_socket_directories})
     * @param password     null when the server is not to ask for one
     * @param readMillis   how long a reply may take before the connection is given up (0: forever)
     */
    public static PgWire connect(String host, int port, String database, String user, String password,
                                 int connectMillis, int readMillis) throws WireException {
        String where = isSocketDirectory(host) ? socketFile(host, port).toString() : host + ":" + port;
        Closeable c = null;
        try {
            PgWire w;
            if (isSocketDirectory(host)) {
                LocalSocket s = LocalSocket.connect(socketFile(host, port));
                c = s;
                s.setSoTimeout(readMillis);
                w = new PgWire(s, s.getInputStream(), s.getOutputStream());
            } else {
                Socket s = new BufferedSocketFactory.Unbuffered().createSocket();
                c = s;
                s.connect(new InetSocketAddress(host, port), connectMillis);
                s.setTcpNoDelay(true);
                s.setSoTimeout(readMillis);
                w = new PgWire(s, s.getInputStream(), s.getOutputStream());
            }
            w.startup(database, user, password);
            return w;
        } catch (IOException e) {
            closeQuietly(c);
            throw new WireException("cannot connect to PostgreSQL at " + where + ": " + e.getMessage(), "08001", e);
        } catch (WireException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** Whether {@link #connect}'s host names a directory of Unix domain sockets (it starts with {@code /}). */
    public static boolean isSocketDirectory(String host) {
        return host.startsWith("/");
    }

    /** The server's Unix domain socket in {@code directory}: {@code .s.PGSQL.<port>}, as PostgreSQL names it. */
    public static Path socketFile(String directory, int port) {
        return Path.of(directory, ".s.PGSQL." + port);
    }

    /** A statement with int parameters, JDBC's {@code ?} or PostgreSQL's {@code $n}, prepared on the server. */
    public Statement prepare(String sql) throws WireException {
        return prepare(sql, true);
    }

    /**
     * A statement with int parameters that returns no rows (an INSERT, UPDATE or DELETE), prepared on the server,
     * for {@link #update}.
     */
    public Statement prepareUpdate(String sql) throws WireException {
        return prepare(sql, false);
    }

    private Statement prepare(String sql, boolean returnsRows) throws WireException {
        String name = "bg" + (statements++);
        Message m = new Message();
        String text = numbered(sql);
        int params = parameters(text);
        m.begin('P').cstr(name).cstr(text).int16(params);
        for (int i = 0; i < params; i++) {
            m.int32(INT4);
        }
        m.end().begin('D').int8('S').cstr(name).end().begin('S').end();
        send(m);
        int[] types = null;
        WireException error = null;
        while (true) {
            byte type = next();
            int len = bodyLength();
            switch (type) {
                case 'T' -> types = columnTypes(pos, len);
                case 'E' -> error = error(pos, len);
                case 'Z' -> {
                    skip(len);
                    if (error != null) {
                        throw error;
                    }
                    if (!returnsRows) {
                        if (types != null) {
                            throw new WireException("the statement returns rows: " + sql, "42000", null);
                        }
                        return new Statement(name, params, 0);
                    }
                    if (types == null) {
                        throw new WireException("the statement returns no rows: " + sql, "42000", null);
                    }
                    for (int t = 0; t < types.length; t++) {
                        int oid = types[t];
                        if (Arrays.stream(COLUMN_TYPES).noneMatch(x -> x == oid)) {
                            throw new WireException("column " + (t + 1) + " has type oid " + oid + "; "
                                    + "postgres.client=wire reads int, text and bytea columns only: " + sql, "0A000",
                                    null);
                        }
                    }
                    return new Statement(name, params, types.length);
                }
                default -> { }
            }
            skip(len);
        }
    }

    /** Runs {@code st} with one parameter; its rows are in {@link Statement#rows()} until its next run. */
    public Rows query(Statement st, int p1) throws WireException {
        st.bound = 0;
        return run(st.bind(1, p1));
    }

    public Rows query(Statement st, int p1, int p2) throws WireException {
        st.bound = 0;
        return run(st.bind(2, p1).bind(2, p2));
    }

    /**
     * Runs {@link #prepareUpdate}'s {@code st} with two parameters in autocommit: returns the rows it changed, from
     * the server's CommandComplete.
     */
    public int update(Statement st, int p1, int p2) throws WireException {
        st.bound = 0;
        return count(st.bind(2, p1).bind(2, p2));
    }

    public int update(Statement st, int p1, int p2, int p3, int p4) throws WireException {
        st.bound = 0;
        return count(st.bind(4, p1).bind(4, p2).bind(4, p3).bind(4, p4));
    }

    private int count(Statement st) throws WireException {
        sendBound(st);
        int changed = 0;
        WireException error = null;
        while (true) {
            byte type = next();
            int len = bodyLength();
            switch (type) {
                case 'C' -> changed = tagCount(pos, len);
                case 'E' -> error = error(pos, len);
                case 'Z' -> {
                    skip(len);
                    if (error != null) {
                        throw error;
                    }
                    return changed;
                }
                default -> { } // BindComplete, notices, parameter changes
            }
            skip(len);
        }
    }

    /** Sends {@code st}'s Bind, Execute and Sync with the parameters just bound, and clears them. */
    private void sendBound(Statement st) throws WireException {
        try {
            out.write(st.request, 0, st.request.length);
        } catch (IOException e) {
            throw broken(e);
        } finally {
            st.bound = 0;
        }
    }

    /** The row count that ends a CommandComplete tag ({@code INSERT 0 1}, {@code UPDATE 2}, {@code DELETE 0}). */
    private int tagCount(int at, int len) {
        int end = at + len - 1; // the tag's terminating zero
        int start = end;
        while (start > at && buf[start - 1] >= '0' && buf[start - 1] <= '9') {
            start--;
        }
        int n = 0;
        for (int i = start; i < end; i++) {
            n = n * 10 + (buf[i] - '0');
        }
        return n;
    }

    private Rows run(Statement st) throws WireException {
        sendBound(st);
        Rows rows = st.rows;
        rows.reset();
        // The reply lands in a buffer sized by this statement's last one, from index 0, and stays where it landed.
        renew(st.lastReply + (st.lastReply >> 2));
        inReply = true;
        WireException error = null;
        try {
            while (true) {
                byte type = next();
                int len = bodyLength();
                switch (type) {
                    case 'D' -> rows.addRow(buf, pos);
                    case 'E' -> error = error(pos, len);
                    case 'Z' -> {
                        skip(len);
                        if (error != null) {
                            rows.reset();
                            throw error;
                        }
                        st.lastReply = Math.max(256, pos);
                        if (rows.size() > 0) {
                            rows.finish(buf);
                            handedOver = true;
                        }
                        return rows;
                    }
                    default -> { } // BindComplete, CommandComplete, notices, parameter changes
                }
                skip(len);
            }
        } finally {
            inReply = false;
        }
    }

    /**
     * Moves the unparsed bytes to the front of a buffer of at least {@code capacity} bytes: a fresh one if the last
     * reply's rows own buf or it is smaller.
     */
    private void renew(int capacity) {
        int rest = limit - pos;
        if (handedOver || buf.length < capacity) {
            byte[] fresh = new byte[Math.max(capacity, rest)];
            System.arraycopy(buf, pos, fresh, 0, rest);
            buf = fresh;
            handedOver = false;
        } else if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, rest);
        }
        pos = 0;
        limit = rest;
    }

    /** Runs SQL without parameters or rows (e.g. a {@code SET}) through the simple query protocol. */
    public void execute(String sql) throws WireException {
        send(new Message().begin('Q').cstr(sql).end());
        WireException error = null;
        while (true) {
            byte type = next();
            int len = bodyLength();
            if (type == 'E') {
                error = error(pos, len);
            } else if (type == 'Z') {
                skip(len);
                if (error != null) {
                    throw error;
                }
                return;
            }
            skip(len);
        }
    }

    /** Whether the connection was lost (a timeout, the server went away) or closed. */
    public boolean isClosed() {
        return closed;
    }

    /** Says goodbye to the server and closes the socket. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.write(new byte[] {'X', 0, 0, 0, 4});
        } catch (IOException ignored) {
            // Closing anyway; the server notices the socket going away.
        }
        closeQuietly(socket);
    }

    // ---- the startup

    private void startup(String database, String user, String password) throws WireException {
        Message m = new Message();
        m.int32(0).int32(196608).cstr("user").cstr(user).cstr("database").cstr(database)
                .cstr("client_encoding").cstr("UTF8").cstr("application_name").cstr("bg").int8(0);
        m.patchLength(0);
        send(m);
        Scram scram = null;
        while (true) {
            byte type = next();
            int len = bodyLength();
            switch (type) {
                case 'R' -> {
                    int code = Rows.int32(buf, pos);
                    if (code != 0 && code != 12 && password == null) {
                        throw new WireException("PostgreSQL asks " + user + " for a password: set postgres.password",
                                "28P01", null);
                    }
                    switch (code) {
                        case 0 -> { }
                        case 3 -> send(new Message().begin('p').cstr(password).end());
                        case 5 -> send(new Message().begin('p')
                                .cstr(md5Password(user, password, Arrays.copyOfRange(buf, pos + 4, pos + 8))).end());
                        case 10 -> {
                            String mechanisms = new String(buf, pos + 4, len - 4, StandardCharsets.UTF_8);
                            if (!Arrays.asList(mechanisms.split("\0")).contains("SCRAM-SHA-256")) {
                                throw new WireException("PostgreSQL offers SASL " + mechanisms.replace('\0', ' ')
                                        + "; postgres.client=wire speaks SCRAM-SHA-256 only", "28000", null);
                            }
                            scram = new Scram(password);
                            byte[] first = scram.clientFirst();
                            send(new Message().begin('p').cstr("SCRAM-SHA-256").int32(first.length).bytes(first)
                                    .end());
                        }
                        case 11 -> send(new Message().begin('p').bytes(scram(scram)
                                .clientFinal(new String(buf, pos + 4, len - 4, StandardCharsets.UTF_8))).end());
                        case 12 -> scram(scram).verify(new String(buf, pos + 4, len - 4, StandardCharsets.UTF_8));
                        default -> throw new WireException("PostgreSQL asks for authentication method " + code
                                + "; postgres.client=wire speaks trust, password, md5 and scram-sha-256", "28000",
                                null);
                    }
                }
                case 'E' -> throw error(pos, len);
                case 'Z' -> {
                    skip(len);
                    return;
                }
                default -> { } // ParameterStatus, BackendKeyData, notices
            }
            skip(len);
        }
    }

    private static Scram scram(Scram s) throws WireException {
        if (s == null) {
            throw new WireException("PostgreSQL continued a SASL exchange that was not started", "08P01", null);
        }
        return s;
    }

    private static String md5Password(String user, String password, byte[] salt) throws WireException {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            String inner = HexFormat.of().formatHex(md5.digest((password + user).getBytes(StandardCharsets.UTF_8)));
            md5.update(inner.getBytes(StandardCharsets.US_ASCII));
            md5.update(salt);
            return "md5" + HexFormat.of().formatHex(md5.digest());
        } catch (GeneralSecurityException e) {
            throw new WireException("MD5 is not available: " + e.getMessage(), "28000", e);
        }
    }

    /** SCRAM-SHA-256 without channel binding (RFC 5802, 7677), as PostgreSQL runs it (the user name left empty). */
    private static final class Scram {
        private final String password;
        private final String clientFirstBare;
        private byte[] saltedPassword;
        private String authMessage;

        Scram(String password) {
            this.password = password;
            byte[] nonce = new byte[18];
            new SecureRandom().nextBytes(nonce);
            clientFirstBare = "n=,r=" + Base64.getEncoder().encodeToString(nonce);
        }

        byte[] clientFirst() {
            return ("n,," + clientFirstBare).getBytes(StandardCharsets.UTF_8);
        }

        byte[] clientFinal(String serverFirst) throws WireException {
            String nonce = null;
            String salt = null;
            int iterations = 0;
            for (String kv : serverFirst.split(",")) {
                if (kv.startsWith("r=")) {
                    nonce = kv.substring(2);
                } else if (kv.startsWith("s=")) {
                    salt = kv.substring(2);
                } else if (kv.startsWith("i=")) {
                    iterations = Integer.parseInt(kv.substring(2));
                }
            }
            if (nonce == null || salt == null || iterations <= 0 || !nonce.startsWith(clientFirstBare.substring(5))) {
                throw new WireException("PostgreSQL's SCRAM message is malformed: " + serverFirst, "08P01", null);
            }
            try {
                saltedPassword = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                        .generateSecret(new PBEKeySpec(password.toCharArray(), Base64.getDecoder().decode(salt),
                                iterations, 256)).getEncoded();
                byte[] clientKey = hmac(saltedPassword, "Client Key");
                byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
                String withoutProof = "c=biws,r=" + nonce;
                authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
                byte[] signature = hmac(storedKey, authMessage);
                for (int i = 0; i < clientKey.length; i++) {
                    clientKey[i] ^= signature[i];
                }
                return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(clientKey))
                        .getBytes(StandardCharsets.UTF_8);
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new WireException("SCRAM-SHA-256 failed: " + e.getMessage(), "28000", e);
            }
        }

        /** Checks the server's signature: a server that does not know the password cannot fake it. */
        void verify(String serverFinal) throws WireException {
            try {
                byte[] expected = hmac(hmac(saltedPassword, "Server Key"), authMessage);
                byte[] got = serverFinal.startsWith("v=") ? Base64.getDecoder().decode(serverFinal.substring(2))
                        : new byte[0];
                if (!MessageDigest.isEqual(expected, got)) {
                    throw new WireException("PostgreSQL's SCRAM signature is wrong: not the server it claims",
                            "28000", null);
                }
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new WireException("SCRAM-SHA-256 failed: " + e.getMessage(), "28000", e);
            }
        }

        private static byte[] hmac(byte[] key, String msg) throws GeneralSecurityException {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(msg.getBytes(StandardCharsets.UTF_8));
        }
    }

    // ---- reading messages

    /** Reads the next message's header: returns its type; its body ({@link #bodyLength} bytes) is then at pos. */
    private byte next() throws WireException {
        ensure(5);
        byte type = buf[pos];
        int len = Rows.int32(buf, pos + 1);
        if (len < 4) {
            throw broken(new IOException("a message of length " + len));
        }
        ensure(1 + len);
        pos += 5;
        return type;
    }

    /** The body length of the message {@link #next} just read (its length field counts itself). */
    private int bodyLength() {
        return Rows.int32(buf, pos - 4) - 4;
    }

    private void skip(int len) {
        pos += len;
    }

    /** Makes {@code n} bytes from pos available in buf. */
    private void ensure(int n) throws WireException {
        if (limit - pos >= n) {
            return;
        }
        if (handedOver) {
            renew(Math.max(n, 8 * 1024));
        } else if (!inReply && pos > 0) {
            // Move the unparsed rest (part of one message) to the front, so the read may fill the whole buffer: a
            // reply read in fewer, larger gulps wakes its member fewer times. Within a reply the rows read so far
            // point into buf, so it only grows.
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (buf.length - pos < n) {
            buf = Arrays.copyOf(buf, Math.max(pos + n, buf.length * 2));
        }
        try {
            while (limit - pos < n) {
                int r = in.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    throw new IOException("PostgreSQL closed the connection");
                }
                limit += r;
            }
        } catch (IOException e) {
            throw broken(e);
        }
    }

    private int[] columnTypes(int p, int len) {
        int n = ((buf[p] & 0xff) << 8) | (buf[p + 1] & 0xff);
        int[] types = new int[n];
        int at = p + 2;
        for (int c = 0; c < n; c++) {
            while (buf[at] != 0) {
                at++;
            }
            at += 1 + 4 + 2; // name's terminator, table oid, column number
            types[c] = Rows.int32(buf, at);
            at += 4 + 2 + 4 + 2; // type oid, type size, type modifier, format
        }
        return types;
    }

    /** An ErrorResponse as an exception with the server's SQLSTATE and message. */
    private WireException error(int p, int len) {
        String severity = "ERROR";
        String code = null;
        String message = "";
        int end = p + len;
        while (p < end && buf[p] != 0) {
            byte field = buf[p++];
            int start = p;
            while (buf[p] != 0) {
                p++;
            }
            String value = new String(buf, start, p - start, StandardCharsets.UTF_8);
            p++;
            switch (field) {
                case 'V' -> severity = value;
                case 'C' -> code = value;
                case 'M' -> message = value;
                default -> { }
            }
        }
        return new WireException(severity + ": " + message, code, null);
    }

    private void send(Message m) throws WireException {
        try {
            out.write(m.buf, 0, m.size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    /** The connection is unusable: closes it and says why. */
    private WireException broken(IOException e) {
        closed = true;
        closeQuietly(socket);
        return new WireException("the connection to PostgreSQL is lost: " + e.getMessage(), "08006", e);
    }

    private static void closeQuietly(Closeable s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // Already failing or closing.
        }
    }

    /** JDBC's {@code ?} placeholders as {@code $1, $2, …}, outside quoted text. */
    static String numbered(String sql) {
        StringBuilder b = new StringBuilder(sql.length() + 8);
        int n = 0;
        for (int i = 0; i < sql.length(); i++) {
            int after = afterQuoted(sql, i);
            if (after > i) {
                b.append(sql, i, after);
                i = after - 1;
            } else if (sql.charAt(i) == '?') {
                b.append('$').append(++n);
            } else {
                b.append(sql.charAt(i));
            }
        }
        return b.toString();
    }

    /** The highest {@code $n} in the statement, outside quoted text. */
    static int parameters(String sql) {
        int max = 0;
        for (int i = 0; i < sql.length(); i++) {
            int after = afterQuoted(sql, i);
            if (after > i) {
                i = after - 1;
            } else if (sql.charAt(i) == '$') {
                int v = 0;
                while (i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1))) {
                    v = v * 10 + (sql.charAt(++i) - '0');
                }
                max = Math.max(max, v);
            }
        }
        return max;
    }

    /** Where the quoted text (string or identifier) starting at {@code i} ends; {@code i} if none starts there. */
    private static int afterQuoted(String sql, int i) {
        char q = sql.charAt(i);
        if (q != '\'' && q != '"') {
            return i;
        }
        int close = sql.indexOf(q, i + 1);
        return close < 0 ? sql.length() : close + 1;
    }

    /** A prepared statement: its Bind, Execute and Sync kept as one request whose parameters are patched in. */
    public static final class Statement {
        private final int params;
        private final byte[] request;
        /** Where the first parameter's value sits in the request. */
        private final int firstParam;
        private final Rows rows;
        private int bound;
        /**
         * The size of its last reply, to size the next reply's buffer: per statement, as a connection's replies
         * alternate between sizes (a List Friends of ~28 KB after a View Profile of ~1 KB grew its array five times).
         */
        private int lastReply = 1024;

        private Statement(String name, int params, int columns) {
            this.params = params;
            this.rows = new Rows(columns);
            Message m = new Message();
            m.begin('B').cstr("").cstr(name).int16(1).int16(1).int16(params);
            int at = m.size + 4;
            for (int i = 0; i < params; i++) {
                m.int32(4).int32(0);
            }
            m.int16(1).int16(1).end(); // every result column in binary
            m.begin('E').cstr("").int32(0).end().begin('S').end();
            this.firstParam = at;
            this.request = Arrays.copyOf(m.buf, m.size);
        }

        /** Parameters the statement takes. */
        public int parameters() {
            return params;
        }

        /** The rows of its last run. */
        public Rows rows() {
            return rows;
        }

        private Statement bind(int given, int value) throws WireException {
            if (given != params) {
                throw new WireException("the statement takes " + params + " parameters, " + given + " given",
                        "07001", null);
            }
            int at = firstParam + bound * 8;
            request[at] = (byte) (value >>> 24);
            request[at + 1] = (byte) (value >>> 16);
            request[at + 2] = (byte) (value >>> 8);
            request[at + 3] = (byte) value;
            bound++;
            return this;
        }
    }

    /** Frontend messages being written: a type byte, a length patched in at {@link #end}, the body. */
    private static final class Message {
        byte[] buf = new byte[256];
        int size;
        private int start;

        Message begin(char type) {
            int8(type);
            start = size;
            return int32(0);
        }

        Message end() {
            patchLength(start);
            return this;
        }

        /** Writes the length of everything from {@code at} on into the 4 bytes at {@code at}. */
        void patchLength(int at) {
            int len = size - at;
            buf[at] = (byte) (len >>> 24);
            buf[at + 1] = (byte) (len >>> 16);
            buf[at + 2] = (byte) (len >>> 8);
            buf[at + 3] = (byte) len;
        }

        Message int8(int v) {
            room(1);
            buf[size++] = (byte) v;
            return this;
        }

        Message int16(int v) {
            return int8(v >>> 8).int8(v);
        }

        Message int32(int v) {
            return int16(v >>> 16).int16(v);
        }

        Message bytes(byte[] b) {
            room(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
            return this;
        }

        Message cstr(String s) {
            return bytes(s.getBytes(StandardCharsets.UTF_8)).int8(0);
        }

        private void room(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }
    }
}
