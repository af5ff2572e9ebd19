package org.bgbench.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.runner.Parameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        header = "Benchmark the graph generator without a store.",
        description = "Benchmark the graph generator without a store: generate every member's attributes, images, "
                + "relationships, resources and comments; report members/s and the heap BG's expected state takes.")
final class GenerateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Graph parameter; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--threads", paramLabel = "N", description = "Generator threads (default: cores).")
    Integer threads;

    @Option(
            names = "--writes",
            paramLabel = "N",
            defaultValue = "0",
            description = "Random valid friendship writes applied to the "
                    + "expected state before measuring its heap again (default ${DEFAULT-VALUE}).")
    long writes;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (threads != null && threads < 1) {
            throw new InvalidParameterException("--threads", "must be at least 1, got " + threads);
        }
        if (writes < 0) {
            throw new InvalidParameterException("--writes", "must be 0 or more, got " + writes);
        }
        Parameters params = Parameters.of(List.of(), overrides);
        params.check(GraphParameters.KEYS.keySet(), Keys.IGNORED_USC);
        SocialGraph g = new SocialGraph(GraphParameters.toSpec(params.asMap()));
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        AtomicLong items = new AtomicLong();
        AtomicLong sink = new AtomicLong();
        long t0 = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int from = (int) ((long) g.members() * t / n);
            int to = (int) ((long) g.members() * (t + 1) / n);
            workers.add(Thread.ofPlatform().start(() -> {
                String[] attrs = new String[g.attributeCount()];
                long local = 0;
                long h = 0;
                for (int i = from; i < to; i++) {
                    g.attributes(i, attrs);
                    h += attrs[0].length();
                    byte[] thumb = g.thumbnail(i);
                    byte[] pic = g.profileImage(i);
                    h += thumb == null ? 0 : thumb.length + pic.length;
                    long[] rel = {0};
                    g.forEachStartedRelationship(i, (a, b, c) -> rel[0] += b + (c ? 1 : 0));
                    h += rel[0];
                    for (int j = 0; j < g.resourcesPerMember(); j++) {
                        long rid = g.resourceId(i, j);
                        h += g.resourceBody(rid).length() + g.resourceType(rid).length();
                        for (int k = 0; k < g.spec().commentsPerResource(); k++) {
                            h += g.commentContent(g.commentId(rid, k)).length();
                        }
                    }
                    local++;
                }
                items.addAndGet(local);
                sink.addAndGet(h);
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        out.printf(
                "Generated M=%,d φ=%d ρ=%d%s on %d threads in %.2f s: %,.0f members/s (checksum %d)%n",
                g.members(),
                g.spec().friendsPerMember(),
                g.resourcesPerMember(),
                g.spec().images() ? " with images" : "",
                n,
                seconds,
                items.get() / seconds,
                sink.get() & 0xffff);

        long before = usedHeap();
        GraphState state = new GraphState(g);
        long initial = usedHeap() - before;
        out.printf("Expected state, initial: %.1f MB of heap%n", initial / 1e6);
        if (writes > 0) {
            SplittableRandom rnd = new SplittableRandom(1);
            long done = 0;
            for (long w = 0; w < writes; w++) {
                int a = rnd.nextInt(g.members());
                int b = g.fragmentStart(g.fragmentOf(a)) + rnd.nextInt(g.fragmentSize(g.fragmentOf(a)));
                Relation r = state.relation(a, b);
                if (r == Relation.NONE && a != b) {
                    state.invite(a, b);
                    done++;
                } else if (r == Relation.FRIENDS) {
                    state.thaw(a, b);
                    done++;
                }
            }
            long after = usedHeap() - before;
            out.printf(
                    "Expected state after %,d writes touching %,d members: %.1f MB of heap%n",
                    done, state.touchedMembers(), after / 1e6);
        }
        out.printf("Max heap %.0f MB%n", Runtime.getRuntime().maxMemory() / 1e6);
        return 0;
    }

    /** Heap in use after a full collection: the live size of what is reachable. */
    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
