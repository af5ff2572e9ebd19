package org.bgbench.study;

import java.util.Map;

/**
 * A point as study.json keeps it.
 *
 * @param point    the planned point
 * @param status   {@code done} or {@code failed}
 * @param error    why it failed, or null
 * @param result   its result file relative to the study's directory, or null
 * @param measures the study's measures read from the result (a measure the result lacks is null)
 */
public record PointRecord(
        StudyPlan.Point point, String status, String error, String result, Map<String, Double> measures) {
    public boolean done() {
        return status.equals("done");
    }
}
