package org.bgbench.study;

import java.nio.file.Path;
import java.util.Map;

/** How a study's points are measured: the engine of BG's own commands, behind one seam so the plan stays data. */
public interface PointExecutor {
    /**
     * Opens the store of {@code group} with {@code keys} (graph, workload and store keys, placeholders resolved),
     * loading the graph if the store does not hold it; its points then run one after the other.
     */
    Session open(StudyPlan.Group group, Map<String, String> keys, StudyPlan.ScaleTimes times) throws Exception;

    /** An open store. */
    interface Session extends AutoCloseable {
        /** Runs {@code point} from the loaded graph, writing BG's result JSON to {@code result}. */
        Outcome run(StudyPlan.Point point, Path result) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** What became of a point. */
    enum Status {
        DONE,
        FAILED,
        /** Stopped by Ctrl-C or SIGTERM: not a measurement; the study stops and a resume measures it again. */
        INTERRUPTED
    }

    /**
     * @param status what became of it
     * @param error  why it failed, in one line, or null
     */
    record Outcome(Status status, String error) {
        public static Outcome done() {
            return new Outcome(Status.DONE, null);
        }
    }
}
