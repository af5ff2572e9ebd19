package org.bgbench.store.relational.net;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A connection over a Unix domain socket to a server on this machine (PostgreSQL listens on {@code
 * <unix_socket_directories>/.s.PGSQL.<port>}). Over loopback TCP the system call that sends a request also runs the
 * server's side of TCP; a Unix socket has no TCP, and a small query costs its client about half the CPU (pgbench's,
 * measured in docs/benchmarks.md, issue 20). Not thread-safe: one reader, one writer.
 *
 * <p>A read waits for the reply in {@code epoll}, not in a blocking {@code read}: Linux wakes a thread blocked in a
 * Unix socket's read also when the peer takes the request off the socket (the sender's buffer space comes back, and
 * readers and writers wait on one queue), so every reply cost its member two wake-ups; {@code epoll} is woken only for
 * what it waits for (docs/benchmarks.md, issue 20, has the counts). The channel is non-blocking and registered with
 * the connection's own selector; a wait is bounded by the read timeout (at least a second), past which the connection
 * is closed and the read fails with a {@link SocketTimeoutException}.
 *
 * <p>A virtual thread does not wait in a selector: the JDK parks it on the selector's own
 * epoll descriptor through its poller, one more descriptor, wake-up and {@code epoll_wait} per reply (BG's CPU per
 * action in the high mix at T = 64: 41 µs, against 15–18 over TCP). On the first read or write by a virtual thread the
 * connection drops its selectors and blocks in the channel, where the JDK parks the thread on the socket itself, as
 * for a TCP socket; the read timeout is then enforced by {@link BufferedSocketFactory}'s watchdog, which closes the
 * connection.
 */
public final class LocalSocket implements Closeable, BufferedSocketFactory.Watched.Owner {
    private final SocketChannel channel;
    private final Selector readable;
    /** The JDK's stream over the channel, for {@code available()} only (its reads need a blocking channel). */
    private final InputStream pending;
    private final InputStream in;
    private final OutputStream out;
    /** The watchdog's, once reads block in the channel; unused before (it cannot wake a thread waiting in epoll). */
    private final BufferedSocketFactory.Deadline deadline = new BufferedSocketFactory.Deadline(this::closeQuietly);
    /** Whether the channel blocks (a virtual thread uses the connection) rather than wait in the selectors. */
    private volatile boolean blocking;
    /** The read timeout in milliseconds; 0 is none. */
    private volatile int timeout;
    /** Selects for writing, made on the first write that finds the socket's buffer full. */
    private Selector writable;

    private LocalSocket(SocketChannel channel) throws IOException {
        this.channel = channel;
        channel.configureBlocking(false);
        this.readable = Selector.open();
        try {
            channel.register(readable, SelectionKey.OP_READ);
        } catch (IOException | RuntimeException e) {
            readable.close();
            throw e;
        }
        this.pending = Channels.newInputStream(channel);
        this.in = new BufferedSocketFactory.Watched(new Input(), this);
        this.out = new Output();
        BufferedSocketFactory.Watchdog.watch(deadline);
    }

    /** On a virtual thread, makes the channel block from now on (see the class comment); not undone. */
    private void blockOnVirtualThreads() throws IOException {
        if (blocking || !Thread.currentThread().isVirtual()) {
            return;
        }
        // Closing a selector deregisters the channel from it, which blocking mode requires.
        readable.close();
        Selector w = writable;
        if (w != null) {
            w.close();
        }
        channel.configureBlocking(true);
        blocking = true;
    }

    /** Connects to the socket file {@code path} (a Unix socket connects at once or fails: no connect timeout). */
    public static LocalSocket connect(Path path) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(path));
            return new LocalSocket(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    public InputStream getInputStream() {
        return in;
    }

    public OutputStream getOutputStream() {
        return out;
    }

    /**
     * How long a read may wait, in milliseconds, 0 for ever; past it the connection is closed and the read fails with
     * a {@link java.net.SocketTimeoutException}. A timeout below a second is kept as a second, as on {@link
     * BufferedSocketFactory}'s sockets.
     */
    public void setSoTimeout(int millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout can't be negative");
        }
        timeout = millis == 0 ? 0 : Math.max(millis, BufferedSocketFactory.WATCHED_MIN_MILLIS);
    }

    @Override
    public int watchedMillis() {
        return blocking ? timeout : 0;
    }

    @Override
    public boolean peeking() {
        return false;
    }

    @Override
    public BufferedSocketFactory.Deadline deadline() {
        return deadline;
    }

    public boolean isClosed() {
        return !channel.isOpen();
    }

    /** Whether the connection blocks in its channel since a virtual thread used it (for tests). */
    boolean blocksInChannel() {
        return blocking;
    }

    @Override
    public void close() throws IOException {
        BufferedSocketFactory.Watchdog.forget(deadline);
        try {
            channel.close();
        } finally {
            readable.close();
            Selector w = writable;
            if (w != null) {
                w.close();
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // Closing fails only if the channel is already closed.
        }
    }

    /**
     * Waits in {@code selector} until the channel is ready, or fails once {@code deadline} ({@link System#nanoTime()},
     * 0 for none) has passed, closing the connection first. A close by another thread ends the wait with an {@link
     * AsynchronousCloseException}.
     */
    private void await(Selector selector, long deadline) throws IOException {
        long millis = 0;
        if (deadline != 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                closeQuietly();
                throw new SocketTimeoutException("Read timed out");
            }
            millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)); // 0 would be "for ever"
        }
        try {
            selector.select(k -> { }, millis);
        } catch (ClosedSelectorException e) {
            throw new AsynchronousCloseException();
        }
    }

    /** The deadline of a read starting now, 0 when reads have no timeout. */
    private long deadlineFromNow() {
        int t = timeout;
        if (t == 0) {
            return 0;
        }
        long d = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(t);
        return d == 0 ? 1 : d;
    }

    /** The socket's input: waits in epoll first (a reply is seldom there the instant its request went out). */
    private final class Input extends InputStream {
        private final byte[] one = new byte[1];
        /** The last array read into and a buffer over it: PgWire reads into one array for many replies. */
        private byte[] wrappedArray;
        private ByteBuffer wrapped;

        @Override
        public int read() throws IOException {
            int n;
            do {
                n = read(one, 0, 1);
            } while (n == 0);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (b != wrappedArray) {
                wrappedArray = b;
                wrapped = ByteBuffer.wrap(b);
            }
            ByteBuffer bb = wrapped;
            bb.clear().limit(off + len).position(off);
            blockOnVirtualThreads();
            if (blocking) {
                return channel.read(bb);
            }
            long deadline = deadlineFromNow();
            while (true) {
                await(readable, deadline);
                int n = channel.read(bb);
                if (n != 0) {
                    return n;
                }
            }
        }

        @Override
        public int available() throws IOException {
            return pending.available();
        }

        @Override
        public void close() throws IOException {
            LocalSocket.this.close();
        }
    }

    /** The socket's output: writes all, waiting in epoll when the socket's buffer is full. */
    private final class Output extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            ByteBuffer bb = ByteBuffer.wrap(b, off, len);
            blockOnVirtualThreads();
            while (bb.hasRemaining()) {
                if (channel.write(bb) == 0 && !blocking) {
                    if (writable == null) {
                        writable = Selector.open();
                        channel.register(writable, SelectionKey.OP_WRITE);
                    }
                    try {
                        writable.select(k -> { }, 0);
                    } catch (ClosedSelectorException e) {
                        throw new AsynchronousCloseException();
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            LocalSocket.this.close();
        }
    }
}
