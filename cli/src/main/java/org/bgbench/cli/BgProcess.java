package org.bgbench.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.bgbench.runner.Interrupts;

/**
 * Commands run as child processes: {@code bg} itself (the deck's jobs, {@code bg scale}'s loads and ratings) and
 * shell commands, their output streamed line by line with a prefix.
 */
final class BgProcess {
    private BgProcess() {}

    /** This JVM, its options and class path, and BG's main class: how to start {@code bg} as a child process. */
    static List<String> bgCommand() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // not a debugger's agent: a second JVM would fight for its port
            if (!a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !a.startsWith("-Xrunjdwp")) {
                cmd.add(a);
            }
        }
        // BG's own settings given at run time (bg.state.dir, bg.live, bg.debug) hold for the children too.
        for (String name : System.getProperties().stringPropertyNames()) {
            String arg = "-D" + name + "=" + System.getProperty(name);
            if (name.startsWith("bg.") && !cmd.contains(arg)) {
                cmd.add(arg);
            }
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Bg.class.getName());
        return cmd;
    }

    /**
     * What a finished child did.
     *
     * @param exitCode      its exit code
     * @param stdout        its standard output when captured, else empty
     * @param lastErrorLine its last non-blank line on standard error, or null
     */
    record Finished(int exitCode, String stdout, String lastErrorLine) {}

    /**
     * Runs {@code command} from the current directory and waits for it; its standard error always, and its standard
     * output unless {@code capture}, go line by line to {@code out}/{@code err} after {@code prefix}. Interrupting the
     * waiting thread ends the child.
     */
    static Finished run(List<String> command, String prefix, PrintWriter out, PrintWriter err, boolean capture)
            throws IOException, InterruptedException {
        return run(command, prefix, out, err, capture, false);
    }

    /**
     * As {@link #run(List, String, PrintWriter, PrintWriter, boolean)}; with {@code stopOnInterrupt}, a Ctrl-C or
     * SIGTERM of this process is passed on to the child as SIGTERM (a {@code bg} child then stops cleanly and writes
     * what it measured), since a signal sent to this process alone (the deck's stop button) does not reach it.
     */
    static Finished run(
            List<String> command,
            String prefix,
            PrintWriter out,
            PrintWriter err,
            boolean capture,
            boolean stopOnInterrupt)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).start();
        try (Interrupts.Registration r = stopOnInterrupt ? Interrupts.onInterrupt(why -> p.destroy()) : () -> {}) {
            return finish(p, prefix, out, err, capture);
        }
    }

    private static Finished finish(Process p, String prefix, PrintWriter out, PrintWriter err, boolean capture)
            throws IOException, InterruptedException {
        p.getOutputStream().close();
        StringBuilder captured = new StringBuilder();
        AtomicReference<String> lastErr = new AtomicReference<>();
        Thread o = pump(p.getInputStream(), line -> {
            if (capture) {
                synchronized (captured) {
                    captured.append(line).append('\n');
                }
            } else {
                print(out, prefix, line);
            }
        });
        Thread e = pump(p.getErrorStream(), line -> {
            if (!line.isBlank()) {
                lastErr.set(line.strip());
            }
            print(err, prefix, line);
        });
        try {
            int code = p.waitFor();
            o.join();
            e.join();
            synchronized (captured) {
                return new Finished(code, captured.toString(), lastErr.get());
            }
        } catch (InterruptedException ex) {
            // BG's children handle SIGTERM like Ctrl-C: they write what they measured and stop.
            p.destroy();
            throw ex;
        }
    }

    /** {@code bash -c command}, as the user would type it in a shell here. */
    static List<String> shell(String command) {
        return List.of("bash", "-c", command);
    }

    private static void print(PrintWriter w, String prefix, String line) {
        synchronized (w) {
            w.println(prefix + line);
            w.flush();
        }
    }

    private static Thread pump(InputStream in, Consumer<String> lines) {
        return Thread.ofPlatform().daemon().name("bg-child-output").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.accept(line);
                }
            } catch (IOException ignored) {
                // The child ended; what it wrote was read.
            }
        });
    }
}
