package org.bgbench.scaling.elasticity;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.bgbench.store.SchedulingPolicy;

/**
 * Growth by the user's shell commands ({@code bash -c}, from the current directory): the add commands run one after
 * the other on their own thread while the request sets go on; the optional settled command is run after each point
 * once they ended, and the data counts as settled when it exits 0. Their output goes to a log file, so a failure can be
 * read in full; its last line is in the failure reason.
 */
public final class ShellGrowth implements Growth {
    /** How long one run of the settled command may take. */
    private static final long SETTLED_TIMEOUT_S = 120;

    private final List<String> commands;
    private final String settledCommand;
    private final Path log;
    private volatile DoubleSupplier seconds;
    private final List<Step> steps = new ArrayList<>();
    private volatile boolean ended;
    private volatile String failure;

    public ShellGrowth(List<String> commands, String settledCommand, Path log) {
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("no add command");
        }
        this.commands = List.copyOf(commands);
        this.settledCommand = settledCommand;
        this.log = log;
    }

    @Override
    public void begin(DoubleSupplier now) {
        seconds = now;
        Thread.ofPlatform().daemon().name("bg-add-nodes").start(() -> {
            try {
                for (String c : commands) {
                    double start = seconds.getAsDouble();
                    synchronized (steps) {
                        steps.add(new Step(c, start, -1, null));
                    }
                    int exit = run(c, 0);
                    synchronized (steps) {
                        steps.set(steps.size() - 1, new Step(c, start, seconds.getAsDouble(), exit));
                    }
                    if (exit != 0) {
                        failure = "the add command '" + c + "' exited with " + exit + lastLine();
                        return;
                    }
                }
            } catch (IOException | RuntimeException e) {
                failure = "the add command could not run: " + e.getMessage();
            } catch (InterruptedException e) {
                failure = "interrupted while adding nodes";
                Thread.currentThread().interrupt();
            } finally {
                ended = true;
            }
        });
    }

    @Override
    public boolean ended() {
        return ended;
    }

    @Override
    public String failure() {
        return failure;
    }

    @Override
    public boolean settled() {
        if (settledCommand == null) {
            return true;
        }
        try {
            return run(settledCommand, SETTLED_TIMEOUT_S) == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public List<Step> steps() {
        synchronized (steps) {
            return List.copyOf(steps);
        }
    }

    /** Runs {@code command} with its output appended to the log; its exit status (−1 when it timed out and was killed). */
    private int run(String command, long timeoutSeconds) throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Files.writeString(
                log, "$ " + command + System.lineSeparator(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        // An add starts store nodes: they get the normal scheduling policy, not BG's batch one (SchedulingPolicy).
        Process p = new ProcessBuilder(SchedulingPolicy.forStoreServer(List.of("bash", "-c", command)))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (timeoutSeconds > 0) {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        }
        return p.waitFor();
    }

    private String lastLine() {
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return ": " + lines.get(i).strip() + " (all its output: " + log + ")";
                }
            }
        } catch (IOException ignored) {
            // the reason stands without the line
        }
        return " (its output: " + log + ")";
    }
}
