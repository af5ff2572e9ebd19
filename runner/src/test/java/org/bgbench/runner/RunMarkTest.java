package org.bgbench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.api.Assertions;
import org.bgbench.emulator.EmulatorConfig;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.ForwardingStore;
import org.bgbench.store.memory.MemoryStoreProvider;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's mark around a run that never reaches its first action: marked {@code running:} before the run, it
 * goes back to the mark it had when the run fails before any member acted: no member can open a session (a store at
 * its connection limit), or setting the run up fails (here: listing the store's server processes).
 */
class RunMarkTest {
    private static final SocialGraph GRAPH = new SocialGraph(GraphSpec.builder()
            .members(200)
            .memberIdOffset(10)
            .friendsPerMember(4)
            .resourcesPerMember(2)
            .commentsPerResource(1)
            .confirmedFraction(0.9)
            .attributeCount(3)
            .attributeLength(5)
            .commentLength(10)
            .seed(8)
            .build());

    @TempDir
    Path dir;

    /** Once set, no session can be opened any more. */
    private final AtomicBoolean full = new AtomicBoolean();
    /** Once set, the store cannot say which processes serve it. */
    private final AtomicBoolean broken = new AtomicBoolean();

    /** The memory store, whose sessions cannot be opened once it is {@link #full}. */
    private StoreProvider refusingSessions() {
        MemoryStoreProvider memory = new MemoryStoreProvider();
        return new StoreProvider() {
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
                return new ForwardingStore(memory.open(settings)) {
                    @Override
                    public StoreSession openSession() {
                        if (full.get()) {
                            throw new StoreException("too many connections");
                        }
                        return delegate.openSession();
                    }

                    @Override
                    public StoreSession openConsistentSession() {
                        return openSession();
                    }

                    @Override
                    public List<Long> localServerPids() {
                        if (broken.get()) {
                            throw new StoreException("cannot list the server's processes");
                        }
                        return delegate.localServerPids();
                    }

                    @Override
                    public void close() {
                        delegate.close();
                    }
                };
            }
        };
    }

    @Test
    void aRunThatFailsBeforeItsFirstActionLeavesTheMarkItFound() {
        System.setProperty("bg.state.dir", dir.resolve("state").toString());
        StringWriter err = new StringWriter();
        WorkloadSpec ws = WorkloadParameters.toSpec(Map.of("mix", "high"));
        ExperimentSpec spec = ExperimentSpec.timed(
                ws,
                2,
                Duration.ofSeconds(1),
                Duration.ZERO,
                EmulatorConfig.ThreadKind.PLATFORM,
                Duration.ofMillis(100),
                null);
        try (LocalStore store = LocalStore.open(
                refusingSessions(),
                StoreSettings.of(Map.of("memory.name", "run-mark")),
                GRAPH,
                LocalStore.IfMissing.LOAD,
                2,
                0,
                new PrintWriter(err, true))) {
            String loaded = StateMark.loaded(GRAPH.spec().fingerprint()).text();
            assertThat(store.store().stateMark()).contains(loaded);
            full.set(true);
            Experiment.Outcome o = store.run(ws, spec, null, null);
            assertThat(o.run().completed()).isFalse();
            assertThat(o.run().abortReason()).contains("too many connections");
            assertThat(store.store().stateMark())
                    .as("no member acted: the mark before the run")
                    .contains(loaded);

            full.set(false);
            broken.set(true);
            Assertions.assertThatThrownBy(() -> store.run(ws, spec, null, null))
                    .hasMessageContaining("cannot list the server's processes");
            assertThat(store.store().stateMark())
                    .as("failed before its first action: the mark before the run")
                    .contains(loaded);
        }
    }
}
