package org.bgbench.runner.rating;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.bgbench.measurement.RunResult;
import org.bgbench.runner.ExperimentSpec;

/**
 * Where a rating's experiments run: in this process ({@link LocalExecutor}) or on workers (the cluster module's
 * executor). The {@link RatingRunner} decides what to run and how to reset; an executor only does it.
 */
public interface ExperimentExecutor {
    /**
     * How one experiment ended. {@code failedWorkers} names the workers that failed it (empty in one process);
     * {@code unwritten} says why its result file could not be written (a full disk), or is null.
     */
    record Outcome(RunResult result, boolean completed, String reason, List<Integer> failedWorkers, String unwritten) {
        public Outcome(RunResult result, boolean completed, String reason, List<Integer> failedWorkers) {
            this(result, completed, reason, failedWorkers, null);
        }
    }

    /** What a RepairDB pass did. */
    record Repair(boolean verified, long relationships, long comments, String mismatch) {}

    /** Runs one experiment and writes its result to {@code out}. */
    Outcome run(ExperimentSpec spec, Path out);

    /** Takes the image of the loaded store the rating may restore from; returns whether one exists now. */
    boolean prepareImage(PrintWriter err);

    /** Members the experiments changed since the store last held the generated graph (a repair's size). */
    int touchedMembers();

    /** Undoes the last experiments' writes (RepairDB) and reads back what it touched. */
    Repair repair();

    /** Restores the image; BG's state is the generated graph again. */
    void restoreImage();

    /** Loads the graph again; BG's state is the generated graph again. */
    void reload();

    /**
     * After an experiment that failed on some workers, or a reset that failed on one ({@code worker}): drop them,
     * plan over the others and bring the store back to the loaded graph, if the executor can and was asked to.
     * Returns how the store was restored ({@code image}, {@code reload}) or null when it cannot go on.
     */
    default String recover(List<Integer> failedWorkers) {
        return null;
    }

    /** How many workers run the experiments (1 in one process). */
    default int workers() {
        return 1;
    }

    /** After the rating: save what the next command needs (BG's expected state). */
    default void finish() {}
}
