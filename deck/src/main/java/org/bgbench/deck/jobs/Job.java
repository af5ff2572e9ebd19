package org.bgbench.deck.jobs;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * One bg command the deck started: its arguments, its output (the last lines kept), how it ended and, when it refused
 * its input, the field the message names.
 */
public final class Job {
    private static final int KEPT_LINES = 200;
    private final int id;
    private final String command;
    private final List<String> args;
    private final Path result;
    private final Process process;
    private final long startedMillis = System.currentTimeMillis();
    private final Deque<String> lines = new ArrayDeque<>();
    private volatile Integer exitCode;
    private volatile FieldError error;

    Job(int id, String command, List<String> args, Path result, Process process) {
        this.id = id;
        this.command = command;
        this.args = List.copyOf(args);
        this.result = result;
        this.process = process;
    }

    /** A message of bg's that names the parameter it refuses. */
    public record FieldError(String field, String message) {}

    public int id() {
        return id;
    }

    public String command() {
        return command;
    }

    public List<String> args() {
        return args;
    }

    /** The result file (a run) or directory (a rating) this job writes, relative to the runs directory's parent. */
    public Path result() {
        return result;
    }

    public Process process() {
        return process;
    }

    /**
     * Sends the command SIGTERM (BG stops like on Ctrl-C and keeps what it measured). Through the process handle:
     * {@link Process#destroy()} also closes the command's output, and what BG prints while it stops would be lost.
     */
    public void stop() {
        process.toHandle().destroy();
    }

    public long startedMillis() {
        return startedMillis;
    }

    public Integer exitCode() {
        return exitCode;
    }

    public FieldError error() {
        return error;
    }

    synchronized void line(String line) {
        lines.addLast(line);
        if (lines.size() > KEPT_LINES) {
            lines.removeFirst();
        }
    }

    public synchronized List<String> lines() {
        return new ArrayList<>(lines);
    }

    void ended(int code, FieldError error) {
        this.error = error;
        this.exitCode = code;
    }
}
