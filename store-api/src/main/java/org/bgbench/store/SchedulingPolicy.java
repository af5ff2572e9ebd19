package org.bgbench.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Linux scheduling policy BG's process runs under, and the one the store servers it starts get.
 *
 * <p>BG runs at the normal policy; with {@code BG_SCHED=batch} (an opt-in) the {@code bg} launcher starts it as
 * {@code SCHED_BATCH} ({@code chrt --batch 0}). A batch thread woken by its store's reply does not preempt the task
 * running on that core (usually one of the store's own processes); it runs when that task blocks or its slice ends
 * (docs/benchmarks.md, "BG yields the core to the store"). The policy is inherited by child processes, so only when BG
 * runs as batch is a store server BG starts put back to the normal policy: the store is measured as it would run
 * without BG beside it. At the normal policy both methods leave everything as it is.
 */
public final class SchedulingPolicy {
    /** The policy names by the kernel's numbers (sched.h): SCHED_OTHER is "normal". */
    private static final String[] NAMES = {"normal", "fifo", "rr", "batch", "iso", "idle", "deadline", "ext"};

    private SchedulingPolicy() {}

    /** This process's policy ({@code /proc/self/stat}), e.g. "normal" or "batch"; "unknown" off Linux. */
    public static String current() {
        return read(Path.of("/proc/self/stat"));
    }

    /** The policy of process (or thread) {@code pid}, as {@link #current}; "unknown" when it is gone. */
    public static String of(long pid) {
        return read(Path.of("/proc", Long.toString(pid), "stat"));
    }

    private static String read(Path stat) {
        try {
            return fromStat(Files.readString(stat));
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * The policy in a {@code /proc/PID/stat} line: field 41, counted after the command name, which is in parentheses
     * and may itself hold spaces and parentheses.
     */
    static String fromStat(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return "unknown";
        }
        String[] f = stat.substring(close + 1).trim().split("\\s+");
        // f[0] is field 3 (state), so field 41 is f[38].
        if (f.length < 39) {
            return "unknown";
        }
        int policy = Integer.parseInt(f[38]);
        return policy >= 0 && policy < NAMES.length ? NAMES[policy] : "policy " + policy;
    }

    /** Whether BG runs at a policy its store servers must not inherit. */
    private static boolean lowered() {
        String p = current();
        return p.equals("batch") || p.equals("idle");
    }

    /**
     * The command to start a store server (or a script that starts one) with: under {@code chrt --other 0} when BG
     * itself runs as a batch process, so the server does not inherit that; the command unchanged otherwise.
     */
    public static List<String> forStoreServer(List<String> command) {
        if (!lowered() || !Chrt.AVAILABLE) {
            return command;
        }
        List<String> c = new ArrayList<>(List.of("chrt", "--other", "0"));
        c.addAll(command);
        return c;
    }

    /**
     * Puts a running store server back to the normal policy when BG runs as a batch process: all threads of process
     * {@code pid} and of the processes it has started (e.g. PostgreSQL's background processes); the children it starts
     * later inherit that. Best effort: returns why, when it could not.
     */
    public static Optional<String> resetStoreServer(long pid) {
        if (!lowered()) {
            return Optional.empty();
        }
        if (!Chrt.AVAILABLE) {
            return Optional.of("chrt is not installed");
        }
        List<Long> pids = new ArrayList<>(List.of(pid));
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        String failed = null;
        for (long p : pids) {
            String why = chrt("--other", "--all-tasks", "--pid", "0", Long.toString(p));
            // A child that ended meanwhile has nothing left to reset.
            if (why != null
                    && failed == null
                    && (p == pid || ProcessHandle.of(p).isPresent())) {
                failed = why;
            }
        }
        return Optional.ofNullable(failed);
    }

    /** Runs chrt; null when it succeeded, otherwise why not. */
    private static String chrt(String... args) {
        List<String> cmd = new ArrayList<>(List.of("chrt"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "chrt did not finish";
            }
            return p.exitValue() == 0 ? null : "chrt exited with " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** Whether util-linux's chrt can be run (looked up once). */
    private static final class Chrt {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            try {
                Process p = new ProcessBuilder("chrt", "--other", "0", "true")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
