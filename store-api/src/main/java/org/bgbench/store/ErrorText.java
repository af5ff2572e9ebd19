package org.bgbench.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store or driver failure in words for the user, the one rule for every BG message about a store error: the
 * message of the root cause ("Connection refused", "Query timed out after 2 s"), never an exception class name or a
 * stack trace. A cause without a message, or whose message is only a class name, gets a phrase from its type (a
 * closed channel: "the connection was closed"). A {@link StoreException} is BG's own words and is kept as it is.
 */
public final class ErrorText {
    /** A qualified exception class name ("io.netty.channel.FooException") loses its package, then its name. */
    private static final Pattern QUALIFIED =
            Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][\\w$]*(?:Exception|Error))\\b");

    private static final Pattern THROWABLE = Pattern.compile("\\b[A-Z]\\w*(?:Exception|Error)\\b:?\\s*");
    private static final Pattern EMPTY_BRACKETS = Pattern.compile("\\s*(?:\\(\\s*\\)|\\[\\s*\\])");
    /** An ISO-8601 duration as the Cassandra driver prints one ("PT10S", "PT0.5S"). */
    private static final Pattern DURATION = Pattern.compile("\\bPT(\\d+(?:\\.\\d+)?)S\\b");
    /** Phrases for causes that say nothing themselves, by a part of their type's name (or a superclass's). */
    private static final List<Map.Entry<String, String>> PHRASES = List.of(
            Map.entry("ClosedChannel", "the connection was closed"),
            Map.entry("ClosedConnection", "the node closed the connection"),
            Map.entry("ConnectionReset", "the connection was reset"),
            Map.entry("ConnectException", "connection refused"),
            Map.entry("NoRouteToHost", "no route to host"),
            Map.entry("UnknownHost", "unknown host"),
            Map.entry("Timeout", "timed out"),
            Map.entry("EOFException", "the connection ended unexpectedly"),
            Map.entry("Interrupted", "interrupted"),
            Map.entry("Cancellation", "cancelled"),
            Map.entry("OutOfMemory", "out of memory"),
            Map.entry("SocketException", "a network error"),
            Map.entry("IOException", "an input/output error"));

    private ErrorText() {}

    /** {@code t} in words, on one line; "no message" for null. */
    public static String of(Throwable t) {
        if (t == null) {
            return "no message";
        }
        if (t instanceof StoreException) {
            String own = withoutClassNames(t.getMessage());
            if (!own.isEmpty()) {
                return own;
            }
        }
        List<Throwable> chain = chain(t);
        Throwable root = chain.getLast();
        String rootText = clean(root.getMessage());
        if (!rootText.isEmpty()) {
            return rootText;
        }
        String phrase = phrase(root);
        if (phrase != null) {
            return phrase;
        }
        for (int i = chain.size() - 2; i >= 0; i--) {
            String text = clean(chain.get(i).getMessage());
            if (!text.isEmpty()) {
                return text;
            }
        }
        return words(root);
    }

    /**
     * {@code t}'s own message, all of it, without exception class names ("read failed: Read timed out" from a
     * driver's "read failed: java.net.SocketTimeoutException: Read timed out"); {@link #of} when it says nothing else.
     * For a driver exception whose own sentence already reads well: it stays as the driver wrote it.
     */
    public static String message(Throwable t) {
        String own = t == null ? "" : withoutClassNames(t.getMessage());
        return own.isEmpty() ? of(t) : own;
    }

    /**
     * The causes from {@code t} to its root. A wrapper without a cause but with suppressed ones (the Cassandra
     * driver's "all nodes failed" holds each node's error so) continues with the first of those.
     */
    static List<Throwable> chain(Throwable t) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = new HashSet<>();
        for (Throwable c = t; c != null && seen.add(c); ) {
            chain.add(c);
            Throwable next = c.getCause();
            if (next == null && c.getSuppressed().length > 0) {
                next = c.getSuppressed()[0];
            }
            c = next;
        }
        return chain;
    }

    /** {@code message}'s first line without class names; empty when nothing but class names was in it. */
    public static String clean(String message) {
        if (message == null) {
            return "";
        }
        String s = message.strip();
        int nl = s.indexOf('\n');
        return withoutClassNames(nl < 0 ? s : s.substring(0, nl));
    }

    /** {@code message}, all its lines, without exception class names; empty when nothing else was in it. */
    public static String withoutClassNames(String message) {
        if (message == null) {
            return "";
        }
        String s = THROWABLE
                .matcher(QUALIFIED.matcher(message.strip()).replaceAll("$1"))
                .replaceAll("");
        s = EMPTY_BRACKETS.matcher(s).replaceAll("");
        s = DURATION.matcher(s)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " s"))
                .strip();
        // Left with punctuation only ("", ":"), or a bare simple class name: nothing said.
        if (s.matches("[\\p{Punct}\\s]*") || s.matches("[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+")) {
            return "";
        }
        return s;
    }

    private static String phrase(Throwable t) {
        for (Class<?> c = t.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
            String name = c.getSimpleName();
            for (Map.Entry<String, String> p : PHRASES) {
                if (name.contains(p.getKey())) {
                    return p.getValue();
                }
            }
        }
        return null;
    }

    /** The type's name in lower-case words ("NullPointerException": "null pointer"), the last resort. */
    private static String words(Throwable t) {
        String name = t.getClass().getSimpleName().replaceAll("(Exception|Error)$", "");
        String spaced = name.replaceAll("([a-z0-9])([A-Z])", "$1 $2")
                .toLowerCase(Locale.ROOT)
                .strip();
        return spaced.isEmpty() ? "an unexpected failure" : spaced;
    }
}
