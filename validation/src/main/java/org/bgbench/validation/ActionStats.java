package org.bgbench.validation;

/**
 * Reads of one action code.
 *
 * @param action        the code the emulator logged (BG: {@code Action.ordinal()})
 * @param name          from {@code actionNames} if given, else the code
 * @param checked       reads checked (skipped ones excluded)
 * @param unpredictable reads that observed unpredictable data
 * @param skipped       reads not decided (see {@link Verdict#SKIPPED})
 * @param pct           100 · unpredictable / checked, 0 when nothing was checked
 */
public record ActionStats(int action, String name, long checked, long unpredictable, long skipped, double pct) {}
