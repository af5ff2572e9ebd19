package org.bgbench.runner;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/**
 * What T emulated members cost BG at the least, checked against what this JVM has before a run marks the store: a
 * T that cannot fit is refused as bad input naming {@code --threads}, instead of failing with an OutOfMemoryError or
 * "too many open files" halfway through setting the run up.
 *
 * <p>Each member costs the heap its thread (a virtual thread's stack is on the heap), its slot of the in-flight
 * table, its session's bookkeeping and its random generator and comment text; with validation logs also a log
 * buffer (direct memory, which the JVM bounds by the heap's maximum by default) and an open file. The store's own
 * session comes on top and is not counted: this is a floor, so a T it passes may still not fit a store whose
 * sessions are large, but a T it refuses never fits.
 */
public final class MemberBudget {
    /** Heap per member without logs, rounded up from a heap histogram of a run of 50,000 virtual threads. */
    static final long HEAP_PER_MEMBER = 4L << 10;
    /** Files BG keeps open besides the members' logs: the store's, the result's, the JDK's. */
    static final long OTHER_FILES = 256;

    private MemberBudget() {}

    /**
     * Refuses {@code threads} members when they cannot fit in what is left of BG's heap, or, with {@code logs},
     * when their log files exceed the files this process may still open.
     *
     * @param logBufferBytes each member's validation log buffer, 0 without validation logs
     */
    public static void check(int threads, boolean logs, long logBufferBytes) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        long free = max - (rt.totalMemory() - rt.freeMemory());
        long each = HEAP_PER_MEMBER + (logs ? logBufferBytes : 0);
        if ((double) threads * each > free) {
            double gib = 1L << 30;
            throw new InvalidParameterException(
                    "--threads",
                    String.format(
                            Locale.ROOT,
                            "T=%d members need at "
                                    + "least %.1f GiB of BG's heap%s, and BG has %.1f GiB of its %.1f GiB left: at most about %,d "
                                    + "here; give BG more (BG_JAVA_OPTS=-Xmx%dg) or emulate fewer",
                            threads,
                            threads * (double) each / gib,
                            logs ? " with their validation logs" : "",
                            free / gib,
                            max / gib,
                            free / each,
                            (long) Math.ceil((max - free + threads * (double) each) / 0.8 / gib)));
        }
        if (logs && ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
            long left = os.getMaxFileDescriptorCount() - os.getOpenFileDescriptorCount() - OTHER_FILES;
            if (threads > left) {
                throw new InvalidParameterException(
                        "--threads",
                        String.format(
                                Locale.ROOT,
                                "T=%d members each "
                                        + "write a validation log file, and BG may open about %,d more files (ulimit -n %,d): at "
                                        + "most about %,d here; raise the limit (ulimit -n), emulate fewer, or run without "
                                        + "validation (-p validation=false)",
                                threads,
                                Math.max(0, left),
                                os.getMaxFileDescriptorCount(),
                                Math.max(0, left)));
            }
        }
    }
}
