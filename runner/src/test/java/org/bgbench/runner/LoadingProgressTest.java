package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.loader.LoadReport;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.junit.jupiter.api.Test;

/**
 * {@code bg load}'s lines while the store builds its indexes: GraphLoad's once-a-second listener carries the store's
 * {@link FinishProgress} reports to {@link Loading}, which shows the time spent until the store's estimate reaches 5 %,
 * then the share done and the time left, with the last finished step. The store here is the memory store with a
 * scripted end of load that moves on only once BG has printed what it reported, so no timing is assumed.
 */
class LoadingProgressTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(500)
            .memberIdOffset(10)
            .friendsPerMember(4)
            .resourcesPerMember(2)
            .commentsPerResource(1)
            .confirmedFraction(0.9)
            .images(true)
            .thumbnailBytes(16)
            .profileImageBytes(32)
            .attributeCount(3)
            .attributeLength(5)
            .commentLength(10)
            .seed(8)
            .build());

    @Test
    void theIndexPhaseShowsTimeSpentThenShareDoneAndTimeLeftWithTheLastStep() throws Exception {
        Lines out = new Lines();
        try (DataStore memory =
                        new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "loading-progress")));
                DataStore store = new ScriptedFinish(memory, out)) {
            LoadReport report = Loading.load(store, GRAPH, 2, true, new PrintWriter(out, true));
            assertThat(report).as("a load happened").isNotNull();
            assertThat(report.counts().members()).isEqualTo(500);
        }
        List<String> index = out.text()
                .lines()
                .filter(l -> l.contains("indexes and statistics"))
                .toList();
        // Before the store says anything: only the time spent.
        assertThat(index.getFirst()).matches(" +\\d+s  indexes and statistics for \\d+s");
        // 2 % is too little to extrapolate from: still the time spent, and the step it finished.
        assertThat(index)
                .anySatisfy(l -> assertThat(l)
                        .matches(" +\\d+s  indexes and statistics for \\d+s \\(done: CREATE INDEX members_key\\)"));
        // Half done after s seconds: s more to go.
        Pattern half = Pattern.compile(
                " +\\d+s  indexes and statistics 50 %, (\\d+)s left \\(done: CREATE INDEX friendship_key\\)");
        String halfLine = index.stream()
                .filter(l -> half.matcher(l).matches())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line at 50 % in " + index));
        Matcher m = half.matcher(halfLine);
        assertThat(m.matches()).isTrue();
        assertThat(Integer.parseInt(m.group(1)))
                .as("time left at 50 %% equals the time spent")
                .isBetween(1, 30);
        // The lines come in the order the store reported.
        assertThat(index.indexOf(halfLine))
                .isGreaterThan(index.indexOf(index.stream()
                        .filter(l -> l.contains("members_key"))
                        .findFirst()
                        .orElseThrow()));
    }

    @Test
    void aLoadLongerThanTenMinutesAtTheStoresRateIsAnnouncedWithItsLength() {
        long rows = GRAPH.members()
                + GRAPH.totalFriendships()
                + GRAPH.totalPendingInvitations()
                + GRAPH.totalResources()
                + GRAPH.totalInitialComments();
        // At rows/1000 rows a second the load would take 1,000 s (16m40s): announced. At 100 times that, 10 s: not.
        for (double rate : new double[] {rows / 1000.0, rows / 10.0}) {
            Lines out = new Lines();
            try (DataStore store =
                    new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "loading-" + rate)))) {
                Loading.load(store, GRAPH, 2, true, new PrintWriter(out, true), rate);
            }
            if (rate < rows / 100.0) {
                assertThat(out.text())
                        .contains(String.format(
                                Locale.ROOT, "bg: warning: this graph has %,d rows; at %,.0f rows/s", rows, rate))
                        .contains("about 16m40s");
            } else {
                assertThat(out.text()).doesNotContain("warning");
            }
        }
    }

    @Test
    void bgLoadAnnouncesALongLoadAtTheRateTheStoreNames() {
        long rows = GRAPH.members()
                + GRAPH.totalFriendships()
                + GRAPH.totalPendingInvitations()
                + GRAPH.totalResources()
                + GRAPH.totalInitialComments();
        // The memory store, naming a rate at which this graph takes 1,000 s to load.
        MemoryStoreProvider memory = new MemoryStoreProvider();
        StoreProvider slow = new StoreProvider() {
            @Override
            public String name() {
                return memory.name();
            }

            @Override
            public String description() {
                return memory.description();
            }

            @Override
            public List<StoreSetting> settings() {
                return memory.settings();
            }

            @Override
            public DataStore open(StoreSettings settings) {
                return memory.open(settings);
            }

            @Override
            public double loadRowsPerSecond() {
                return rows / 1000.0;
            }
        };
        Lines out = new Lines();
        LoadReport report = StoreLoad.load(
                slow,
                StoreSettings.of(Map.of("memory.name", "loading-provider-rate")),
                GRAPH,
                2,
                true,
                new PrintWriter(out, true));
        assertThat(report).isNotNull();
        assertThat(out.text())
                .contains(String.format(
                        Locale.ROOT, "bg: warning: this graph has %,d rows; at %,.0f rows/s", rows, rows / 1000.0))
                .contains("about 16m40s");
    }

    /** Collects what Loading prints, and lets the scripted store wait until a text has been printed. */
    private static final class Lines extends Writer {
        private final StringBuilder sb = new StringBuilder();

        @Override
        public synchronized void write(char[] cbuf, int off, int len) {
            sb.append(cbuf, off, len);
            notifyAll();
        }

        synchronized String text() {
            return sb.toString();
        }

        synchronized void await(String text) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (sb.indexOf(text) < 0) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("never printed \"" + text + "\"; printed:\n" + sb);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** The memory store, whose end of load reports two steps and waits for BG to print each before going on. */
    private static final class ScriptedFinish extends ForwardingStore {
        private final Lines out;

        ScriptedFinish(DataStore d, Lines out) {
            super(d);
            this.out = out;
        }

        @Override
        public void finishLoad(SocialGraph graph, FinishProgress progress) {
            try {
                out.await("indexes and statistics for");
                progress.done(0.02, "CREATE INDEX members_key");
                out.await("(done: CREATE INDEX members_key)");
                progress.done(0.5, "CREATE INDEX friendship_key");
                out.await("(done: CREATE INDEX friendship_key)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            delegate.finishLoad(graph);
        }

        @Override
        public void finishLoad(SocialGraph graph) {
            finishLoad(graph, FinishProgress.NONE);
        }
    }
}
