package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.bgbench.rating.Experiment;
import org.bgbench.rating.RatingListener;
import org.bgbench.runner.progress.TerminalBar;
import org.bgbench.runner.rating.RatingRunner;

/** A rating's table on the terminal: one row per experiment as it finishes, and the search's warnings. */
final class ExperimentRows implements RatingListener {
    private final PrintWriter stdout;
    private final PrintWriter err;
    private final String x;
    private final RatingRunner runner;
    private final TerminalBar bar;
    private long finished;

    private ExperimentRows(PrintWriter stdout, PrintWriter err, String x, RatingRunner runner, TerminalBar bar) {
        this.stdout = stdout;
        this.err = err;
        this.x = x;
        this.runner = runner;
        this.bar = bar;
    }

    /**
     * Prints the table's header and returns the listener of its rows.
     *
     * @param x   the column of what the search varies: "T" (threads) or "rate" (the open model's arrival rate)
     * @param bar moved on by one per experiment; null without a progress bar
     */
    static ExperimentRows start(PrintWriter stdout, PrintWriter err, String x, RatingRunner runner, TerminalBar bar) {
        stdout.printf("%4s %9s %12s %9s %14s %7s  %s%n", "#", x, "actions/s", "≤β %", "unpredictable", "ok", "phase");
        stdout.flush();
        return new ExperimentRows(stdout, err, x, runner, bar);
    }

    @Override
    public void experimentFinished(Experiment e) {
        stdout.printf(
                Locale.ROOT,
                "%4d %9s %,12.0f %9.2f %14s %7s  %s%n",
                e.index(),
                x.equals("T") ? Integer.toString(e.threads()) : runner.rate(e.threads()),
                e.throughput(),
                e.measurement().withinBetaPct(),
                e.measurement().validationIncomplete() != null
                        ? "incomplete"
                        : String.format(Locale.ROOT, "%.4f%%", e.measurement().unpredictablePct()),
                e.success() ? "yes" : "no",
                e.phase());
        stdout.flush();
        if (bar != null) {
            bar.stepTo(++finished);
        }
    }

    @Override
    public void warning(String w) {
        err.println("bg: warning: " + w);
    }
}
