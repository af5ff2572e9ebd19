package org.bgbench.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a shell script once this JVM is gone, however it ended (SIGKILL, a crash), unless released first: for a server
 * BG started and must stop, which would otherwise outlive a killed BG. The watchdog is a {@code sh} that reads a pipe
 * from this JVM until the kernel closes it, then runs the script; it ignores SIGINT and SIGHUP (a Ctrl-C on the
 * terminal reaches BG, which then stops the server itself and releases the watch).
 */
public final class DeathWatch {
    private static final String WAIT = "trap '' INT HUP\nwhile read -r line; do :; done\n";
    private final Process watchdog;

    private DeathWatch(Process watchdog) {
        this.watchdog = watchdog;
    }

    /**
     * Starts a watchdog that runs {@code script} (POSIX sh, its arguments as {@code $1 …}) when this JVM is gone, in
     * this JVM's working directory and environment, its output discarded.
     */
    public static DeathWatch start(String script, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", WAIT + script, "bg-death-watch"));
        cmd.addAll(List.of(args));
        return new DeathWatch(new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start());
    }

    /** The script is not needed any more (BG stopped the server itself): ends the watchdog without running it. */
    public void release() {
        watchdog.destroy();
        try {
            watchdog.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The watchdog's process, for tests. */
    public ProcessHandle process() {
        return watchdog.toHandle();
    }
}
