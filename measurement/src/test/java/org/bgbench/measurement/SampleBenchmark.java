package org.bgbench.measurement;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.bgbench.measurement.resource.ResourceMonitor;

/**
 * Manual micro benchmark of the once-a-second sample (not a test; run its main): the CPU one {@link
 * Measurements#sample()} costs the sampler thread when a run records {@code K} kinds (argument, default 1 and 8: List
 * Friends alone and the high mix), without the resource monitor's reading of /proc, so the figure is the stripes' and
 * the interval histograms' alone. Prints the CPU of each of 30 samples' last 20 (the first ones run interpreted).
 */
public final class SampleBenchmark {
    public static void main(String[] args) {
        int[] kindCounts = args.length == 0
                ? new int[] {1, 8}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        SplittableRandom random = new SplittableRandom(7);
        for (int kinds : kindCounts) {
            try (Measurements m = Measurements.builder()
                    .threads(4)
                    .stripes(4)
                    .resourceMonitor(ResourceMonitor.create(List.of()))
                    .build()) {
                m.startMeasuring();
                long[] costs = new long[30];
                for (int s = 0; s < costs.length; s++) {
                    for (int t = 0; t < 4; t++) {
                        Recorder r = m.recorder(t);
                        for (int i = 0; i < 5_000; i++) {
                            // 0.1-20 ms, log-uniform: many slots per kind, as real latencies.
                            r.ok(i % kinds, (long) (100_000 * Math.pow(200, random.nextDouble())));
                        }
                    }
                    long before = cpu.getCurrentThreadCpuTime();
                    m.sample();
                    costs[s] = cpu.getCurrentThreadCpuTime() - before;
                }
                long[] last = Arrays.copyOfRange(costs, 10, costs.length);
                Arrays.sort(last);
                System.out.printf(
                        Locale.ROOT,
                        "%d kinds: sample() CPU median %.2f ms, min %.2f, max %.2f%n",
                        kinds,
                        last[last.length / 2] / 1e6,
                        last[0] / 1e6,
                        last[last.length - 1] / 1e6);
            }
        }
    }

    private SampleBenchmark() {}
}
