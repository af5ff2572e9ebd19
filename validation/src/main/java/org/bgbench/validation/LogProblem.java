package org.bgbench.validation;

import java.util.Locale;

/**
 * Something wrong with a run's logs that validation found before or while reading them: a file missing, cut short,
 * emptied or damaged, a manifest missing or disagreeing with the files, logging that stopped during the run.
 *
 * @param file    the log file's name ({@code thread-00003.bglog}), {@code manifest.txt}, or null for the whole run
 * @param offset  the byte offset in {@code file} the problem starts at, or -1
 * @param problem what is wrong, in words
 */
public record LogProblem(String file, long offset, String problem) {
    @Override
    public String toString() {
        String where = file == null
                ? ""
                : file + (offset >= 0 ? String.format(Locale.ROOT, " at byte %,d", offset) : "") + ": ";
        return where + problem;
    }
}
