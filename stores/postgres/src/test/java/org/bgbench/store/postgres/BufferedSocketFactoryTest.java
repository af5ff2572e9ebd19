package org.bgbench.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

    /**
     * Whether the descriptor behind a connected loopback socket is in non-blocking mode, from Linux's
     * /proc/net/tcp (the socket's inode, by its two ports) and /proc/self/fdinfo (the descriptor's flags).
     */
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
                            return (Integer.parseInt(line.substring(6).trim(), 8) & 04000) != 0; // O_NONBLOCK
                        }
                    }
                }
            }
        }
        throw new AssertionError("no descriptor of this process is socket " + inode);
    }

    /** A timed connect, a read that times out, a timed read that succeeds, then no timeout: what pgJDBC and Hikari do. */
    private static void timedThenUntimed(Socket client, ServerSocket server) throws Exception {
        client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 5_000);
        try (Socket peer = server.accept()) {
            client.setSoTimeout(100);
            assertThatThrownBy(() -> client.getInputStream().read())
                    .isInstanceOf(SocketTimeoutException.class);
            peer.getOutputStream().write(7);
            assertThat(client.getInputStream().read()).as("usable after a timed-out read").isEqualTo(7);
            client.setSoTimeout(0);
            peer.getOutputStream().write(8);
            assertThat(client.getInputStream().read()).isEqualTo(8);
        }
    }

    @Test
    void theDescriptorIsBlockingAgainAfterTimedConnectsAndReads() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            // The JDK's own sockets stay non-blocking after a timeout: one wait then costs read, poll, read.
            try (Socket plain = new Socket()) {
                timedThenUntimed(plain, server);
                assertThat(nonBlocking(plain)).as("a JDK socket after a timeout").isTrue();
            }
            try (Socket client = new BufferedSocketFactory().createSocket()) {
                timedThenUntimed(client, server);
                assertThat(nonBlocking(client)).as("BG's socket after a timeout").isFalse();
            }
        }
    }

    @Test
    void aReadBlockedWithoutTimeoutEndsWhenAnotherThreadClosesTheSocket() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new BufferedSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                     server.getLocalPort());
             Socket peer = server.accept()) {
            CompletableFuture<Throwable> reader = new CompletableFuture<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    client.getInputStream().read();
                    reader.complete(null);
                } catch (Throwable e) {
                    reader.complete(e);
                }
            });
            // Wait until the reader's stack shows it inside the channel's read (blocked in the kernel).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!insideChannelRead(t) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(insideChannelRead(t)).as("the reader blocked in the read").isTrue();
            assertThat(reader).isNotDone();
            client.close();
            assertThat(reader.get(5, TimeUnit.SECONDS)).as("a stuck member's read ends when BG closes its session")
                    .isInstanceOf(IOException.class);
            assertThat(client.isClosed()).isTrue();
        }
    }

    private static boolean insideChannelRead(Thread t) {
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().startsWith("sun.nio.ch.") && f.getMethodName().toLowerCase().contains("read")) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aConnectToAListenerThatDoesNotAnswerTimesOut() throws Exception {
        // A listener whose accept queue is full drops new handshakes, as an unreachable host does.
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
            List<Socket> queued = new ArrayList<>();
            try {
                boolean full = false;
                for (int i = 0; i < 16 && !full; i++) {
                    Socket s = new Socket();
                    queued.add(s);
                    try {
                        s.connect(at, 300);
                    } catch (SocketTimeoutException e) {
                        full = true;
                    }
                }
                assertThat(full).as("the accept queue filled up").isTrue();
                try (Socket client = new BufferedSocketFactory().createSocket()) {
                    long t0 = System.nanoTime();
                    assertThatThrownBy(() -> client.connect(at, 500)).isInstanceOf(SocketTimeoutException.class);
                    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isBetween(400L, 10_000L);
                }
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }
}
