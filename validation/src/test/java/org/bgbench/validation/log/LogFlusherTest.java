package org.bgbench.validation.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The directory's flusher (records reach the file within an interval) and what a write failure does. */
class LogFlusherTest {
    @TempDir
    Path tmp;

    private static long recordsIn(Path f) throws Exception {
        return LogFormat.recordsInFile(Files.size(f));
    }

    /** Waits until {@code f} holds {@code n} records; returns the milliseconds it took, or -1 after {@code maxMs}. */
    private static long waitFor(Path f, long n, long maxMs) throws Exception {
        long t0 = System.nanoTime();
        while ((System.nanoTime() - t0) / 1_000_000 < maxMs) {
            if (recordsIn(f) >= n) {
                return (System.nanoTime() - t0) / 1_000_000;
            }
            Thread.sleep(10);
        }
        return -1;
    }

    @Test
    void whatAThreadLoggedReachesTheFileWithinAnIntervalThoughItsBufferIsNotFull() throws Exception {
        Path dir = tmp.resolve("flush");
        try (LogDirectory d = LogDirectory.create(dir, LogWriter.DEFAULT_BUFFER_BYTES, Duration.ofMillis(300), 0)) {
            LogWriter w = d.newWriter();
            CountDownLatch logged = new CountDownLatch(1);
            CountDownLatch end = new CountDownLatch(1);
            AtomicBoolean more = new AtomicBoolean();
            Thread owner = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 100; i++) {
                    w.read((byte) 0, LogWriter.FRIENDS, i, i, i + 1, 3);
                }
                logged.countDown();
                try {
                    // a thread that then sits in a long store call: nothing else would flush its buffer
                    end.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                while (more.get()) {
                    w.delta((byte) 4, LogWriter.FRIENDS, 1, 1, 2, 1);
                }
            });
            logged.await();
            assertThat(waitFor(w.file(), 100, 2_000))
                    .as("ms until the 100 records were in the file")
                    .isBetween(0L, 1_000L);
            assertThat(LogReader.forEach(w.file(), (t, k, a, item, s, e, v) -> {}))
                    .isEqualTo(100);
            // while the owner keeps appending, the flusher and the owner's own full-buffer writes interleave
            more.set(true);
            end.countDown();
            Thread.sleep(700);
            more.set(false);
            owner.join();
        }
        LogManifest m = LogManifest.read(dir);
        LogManifest.Entry e = m.files().get(0);
        assertThat(e.status()).isEqualTo("ok");
        assertThat(e.bytes()).isEqualTo(LogFormat.HEADER_SIZE + e.records() * LogFormat.RECORD_SIZE);
        try (LogReader r = LogReader.open(dir.resolve(e.name()), e, m.blockBytes())) {
            assertThat(r.forEachRaw((b, o) -> {})).isEqualTo(e.records());
            assertThat(r.damage()).isNull();
        }
    }

    @Test
    void thousandsOfVirtualThreadWritersAreFlushed() throws Exception {
        Path dir = tmp.resolve("many");
        int n = 3_000;
        CountDownLatch logged = new CountDownLatch(n);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        try (LogDirectory d = LogDirectory.create(dir, 8 << 10, Duration.ofMillis(500), 0)) {
            for (int t = 0; t < n; t++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    LogWriter w = d.newWriter();
                    for (int i = 0; i < 3; i++) {
                        w.read((byte) 0, LogWriter.PENDING, i, i, i, 0);
                    }
                    logged.countDown();
                    try {
                        end.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            logged.await();
            long t0 = System.nanoTime();
            boolean all = false;
            while (!all && System.nanoTime() - t0 < 3_000_000_000L) {
                Thread.sleep(50);
                all = true;
                for (Path f : d.files()) {
                    if (recordsIn(f) < 3) {
                        all = false;
                        break;
                    }
                }
            }
            assertThat(all).as("every writer's records reached its file").isTrue();
            end.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
        assertThat(LogManifest.read(dir).files()).hasSize(n).allMatch(e -> e.records() == 3 && e.ok());
    }

    @Test
    void aWriteFailureStopsEveryWriterWithoutThrowingAndFreesTheReserve() throws Exception {
        Path dir = tmp.resolve("fail");
        LogDirectory d = LogDirectory.create(dir, 10 * LogFormat.RECORD_SIZE, Duration.ofHours(1), 200_000);
        Path reserve = dir.resolve(LogDirectory.RESERVE);
        assertThat(reserve).hasSize(200_000);
        LogWriter a = d.newWriter();
        LogWriter b = d.newWriter();
        for (int i = 0; i < 10; i++) {
            b.delta((byte) 4, LogWriter.FRIENDS, i, i, i + 1, 1);
        }
        b.flush();
        a.breakForTest(); // as a full disk would: the next write fails
        for (int i = 0; i < 25; i++) {
            a.delta((byte) 4, LogWriter.FRIENDS, i, i, i + 1, 1); // the buffer fills twice: never thrown
        }
        assertThat(a.error()).startsWith("cannot write thread-00000.bglog at byte 32: ");
        assertThat(d.failure()).isEqualTo(a.error());
        assertThat(reserve).doesNotExist();
        for (int i = 0; i < 25; i++) {
            b.read((byte) 0, LogWriter.FRIENDS, i, i, i + 1, 1);
        }
        b.flush();
        assertThat(recordsIn(b.file())).as("the other writer stopped too").isEqualTo(10);
        d.close();
        LogManifest m = LogManifest.read(dir);
        assertThat(m.clean()).isFalse();
        assertThat(m.reason()).isEqualTo("logging stopped: " + a.error());
        assertThat(m.unloggedWrites()).isNull();
        assertThat(m.files().get(0).status())
                .startsWith("failed: cannot write thread-00000.bglog")
                .endsWith("25 records not written");
        assertThat(m.files().get(0).bytes()).isEqualTo(LogFormat.HEADER_SIZE);
        assertThat(m.files().get(1).status()).startsWith("stopped: logging stopped after cannot write");
        assertThat(m.files().get(1).records()).isEqualTo(35);
        assertThat(m.files().get(1).bytes()).isEqualTo(LogFormat.HEADER_SIZE + 10L * LogFormat.RECORD_SIZE);
    }
}
