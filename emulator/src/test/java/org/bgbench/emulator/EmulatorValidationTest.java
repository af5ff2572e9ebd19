package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.Action;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulator's read and write logs validated after real concurrent runs (dissertation ch. 6): a correct store shows no
 * unpredictable read under the high mix with many threads, and a store that corrupts reads is caught every time.
 */
@Tag("server")
class EmulatorValidationTest {
    static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(300)
            .friendsPerMember(10)
            .resourcesPerMember(4)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(4)
            .seed(3)
            .build());

    @TempDir
    Path dir;

    /** The high mix with 2 % comment posts and deletions and 5 % VCR taken from VTR, so every validated item moves. */
    static double[] highWithComments() {
        double[] w = WeightedWorkload.high();
        w[Action.VTR.index()] -= 9;
        w[Action.VCR.index()] = 5;
        w[Action.PCR.index()] = 2;
        w[Action.DCR.index()] = 2;
        return w;
    }

    /** Runs the mix with logs on and validates them against the expected state at the end. */
    static ValidationResult runAndValidate(
            DataStore store, GraphState state, double[] mix, int threads, long requests, Path logs) {
        EmulatorConfig cfg = EmulatorConfig.builder()
                .threads(threads)
                .operations(requests)
                .topK(5)
                .commentLength(20)
                .locks(true)
                .uniqueSocialites(true)
                .seed(3)
                .build();
        RunOutcome out;
        try (LogDirectory dir = LogDirectory.create(logs)) {
            out = new Emulator(
                            store,
                            state,
                            new WeightedWorkload(state.graph().members(), mix),
                            cfg,
                            t -> new CountingRecorder())
                    .withLogs(t -> dir.newWriter())
                    .run(() -> {});
        }
        assertThat(out.errorSamples()).isEmpty();
        assertThat(out.completed()).isTrue();
        return Validator.builder(
                        (kind, item) -> switch (kind) {
                            case LogWriter.FRIENDS -> state.friendCount((int) item);
                            case LogWriter.PENDING -> state.pendingCount((int) item);
                            default -> state.commentCount(item);
                        },
                        ValueMode.FINAL)
                .threads(2)
                .build()
                .validate(logs);
    }

    private static void assertCorrect(ValidationResult v) {
        assertThat(v.readsChecked()).isGreaterThan(1_000);
        assertThat(v.writeRecords()).as("writes were logged").isGreaterThan(100);
        assertThat(v.samples()).isEmpty();
        assertThat(v.unpredictableReads()).isZero();
    }

    @Test
    void memoryShowsNoUnpredictableRead() {
        try (DataStore store = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "validation")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            assertCorrect(runAndValidate(store, new GraphState(GRAPH), highWithComments(), 64, 200_000, dir));
        }
    }

    @Test
    void sqliteShowsNoUnpredictableRead() {
        try (DataStore store = new SqliteStoreProvider()
                .open(StoreSettings.of(
                        Map.of("sqlite.file", dir.resolve("v.sqlite").toString())))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            assertCorrect(
                    runAndValidate(store, new GraphState(GRAPH), highWithComments(), 16, 10_000, dir.resolve("logs")));
        }
    }

    @Test
    void postgresShowsNoUnpredictableRead() {
        try (DataStore store = new PostgresStoreProvider()
                .open(StoreSettings.forProvider(
                        new PostgresStoreProvider(), Map.of("postgres.embedded", "true", "postgres.pool", "40")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            assertCorrect(runAndValidate(store, new GraphState(GRAPH), highWithComments(), 32, 10_000, dir));
        }
    }

    @Test
    void everyCorruptedReadOfAReadOnlyMixIsCaught() {
        try (DataStore memory = new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "corrupt-ro")))) {
            StoreConformanceSuite.load(memory, GRAPH, 2);
            CorruptingStore store = new CorruptingStore(memory, 37, 1);
            // VP LF VFR only: no write, so a count one off is never explained by a concurrent write.
            ValidationResult v = runAndValidate(
                    store,
                    new GraphState(GRAPH),
                    WeightedWorkload.weights(Map.of(Action.VP, 60.0, Action.LF, 20.0, Action.VFR, 20.0)),
                    16,
                    50_000,
                    dir);
            assertThat(store.corrupted.get()).isGreaterThan(100);
            assertThat(v.unpredictableReads()).isEqualTo(store.corrupted.get());
            assertThat(v.perAction().stream()
                            .filter(a -> a.action() == Action.VP.index())
                            .findFirst()
                            .orElseThrow()
                            .unpredictable())
                    .isEqualTo(store.corrupted.get());
        }
    }

    @Test
    void everyCorruptedReadUnderTheHighMixIsCaught() {
        try (DataStore memory =
                new MemoryStoreProvider().open(StoreSettings.of(Map.of("memory.name", "corrupt-high")))) {
            StoreConformanceSuite.load(memory, GRAPH, 2);
            // Off by more than all writes of the run could explain.
            CorruptingStore store = new CorruptingStore(memory, 41, 1_000_000);
            ValidationResult v = runAndValidate(store, new GraphState(GRAPH), highWithComments(), 32, 100_000, dir);
            assertThat(store.corrupted.get()).isGreaterThan(100);
            assertThat(v.unpredictableReads()).isEqualTo(store.corrupted.get());
        }
    }

    /** A store whose View Profile adds {@code by} to the friend count of every {@code every}-th call. */
    static final class CorruptingStore extends ForwardingStore {
        final AtomicLong calls = new AtomicLong();
        final AtomicLong corrupted = new AtomicLong();
        private final int every;
        private final int by;

        CorruptingStore(DataStore delegate, int every, int by) {
            super(delegate);
            this.every = every;
            this.by = by;
        }

        @Override
        public StoreSession openSession() {
            return new ForwardingStore.Session(delegate.openSession()) {
                @Override
                public void viewProfile(int requester, int profile, ProfileView out) {
                    super.viewProfile(requester, profile, out);
                    if (calls.incrementAndGet() % every == 0) {
                        out.friendCount += by;
                        corrupted.incrementAndGet();
                    }
                }
            };
        }
    }
}
