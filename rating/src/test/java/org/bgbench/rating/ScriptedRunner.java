package org.bgbench.rating;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic series of measured points: for each (T, duration) the throughputs its runs measure, in order (the
 * last one repeats). A point scripted as missing the SLA measures 50 % within β. Counts every run it was asked for.
 */
final class ScriptedRunner implements ExperimentRunner {
    private record Key(int threads, Duration duration) {}

    private record Point(double throughput, boolean meets) {}

    private final Map<Key, Deque<Point>> script = new HashMap<>();
    private final List<String> calls = new ArrayList<>();

    /** Runs of T for {@code d} measure these throughputs in turn, each meeting the SLA. */
    ScriptedRunner meets(int threads, Duration d, double... throughputs) {
        Deque<Point> q = script.computeIfAbsent(new Key(threads, d), k -> new ArrayDeque<>());
        for (double x : throughputs) {
            q.add(new Point(x, true));
        }
        return this;
    }

    /** Runs of T for {@code d} miss the SLA (50 % within β) with this throughput. */
    ScriptedRunner misses(int threads, Duration d, double throughput) {
        script.computeIfAbsent(new Key(threads, d), k -> new ArrayDeque<>()).add(new Point(throughput, false));
        return this;
    }

    /** The runs asked for, as {@code T@duration}. */
    List<String> calls() {
        return calls;
    }

    @Override
    public Measurement run(int threads, Duration duration) {
        calls.add(threads + "@" + duration.toSeconds() + "s");
        Deque<Point> q = script.get(new Key(threads, duration));
        if (q == null || q.isEmpty()) {
            throw new IllegalStateException("no point scripted for T=" + threads + " over " + duration);
        }
        Point p = q.size() > 1 ? q.poll() : q.peek();
        double seconds = duration.toNanos() / 1e9;
        return new Measurement(
                p.throughput(), p.meets() ? 99 : 50, 0, 0, Math.round(p.throughput() * seconds), seconds);
    }
}
