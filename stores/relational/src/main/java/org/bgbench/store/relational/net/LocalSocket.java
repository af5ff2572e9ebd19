package org.bgbench.store.relational.net;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A connection over a Unix domain socket to a server on this machine (PostgreSQL listens on {@code
 * <unix_socket_directories>/.s.PGSQL.<port>}), read as {@link BufferedSocketFactory}'s sockets are: blocking reads
 * without read-ahead, a read timeout of at least a second that the watchdog enforces by closing the connection, and a
 * hand-off ({@link org.bgbench.store.ReplyWait}) before each wait for a reply. Over loopback TCP the system call that
 * sends a request also runs the server's side of TCP; a Unix socket has no TCP, and a small query costs its client
 * about half the CPU (pgbench's, measured in docs/benchmarks.md, issue 20). Not thread-safe: one reader, one writer.
 */
public final class LocalSocket implements Closeable, BufferedSocketFactory.Watched.Owner {
    private final SocketChannel channel;
    private final InputStream in;
    private final OutputStream out;
    private final BufferedSocketFactory.Deadline deadline = new BufferedSocketFactory.Deadline(this::closeQuietly);
    /** The read timeout in milliseconds; 0 is none. */
    private volatile int timeout;

    private LocalSocket(SocketChannel channel) {
        this.channel = channel;
        this.in = new BufferedSocketFactory.Watched(Channels.newInputStream(channel), this);
        this.out = Channels.newOutputStream(channel);
        BufferedSocketFactory.Watchdog.watch(deadline);
    }

    /** Connects to the socket file {@code path} (a Unix socket connects at once or fails: no connect timeout). */
    public static LocalSocket connect(Path path) throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(path));
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new LocalSocket(ch);
    }

    public InputStream getInputStream() {
        return in;
    }

    public OutputStream getOutputStream() {
        return out;
    }

    /**
     * How long a read may wait, in milliseconds, 0 for ever; past it the connection is closed and the read fails with
     * a {@link java.net.SocketTimeoutException}, up to the watchdog's period late. A timeout below a second is kept as
     * a second: the watchdog would keep it only roughly.
     */
    public void setSoTimeout(int millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("timeout can't be negative");
        }
        timeout = millis == 0 ? 0 : Math.max(millis, BufferedSocketFactory.WATCHED_MIN_MILLIS);
    }

    @Override
    public int watchedMillis() {
        return timeout;
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

    @Override
    public void close() throws IOException {
        BufferedSocketFactory.Watchdog.forget(deadline);
        channel.close();
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // Closing fails only if the channel is already closed: the read ends either way.
        }
    }
}
