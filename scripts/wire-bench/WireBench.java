// What a leaner PostgreSQL client and members that do not block a thread each would save BG, measured before the
// emulator and the postgres store are redesigned for them (issue 20). One statement of BG's (View Profile or List
// Friends, exactly BG's SQL) is issued in a closed loop over T connections by one of three clients, and the client's
// CPU per call is reported (the whole process's CPU over the measured period / calls), as BG reports its own:
//
//   jdbc   pgJDBC, a thread per connection, a prepared statement, every column read as BG's postgres store reads it
//          (getInt of the id, getBytes of each text column and the image)
//   sync   this file's own protocol code, a thread per connection, blocking socket, rows copied into one reused
//          buffer per connection and each column kept as (offset, length) in it: no object per field
//   async  the same protocol code, all connections on 2 threads (a Selector each), one call in flight per
//          connection, as pgbench drives its clients with asynchronous libpq
//
// Not part of BG: a measurement tool; the protocol code handles what this measurement needs (SCRAM-SHA-256, MD5 or
// trust, the extended query protocol with one int parameter, binary results) and stops on anything else.
//
// Usage: java -cp <pgjdbc jar> WireBench.java vp|lf jdbc|sync|async T SECONDS [host port user password db]
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

public class WireBench {
    static final String VP = "SELECT m.username, m.pw, m.firstname, m.lastname, m.gender, m.dob, m.jdate, m.ldate,"
            + " m.address, m.email, m.tel, m.pic, (SELECT count(*) FROM friendship WHERE inviterid = m.userid AND"
            + " status = 2) + (SELECT count(*) FROM friendship WHERE inviteeid = m.userid AND status = 2), (SELECT"
            + " count(*) FROM resources WHERE walluserid = m.userid) FROM members m WHERE m.userid = $1";
    static final String LF_SIDE = "SELECT m.userid, m.username, m.pw, m.firstname, m.lastname, m.gender, m.dob,"
            + " m.jdate, m.ldate, m.address, m.email, m.tel, m.tpic FROM friendship f JOIN members m ON m.userid = ";
    static final String LF = LF_SIDE + "f.inviteeid WHERE f.inviterid = $1 AND f.status = 2 UNION ALL " + LF_SIDE
            + "f.inviterid WHERE f.inviteeid = $1 AND f.status = 2";
    static final int MEMBERS = 10_000;

    static String host = "localhost", user = "postgres", password = "bg", db = "bg";
    static int port = 5432;
    static final LongAdder calls = new LongAdder();
    static final LongAdder rowsSeen = new LongAdder();
    static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: WireBench vp|lf jdbc|sync|async T SECONDS [host port user password db]");
            System.exit(2);
        }
        boolean lf = args[0].equals("lf");
        String sql = lf ? LF : VP;
        String mode = args[1];
        int t = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        if (args.length >= 9) {
            host = args[4]; port = Integer.parseInt(args[5]); user = args[6]; password = args[7]; db = args[8];
        }
        List<Thread> threads = new ArrayList<>();
        switch (mode) {
            case "jdbc" -> {
                for (int i = 0; i < t; i++) {
                    Connection c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + db
                            + "?sslmode=disable", user, password);
                    threads.add(new Thread(() -> jdbcLoop(c, sql, lf), "member-" + i));
                }
            }
            case "sync" -> {
                for (int i = 0; i < t; i++) {
                    Wire w = Wire.open(sql, false);
                    threads.add(new Thread(() -> syncLoop(w, lf), "member-" + i));
                }
            }
            case "async" -> {
                int loops = Math.min(2, t);
                List<List<Wire>> groups = new ArrayList<>();
                for (int g = 0; g < loops; g++) {
                    groups.add(new ArrayList<>());
                }
                for (int i = 0; i < t; i++) {
                    groups.get(i % loops).add(Wire.open(sql, true));
                }
                for (int g = 0; g < loops; g++) {
                    List<Wire> mine = groups.get(g);
                    threads.add(new Thread(() -> asyncLoop(mine, lf), "loop-" + g));
                }
            }
            default -> throw new IllegalArgumentException("mode: jdbc, sync or async");
        }
        threads.forEach(Thread::start);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Thread.sleep(3000); // warm-up
        long c0 = calls.sum(), cpu0 = os.getProcessCpuTime(), w0 = System.nanoTime(), r0 = rowsSeen.sum();
        Thread.sleep(seconds * 1000L);
        long c1 = calls.sum(), cpu1 = os.getProcessCpuTime(), w1 = System.nanoTime(), r1 = rowsSeen.sum();
        stop = true;
        long n = c1 - c0;
        System.out.printf("%s %s T=%d calls/s %.0f client_us/call %.1f rows/call %.1f%n", args[0], mode, t,
                n / ((w1 - w0) / 1e9), (cpu1 - cpu0) / 1e3 / n, (r1 - r0) / (double) n);
        System.exit(0);
    }

    // ---- pgJDBC, as BG's postgres store reads the columns

    static void jdbcLoop(Connection c, String sql, boolean lf) {
        try (PreparedStatement ps = c.prepareStatement(sql.replace("$1", "?"))) {
            byte[][] attrs = new byte[12][];
            long sink = 0;
            while (!stop) {
                int id = ThreadLocalRandom.current().nextInt(MEMBERS);
                ps.setInt(1, id);
                if (lf) {
                    ps.setInt(2, id);
                }
                int rows = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                        if (lf) {
                            sink += rs.getInt(1);
                            for (int a = 0; a < 11; a++) {
                                attrs[a] = rs.getBytes(a + 2);
                            }
                            attrs[11] = rs.getBytes(13);
                        } else {
                            for (int a = 0; a < 12; a++) {
                                attrs[a] = rs.getBytes(a + 1);
                            }
                            sink += rs.getInt(13) + rs.getInt(14);
                        }
                    }
                }
                rowsSeen.add(rows);
                calls.increment();
            }
            if (sink == 42) {
                System.out.print("");
            }
        } catch (Exception e) {
            if (!stop) {
                e.printStackTrace();
                System.exit(1);
            }
        }
    }

    // ---- this file's protocol code: a blocking thread per connection

    static void syncLoop(Wire w, boolean lf) {
        try {
            while (!stop) {
                w.send(ThreadLocalRandom.current().nextInt(MEMBERS));
                while (!w.parse()) {
                    w.fill();
                }
                rowsSeen.add(w.rows);
                calls.increment();
            }
        } catch (IOException e) {
            if (!stop) {
                e.printStackTrace();
                System.exit(1);
            }
        }
    }

    // ---- the same, many connections per thread, non-blocking

    static void asyncLoop(List<Wire> wires, boolean lf) {
        try (Selector sel = Selector.open()) {
            for (Wire w : wires) {
                w.channel.configureBlocking(false);
                w.channel.register(sel, SelectionKey.OP_READ, w);
                w.send(ThreadLocalRandom.current().nextInt(MEMBERS));
            }
            while (!stop) {
                sel.select();
                for (SelectionKey k : sel.selectedKeys()) {
                    Wire w = (Wire) k.attachment();
                    if (!w.readSome()) {
                        continue;
                    }
                    while (w.parse()) {
                        rowsSeen.add(w.rows);
                        calls.increment();
                        w.send(ThreadLocalRandom.current().nextInt(MEMBERS));
                    }
                }
                sel.selectedKeys().clear();
            }
        } catch (IOException e) {
            if (!stop) {
                e.printStackTrace();
                System.exit(1);
            }
        }
    }

    /** One connection speaking the v3 protocol: a prepared statement with one int parameter, binary results. */
    static final class Wire {
        final SocketChannel channel;
        final InputStream in; // blocking mode only
        final OutputStream out;
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024); // received, not yet parsed: [position, limit) after flip
        final byte[] request;
        // The reply's rows, as a store would hand them to the views: one reused arena, columns as offset/length.
        byte[] arena = new byte[64 * 1024];
        int arenaUsed;
        int[] colOff = new int[16 * 128];
        int[] colLen = new int[16 * 128];
        int rows;
        long sink;

        private Wire(SocketChannel ch, Socket sock, String sql) throws IOException {
            channel = ch;
            in = ch != null ? ch.socket().getInputStream() : sock.getInputStream();
            out = ch != null ? ch.socket().getOutputStream() : sock.getOutputStream();
            buf.flip();
            startup();
            byte[] q = sql.getBytes(StandardCharsets.UTF_8);
            Msg parse = new Msg('P').cstr("s").bytes(q).b(0).i16(1).i32(23);
            writeAll(parse.then(new Msg('S')).done());
            expectReady();
            // Bind (one binary int4 parameter, every result column binary), Execute, Sync: one write per call.
            request = new Msg('B').cstr("").cstr("s").i16(1).i16(1).i16(1).i32(4).i32(0).i16(1).i16(1)
                    .then(new Msg('E').cstr("").i32(0)).then(new Msg('S')).done();
        }

        /** A blocking socket of its own (sync) or a channel a Selector can watch (async). */
        static Wire open(String sql, boolean channel) throws IOException {
            if (channel) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress(host, port));
                ch.socket().setTcpNoDelay(true);
                return new Wire(ch, null, sql);
            }
            Socket s = new Socket(host, port); // no timeout: the descriptor stays blocking
            s.setTcpNoDelay(true);
            return new Wire(null, s, sql);
        }

        void send(int id) throws IOException {
            // the parameter's 4 bytes sit right after Bind's header, names and format codes
            int at = 1 + 4 + 1 + 2 + 2 + 2 + 2 + 4;
            request[at] = (byte) (id >>> 24);
            request[at + 1] = (byte) (id >>> 16);
            request[at + 2] = (byte) (id >>> 8);
            request[at + 3] = (byte) id;
            writeAll(request);
        }

        private void writeAll(byte[] b) throws IOException {
            if (channel == null || channel.isBlocking()) {
                out.write(b);
                return;
            }
            ByteBuffer bb = ByteBuffer.wrap(b);
            while (bb.hasRemaining()) {
                channel.write(bb);
            }
        }

        /** Blocking: reads at least one more byte. */
        void fill() throws IOException {
            buf.compact();
            if (!buf.hasRemaining()) {
                grow();
            }
            int n = in.read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
            if (n < 0) {
                throw new IOException("server closed the connection");
            }
            buf.position(buf.position() + n);
            buf.flip();
        }

        /** Non-blocking: reads what is there; false if nothing was. */
        boolean readSome() throws IOException {
            buf.compact();
            if (!buf.hasRemaining()) {
                grow();
            }
            int n = channel.read(buf);
            buf.flip();
            if (n < 0) {
                throw new IOException("server closed the connection");
            }
            return n > 0;
        }

        private void grow() {
            ByteBuffer b = ByteBuffer.allocate(buf.capacity() * 2);
            buf.flip();
            b.put(buf);
            buf = b;
        }

        /**
         * Consumes complete messages of the current reply; true once its ReadyForQuery was consumed (the rows are
         * then in the arena), false when more bytes are needed.
         */
        boolean parse() throws IOException {
            byte[] a = buf.array();
            while (buf.remaining() >= 5) {
                int p = buf.position();
                byte type = a[p];
                int len = int32(a, p + 1);
                if (buf.remaining() < 1 + len) {
                    return false;
                }
                int body = p + 5;
                switch (type) {
                    case '2' -> { // BindComplete: a new reply starts
                        rows = 0;
                        arenaUsed = 0;
                    }
                    case 'D' -> row(a, body, len - 4);
                    case 'C', 'N', 'S' -> { }
                    case 'Z' -> {
                        buf.position(p + 1 + len);
                        return true;
                    }
                    case 'E' -> throw new IOException("server error: " + new String(a, body, len - 4,
                            StandardCharsets.UTF_8).replace('\0', ' '));
                    default -> throw new IOException("unexpected message " + (char) type);
                }
                buf.position(p + 1 + len);
            }
            return false;
        }

        /** A DataRow: its bytes copied into the arena, each column's place noted (what a pooled view would keep). */
        private void row(byte[] a, int body, int len) {
            if (arenaUsed + len > arena.length) {
                arena = java.util.Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + len));
            }
            System.arraycopy(a, body, arena, arenaUsed, len);
            int p = arenaUsed + 2;
            int nf = ((arena[arenaUsed] & 0xff) << 8) | (arena[arenaUsed + 1] & 0xff);
            int base = rows * 16;
            if (base + nf > colOff.length) {
                colOff = java.util.Arrays.copyOf(colOff, colOff.length * 2);
                colLen = java.util.Arrays.copyOf(colLen, colLen.length * 2);
            }
            for (int f = 0; f < nf; f++) {
                int l = int32(arena, p);
                p += 4;
                colOff[base + f] = p;
                colLen[base + f] = l;
                if (l == 4) {
                    sink += int32(arena, p); // an int column (binary), as the id or a count is read
                }
                if (l > 0) {
                    p += l;
                }
            }
            arenaUsed += len;
            rows++;
        }

        private void expectReady() throws IOException {
            while (true) {
                while (buf.remaining() < 5 || buf.remaining() < 1 + int32(buf.array(), buf.position() + 1)) {
                    fill();
                }
                int p = buf.position();
                byte type = buf.array()[p];
                int len = int32(buf.array(), p + 1);
                buf.position(p + 1 + len);
                if (type == 'Z') {
                    return;
                }
                if (type == 'E') {
                    throw new IOException("server error: " + new String(buf.array(), p + 5, len - 4,
                            StandardCharsets.UTF_8).replace('\0', ' '));
                }
            }
        }

        /** Startup and authentication: trust, MD5 or SCRAM-SHA-256 (RFC 5802 / 7677). */
        private void startup() throws IOException {
            byte[] params = ("user\0" + user + "\0database\0" + db + "\0client_encoding\0UTF8\0\0")
                    .getBytes(StandardCharsets.UTF_8);
            ByteBuffer s = ByteBuffer.allocate(8 + params.length).putInt(8 + params.length).putInt(196608)
                    .put(params);
            writeAll(s.array());
            String clientFirstBare = null, serverFirst = null;
            byte[] saltedPassword = null;
            while (true) {
                while (buf.remaining() < 5 || buf.remaining() < 1 + int32(buf.array(), buf.position() + 1)) {
                    fill();
                }
                byte[] a = buf.array();
                int p = buf.position();
                byte type = a[p];
                int len = int32(a, p + 1);
                buf.position(p + 1 + len);
                if (type == 'E') {
                    throw new IOException("server error: " + new String(a, p + 5, len - 4, StandardCharsets.UTF_8)
                            .replace('\0', ' '));
                }
                if (type == 'Z') {
                    return;
                }
                if (type != 'R') {
                    continue;
                }
                int code = int32(a, p + 5);
                try {
                    switch (code) {
                        case 0 -> { }
                        case 3 -> writeAll(new Msg('p').cstr(password).done());
                        case 5 -> {
                            byte[] salt = java.util.Arrays.copyOfRange(a, p + 9, p + 13);
                            String inner = hex(md5((password + user).getBytes(StandardCharsets.UTF_8)));
                            byte[] x = (inner).getBytes(StandardCharsets.UTF_8);
                            byte[] y = new byte[x.length + 4];
                            System.arraycopy(x, 0, y, 0, x.length);
                            System.arraycopy(salt, 0, y, x.length, 4);
                            writeAll(new Msg('p').cstr("md5" + hex(md5(y))).done());
                        }
                        case 10 -> {
                            byte[] nonce = new byte[18];
                            new SecureRandom().nextBytes(nonce);
                            clientFirstBare = "n=,r=" + Base64.getEncoder().encodeToString(nonce);
                            byte[] first = ("n,," + clientFirstBare).getBytes(StandardCharsets.UTF_8);
                            writeAll(new Msg('p').cstr("SCRAM-SHA-256").i32(first.length).bytes(first).done());
                        }
                        case 11 -> {
                            serverFirst = new String(a, p + 9, len - 8, StandardCharsets.UTF_8);
                            String r = null, salt = null;
                            int iterations = 0;
                            for (String kv : serverFirst.split(",")) {
                                switch (kv.charAt(0)) {
                                    case 'r' -> r = kv.substring(2);
                                    case 's' -> salt = kv.substring(2);
                                    case 'i' -> iterations = Integer.parseInt(kv.substring(2));
                                    default -> { }
                                }
                            }
                            SecretKeyFactory f = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
                            saltedPassword = f.generateSecret(new PBEKeySpec(password.toCharArray(),
                                    Base64.getDecoder().decode(salt), iterations, 256)).getEncoded();
                            byte[] clientKey = hmac(saltedPassword, "Client Key");
                            byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
                            String withoutProof = "c=biws,r=" + r;
                            String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
                            byte[] signature = hmac(storedKey, authMessage);
                            for (int i = 0; i < clientKey.length; i++) {
                                clientKey[i] ^= signature[i];
                            }
                            byte[] fin = (withoutProof + ",p=" + Base64.getEncoder().encodeToString(clientKey))
                                    .getBytes(StandardCharsets.UTF_8);
                            writeAll(new Msg('p').bytes(fin).done());
                        }
                        case 12 -> { } // SASL final: the server's signature (not checked by a measurement tool)
                        default -> throw new IOException("authentication method " + code + " not supported");
                    }
                } catch (java.security.GeneralSecurityException e) {
                    throw new IOException(e);
                }
            }
        }
    }

    static byte[] hmac(byte[] key, String msg) throws java.security.GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(msg.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] md5(byte[] b) throws java.security.GeneralSecurityException {
        return MessageDigest.getInstance("MD5").digest(b);
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }

    static int int32(byte[] a, int p) {
        return ((a[p] & 0xff) << 24) | ((a[p + 1] & 0xff) << 16) | ((a[p + 2] & 0xff) << 8) | (a[p + 3] & 0xff);
    }

    /** A frontend message being built: type byte, length, body; {@link #then} appends another. */
    static final class Msg {
        private final java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        private final java.io.ByteArrayOutputStream prefix = new java.io.ByteArrayOutputStream();
        private final char type;

        Msg(char type) {
            this.type = type;
        }

        Msg b(int v) { b.write(v); return this; }
        Msg i16(int v) { b.write(v >>> 8); b.write(v); return this; }
        Msg i32(int v) { return i16(v >>> 16).i16(v & 0xffff); }
        Msg bytes(byte[] v) { b.writeBytes(v); return this; }
        Msg cstr(String s) { return bytes(s.getBytes(StandardCharsets.UTF_8)).b(0); }

        Msg then(Msg next) {
            next.prefix.writeBytes(done());
            return next;
        }

        byte[] done() {
            byte[] body = b.toByteArray();
            ByteBuffer m = ByteBuffer.allocate(prefix.size() + 5 + body.length);
            m.put(prefix.toByteArray()).put((byte) type).putInt(4 + body.length).put(body);
            return m.array();
        }
    }
}
