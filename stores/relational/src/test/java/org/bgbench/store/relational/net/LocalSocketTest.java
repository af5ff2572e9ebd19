package org.bgbench.store.relational.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalSocket} against a real Unix domain socket served by this test: what the peer writes arrives, and
 * {@code available()} sees it before a read (the shared threads' test for a reply); a reader waiting for a reply is
 * woken once per reply, not also when the peer takes its request; a peer that stops answering fails the read after
 * the timeout, closing the connection; a short timeout is kept as a second; a close by another thread ends a wait;
 * on a virtual thread the connection blocks in its channel, its timeout then enforced by the watchdog; no socket file
 * fails the connect.
 */
class LocalSocketTest {
    @TempDir
    Path dir;

    private ServerSocketChannel listen(Path file) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(file));
        return server;
    }

    @Test
    void bytesArriveBothWays() throws Exception {
        Path file = dir.resolve("s");
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.getOutputStream().write(new byte[] {1, 2, 3});
            ByteBuffer got = ByteBuffer.allocate(3);
            while (got.hasRemaining()) {
                peer.read(got);
            }
            assertThat(got.array()).containsExactly(1, 2, 3);
            peer.write(ByteBuffer.wrap(new byte[] {4, 5}));
            InputStream in = s.getInputStream();
            for (long end = System.nanoTime() + 5_000_000_000L; in.available() < 2 && System.nanoTime() < end; ) {
                Thread.onSpinWait();
            }
            assertThat(in.available()).as("the reply is seen before it is read").isEqualTo(2);
            byte[] b = new byte[8];
            int n = in.read(b, 0, b.length);
            assertThat(n).isEqualTo(2);
            assertThat(b[0]).isEqualTo((byte) 4);
            assertThat(s.isClosed()).isFalse();
            assertThat(s.blocksInChannel()).as("a platform thread waits in epoll").isFalse();
        }
    }

    /** The calling thread's voluntary context switches so far (Linux), i.e. how often it blocked. */
    private static long voluntarySwitches() throws IOException {
        for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no voluntary_ctxt_switches in /proc/thread-self/status");
    }

    @Test
    void aReaderIsWokenOncePerReplyNotAlsoWhenThePeerTakesItsRequest() throws Exception {
        // Linux wakes a thread blocked in a Unix socket's read when the peer reads what it sent (its send buffer
        // frees): a blocking read slept twice per round trip. The peer here takes each request, waits 2 ms, replies.
        Path file = dir.resolve("s");
        int trips = 150;
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.setSoTimeout(10_000);
            Thread echo = Thread.ofPlatform().start(() -> {
                ByteBuffer b = ByteBuffer.allocate(64);
                try {
                    for (int i = 0; i < trips; i++) {
                        b.clear().limit(8);
                        while (b.hasRemaining()) {
                            peer.read(b);
                        }
                        Thread.sleep(2);
                        peer.write(b.flip());
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            InputStream in = s.getInputStream();
            byte[] reply = new byte[8];
            long before = voluntarySwitches();
            for (int i = 0; i < trips; i++) {
                s.getOutputStream().write(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) i});
                int got = 0;
                while (got < 8) {
                    got += in.read(reply, got, 8 - got);
                }
                assertThat(reply[7]).isEqualTo((byte) i);
            }
            double perTrip = (voluntarySwitches() - before) / (double) trips;
            echo.join();
            assertThat(perTrip).as("times the reader slept per round trip").isLessThan(1.5);
        }
    }

    @Test
    void aCloseByAnotherThreadEndsAWait() throws Exception {
        Path file = dir.resolve("s");
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.setSoTimeout(0);
            Thread closer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(300);
                    s.close();
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> s.getInputStream().read(new byte[4], 0, 4)).isInstanceOf(IOException.class);
            assertThat((System.nanoTime() - t0) / 1e9).as("ended by the close, not a timeout").isLessThan(5.0);
            closer.join();
            assertThat(s.isClosed()).isTrue();
            assertThat(peer.isOpen()).isTrue();
        }
    }

    @Test
    void aPeerThatStopsAnsweringFailsTheReadAfterTheTimeoutAndClosesTheSocket() throws Exception {
        Path file = dir.resolve("s");
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.setSoTimeout(200); // kept as a second
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> s.getInputStream().read(new byte[16], 0, 16))
                    .isInstanceOf(SocketTimeoutException.class);
            double waited = (System.nanoTime() - t0) / 1e9;
            assertThat(waited).as("at least the second a timeout is kept as").isBetween(0.95, 3.0);
            assertThat(s.isClosed()).isTrue();
            assertThat(peer.isOpen()).isTrue();
        }
    }

    @Test
    void withoutATimeoutAReadWaitsForThePeer() throws Exception {
        Path file = dir.resolve("s");
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.setSoTimeout(0);
            Thread late = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(1_500);
                    peer.write(ByteBuffer.wrap(new byte[] {9}));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(s.getInputStream().read()).as("the byte sent after 1.5 s, no timeout").isEqualTo(9);
            late.join();
            assertThatThrownBy(() -> s.setSoTimeout(-1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void noSocketFileFailsTheConnect() {
        assertThatThrownBy(() -> LocalSocket.connect(dir.resolve("none"))).isInstanceOf(IOException.class);
    }

    @Test
    void onAVirtualThreadTheConnectionBlocksInItsChannelAndTheWatchdogEndsALateRead() throws Exception {
        Path file = dir.resolve("s");
        try (ServerSocketChannel server = listen(file); LocalSocket s = LocalSocket.connect(file);
             SocketChannel peer = server.accept()) {
            s.setSoTimeout(200); // kept as a second
            java.util.concurrent.FutureTask<double[]> member = new java.util.concurrent.FutureTask<>(() -> {
                byte[] b = new byte[8];
                // Three round trips: the peer echoes what it gets.
                for (int i = 0; i < 3; i++) {
                    s.getOutputStream().write(new byte[] {(byte) i, 7});
                    int n = 0;
                    while (n < 2) {
                        n += s.getInputStream().read(b, n, b.length - n);
                    }
                    assertThat(b[0]).isEqualTo((byte) i);
                }
                boolean blocked = s.blocksInChannel();
                long t0 = System.nanoTime();
                try {
                    s.getInputStream().read(b, 0, b.length); // the peer sends nothing more
                    return new double[] {-1, blocked ? 1 : 0};
                } catch (SocketTimeoutException e) {
                    return new double[] {(System.nanoTime() - t0) / 1e9, blocked ? 1 : 0};
                }
            });
            Thread.ofVirtual().start(member);
            ByteBuffer echo = ByteBuffer.allocate(2);
            for (int i = 0; i < 3; i++) {
                echo.clear();
                while (echo.hasRemaining()) {
                    peer.read(echo);
                }
                peer.write(echo.flip());
            }
            double[] got = member.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(got[1]).as("the virtual thread's reads block in the channel").isEqualTo(1);
            assertThat(got[0]).as("the late read timed out after about the second it is kept as").isBetween(0.95, 3.0);
            assertThat(s.isClosed()).isTrue();
            assertThat(peer.isOpen()).isTrue();
        }
    }
}
