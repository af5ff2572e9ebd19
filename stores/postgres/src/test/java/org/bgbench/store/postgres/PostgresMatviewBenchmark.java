package org.bgbench.store.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.ProfileView;
import org.bgbench.store.StoreSession;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Service times of VP, IF and RFR on one thread, basic design vs materialized view (synchronous and 1 s refresh), on
 * M=1,000, φ=ρ=100, no images, each in a fresh embedded PostgreSQL. Prints figures only; run with
 * {@code -Dbg.matviewbench=true -Dtest=PostgresMatviewBenchmark}.
 */
@EnabledIfSystemProperty(named = "bg.matviewbench", matches = "true")
class PostgresMatviewBenchmark {
    private static final int VPS = 5000;
    private static final int WRITES = 300;

    @Test
    void basicVersusMatview() {
        SocialGraph graph = new SocialGraph(GraphSpec.defaults().withMembers(1000));
        System.out.printf(
                "M=%d phi=%d rho=%d, one thread, %d VP and %d IF+RFR each%n",
                graph.members(), graph.spec().friendsPerMember(), graph.resourcesPerMember(), VPS, WRITES);
        for (int round = 0; round < 2; round++) {
            // A fresh server per design: hundreds of concurrent refreshes slow a server down for whatever follows.
            run("basic", PostgresStore.Design.BASIC, null, graph);
            run("matview sync", PostgresStore.Design.MATVIEW, null, graph);
            run("matview 1s", PostgresStore.Design.MATVIEW, Duration.ofSeconds(1), graph);
        }
    }

    private static void run(String name, PostgresStore.Design design, Duration refresh, SocialGraph graph) {
        try (PostgresStore store = PostgresStore.open(PostgresConfig.embedded()
                .pool(4)
                .design(design)
                .refresh(refresh)
                .build())) {
            measure(name, store, graph);
        }
    }

    private static void measure(String name, PostgresStore store, SocialGraph graph) {
        StoreConformanceSuite.load(store, graph, 2);
        GraphState state = new GraphState(graph);
        SplittableRandom rnd = new SplittableRandom(1);
        List<int[]> pairs = new ArrayList<>();
        while (pairs.size() < WRITES) {
            int a = rnd.nextInt(graph.members());
            int fragment = graph.fragmentOf(a);
            int b = graph.fragmentStart(fragment) + rnd.nextInt(graph.fragmentSize(fragment));
            if (a != b && state.relation(a, b) == Relation.NONE) {
                pairs.add(new int[] {a, b});
            }
        }
        try (StoreSession s = store.openSession()) {
            ProfileView p = new ProfileView(graph.attributeCount());
            for (int i = 0; i < 1000; i++) {
                int id = graph.memberId(rnd.nextInt(graph.members()));
                s.viewProfile(id, id, p);
            }
            long[] vp = new long[VPS];
            for (int i = 0; i < VPS; i++) {
                int id = graph.memberId(rnd.nextInt(graph.members()));
                long t0 = System.nanoTime();
                s.viewProfile(id, id, p);
                vp[i] = System.nanoTime() - t0;
            }
            long[] invite = new long[WRITES];
            long[] reject = new long[WRITES];
            for (int i = 0; i < WRITES; i++) {
                int a = graph.memberId(pairs.get(i)[0]);
                int b = graph.memberId(pairs.get(i)[1]);
                long t0 = System.nanoTime();
                s.inviteFriend(a, b);
                long t1 = System.nanoTime();
                s.rejectFriendRequest(b, a);
                long t2 = System.nanoTime();
                invite[i] = t1 - t0;
                reject[i] = t2 - t1;
            }
            System.out.printf("%-13s VP %s | IF %s | RFR %s%n", name, stats(vp), stats(invite), stats(reject));
        }
    }

    private static String stats(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0) / 1e6;
        return String.format(
                "mean %.3f p50 %.3f p95 %.3f ms", mean, s[s.length / 2] / 1e6, s[(int) (s.length * 0.95)] / 1e6);
    }
}
