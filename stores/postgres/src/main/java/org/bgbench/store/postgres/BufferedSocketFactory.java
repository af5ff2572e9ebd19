package org.bgbench.store.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * pgJDBC's {@code socketFactory}: plain TCP sockets whose input is read in 64 KiB gulps. pgJDBC reads its socket
 * through an 8 KiB buffer, so a List Friends reply (about 28 KiB: 100 rows of 13 columns) took four or five read
 * system calls; behind this buffer it takes one or two, whatever has arrived. Nothing else changes: timeouts, TLS
 * (layered on top of this socket) and closing work as on any socket.
 */
public final class BufferedSocketFactory extends SocketFactory {
    /** Enough for the largest reply of BG's actions in one read, small enough to cost nothing per connection. */
    static final int BUFFER = 64 * 1024;

    @Override
    public Socket createSocket() {
        return new BufferedSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        Socket s = new BufferedSocket();
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
        Socket s = new BufferedSocket();
        s.bind(new InetSocketAddress(localAddress, localPort));
        s.connect(new InetSocketAddress(address, port));
        return s;
    }

    private static Socket connected(InetSocketAddress to) throws IOException {
        Socket s = new BufferedSocket();
        s.connect(to);
        return s;
    }

    /** A socket whose input stream is buffered once, for its whole life. */
    static final class BufferedSocket extends Socket {
        private InputStream in;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new ReadAhead(super.getInputStream());
            }
            return in;
        }
    }

    /**
     * Serves reads from a buffer that one read of the socket fills with whatever has arrived, up to {@link #BUFFER}.
     * Unlike {@link java.io.BufferedInputStream}, a short read returns what the buffer holds instead of asking the
     * socket how much more is available (an ioctl system call per read). Not thread-safe: one connection, one reader.
     */
    static final class ReadAhead extends InputStream {
        private final InputStream socket;
        private final byte[] buf = new byte[BUFFER];
        private int pos;
        private int end;

        ReadAhead(InputStream socket) {
            this.socket = socket;
        }

        /** Refills the empty buffer with one read; false at the end of the stream. */
        private boolean fill() throws IOException {
            int n = socket.read(buf, 0, buf.length);
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
                    return socket.read(b, off, len);
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
            if (pos < end) {
                int k = (int) Math.min(n, end - pos);
                pos += k;
                return k;
            }
            return socket.skip(n);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
