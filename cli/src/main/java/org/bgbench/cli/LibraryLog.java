package org.bgbench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Timer;
import java.util.TimerTask;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.regex.Pattern;

/**
 * Where every library's logging ends (the connection pool, the JDBC and NoSQL drivers, the embedded PostgreSQL,
 * gRPC, Netty): they log through SLF4J, bound to java.util.logging by slf4j-jdk14, or through java.util.logging
 * itself, and this handler prints each record as one line, {@code bg: <library>: <message>: <its root cause in
 * words>}, without exception class names or a stack trace (with {@code BG_DEBUG=1} the stack trace follows the line).
 * A record like one printed in the last ten seconds (the same logger and message but for numbers) is counted instead, and the count printed as {@code … (and 37 more
 * like it)} when those seconds end, so a restarted server costs a handful of lines, not one per pooled connection.
 * The levels per library are in {@code bg-logging.properties}.
 */
public final class LibraryLog extends Handler {
    private static final String CONFIG = "/bg-logging.properties";
    /** What a logger's name starts with, and the library the line names. Longer prefixes first. */
    private static final List<Map.Entry<String, String>> LIBRARIES = List.of(
            Map.entry("org.bgbench.", ""),
            Map.entry("com.zaxxer.hikari", "connection pool"),
            Map.entry("org.postgresql", "PostgreSQL driver"),
            Map.entry("io.zonky", "embedded PostgreSQL"),
            Map.entry("org.mariadb", "MariaDB driver"),
            Map.entry("org.sqlite", "SQLite driver"),
            Map.entry("com.datastax.oss.driver", "Cassandra driver"),
            Map.entry("org.apache.cassandra", "Cassandra driver"),
            Map.entry("com.mongodb", "MongoDB driver"),
            Map.entry("org.mongodb.driver", "MongoDB driver"),
            Map.entry("org.apache.hadoop.hbase", "HBase client"),
            Map.entry("org.apache.hadoop", "Hadoop"),
            Map.entry("org.apache.zookeeper", "ZooKeeper"),
            Map.entry("io.lettuce", "Redis client"),
            Map.entry("net.rubyeye.xmemcached", "memcached client"),
            Map.entry("com.google.code.yanf4j", "memcached client"),
            Map.entry("io.grpc", "gRPC"),
            Map.entry("io.netty", "Netty"),
            Map.entry("io.prometheus", "Prometheus"));
    /** A class name with its package ({@code org.postgresql.jdbc.PgConnection}), and an object's {@code @1a2b3c}. */
    private static final Pattern QUALIFIED = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][\\w$]*)(?:@[0-9a-f]+)?");
    /** An exception's simple class name, with the colon after it ({@code ConnectException: }). */
    private static final Pattern EXCEPTION = Pattern.compile("\\b[A-Z]\\w*(?:Exception|Error)\\b:?\\s*");

    private static final Pattern EMPTY_PARENS = Pattern.compile("\\s*\\(\\s*\\)");

    private final PrintStream out;
    private final boolean stackTraces;
    private final long windowNanos;
    private final Formatter messages = new Formatter() {
        @Override
        public String format(LogRecord r) {
            return formatMessage(r);
        }
    };
    /** The lines printed in the current window of each, by what they are like; how many more were counted. */
    private final Map<String, Repeat> recent = new LinkedHashMap<>();

    private Timer timer;

    private static final class Repeat {
        final String line;
        final long since;
        int more;

        Repeat(String line, long since) {
            this.line = line;
            this.since = since;
        }
    }

    /** The handler bg-logging.properties names: to stderr, stack traces with BG_DEBUG (or -Dbg.debug=true). */
    public LibraryLog() {
        this(System.err, Boolean.getBoolean("bg.debug") || System.getenv("BG_DEBUG") != null, Duration.ofSeconds(10));
    }

    LibraryLog(PrintStream out, boolean stackTraces, Duration window) {
        this.out = out;
        this.stackTraces = stackTraces;
        this.windowNanos = window.toNanos();
    }

    /** Routes java.util.logging (and so every SLF4J logger) through this handler, at bg-logging.properties' levels. */
    static void install() {
        try (InputStream in = LibraryLog.class.getResourceAsStream(CONFIG)) {
            if (in == null) {
                throw new IllegalStateException(CONFIG + " is missing from BG's jar");
            }
            LogManager.getLogManager().readConfiguration(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + CONFIG + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void publish(LogRecord r) {
        if (r == null || !isLoggable(r)) {
            return;
        }
        long now = System.nanoTime();
        printExpired(now);
        String line = line(r);
        // Alike: the same logger and message but for numbers (ids, ports, counts), whatever the cause.
        String like =
                r.getLoggerName() + ' ' + clean(firstLine(messages.format(r))).replaceAll("[0-9a-f]*\\d[0-9a-f]*", "#");
        Repeat seen = recent.get(like);
        if (seen != null) {
            seen.more++;
            return;
        }
        recent.put(like, new Repeat(line, now));
        out.println(line);
        if (stackTraces && r.getThrown() != null) {
            r.getThrown().printStackTrace(out);
        }
        out.flush();
        schedule();
    }

    /** The record as one line: {@code bg: <library>: <message>: <root cause>}. */
    String line(LogRecord r) {
        String text = clean(firstLine(messages.format(r)));
        String cause = clean(firstLine(rootCauseMessage(r.getThrown())));
        if (!cause.isEmpty() && !text.contains(cause)) {
            text = text.isEmpty() ? cause : text + ": " + cause;
        }
        String library = library(r.getLoggerName());
        if (library.isEmpty()) {
            library = r.getLevel().intValue() >= Level.SEVERE.intValue() ? "error" : "warning";
        }
        return "bg: " + library + ": " + (text.isEmpty() ? "(no message)" : text);
    }

    static String library(String logger) {
        String name = logger == null ? "" : logger;
        for (Map.Entry<String, String> e : LIBRARIES) {
            if (name.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        // An unknown library: its package's first two parts (org.example), never a class name.
        String[] parts = name.split("\\.");
        return parts.length >= 2 ? parts[0] + "." + parts[1] : name.isEmpty() ? "library" : name;
    }

    /** The message of the deepest cause that has one ("Connection refused"), not the wrappers' class names. */
    static String rootCauseMessage(Throwable t) {
        String message = null;
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) {
                message = c.getMessage();
            }
        }
        return message;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        String t = s.strip();
        int nl = t.indexOf('\n');
        return (nl < 0 ? t : t.substring(0, nl)).strip();
    }

    /** Without exception class names, and other classes by their simple names. */
    static String clean(String s) {
        String t = EXCEPTION.matcher(QUALIFIED.matcher(s).replaceAll("$1")).replaceAll("");
        return EMPTY_PARENS.matcher(t).replaceAll("").strip();
    }

    /** Prints the count of the lines like one whose ten seconds have ended, and forgets it. */
    private void printExpired(long now) {
        for (Iterator<Repeat> it = recent.values().iterator(); it.hasNext(); ) {
            Repeat r = it.next();
            if (now - r.since >= windowNanos) {
                it.remove();
                printMore(r);
            }
        }
    }

    private void printMore(Repeat r) {
        if (r.more > 0) {
            out.println(r.line + " (and " + r.more + " more like it)");
            out.flush();
        }
    }

    /** Prints the counts when a window ends even if nothing else is logged by then. */
    private void schedule() {
        if (timer == null) {
            timer = new Timer("bg-library-log", true);
        }
        timer.schedule(
                new TimerTask() {
                    @Override
                    public void run() {
                        synchronized (LibraryLog.this) {
                            printExpired(System.nanoTime());
                        }
                    }
                },
                Math.max(1, windowNanos / 1_000_000));
    }

    @Override
    public synchronized void flush() {
        out.flush();
    }

    /** Prints every count not yet printed (java.util.logging closes its handlers when the JVM exits). */
    @Override
    public synchronized void close() {
        for (Repeat r : new ArrayList<>(recent.values())) {
            printMore(r);
        }
        recent.clear();
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
        out.flush();
    }
}
