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
 * {@code available()} sees it before a read (the shared threads' test for a reply); a peer that stops answering fails
 * the read after the timeout, which the watchdog enforces by closing the connection; a short timeout is kept as a
 * second; no socket file fails the connect.
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
            assertThat(waited).as("at least the second the watchdog keeps").isBetween(0.95, 3.0);
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
}
