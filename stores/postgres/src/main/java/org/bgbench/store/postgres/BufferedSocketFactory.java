package org.bgbench.store.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.util.Set;
import javax.net.SocketFactory;

/**
 * pgJDBC's {@code socketFactory}: plain TCP sockets that stay in blocking mode and whose input is read in 64 KiB gulps.
 *
 * <p><b>Blocking mode.</b> A {@link Socket} of the JDK switches its file descriptor to non-blocking mode the first time
 * a connect or read has a timeout, and never back: pgJDBC connects with {@code connectTimeout} and HikariCP sets a
 * network timeout while it sets a connection up, so every later read of a reply was a {@code read} that failed with
 * {@code EAGAIN}, a {@code poll} that waited, and a second {@code read}: three system calls where one does. These
 * sockets are a {@link SocketChannel}'s, which puts its descriptor back into blocking mode after each timed connect or
 * read: a member's reply is then one {@code read} that sleeps in the kernel until the reply arrives. Timeouts behave
 * as on any socket (a timed-out read throws {@link java.net.SocketTimeoutException} and the socket stays usable).
 * Virtual threads are unaffected: the JDK parks them on a non-blocking descriptor in either kind of socket.
 *
 * <p><b>Read-ahead.</b> pgJDBC reads its socket through an 8 KiB buffer, so a List Friends reply (about 28 KiB: 100
 * rows of 13 columns) took four or five read system calls; behind this buffer it takes one or two, whatever has
 * arrived. Nothing else changes: TLS (layered on top of this socket), options and closing work as on any socket.
 */
public final class BufferedSocketFactory extends SocketFactory {
    /** Enough for the largest reply of BG's actions in one read, small enough to cost nothing per connection. */
    static final int BUFFER = 64 * 1024;

    @Override
    public Socket createSocket() throws IOException {
        return new BufferedSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    private static Socket connected(InetSocketAddress to, InetSocketAddress local) throws IOException {
        Socket s = new BufferedSocket();
        try {
            if (local != null) {
                s.bind(local);
            }
            s.connect(to);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * A socket that is a {@link SocketChannel}'s socket in every respect but its input stream, which is buffered once
     * for the socket's whole life. Every method hands over to the channel's socket; this object's own state is unused.
     */
    static final class BufferedSocket extends Socket {
        private final Socket channel;
        private InputStream in;

        BufferedSocket() throws IOException {
            this.channel = SocketChannel.open().socket();
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new ReadAhead(channel.getInputStream());
            }
            return in;
        }

        @Override
        public OutputStream getOutputStream() throws IOException {
            return channel.getOutputStream();
        }

        @Override
        public SocketChannel getChannel() {
            return channel.getChannel();
        }

        @Override
        public void connect(SocketAddress endpoint) throws IOException {
            channel.connect(endpoint);
        }

        @Override
        public void connect(SocketAddress endpoint, int timeout) throws IOException {
            channel.connect(endpoint, timeout);
        }

        @Override
        public void bind(SocketAddress bindpoint) throws IOException {
            channel.bind(bindpoint);
        }

        @Override
        public InetAddress getInetAddress() {
            return channel.getInetAddress();
        }

        @Override
        public InetAddress getLocalAddress() {
            return channel.getLocalAddress();
        }

        @Override
        public int getPort() {
            return channel.getPort();
        }

        @Override
        public int getLocalPort() {
            return channel.getLocalPort();
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return channel.getRemoteSocketAddress();
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return channel.getLocalSocketAddress();
        }

        @Override
        public void setTcpNoDelay(boolean on) throws java.net.SocketException {
            channel.setTcpNoDelay(on);
        }

        @Override
        public boolean getTcpNoDelay() throws java.net.SocketException {
            return channel.getTcpNoDelay();
        }

        @Override
        public void setSoLinger(boolean on, int linger) throws java.net.SocketException {
            channel.setSoLinger(on, linger);
        }

        @Override
        public int getSoLinger() throws java.net.SocketException {
            return channel.getSoLinger();
        }

        @Override
        public void sendUrgentData(int data) throws IOException {
            channel.sendUrgentData(data);
        }

        @Override
        public void setOOBInline(boolean on) throws java.net.SocketException {
            channel.setOOBInline(on);
        }

        @Override
        public boolean getOOBInline() throws java.net.SocketException {
            return channel.getOOBInline();
        }

        @Override
        public void setSoTimeout(int timeout) throws java.net.SocketException {
            channel.setSoTimeout(timeout);
        }

        @Override
        public int getSoTimeout() throws java.net.SocketException {
            return channel.getSoTimeout();
        }

        @Override
        public void setSendBufferSize(int size) throws java.net.SocketException {
            channel.setSendBufferSize(size);
        }

        @Override
        public int getSendBufferSize() throws java.net.SocketException {
            return channel.getSendBufferSize();
        }

        @Override
        public void setReceiveBufferSize(int size) throws java.net.SocketException {
            channel.setReceiveBufferSize(size);
        }

        @Override
        public int getReceiveBufferSize() throws java.net.SocketException {
            return channel.getReceiveBufferSize();
        }

        @Override
        public void setKeepAlive(boolean on) throws java.net.SocketException {
            channel.setKeepAlive(on);
        }

        @Override
        public boolean getKeepAlive() throws java.net.SocketException {
            return channel.getKeepAlive();
        }

        @Override
        public void setTrafficClass(int tc) throws java.net.SocketException {
            channel.setTrafficClass(tc);
        }

        @Override
        public int getTrafficClass() throws java.net.SocketException {
            return channel.getTrafficClass();
        }

        @Override
        public void setReuseAddress(boolean on) throws java.net.SocketException {
            channel.setReuseAddress(on);
        }

        @Override
        public boolean getReuseAddress() throws java.net.SocketException {
            return channel.getReuseAddress();
        }

        @Override
        public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
            channel.setPerformancePreferences(connectionTime, latency, bandwidth);
        }

        @Override
        public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
            channel.setOption(name, value);
            return this;
        }

        @Override
        public <T> T getOption(SocketOption<T> name) throws IOException {
            return channel.getOption(name);
        }

        @Override
        public Set<SocketOption<?>> supportedOptions() {
            return channel.supportedOptions();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }

        @Override
        public void shutdownInput() throws IOException {
            channel.shutdownInput();
        }

        @Override
        public void shutdownOutput() throws IOException {
            channel.shutdownOutput();
        }

        @Override
        public boolean isConnected() {
            return channel.isConnected();
        }

        @Override
        public boolean isBound() {
            return channel.isBound();
        }

        @Override
        public boolean isClosed() {
            return channel.isClosed();
        }

        @Override
        public boolean isInputShutdown() {
            return channel.isInputShutdown();
        }

        @Override
        public boolean isOutputShutdown() {
            return channel.isOutputShutdown();
        }

        @Override
        public String toString() {
            return channel.toString();
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
