package org.bgbench.store.relational.net;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;

/**
 * A {@code socketFactory} for JDBC drivers: plain TCP sockets whose long timeouts a watchdog enforces, so that the
 * socket stays in blocking mode, with (this class) or without ({@link Unbuffered}) a 64 KiB read-ahead buffer.
 *
 * <p>pgJDBC reads its socket through an 8 KiB buffer, so a List Friends reply (about 28 KiB: 100 rows of 13 columns)
 * took four or five read system calls; behind this buffer it takes one or two, whatever has arrived. MariaDB's
 * Connector/J buffers 16 KiB itself and takes {@link Unbuffered}.
 *
 * <p>A JDK socket switches its descriptor to non-blocking mode the first time a connect or read has a timeout, and
 * never back: from then on every reply costs a read that fails with {@code EAGAIN}, a {@code poll} and a second read,
 * three system calls where a blocking socket makes one (BG's sessions always have a read timeout, and the drivers
 * connect with one). So timeouts of at least {@link #WATCHED_MIN_MILLIS} are not handed to the JDK: the socket
 * records the deadline of the connect or read under way and a watchdog thread closes the socket once it has passed,
 * which the blocked call reports as a {@link SocketTimeoutException}, up to {@link Watchdog#PERIOD_MS} late. Such a
 * timeout leaves the socket closed, where the JDK's leaves it usable; the drivers treat a timed-out query as a lost
 * connection anyway. Shorter timeouts, which pgJDBC uses to peek for a pending message (1 ms, during COPY) and
 * expects to expire with the connection intact, go to the JDK as on any socket. TLS is layered on top of this socket
 * and closing works as on any socket.
 */
public class BufferedSocketFactory extends SocketFactory {
    /** Enough for the largest reply of BG's actions in one read, small enough to cost nothing per connection. */
    static final int BUFFER = 64 * 1024;
    /** The shortest timeout the watchdog enforces: twenty of its periods, so it fires at most 5 % late. */
    static final int WATCHED_MIN_MILLIS = 1_000;

    private final boolean buffered;

    public BufferedSocketFactory() {
        this(true);
    }

    private BufferedSocketFactory(boolean buffered) {
        this.buffered = buffered;
    }

    /** The same sockets without the read-ahead buffer, for a driver that buffers its reads itself. */
    public static final class Unbuffered extends BufferedSocketFactory {
        public Unbuffered() {
            super(false);
        }
    }

    @Override
    public Socket createSocket() {
        return new BufferedSocket(buffered);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = new BufferedSocket(buffered);
        s.bind(new InetSocketAddress(localHost, localPort));
        s.connect(new InetSocketAddress(host, port));
        return s;
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        Socket s = new BufferedSocket(buffered);
        s.bind(new InetSocketAddress(localAddress, localPort));
        s.connect(new InetSocketAddress(address, port));
        return s;
    }

    private Socket connected(InetSocketAddress to) throws IOException {
        Socket s = new BufferedSocket(buffered);
        s.connect(to);
        return s;
    }

    /** A socket whose long timeouts are watched, and whose input stream is buffered once, for its whole life. */
    static final class BufferedSocket extends Socket implements Watched.Owner {
        private final boolean buffered;
        private InputStream in;
        private final Deadline deadline = new Deadline(this::closeQuietly);
        /** The read timeout as the driver set it, in milliseconds; 0 is none. The JDK holds it if it is short. */
        private volatile int timeout;

        BufferedSocket(boolean buffered) {
            this.buffered = buffered;
            Watchdog.watch(deadline);
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = buffered ? new ReadAhead(super.getInputStream(), this) : new Watched(super.getInputStream(), this);
            }
            return in;
        }

        @Override
        public synchronized void setSoTimeout(int millis) throws SocketException {
            if (millis < 0) {
                throw new IllegalArgumentException("timeout can't be negative");
            }
            if (isClosed()) {
                throw new SocketException("Socket is closed");
            }
            boolean shortOne = isShort(millis);
            if (shortOne || isShort(timeout)) {
                // The JDK gets a short timeout, and loses the one it held when the new one is not short.
                super.setSoTimeout(shortOne ? millis : 0);
            }
            timeout = millis;
        }

        /** A timeout too short for the watchdog: the JDK enforces it. */
        private static boolean isShort(int millis) {
            return millis > 0 && millis < WATCHED_MIN_MILLIS;
        }

        @Override
        public synchronized int getSoTimeout() throws SocketException {
            if (isClosed()) {
                throw new SocketException("Socket is closed");
            }
            return timeout;
        }

        @Override
        public void connect(SocketAddress endpoint, int millis) throws IOException {
            long d = millis > 0 ? begin(millis) : 0;
            try {
                super.connect(endpoint, millis > 0 ? 0 : millis);
            } catch (IOException | RuntimeException e) {
                // A socket that failed to connect is of no further use: closed, it leaves the watchdog's list.
                boolean late = millis > 0 && end(d);
                if (!isConnected()) {
                    closeQuietly();
                }
                if (late && e instanceof IOException io) {
                    throw timedOut("Connect timed out", io);
                }
                throw e;
            }
            if (millis > 0 && end(d)) {
                throw new SocketTimeoutException("Connect timed out");
            }
        }

        @Override
        public void close() throws IOException {
            Watchdog.forget(deadline);
            super.close();
        }

        /** The timeout the watchdog is to enforce on the next read: 0 when there is none or the JDK holds it. */
        @Override
        public int watchedMillis() {
            int t = timeout;
            return t >= WATCHED_MIN_MILLIS ? t : 0;
        }

        /** Whether the driver set a timeout too short to be a wait for a reply (pgJDBC's 1 ms peek during COPY). */
        @Override
        public boolean peeking() {
            return isShort(timeout);
        }

        @Override
        public Deadline deadline() {
            return deadline;
        }

        long begin(int millis) {
            return deadline.begin(millis);
        }

        boolean end(long d) {
            return deadline.end(d);
        }

        private void closeQuietly() {
            try {
                close();
            } catch (IOException e) {
                // Closing fails only if the socket is already closed: the call ends either way.
            }
        }

    }

    static SocketTimeoutException timedOut(String message, IOException cause) {
        SocketTimeoutException e = new SocketTimeoutException(message);
        e.initCause(cause);
        return e;
    }

    /**
     * The deadline of the connect or read under way on one connection, which the {@link Watchdog} enforces by closing
     * the connection once it has passed.
     */
    static final class Deadline {
        private static final VarHandle AT;
        /** The deadline's value once the watchdog has closed the connection for passing it. */
        private static final long EXPIRED = Long.MIN_VALUE;

        static {
            try {
                AT = MethodHandles.lookup().findVarHandle(Deadline.class, "at", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** {@link System#nanoTime()} by which the call under way must end; 0 when none is watched. */
        private volatile long at;
        /** Closes the connection, quietly. */
        private final Runnable close;

        Deadline(Runnable close) {
            this.close = close;
        }

        /** Starts watching a call that must end within {@code millis}; returns its deadline for {@link #end}. */
        long begin(int millis) {
            long d = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            if (d == 0 || d == EXPIRED) {
                d++;
            }
            at = d;
            return d;
        }

        /** Stops watching; true if the watchdog closed the connection because the call outlived its deadline. */
        boolean end(long d) {
            return !AT.compareAndSet(this, d, 0L);
        }

        /** Closes the connection if its watched call has passed its deadline at {@code now}; false if it has not. */
        boolean expireIfLate(long now) {
            long d = at;
            if (d == 0 || d == EXPIRED || now - d < 0 || !AT.compareAndSet(this, d, EXPIRED)) {
                return false;
            }
            close.run();
            return true;
        }
    }

    /**
     * One daemon thread for every socket of the process: every {@link #PERIOD_MS} it closes the sockets whose watched
     * call has passed its deadline. A socket is on its list from creation to close, so a call costs two writes of a
     * field and a clock read, nothing more.
     */
    static final class Watchdog {
        static final long PERIOD_MS = 50;
        private static final Set<Deadline> SOCKETS = ConcurrentHashMap.newKeySet();

        static {
            Thread.ofPlatform().daemon().name("bg-socket-watchdog").start(Watchdog::run);
        }

        private Watchdog() {
        }

        static void watch(Deadline s) {
            SOCKETS.add(s);
        }

        static void forget(Deadline s) {
            SOCKETS.remove(s);
        }

        private static void run() {
            while (true) {
                try {
                    Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                for (Deadline s : SOCKETS) {
                    s.expireIfLate(now);
                }
            }
        }
    }

    /** One read of {@code socket}, which the watchdog ends if it outlives {@code owner}'s timeout (none if null). */
    static int watchedRead(InputStream socket, Watched.Owner owner, byte[] b, int off, int len) throws IOException {
        int millis = owner == null ? 0 : owner.watchedMillis();
        if (millis == 0) {
            return socket.read(b, off, len);
        }
        Deadline deadline = owner.deadline();
        long d = deadline.begin(millis);
        int n;
        try {
            n = socket.read(b, off, len);
        } catch (IOException e) {
            throw deadline.end(d) ? timedOut("Read timed out", e) : e;
        }
        if (deadline.end(d)) {
            // The data came as the deadline passed and the watchdog closed the socket: it timed out all the same.
            throw new SocketTimeoutException("Read timed out");
        }
        return n;
    }

    /** The socket's own input with its reads watched, nothing else. */
    static final class Watched extends InputStream {
        /** A connection whose reads are watched: its timeout and deadline. */
        interface Owner {
            /** The timeout the watchdog is to enforce on the next read: 0 when there is none or the JDK holds it. */
            int watchedMillis();

            /** Whether the timeout is too short to be a wait for a reply: no hand-off before such a read. */
            boolean peeking();

            Deadline deadline();
        }

        private final InputStream socket;
        private final Owner owner;
        private final byte[] one = new byte[1];

        Watched(InputStream socket, Owner owner) {
            this.socket = socket;
            this.owner = owner;
        }

        @Override
        public int read() throws IOException {
            int n;
            do {
                n = watchedRead(socket, owner, one, 0, 1);
            } while (n == 0);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            return len == 0 ? 0 : watchedRead(socket, owner, b, off, len);
        }

        @Override
        public int available() throws IOException {
            return socket.available();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /**
     * Serves reads from a buffer that one read of the socket fills with whatever has arrived, up to {@link #BUFFER}.
     * Unlike {@link java.io.BufferedInputStream}, a short read returns what the buffer holds instead of asking the
     * socket how much more is available (an ioctl system call per read). Not thread-safe: one connection, one reader.
     */
    static final class ReadAhead extends InputStream {
        private final InputStream socket;
        /** The socket whose watched timeout bounds each read; null when reads are not timed here (tests). */
        private final Watched.Owner owner;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        private int end;

        ReadAhead(InputStream socket) {
            this(socket, null);
        }

        ReadAhead(InputStream socket, Watched.Owner owner) {
            this.socket = socket;
            this.owner = owner;
        }

        private int readSocket(byte[] b, int off, int len) throws IOException {
            return watchedRead(socket, owner, b, off, len);
        }

        /** Refills the empty buffer with one read; false at the end of the stream. */
        private boolean fill() throws IOException {
            int n = readSocket(buf, 0, buf.length);
            if (n <= 0) {
                return false;
            }
            pos = 0;
            end = n;
            return true;
        }

        @Override
        public int read() throws IOException {
            if (pos == end && !fill()) {
                return -1;
            }
            return buf[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (pos == end) {
                if (len >= buf.length) {
                    // A read as large as the buffer gains nothing from it.
                    return readSocket(b, off, len);
                }
                if (!fill()) {
                    return -1;
                }
            }
            int n = Math.min(len, end - pos);
            System.arraycopy(buf, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() throws IOException {
            return end - pos > 0 ? end - pos : socket.available();
        }

        @Override
        public long skip(long n) throws IOException {
            if (n <= 0) {
                return 0;
            }
            if (pos == end && !fill()) {
                return 0;
            }
            int k = (int) Math.min(n, end - pos);
            pos += k;
            return k;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
