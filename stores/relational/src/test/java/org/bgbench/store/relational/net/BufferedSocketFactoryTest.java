package org.bgbench.store.relational.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BufferedSocketFactoryTest {
    /** A source that hands out at most {@code chunk} bytes per read and counts its reads. */
    private static final class Source extends InputStream {
        final byte[] data;
        final int chunk;
        int pos;
        int reads;

        Source(byte[] data, int chunk) {
            this.data = data;
            this.chunk = chunk;
        }

        @Override
        public int read() {
            throw new AssertionError("the buffer reads in blocks");
        }

        @Override
        public int read(byte[] b, int off, int len) {
            reads++;
            if (pos == data.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, chunk), data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void readsOfAnySizeGiveBackTheStreamExactly() throws IOException {
        Random rnd = new Random(7);
        for (int round = 0; round < 50; round++) {
            byte[] data = random(rnd.nextInt(300_000), round);
            Source src = new Source(data, 1 + rnd.nextInt(100_000));
            InputStream in = new BufferedSocketFactory.ReadAhead(src);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] b = new byte[200_000];
            while (true) {
                if (rnd.nextInt(10) == 0) {
                    int c = in.read();
                    if (c < 0) {
                        break;
                    }
                    out.write(c);
                    continue;
                }
                int off = rnd.nextInt(100);
                int len = rnd.nextInt(b.length - off);
                int n = in.read(b, off, len);
                if (n < 0) {
                    break;
                }
                assertThat(n).isLessThanOrEqualTo(len);
                if (len > 0) {
                    assertThat(n).as("a read of %d bytes returns some", len).isPositive();
                }
                out.write(b, off, n);
            }
            assertThat(out.toByteArray()).isEqualTo(data);
        }
    }

    @Test
    void aReplyThatHasArrivedIsReadWithOneCallWhateverSizesTheDriverAsksFor() throws IOException {
        // A List Friends reply of ~28 KiB, all arrived: pgJDBC asks for 8 KiB at a time.
        byte[] reply = random(28_000, 1);
        Source src = new Source(reply, Integer.MAX_VALUE);
        InputStream in = new BufferedSocketFactory.ReadAhead(src);
        byte[] b = new byte[8192];
        int total = 0;
        while (total < reply.length) {
            total += in.read(b, 0, b.length);
        }
        assertThat(src.reads).isEqualTo(1);
        assertThat(in.available()).isZero();
    }

    @Test
    void realSocketsKeepTheirTimeoutsAndData() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new BufferedSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                     server.getLocalPort());
             Socket peer = server.accept()) {
            assertThat(client.getInputStream()).isInstanceOf(BufferedSocketFactory.ReadAhead.class)
                    .isSameAs(client.getInputStream());
            client.setSoTimeout(200);
            byte[] b = new byte[16];
            assertThatThrownBy(() -> client.getInputStream().read(b, 0, b.length))
                    .as("nothing sent: the read times out as on any socket").isInstanceOf(SocketTimeoutException.class);
            byte[] data = random(100_000, 3);
            OutputStream out = peer.getOutputStream();
            out.write(data);
            out.flush();
            peer.shutdownOutput();
            byte[] got = client.getInputStream().readAllBytes();
            assertThat(got).isEqualTo(data);
        }
    }

    /** Whether the descriptor of {@code s} (a connected TCP socket of this process) is in non-blocking mode. */
    private static boolean nonBlocking(Socket s) throws IOException {
        String local = String.format(":%04X", s.getLocalPort());
        String remote = String.format(":%04X", s.getPort());
        String inode = null;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(local) && f[2].endsWith(remote)) {
                    inode = f[9];
                }
            }
        }
        assertThat(inode).as("the socket in /proc/net/tcp").isNotNull();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException gone) {
                    continue;
                }
                if (target.equals("socket:[" + inode + "]")) {
                    for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                        if (line.startsWith("flags:")) {
                            return (Integer.parseInt(line.substring(6).trim(), 8) & 04000) != 0;
                        }
                    }
                }
            }
        }
        throw new AssertionError("no descriptor for socket inode " + inode);
    }

    @Test
    void longTimeoutsLeaveTheDescriptorBlockingAndStillFire() throws Exception {
        longTimeouts(new BufferedSocketFactory(), BufferedSocketFactory.ReadAhead.class);
    }

    @Test
    void theUnbufferedSocketsWatchTheirTimeoutsAlike() throws Exception {
        longTimeouts(new BufferedSocketFactory.Unbuffered(), BufferedSocketFactory.Watched.class);
    }

    private static void longTimeouts(BufferedSocketFactory factory, Class<?> input) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 2, lo);
             Socket plain = new Socket();
             Socket client = factory.createSocket()) {
            // The JDK's own socket, as a control: a timed connect and read leave it non-blocking.
            plain.connect(new InetSocketAddress(lo, server.getLocalPort()), 5_000);
            client.connect(new InetSocketAddress(lo, server.getLocalPort()), 5_000);
            assertThat(client.getInputStream()).isInstanceOf(input);
            try (Socket plainPeer = server.accept(); Socket peer = server.accept()) {
                plain.setSoTimeout(5_000);
                client.setSoTimeout(1_200);
                plainPeer.getOutputStream().write(1);
                peer.getOutputStream().write(2);
                assertThat(plain.getInputStream().read()).isEqualTo(1);
                assertThat(client.getInputStream().read()).isEqualTo(2);
                assertThat(nonBlocking(plain)).as("the JDK's timed socket").isTrue();
                assertThat(nonBlocking(client)).as("the watched socket").isFalse();
                assertThat(client.getSoTimeout()).isEqualTo(1_200);

                long t0 = System.nanoTime();
                assertThatThrownBy(() -> client.getInputStream().read())
                        .as("nothing sent: the watchdog ends the read").isInstanceOf(SocketTimeoutException.class)
                        .hasMessage("Read timed out");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThat(ms).isBetween(1_200L, 1_200L + 2_000L);
                assertThat(client.isClosed()).as("a watched timeout closes the socket").isTrue();
            }
        }
    }

    @Test
    void shortTimeoutsAreTheJdksAndLeaveTheSocketUsable() throws Exception {
        // pgJDBC peeks for a pending message with a 1 ms timeout and goes on with the connection after it expires.
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new BufferedSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                     server.getLocalPort());
             Socket peer = server.accept()) {
            client.setSoTimeout(1);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            assertThat(client.isClosed()).isFalse();
            client.setSoTimeout(60_000);
            // The byte comes 200 ms into the read: had the JDK kept the 1 ms timeout, the read would time out.
            Thread late = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(200);
                    peer.getOutputStream().write(7);
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(client.getInputStream().read()).isEqualTo(7);
            late.join();
            client.setSoTimeout(0);
            peer.getOutputStream().write(8);
            assertThat(client.getInputStream().read()).isEqualTo(8);
            assertThat(client.getSoTimeout()).isZero();
        }
    }

    @Test
    void aConnectThatHangsTimesOutAndClosesTheSocket() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        // Nothing accepts and the backlog holds two: a third connect gets no answer to its SYN and hangs.
        try (ServerSocket server = new ServerSocket(0, 1, lo);
             Socket first = new Socket(lo, server.getLocalPort());
             Socket second = new Socket(lo, server.getLocalPort());
             Socket third = new BufferedSocketFactory().createSocket()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> third.connect(new InetSocketAddress(lo, server.getLocalPort()), 1_500))
                    .isInstanceOf(SocketTimeoutException.class).hasMessage("Connect timed out");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).isBetween(1_500L, 1_500L + 2_000L);
            assertThat(third.isClosed()).isTrue();
            assertThat(first.isConnected() && second.isConnected()).isTrue();
        }
    }
}
