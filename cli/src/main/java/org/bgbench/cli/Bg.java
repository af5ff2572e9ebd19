package org.bgbench.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.cluster.rpc.WorkerException;
import org.bgbench.deck.live.LiveFile;
import org.bgbench.loader.LoadException;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.observe.Observers;
import org.bgbench.runner.progress.ProgressOutput;
import org.bgbench.store.ErrorText;
import org.bgbench.store.StoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code bg} command. */
@Command(
        name = "bg",
        mixinStandardHelpOptions = true,
        version = "BG 0.1.0",
        header = "Rates data stores for interactive social-networking actions.",
        description = "Start with 'bg quickstart'; 'bg COMMAND --help' describes each command.",
        // In the order a user needs them: try, load, measure, rate, check; then workers and studies; tools last.
        subcommands = {
            QuickstartCommand.class,
            LoadCommand.class,
            RunCommand.class,
            RateCommand.class,
            DeltaCommand.class,
            SweepCommand.class,
            ValidateCommand.class,
            VerifyCommand.class,
            CompareCommand.class,
            DeckCommand.class,
            WorkerCommand.class,
            ShutdownCommand.class,
            ScaleCommand.class,
            ElasticityCommand.class,
            StudyCommand.class,
            BreakevenCommand.class,
            StoresCommand.class,
            KeysCommand.class,
            DzipfCommand.class,
            GenerateCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Bg {
    /** Exit code for bad input (unknown key, bad value, wrong usage). */
    public static final int BAD_INPUT = 2;
    /** Exit code for a store or load that failed. */
    public static final int FAILED = 1;

    private static boolean liveFiles;

    /**
     * Every experiment writes its seconds to a live file beside its result, for the deck (once per process);
     * {@code -Dbg.live=false} turns it off (to measure what it costs).
     */
    private static synchronized void writeLiveFiles() {
        if (!liveFiles && Boolean.parseBoolean(System.getProperty("bg.live", "true"))) {
            Observers.register(new LiveFile());
            liveFiles = true;
        }
    }

    public static void main(String[] args) {
        // Before any library makes a logger: each of their log records becomes one line (LibraryLog).
        LibraryLog.install();
        Signals.install();
        // Only bg's own process draws progress bars, and only on a terminal; Bg.run from tests keeps the lines.
        ProgressOutput.useTerminal(ProgressOutput.terminal());
        int code = run(args);
        // Stopped by a signal: the command finished cleanly (result, state and logs written), so exit as the signal
        // would have, and a script sees that the run did not end by itself.
        System.exit(Signals.exitCode(code));
    }

    public static int run(String... args) {
        return run(null, null, args);
    }

    /** Runs {@code bg} with its output and errors going to the given writers (null: the console). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        writeLiveFiles();
        CommandLine cl = commandLine();
        if (out != null) {
            cl.setOut(out);
        }
        if (err != null) {
            cl.setErr(err);
        }
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (Boolean.getBoolean("bg.debug") || System.getenv("BG_DEBUG") != null) {
                e.printStackTrace(cmd.getErr());
            }
            cmd.getErr().println("bg: error: " + describe(e));
            return e instanceof InvalidParameterException ? BAD_INPUT : FAILED;
        });
        cl.setExitCodeExceptionMapper(e -> BAD_INPUT);
        // Bad options (an unknown option, a value picocli cannot convert) get one line like every other error, with
        // picocli's suggestion for a mistyped command, instead of the whole usage.
        cl.setParameterExceptionHandler((e, badArgs) -> {
            PrintWriter w = e.getCommandLine().getErr();
            w.println("bg: error: " + e.getMessage() + " (see '"
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            CommandLine.UnmatchedArgumentException.printSuggestions(e, w);
            return BAD_INPUT;
        });
        // With --help picocli skips its check for unmatched arguments, so 'bg nosuch --help' printed bg's usage and
        // exited 0: a script probing for a command got a wrong answer. Refuse them as 'bg nosuch' does (exit 2).
        cl.setExecutionStrategy(parsed -> {
            for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
                if (!p.unmatched().isEmpty()) {
                    throw new CommandLine.UnmatchedArgumentException(
                            p.commandSpec().commandLine(), p.unmatched());
                }
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            // A size BG could not check beforehand (a store's sessions, a result): one line, as for every failure.
            cl.getErr()
                    .println("bg: error: BG ran out of memory (" + e.getMessage() + "); give it more "
                            + "(BG_JAVA_OPTS=-Xmx…, now "
                            + (Runtime.getRuntime().maxMemory() >> 20) + " MiB) or ask for less");
            return FAILED;
        } finally {
            // The console writers picocli makes are buffered: flush them, or what a command printed without a
            // newline (or before System.exit) is lost.
            cl.getOut().flush();
            cl.getErr().flush();
        }
    }

    /** The {@code bg} command tree with its help laid out in sections ({@link HelpSections}). */
    static CommandLine commandLine() {
        return HelpSections.apply(new CommandLine(new Bg()));
    }

    static String describe(Throwable e) {
        if (e instanceof StoreException || e instanceof LoadException) {
            return words(e);
        }
        if (e instanceof InvalidParameterException
                || e instanceof ClusterCoordinator.ClusterException
                || e instanceof WorkerException) {
            return e.getMessage();
        }
        // Never a class name: the user gets what went wrong, and the stack trace on request.
        String m = e.getMessage();
        if (e instanceof UncheckedIOException && m != null) {
            return words(e);
        }
        return (m == null || m.isBlank() ? "an unexpected failure inside BG (a bug; please report it)" : words(e))
                + " (set BG_DEBUG=1 for the stack trace)";
    }

    /** BG's own message without the class names a driver's text may have brought in, else the cause in words. */
    private static String words(Throwable e) {
        return ErrorText.message(e);
    }
}
