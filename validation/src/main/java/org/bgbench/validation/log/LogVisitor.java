package org.bgbench.validation.log;

/** Sees one decoded log record. {@code type} is one of {@link LogFormat}'s {@code TYPE_*} constants. */
@FunctionalInterface
public interface LogVisitor {
    void record(int type, byte kind, byte action, long item, long startNanos, long endNanos, long value);
}
