package org.bgbench.validation.log;

/**
 * Sees one decoded log record. {@code type} is one of {@link LogFormat}'s {@code TYPE_*} constants: {@link #record}
 * gets the item records (read, delta, absolute); the feed records of version 2 come whole, through the default
 * methods, which ignore them, so that a visitor of item records need not know them.
 */
@FunctionalInterface
public interface LogVisitor {
    void record(int type, byte kind, byte action, long item, long startNanos, long endNanos, long value);

    /** A View News Feed of {@code member} asking for {@code k} (0: not logged) that observed {@code ids[0..n)}. */
    default void feedRead(byte action, int member, int k, long startNanos, long endNanos, long[] ids, int n) {}

    /** A Share Resource; {@code recipients} null when public. */
    default void share(
            byte action, int account, long shareId, long resource, long startNanos, long endNanos, int[] recipients) {}

    /** A friendship between members {@code a} and {@code b} began (AFR) or ended (TF). */
    default void friendship(byte action, int a, int b, long startNanos, long endNanos, boolean began) {}
}
