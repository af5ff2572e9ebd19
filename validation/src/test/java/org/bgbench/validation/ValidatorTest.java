package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.bgbench.validation.Histories.Rec;
import org.bgbench.validation.bench.SyntheticRun;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogFormat;
import org.bgbench.validation.log.LogManifest;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidatorTest {
    @TempDir
    Path tmp;

    private static final ItemValues ZERO = (kind, item) -> 0;

    /** Validates and returns the result plus every read's verdict as sorted "readKey=VERDICT" strings. */
    private record Run(ValidationResult result, List<String> verdicts) {}

    private static Run validate(Path dir, Validator.Builder b) {
        ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
        ValidationResult r = b.readListener((action, kind, item, s, e, observed, verdict) ->
                        seen.add(action + ":" + kind + ":" + item + ":" + s + ":" + e + ":" + observed + "=" + verdict))
                .build()
                .validate(dir);
        List<String> v = new ArrayList<>(seen);
        Collections.sort(v);
        return new Run(r, v);
    }

    @Test
    void dissertationFigure62ThroughLogFiles() {
        Path dir = tmp.resolve("fig62");
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w1 = d.newWriter();
            LogWriter w2 = d.newWriter();
            w1.delta((byte) 6, LogWriter.FRIENDS, 1, 1, 3, -1);
            w2.delta((byte) 4, LogWriter.FRIENDS, 1, 2, 4, 1);
            w1.delta((byte) 4, LogWriter.FRIENDS, 1, 5, 6, 2);
            for (long v = -1; v <= 3; v++) {
                w2.read((byte) 0, LogWriter.FRIENDS, 1, 0, 10, v);
            }
        }
        ValidationResult r = Validator.builder(ZERO, ValueMode.INITIAL)
                .actionNames("VP")
                .build()
                .validate(dir);
        assertThat(r.readsChecked()).isEqualTo(5);
        assertThat(r.unpredictableReads()).isEqualTo(1);
        assertThat(r.pct()).isEqualTo(20.0);
        assertThat(r.samples()).singleElement().satisfies(s -> {
            assertThat(s.observed()).isEqualTo(3);
            assertThat(s.acceptable()).isEqualTo("[-1..2]");
            assertThat(s.actionName()).isEqualTo("VP");
        });
        assertThat(r.perAction()).containsExactly(new ActionStats(0, "VP", 5, 1, 0, 20.0));
        // with the final value (2) instead of the initial one
        ValidationResult f =
                Validator.builder((k, i) -> 2, ValueMode.FINAL).build().validate(dir);
        assertThat(f.unpredictableReads()).isEqualTo(1);
    }

    @Test
    void correctSyntheticRunHasNoUnpredictableReads() {
        Path dir = tmp.resolve("ok");
        SyntheticRun.Config c = new SyntheticRun.Config(
                300_000,
                new SyntheticRun.Load(64, 0.2, 2_000, 1_000),
                new SyntheticRun.Items(2_000, 5_000, 3.0),
                0,
                8,
                5);
        SyntheticRun.Summary s;
        try (LogDirectory d = LogDirectory.create(dir)) {
            s = SyntheticRun.generate(d, c);
        }
        ValidationResult r = Validator.builder(SyntheticRun::initial, ValueMode.INITIAL)
                .threads(3)
                .build()
                .validate(dir);
        assertThat(r.recordsRead()).isEqualTo(300_000);
        assertThat(r.readRecords()).isEqualTo(s.reads());
        assertThat(r.readsChecked()).isEqualTo(s.reads());
        assertThat(r.unpredictableReads()).isZero();
        assertThat(r.samples()).isEmpty();
        // plenty of reads needed real overlap work
        assertThat(r.readsChecked() - r.readsOfUnwrittenItems() - r.readsWithoutOverlap())
                .isGreaterThan(3_000);
        assertThat(r.freshness()).hasSize(10).allSatisfy(b -> {
            if (b.reads() > 0) {
                assertThat(b.p()).isEqualTo(1.0);
            }
        });
        // the same from final values
        Map<String, Long> sums = Histories.deltaSums(Histories.read(dir));
        ItemValues fin = (k, i) -> SyntheticRun.initial(k, i) + sums.getOrDefault(k + ":" + i, 0L);
        ValidationResult f =
                Validator.builder(fin, ValueMode.FINAL).threads(2).build().validate(dir);
        assertThat(f.unpredictableReads()).isZero();
        assertThat(f.readsChecked()).isEqualTo(s.reads());
    }

    @Test
    void injectedErrorsAreFlaggedExactly() {
        Path clean = tmp.resolve("clean");
        SyntheticRun.Config c = new SyntheticRun.Config(
                60_000, new SyntheticRun.Load(32, 0.25, 2_000, 500), new SyntheticRun.Items(300, 1_000, 2.0), 0, 4, 9);
        try (LogDirectory d = LogDirectory.create(clean)) {
            SyntheticRun.generate(d, c);
        }
        List<Rec> recs = Histories.read(clean);
        List<String> reference = Histories.bruteForce(recs, SyntheticRun::initial);
        assertThat(reference).allMatch(v -> v.endsWith("=VALID"));
        // add 1 to ~2 % of the reads, where the brute force says +1 is not acceptable
        SplittableRandom rnd = new SplittableRandom(3);
        List<Rec> corrupted = new ArrayList<>();
        Set<String> expectedFlagged = new HashSet<>();
        for (Rec r : recs) {
            if (r.isRead() && rnd.nextInt(50) == 0) {
                Rec bad = new Rec(r.type(), r.kind(), r.action(), r.item(), r.start(), r.end(), r.value() + 1);
                if (Histories.bruteForce(itemRecords(recs, r, bad), SyntheticRun::initial)
                        .contains(bad.readKey() + "=UNPREDICTABLE")) {
                    corrupted.add(bad);
                    expectedFlagged.add(bad.readKey());
                    continue;
                }
            }
            corrupted.add(r);
        }
        assertThat(expectedFlagged).hasSizeGreaterThan(100);
        Path dir = tmp.resolve("corrupted");
        Histories.write(dir, corrupted, 5, 1);
        Run run = validate(
                dir, Validator.builder(SyntheticRun::initial, ValueMode.INITIAL).threads(2));
        assertThat(run.result().unpredictableReads()).isEqualTo(expectedFlagged.size());
        Set<String> flagged = new HashSet<>();
        for (String v : run.verdicts()) {
            if (v.endsWith("=UNPREDICTABLE")) {
                flagged.add(v.substring(0, v.indexOf('=')));
            }
        }
        assertThat(flagged).isEqualTo(expectedFlagged);
        assertThat(run.verdicts()).isEqualTo(Histories.bruteForce(corrupted, SyntheticRun::initial));
    }

    /** The writes of {@code r}'s item plus {@code replacement} as its only read. */
    private static List<Rec> itemRecords(List<Rec> all, Rec r, Rec replacement) {
        List<Rec> out = new ArrayList<>();
        for (Rec x : all) {
            if (!x.isRead() && x.kind() == r.kind() && x.item() == r.item()) {
                out.add(x);
            }
        }
        out.add(replacement);
        return out;
    }

    @Test
    void randomHistoriesMatchBruteForceInMemoryAndSpilled() {
        SplittableRandom rnd = new SplittableRandom(77);
        ItemValues initial = (k, i) -> (i * 7 + k) % 5;
        for (int round = 0; round < 6; round++) {
            boolean absolutes = round % 2 == 1;
            List<Rec> recs = Histories.random(rnd, 1500, absolutes, initial);
            Path dir = tmp.resolve("random-" + round);
            Histories.write(dir, recs, 1 + round, round);
            List<String> expected = Histories.bruteForce(recs, initial);
            Run mem =
                    validate(dir, Validator.builder(initial, ValueMode.INITIAL).threads(1 + round % 3));
            assertThat(mem.result().spilled()).isFalse();
            assertThat(mem.verdicts()).isEqualTo(expected);
            Run spill = validate(
                    dir,
                    Validator.builder(initial, ValueMode.INITIAL)
                            .threads(2)
                            .memoryLimitBytes(16 * 1024)
                            .spillDirectory(tmp.resolve("spill-" + round)));
            assertThat(spill.result().spilled()).isTrue();
            assertThat(spill.result().partitions()).isGreaterThan(4);
            assertThat(spill.verdicts()).isEqualTo(expected);
            assertThat(tmp.resolve("spill-" + round)).doesNotExist();
            long unpredictable =
                    expected.stream().filter(s -> s.endsWith("=UNPREDICTABLE")).count();
            assertThat(mem.result().unpredictableReads())
                    .isEqualTo(unpredictable)
                    .isPositive();
            if (!absolutes) {
                // FINAL values give the same verdicts for delta-only items
                Map<String, Long> sums = Histories.deltaSums(recs);
                ItemValues fin = (k, i) -> initial.value(k, i) + sums.getOrDefault(k + ":" + i, 0L);
                assertThat(validate(dir, Validator.builder(fin, ValueMode.FINAL))
                                .verdicts())
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void spillingGivesTheSameResultAsMemory() throws Exception {
        Path dir = tmp.resolve("spill-vs-mem");
        SyntheticRun.Config c = new SyntheticRun.Config(
                200_000,
                new SyntheticRun.Load(64, 0.15, 3_000, 1_000),
                new SyntheticRun.Items(1_000, 3_000, 3.0),
                0.002,
                6,
                11);
        try (LogDirectory d = LogDirectory.create(dir)) {
            SyntheticRun.generate(d, c);
        }
        ValidationResult mem = Validator.builder(SyntheticRun::initial, ValueMode.INITIAL)
                .threads(2)
                .freshnessBuckets(7)
                .build()
                .validate(dir);
        ValidationResult spill = Validator.builder(SyntheticRun::initial, ValueMode.INITIAL)
                .threads(3)
                .memoryLimitBytes(256 * 1024)
                .freshnessBuckets(7)
                .build()
                .validate(dir);
        ValidationResult single = Validator.builder(SyntheticRun::initial, ValueMode.INITIAL)
                .threads(1)
                .freshnessBuckets(7)
                .build()
                .validate(dir);
        assertThat(mem.spilled()).isFalse();
        assertThat(spill.spilled()).isTrue();
        assertThat(spill.spillBytes()).isEqualTo(200_000L * LogFormat.RECORD_SIZE);
        assertThat(mem.unpredictableReads()).isPositive();
        for (ValidationResult other : List.of(spill, single)) {
            assertThat(comparable(other)).isEqualTo(comparable(mem));
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left)
                    .allMatch(p -> p.getFileName().toString().endsWith(".bglog")
                            || p.getFileName().toString().equals(LogManifest.FILE));
        }
    }

    /** The result without what legitimately differs between runs (time, partitioning). */
    private static List<Object> comparable(ValidationResult r) {
        return List.of(
                r.recordsRead(),
                r.readRecords(),
                r.writeRecords(),
                r.readsChecked(),
                r.unpredictableReads(),
                r.pct(),
                r.readsSkipped(),
                r.readsOfUnwrittenItems(),
                r.readsWithoutOverlap(),
                r.perAction(),
                r.samples(),
                r.freshness(),
                r.freshnessHorizonMs(),
                r.freshnessReads(),
                r.freshnessBeyondHorizon());
    }

    @Test
    void aLogCutShortIsReportedAndItsUnverifiableTailIsNotChecked() throws Exception {
        Path dir = tmp.resolve("truncated");
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w = d.newWriter();
            LogWriter x = d.newWriter();
            for (int i = 0; i < 100; i++) {
                w.read((byte) 0, LogWriter.FRIENDS, i, i, i + 1, 0);
                x.read((byte) 8, LogWriter.COMMENTS, i, i, i + 1, 0);
            }
        }
        Path f = dir.resolve("thread-00001.bglog");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 20);
        }
        ValidationResult r = Validator.builder(ZERO, ValueMode.INITIAL).build().validate(dir);
        // thread 1 is one block, now cut short: none of it can be verified, so none of it is read; it held no write,
        // so thread 0's reads are still checked
        assertThat(r.complete()).isFalse();
        assertThat(r.recordsRead()).isEqualTo(100);
        assertThat(r.readsChecked()).isEqualTo(100);
        assertThat(r.readsUnchecked()).isEqualTo(100);
        assertThat(r.unpredictableReads()).isZero();
        assertThat(r.problems()).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("thread-00001.bglog");
            assertThat(p.offset()).isEqualTo(Files.size(f));
            assertThat(p.problem()).contains("the file ends at byte");
        });
        assertThat(r.incompleteReason()).contains("thread-00001.bglog").contains("could not be");
    }

    @Test
    void readsOfUnwrittenItemsAreAllChecked() {
        Path dir = tmp.resolve("unwritten");
        List<Rec> recs = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(5);
        int bad = 0;
        for (int i = 0; i < 20_000; i++) {
            long item = rnd.nextLong(5_000);
            boolean corrupt = rnd.nextInt(100) == 0;
            bad += corrupt ? 1 : 0;
            recs.add(new Rec(
                    LogFormat.TYPE_READ,
                    LogWriter.FRIENDS,
                    (byte) 0,
                    item,
                    i,
                    i + 3,
                    SyntheticRun.initial(LogWriter.FRIENDS, item) + (corrupt ? 1 : 0)));
        }
        Histories.write(dir, recs, 3, 2);
        for (ValueMode mode : ValueMode.values()) {
            ValidationResult r =
                    Validator.builder(SyntheticRun::initial, mode).build().validate(dir);
            assertThat(r.readsChecked()).isEqualTo(20_000);
            assertThat(r.readsOfUnwrittenItems()).isEqualTo(20_000);
            assertThat(r.unpredictableReads()).isEqualTo(bad);
            assertThat(r.samples())
                    .hasSize(20)
                    .allSatisfy(s ->
                            assertThat(s.acceptable()).isEqualTo("[" + SyntheticRun.initial(s.kind(), s.item()) + "]"));
            assertThat(r.freshness()).isEmpty();
        }
    }

    @Test
    void freshnessConfidenceBucketsAndCumulativeProbability() {
        // one write ending at 100; reads at t = 5, 15, 15, 35, 95 and 150 ns after it; the ones at 15 and 95 stale
        Path dir = tmp.resolve("fresh");
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w = d.newWriter();
            w.delta((byte) 4, LogWriter.FRIENDS, 1, 90, 100, 1);
            long[] at = {5, 15, 15, 35, 95, 150};
            long[] seen = {1, 0, 1, 1, 0, 1};
            for (int i = 0; i < at.length; i++) {
                w.read((byte) 0, LogWriter.FRIENDS, 1, 100 + at[i], 100 + at[i] + 1, seen[i]);
            }
            w.read((byte) 0, LogWriter.FRIENDS, 1, 10, 20, 0); // before the write: not in the curve
        }
        ValidationResult r = Validator.builder(ZERO, ValueMode.INITIAL)
                .freshnessBuckets(10)
                .freshnessHorizonNanos(100)
                .build()
                .validate(dir);
        assertThat(r.unpredictableReads()).isEqualTo(2);
        assertThat(r.freshnessReads()).isEqualTo(6);
        assertThat(r.freshnessBeyondHorizon()).isEqualTo(1);
        List<FreshnessBucket> b = r.freshness();
        assertThat(b).hasSize(10);
        assertThat(b.get(0))
                .extracting(FreshnessBucket::reads, FreshnessBucket::valid)
                .containsExactly(1L, 1L);
        assertThat(b.get(1))
                .extracting(FreshnessBucket::reads, FreshnessBucket::valid)
                .containsExactly(2L, 1L);
        assertThat(b.get(1).p()).isEqualTo(0.5);
        assertThat(b.get(1).cumulativeP()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(b.get(2).reads()).isZero();
        assertThat(b.get(2).p()).isNaN();
        assertThat(b.get(3).cumulativeP()).isEqualTo(0.75);
        assertThat(b.get(9))
                .extracting(FreshnessBucket::reads, FreshnessBucket::cumulativeReads, FreshnessBucket::cumulativeValid)
                .containsExactly(1L, 5L, 3L);
        assertThat(b.get(0).fromMs()).isZero();
        assertThat(b.get(9).toMs()).isEqualTo(100 / 1e6);
        // default horizon: the span of the logs (10 .. 251 ns)
        ValidationResult d = Validator.builder(ZERO, ValueMode.INITIAL).build().validate(dir);
        assertThat(d.freshnessHorizonMs()).isEqualTo(241 / 1e6);
        assertThat(d.freshnessBeyondHorizon()).isZero();
    }

    @Test
    void absoluteWritesWithFinalValuesSkipWhatOnlyTheInitialValueExplains() {
        Path dir = tmp.resolve("abs-final");
        try (LogDirectory d = LogDirectory.create(dir)) {
            LogWriter w = d.newWriter();
            w.absolute((byte) 4, LogWriter.FRIENDS, 1, 10, 20, 7);
            w.read((byte) 0, LogWriter.FRIENDS, 1, 0, 5, 3); // before the write: needs the initial value
            w.read((byte) 0, LogWriter.FRIENDS, 1, 15, 16, 7); // overlapping: 7 is explained by the write
            w.read((byte) 0, LogWriter.FRIENDS, 1, 30, 31, 8); // after: must be 7
        }
        ValidationResult r =
                Validator.builder((k, i) -> 7, ValueMode.FINAL).build().validate(dir);
        assertThat(r.readsSkipped()).isEqualTo(1);
        assertThat(r.readsChecked()).isEqualTo(2);
        assertThat(r.unpredictableReads()).isEqualTo(1);
        ValidationResult i =
                Validator.builder((k, x) -> 3, ValueMode.INITIAL).build().validate(dir);
        assertThat(i.readsSkipped()).isZero();
        assertThat(i.unpredictableReads()).isEqualTo(1);
    }

    @Test
    void emptyAndWriteOnlyLogs() {
        Path dir = tmp.resolve("empty");
        try (LogDirectory d = LogDirectory.create(dir)) {
            d.newWriter();
            d.newWriter().delta((byte) 9, LogWriter.COMMENTS, 3, 1, 2, 1);
        }
        ValidationResult r = Validator.builder(ZERO, ValueMode.INITIAL).build().validate(dir);
        assertThat(r.recordsRead()).isEqualTo(1);
        assertThat(r.readsChecked()).isZero();
        assertThat(r.pct()).isZero();
        assertThat(r.perAction()).isEmpty();
        assertThat(r.freshness()).isEmpty();
        assertThat(r.summary()).contains("0 reads checked");
    }

    @Test
    void planSpillsOnlyWhenTheRecordsDoNotFit() {
        assertThat(Validator.plan(1_000_000, 4, 1L << 30).spill()).isFalse();
        Validator.Plan big = Validator.plan(300_000_000, 2, 1L << 30);
        assertThat(big.spill()).isTrue();
        // two partitions at a time must fit the limit
        long perPartition = 300_000_000L / big.partitions() * PartitionProcessor.WORK_BYTES_PER_RECORD;
        assertThat(2 * perPartition).isLessThan(1L << 30);
    }
}
