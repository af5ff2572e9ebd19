package org.bgbench.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.bgbench.model.Action;
import org.bgbench.model.FeedSpec;
import org.bgbench.model.FeedWorkload;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StateComparison;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.store.postgres.PostgresStoreProvider;
import org.bgbench.store.sqlite.SqliteStoreProvider;
import org.bgbench.validation.ActionStats;
import org.bgbench.validation.FeedState;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feeds validated after real concurrent runs (dissertation 6.1.2): every design of a correct store shows no
 * unpredictable View News Feed while members share, befriend and unfriend at once, and a push store whose fan-out
 * runs late is caught.
 */
@Tag("server")
class EmulatorFeedValidationTest {
    /** 300 members in 3 fragments, 30 pages (10 per fragment), each member following 3. */
    static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(300)
            .friendsPerMember(10)
            .resourcesPerMember(4)
            .commentsPerResource(2)
            .confirmedFraction(0.7)
            .attributeCount(4)
            .attributeLength(6)
            .commentLength(20)
            .fragments(3)
            .seed(3)
            .build()
            .withFeed(new FeedSpec(30, 3, 0, 2)));
    /** Pages issue 5 % of the shares, 30 % of the shares go to lists of 5. */
    static final FeedWorkload FEEDS = new FeedWorkload(10, 0.05, 0.3, 5);

    @TempDir
    Path dir;

    static double[] mix() {
        return WeightedWorkload.weights(Map.of(
                Action.SR, 10.0, Action.VNF, 70.0, Action.IF, 8.0, Action.AFR, 4.0, Action.RFR, 4.0, Action.TF, 4.0));
    }

    static ValidationResult runAndValidate(DataStore store, GraphState state, int threads, long requests, Path logs) {
        EmulatorConfig cfg = EmulatorConfig.builder()
                .threads(threads)
                .operations(requests)
                .topK(5)
                .commentLength(20)
                .locks(true)
                .uniqueSocialites(true)
                .seed(3)
                .threadKind(EmulatorConfig.ThreadKind.AUTO)
                .feeds(FEEDS)
                .build();
        RunOutcome out;
        try (LogDirectory d = LogDirectory.create(logs)) {
            out = new Emulator(
                            store,
                            state,
                            new WeightedWorkload(state.graph().members(), mix()),
                            cfg,
                            t -> new CountingRecorder())
                    .withLogs(t -> d.newWriter())
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
                .feeds(FeedState.of(state))
                .build()
                .validate(logs);
    }

    private static ActionStats vnf(ValidationResult v) {
        return v.perAction().stream()
                .filter(a -> a.action() == Action.VNF.index())
                .findFirst()
                .orElseThrow();
    }

    private static void assertCorrect(DataStore store, GraphState state, ValidationResult v) {
        assertThat(state.shareCount()).as("shares made").isGreaterThan(200);
        assertThat(vnf(v).checked()).as("feed reads checked").isGreaterThan(1_000);
        assertThat(v.samples()).isEmpty();
        assertThat(v.unpredictableReads()).isZero();
        assertThat(StateComparison.differences(store, state, 5))
                .as("the store ends in BG's state")
                .isEmpty();
    }

    private DataStore memory(String name, String design, String delay) {
        return new MemoryStoreProvider()
                .open(StoreSettings.of(Map.of("memory.name", name, "feed.design", design, "feed.fanout.delay", delay)));
    }

    @Test
    void memoryShowsNoUnpredictableFeedInAnyDesign() {
        for (String design : new String[] {"pull", "push", "sorted-push"}) {
            try (DataStore store = memory("feeds-" + design, design, "0")) {
                StoreConformanceSuite.load(store, GRAPH, 2);
                GraphState state = new GraphState(GRAPH);
                assertCorrect(store, state, runAndValidate(store, state, 32, 40_000, dir.resolve(design)));
            }
        }
    }

    @Test
    void aPushStoreWhoseFanOutRunsLateIsCaught() {
        try (DataStore store = memory("feeds-late", "push", "300ms")) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            GraphState state = new GraphState(GRAPH);
            ValidationResult v = runAndValidate(store, state, 16, 30_000, dir);
            assertThat(vnf(v).unpredictable())
                    .as("feeds read before the late fan-out reached them")
                    .isPositive();
            assertThat(v.samples()).isNotEmpty();
        }
    }

    @Test
    void sqlitePushShowsNoUnpredictableFeed() {
        try (DataStore store = new SqliteStoreProvider()
                .open(StoreSettings.of(
                        Map.of("sqlite.file", dir.resolve("f.sqlite").toString(), "feed.design", "push")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            GraphState state = new GraphState(GRAPH);
            assertCorrect(store, state, runAndValidate(store, state, 8, 8_000, dir.resolve("logs")));
        }
    }

    @Test
    void postgresSortedPushShowsNoUnpredictableFeed() {
        try (DataStore store = new PostgresStoreProvider()
                .open(StoreSettings.forProvider(
                        new PostgresStoreProvider(),
                        Map.of("postgres.embedded", "true", "postgres.pool", "40", "feed.design", "sorted-push")))) {
            StoreConformanceSuite.load(store, GRAPH, 2);
            GraphState state = new GraphState(GRAPH);
            assertCorrect(store, state, runAndValidate(store, state, 24, 10_000, dir));
        }
    }
}
