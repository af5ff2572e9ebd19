package org.bgbench.validation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.bgbench.validation.log.LogFormat;

/**
 * Records hash-partitioned by (kind, item), still encoded as in the logs: in memory ({@link Memory}) or in one
 * temporary file per partition ({@link Spill}). Pass 1 appends through one {@link Appender} per thread; pass 2 reads a
 * partition (twice), then releases it.
 */
abstract class Partitions implements AutoCloseable {
    @FunctionalInterface
    interface BlockVisitor {
        /** {@code len} is a multiple of the record size. */
        void block(byte[] b, int off, int len);
    }

    abstract static class Appender {
        abstract void append(int p, byte[] b, int off);

        /**
         * Appends the {@code g} contiguous records of a group (a feed read and its continuations) so that they stay
         * contiguous and in order in partition {@code p}, whatever other appenders do.
         */
        abstract void appendGroup(int p, byte[] b, int off, int g);

        /** Hands over what is still buffered. */
        abstract void finish();
    }

    final int count;
    final AtomicLongArray records;

    Partitions(int count) {
        this.count = count;
        this.records = new AtomicLongArray(count);
    }

    abstract Appender appender();

    long recordsTotal() {
        long t = 0;
        for (int p = 0; p < count; p++) {
            t += records.get(p);
        }
        return t;
    }

    /** Called once after every appender has finished. */
    abstract void endOfInput();

    abstract void read(int p, BlockVisitor v);

    abstract void release(int p);

    long spillBytes() {
        return 0;
    }

    @Override
    public void close() {}

    /** 64-bit hash of (kind, item). */
    static long hash(int kind, long item) {
        long h = item * 0x9E3779B97F4A7C15L + kind * 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return h;
    }

    /** Partition of a hash: its top 32 bits scaled to [0, count). (Pass 2 uses the low bits for buckets.) */
    static int partition(long hash, int count) {
        return (int) (((hash >>> 32) * count) >>> 32);
    }

    // ------------------------------------------------------------------------------------------------------ memory

    static final class Memory extends Partitions {
        static final int CHUNK_RECORDS = 1024;
        static final int CHUNK_BYTES = CHUNK_RECORDS * LogFormat.RECORD_SIZE;

        private final List<List<byte[]>> chunks = new ArrayList<>();
        private final List<List<Integer>> fills = new ArrayList<>();

        Memory(int count) {
            super(count);
            for (int i = 0; i < count; i++) {
                chunks.add(new ArrayList<>());
                fills.add(new ArrayList<>());
            }
        }

        private void add(int p, byte[] chunk, int fill) {
            synchronized (chunks.get(p)) {
                chunks.get(p).add(chunk);
                fills.get(p).add(fill);
            }
            records.addAndGet(p, fill / LogFormat.RECORD_SIZE);
        }

        @Override
        Appender appender() {
            return new Appender() {
                private final byte[][] current = new byte[count][];
                private final int[] fill = new int[count];

                @Override
                void append(int p, byte[] b, int off) {
                    byte[] c = current[p];
                    int f = fill[p];
                    if (c == null) {
                        c = current[p] = new byte[CHUNK_BYTES];
                    } else if (f == CHUNK_BYTES) {
                        add(p, c, f);
                        c = current[p] = new byte[CHUNK_BYTES];
                        f = 0;
                    }
                    System.arraycopy(b, off, c, f, LogFormat.RECORD_SIZE);
                    fill[p] = f + LogFormat.RECORD_SIZE;
                }

                @Override
                void appendGroup(int p, byte[] b, int off, int g) {
                    int bytes = g * LogFormat.RECORD_SIZE;
                    if (bytes > CHUNK_BYTES) {
                        add(p, Arrays.copyOfRange(b, off, off + bytes), bytes); // a chunk of its own
                        return;
                    }
                    byte[] c = current[p];
                    int f = fill[p];
                    if (c == null || f + bytes > CHUNK_BYTES) {
                        if (c != null && f > 0) {
                            add(p, c, f); // chunks may be partly filled: a group never straddles two
                        }
                        c = current[p] = new byte[CHUNK_BYTES];
                        f = 0;
                    }
                    System.arraycopy(b, off, c, f, bytes);
                    fill[p] = f + bytes;
                }

                @Override
                void finish() {
                    for (int p = 0; p < count; p++) {
                        if (current[p] != null && fill[p] > 0) {
                            add(p, current[p], fill[p]);
                        }
                        current[p] = null;
                    }
                }
            };
        }

        @Override
        void endOfInput() {}

        @Override
        void read(int p, BlockVisitor v) {
            List<byte[]> cs;
            List<Integer> fs;
            synchronized (chunks.get(p)) {
                cs = chunks.get(p);
                fs = fills.get(p);
            }
            for (int i = 0; i < cs.size(); i++) {
                v.block(cs.get(i), 0, fs.get(i));
            }
        }

        @Override
        void release(int p) {
            synchronized (chunks.get(p)) {
                chunks.set(p, new ArrayList<>());
                fills.set(p, new ArrayList<>());
            }
        }
    }

    // ------------------------------------------------------------------------------------------------------- spill

    static final class Spill extends Partitions {
        private static final int READ_BYTES = 15000 * LogFormat.RECORD_SIZE; // < 512 KiB: not a humongous object for G1

        private final Path dir;
        private final boolean createdDir;
        private final Path[] files;
        private final FileChannel[] channels;
        private final int bufferBytes;

        Spill(int count, Path dir, int bufferBytes) {
            super(count);
            this.bufferBytes = Math.max(LogFormat.RECORD_SIZE, bufferBytes - bufferBytes % LogFormat.RECORD_SIZE);
            this.files = new Path[count];
            this.channels = new FileChannel[count];
            boolean created = false;
            try {
                if (!Files.isDirectory(dir)) {
                    Files.createDirectories(dir);
                    created = true;
                }
                this.dir = dir;
                this.createdDir = created;
                String prefix = "bgval-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
                for (int p = 0; p < count; p++) {
                    files[p] = dir.resolve(String.format("%s-%05d.spill", prefix, p));
                    channels[p] = FileChannel.open(files[p], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                }
            } catch (IOException e) {
                closeQuietly();
                throw new UncheckedIOException("cannot create spill files in " + dir + ": " + e.getMessage(), e);
            }
        }

        private void write(int p, byte[] b, int len) {
            FileChannel ch = channels[p];
            ByteBuffer bb = ByteBuffer.wrap(b, 0, len);
            try {
                synchronized (ch) {
                    while (bb.hasRemaining()) {
                        ch.write(bb);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write spill file " + files[p] + ": " + e.getMessage(), e);
            }
            records.addAndGet(p, len / LogFormat.RECORD_SIZE);
        }

        @Override
        Appender appender() {
            return new Appender() {
                private final byte[][] buf = new byte[count][];
                private final int[] fill = new int[count];

                @Override
                void append(int p, byte[] b, int off) {
                    byte[] c = buf[p];
                    if (c == null) {
                        c = buf[p] = new byte[bufferBytes];
                    }
                    int f = fill[p];
                    System.arraycopy(b, off, c, f, LogFormat.RECORD_SIZE);
                    f += LogFormat.RECORD_SIZE;
                    if (f == c.length) {
                        write(p, c, f);
                        f = 0;
                    }
                    fill[p] = f;
                }

                @Override
                void appendGroup(int p, byte[] b, int off, int g) {
                    int bytes = g * LogFormat.RECORD_SIZE;
                    byte[] c = buf[p];
                    if (c == null) {
                        c = buf[p] = new byte[bufferBytes];
                    }
                    int f = fill[p];
                    if (f + bytes > c.length) {
                        if (f > 0) {
                            write(p, c, f); // each write is whole under the channel's lock: the group stays together
                        }
                        f = 0;
                    }
                    if (bytes > c.length) {
                        write(p, Arrays.copyOfRange(b, off, off + bytes), bytes);
                    } else {
                        System.arraycopy(b, off, c, f, bytes);
                        f += bytes;
                        if (f == c.length) {
                            write(p, c, f);
                            f = 0;
                        }
                    }
                    fill[p] = f;
                }

                @Override
                void finish() {
                    for (int p = 0; p < count; p++) {
                        if (fill[p] > 0) {
                            write(p, buf[p], fill[p]);
                        }
                        buf[p] = null;
                        fill[p] = 0;
                    }
                }
            };
        }

        @Override
        void endOfInput() {
            for (int p = 0; p < count; p++) {
                try {
                    channels[p].close();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot close spill file " + files[p] + ": " + e.getMessage(), e);
                }
            }
        }

        @Override
        void read(int p, BlockVisitor v) {
            byte[] b = new byte
                    [(int) Math.min(
                            READ_BYTES, Math.max(LogFormat.RECORD_SIZE, records.get(p) * LogFormat.RECORD_SIZE))];
            ByteBuffer bb = ByteBuffer.wrap(b);
            try (FileChannel ch = FileChannel.open(files[p], StandardOpenOption.READ)) {
                while (true) {
                    bb.clear();
                    while (bb.hasRemaining() && ch.read(bb) >= 0) {
                        // fill the buffer
                    }
                    int len = bb.position();
                    int whole = len - len % LogFormat.RECORD_SIZE;
                    if (whole > 0) {
                        v.block(b, 0, whole);
                    }
                    if (bb.hasRemaining()) {
                        break; // end of file (spill files hold whole records only)
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read spill file " + files[p] + ": " + e.getMessage(), e);
            }
        }

        @Override
        void release(int p) {
            try {
                Files.deleteIfExists(files[p]);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete spill file " + files[p] + ": " + e.getMessage(), e);
            }
        }

        @Override
        long spillBytes() {
            return recordsTotal() * LogFormat.RECORD_SIZE;
        }

        @Override
        public void close() {
            closeQuietly();
        }

        private void closeQuietly() {
            for (int p = 0; p < count; p++) {
                try {
                    if (channels[p] != null) {
                        channels[p].close();
                    }
                    if (files[p] != null) {
                        Files.deleteIfExists(files[p]);
                    }
                } catch (IOException ignored) {
                    // best effort: leave it, the directory delete below will fail too and say so
                }
            }
            if (createdDir && dir != null) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // not empty: someone else put files there; leave it
                }
            }
        }
    }
}
