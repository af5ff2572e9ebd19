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
import java.net.SocketTimeoutException;
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
}
