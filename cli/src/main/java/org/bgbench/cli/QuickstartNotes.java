package org.bgbench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bgbench.measurement.RunResult;
import org.bgbench.rating.RatingStatus;
import org.bgbench.rating.Sla;
import org.bgbench.rating.SoarRating;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.rating.RatingRunner;

/**
 * The quickstart's line that explains a SoAR below one of its own table's runs that met the SLA: the table's runs and
 * the rating's experiments are different runs of different lengths, and the SoAR comes only from the latter.
 */
final class QuickstartNotes {
    private QuickstartNotes() {}

    /**
     * One line naming the table's highest run that met the SLA with more than the SoAR, and why the SoAR is lower;
     * none when no such run exists (or the table measured a β other than the SLA's, so cannot say).
     */
    static List<String> aboveSoar(List<RunResult> table, SoarRating soar, Sla sla, String tableRun, String delta) {
        List<String> lines = new ArrayList<>();
        if (soar.status() == RatingStatus.ZERO || !sla.beta().equals(ExperimentSpec.DEFAULT_BETA)) {
            return lines;
        }
        RunResult above = null;
        for (RunResult r : table) {
            if (r.throughput() > soar.actionsPerSecond()
                    && RatingRunner.measurement(r).succeeds(sla)
                    && (above == null || r.throughput() > above.throughput())) {
                above = r;
            }
        }
        if (above != null) {
            lines.add(String.format(
                    Locale.ROOT,
                    "  Why below the table: the T=%d run above met the SLA with %,.0f actions/s, more than the SoAR; "
                            + "the SoAR comes from the rating's own experiments (runs of %s, each after its own "
                            + "warm-up, not the table's %s runs), and runs this short vary: a longer --rate-delta "
                            + "brings them closer.",
                    above.threads(),
                    above.throughput(),
                    delta,
                    tableRun));
        }
        return lines;
    }
}
