package org.bgbench.store.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * The conformance suite over a list of variants of one store, for a {@code @TestFactory}: one container per variant,
 * one test per check, each on a freshly loaded graph (loaded again unless the check before only read it and passed). A
 * variant's store is opened on its first check and closed after its last one, so a store module starts its server once
 * and runs every variant on it, one after the other.
 */
public final class ConformanceMatrix {
    private final List<ConformanceTarget> targets;

    private ConformanceMatrix(List<ConformanceTarget> targets) {
        this.targets = List.copyOf(targets);
    }

    public static ConformanceMatrix of(ConformanceTarget... targets) {
        return new ConformanceMatrix(List.of(targets));
    }

    public static ConformanceMatrix of(List<ConformanceTarget> targets) {
        return new ConformanceMatrix(targets);
    }

    /** The matrix's tests, for a {@code @TestFactory} to return. */
    public Stream<DynamicNode> tests() {
        return targets.stream().map(ConformanceMatrix::variant);
    }

    private static DynamicNode variant(ConformanceTarget target) {
        Variant v = new Variant(target);
        List<DynamicNode> tests = new ArrayList<>();
        for (ConformanceChecks.Check check : ConformanceChecks.all()) {
            tests.add(DynamicTest.dynamicTest(
                    check.name(), () -> v.run(f -> check.body().accept(f))));
        }
        for (ConformanceTarget.StoreCheck check : target.extraChecks()) {
            tests.add(DynamicTest.dynamicTest(
                    check.name(), () -> v.run(f -> check.body().accept(f.store()))));
        }
        tests.add(DynamicTest.dynamicTest("closesTheStore", v::close));
        // JUnit closes a container's stream once its tests ran: the store is closed even if the last test is skipped.
        return DynamicContainer.dynamicContainer(target.name(), tests.stream().onClose(v::closeQuietly));
    }

    /** A variant's store, opened on first use and closed once. */
    private static final class Variant {
        private final ConformanceTarget target;
        private ConformanceFixture fixture;
        private Throwable failedToOpen;
        private boolean closed;

        Variant(ConformanceTarget target) {
            this.target = target;
        }

        void run(ThrowingConsumer<ConformanceFixture> check) throws Throwable {
            ConformanceFixture f = fixture();
            f.loadFresh();
            check.accept(f);
        }

        private ConformanceFixture fixture() throws Throwable {
            if (failedToOpen != null) {
                throw new IllegalStateException("the variant's store did not open", failedToOpen);
            }
            if (closed) {
                throw new IllegalStateException("the variant's store is closed");
            }
            if (fixture == null) {
                try {
                    DataStore store = target.opener().get();
                    fixture = new ConformanceFixture(
                            store,
                            new SocialGraph(target.graph()),
                            () -> target.reopener() == null
                                    ? null
                                    : target.reopener().apply(store));
                } catch (Throwable e) {
                    failedToOpen = e;
                    throw e;
                }
            }
            return fixture;
        }

        void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (fixture != null) {
                    fixture.store().close();
                }
            } finally {
                if (target.cleanup() != null) {
                    target.cleanup().close();
                }
            }
        }

        void closeQuietly() {
            try {
                close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the variant " + target.name(), e);
            }
        }
    }
}
