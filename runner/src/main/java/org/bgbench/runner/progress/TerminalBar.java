package org.bgbench.runner.progress;

import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import me.tongfei.progressbar.DefaultProgressBarRenderer;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import me.tongfei.progressbar.ProgressState;

/**
 * A progress bar redrawn in place on one terminal line (me.tongfei:progressbar): percent, done of total, and elapsed
 * and remaining time, the remaining estimated from the rate so far. Lines printed through {@link #above} clear the bar
 * first, so they scroll above it instead of running into it.
 */
public final class TerminalBar implements AutoCloseable {
    /** Erases the current terminal line: back to its start, then clear to its end. */
    private static final String CLEAR_LINE = "\r\033[K";

    private static final int WIDTH = 100;

    /**
     * What a bar shows at its start.
     *
     * @param task    the work's name, shown first
     * @param unit    what is counted (rows, experiments, points)
     * @param total   how many make the whole work (an estimate may be raised later)
     * @param done    how many are done already
     * @param elapsed how long the work ran already
     */
    public record Start(String task, String unit, long total, long done, Duration elapsed) {
        public static Start of(String task, String unit, long total) {
            return new Start(task, unit, total, 0, Duration.ZERO);
        }
    }

    /** Bars drawing now: a load inside a sweep's reset prints its lines above the sweep's bar instead of a bar. */
    private static final AtomicInteger OPEN = new AtomicInteger();

    private final PrintWriter terminal;
    private final ProgressBar bar;
    private boolean closed;

    private TerminalBar(Start start, PrintWriter terminal) {
        this.terminal = terminal;
        this.bar = new ProgressBarBuilder()
                .setTaskName(start.task())
                .setInitialMax(Math.max(1, start.total()))
                .startsFrom(start.done(), start.elapsed())
                .setRenderer(new Counts(" " + start.unit()))
                .setConsumer(new DelegatingProgressBarConsumer(this::draw, WIDTH))
                .build();
        OPEN.incrementAndGet();
    }

    /** Whether a bar is drawing now (a second one would fight it for the line). */
    public static boolean drawing() {
        return OPEN.get() > 0;
    }

    /** Starts drawing a bar on {@code terminal}, redrawn every second until {@link #close}. */
    public static TerminalBar open(Start start, PrintWriter terminal) {
        return new TerminalBar(start, terminal);
    }

    /** Sets how many are done; raises the total when the work turned out larger than estimated. */
    public void stepTo(long done) {
        if (done > bar.getMax()) {
            bar.maxHint(done);
        }
        bar.stepTo(done);
    }

    /** Redraws the bar now. */
    public void refresh() {
        bar.refresh();
    }

    /**
     * A writer for lines that should appear above the bar: each write first clears the bar's line, each flush draws
     * the bar again below what was written.
     */
    public PrintWriter above(PrintWriter out) {
        return new PrintWriter(new Writer() {
            /** Whether the next character starts a line: only then is the bar's line cleared. */
            private boolean lineStart = true;

            @Override
            public void write(char[] buf, int off, int len) {
                if (len == 0) {
                    return;
                }
                synchronized (TerminalBar.this) {
                    if (lineStart) {
                        terminal.print(CLEAR_LINE);
                        terminal.flush();
                    }
                    out.write(buf, off, len);
                    lineStart = buf[off + len - 1] == '\n';
                }
            }

            @Override
            public void flush() {
                out.flush();
                bar.refresh();
            }

            @Override
            public void close() {
                out.flush();
            }
        });
    }

    /** Stops the bar, leaving its last drawing on its line and the cursor on the next. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        bar.close();
        OPEN.decrementAndGet();
        synchronized (this) {
            terminal.println();
            terminal.flush();
        }
    }

    private synchronized void draw(String rendered) {
        terminal.print(CLEAR_LINE + rendered);
        terminal.flush();
    }

    /** The library's rendering with the counts in thousands ("604,000/30,200,000 rows"), as BG prints counts. */
    private static final class Counts extends DefaultProgressBarRenderer {
        private final String unit;

        Counts(String unit) {
            super(ProgressBarStyle.ASCII, unit, 1, false, null, ChronoUnit.SECONDS, true, TerminalBar::remaining);
            this.unit = unit;
        }

        @Override
        protected String ratio(ProgressState s) {
            String max = s.isIndefinite() ? "?" : String.format(Locale.ROOT, "%,d", s.getMax());
            String done = String.format(Locale.ROOT, "%,d", s.getCurrent());
            return " ".repeat(Math.max(0, max.length() - done.length())) + done + "/" + max + unit;
        }
    }

    /** Time left at the rate so far over the whole elapsed time (unknown before anything is done). */
    private static Optional<Duration> remaining(ProgressState s) {
        if (s.getCurrent() <= 0) {
            return Optional.empty();
        }
        double left = (double) (s.getMax() - Math.min(s.getMax(), s.getCurrent())) / s.getCurrent();
        return Optional.of(Duration.ofMillis((long) (s.getTotalElapsed().toMillis() * left)));
    }
}
