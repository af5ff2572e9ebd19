package org.bgbench.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Why {@code mongodb.document-locks} exists: FerretDB v1 applies an update by reading the document and writing it back,
 * so concurrent updates of one document overwrite each other (MongoDB applies each atomically). 8 threads each invite
 * one member 40 times; every invitation must be in her pending array.
 */
@Tag("server")
class MongoDocumentLocksTest {
    private static final int THREADS = 8;
    private static final int EACH = 40;

    @ParameterizedTest
    @EnumSource(FerretServer.Backend.class)
    void withDocumentLocksNoConcurrentUpdateIsLost(FerretServer.Backend backend) throws Exception {
        assumeFalse(MongoStores.realServer(), "about FerretDB");
        String db = "bg_locks_" + backend.name().toLowerCase(Locale.ROOT);
        int without = invitationsKept(backend, db, false);
        int with = invitationsKept(backend, db, true);
        // FerretDB's defect, the premise of the setting: when a FerretDB release keeps them all, the README's
        // advice to set mongodb.document-locks=true for it must change.
        assertThat(without)
                .as("invitations FerretDB kept without document locks")
                .isLessThan(THREADS * EACH);
        assertThat(with).as("invitations kept with document locks").isEqualTo(THREADS * EACH);
    }

    private static int invitationsKept(FerretServer.Backend backend, String db, boolean locks) throws Exception {
        GraphSpec spec = GraphSpec.builder()
                .members(30)
                .memberIdOffset(1000)
                .friendsPerMember(4)
                .resourcesPerMember(2)
                .commentsPerResource(1)
                .confirmedFraction(0.7)
                .attributeLength(1)
                .commentLength(40)
                .fragments(2)
                .seed(42)
                .build();
        SocialGraph graph = new SocialGraph(spec);
        try (MongoStore s =
                MongoStores.open(backend, db, Map.of(MongoStoreProvider.DOCUMENT_LOCKS, Boolean.toString(locks)))) {
            StoreConformanceSuite.load(s, graph, 1);
            int invitee = graph.memberId(0);
            int before = pending(s, invitee);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < THREADS; t++) {
                int base = 1_000_000 + t * EACH;
                threads.add(Thread.ofPlatform().start(() -> {
                    try (StoreSession session = s.openSession()) {
                        start.await();
                        for (int i = 0; i < EACH; i++) {
                            session.inviteFriend(base + i, invitee);
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(failures).isEmpty();
            return pending(s, invitee) - before;
        }
    }

    private static int pending(MongoStore s, int member) {
        try (StoreSession session = s.openConsistentSession()) {
            ProfileView p = new ProfileView(11);
            session.viewProfile(member, member, p);
            return p.pendingCount;
        }
    }
}
