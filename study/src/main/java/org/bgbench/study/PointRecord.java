package org.bgbench.study;

import java.util.List;
import java.util.Map;

/**
 * A point as study.json keeps it.
 *
 * @param point    the planned point
 * @param status   {@code done} or {@code failed}
 * @param error    why it failed, or null
 * @param result   its result file relative to the study's directory, or null
 * @param measures the study's measures read from the result (a measure the result lacks is null)
 * @param curves   per curve figure that shows the point, the curve read from its result (empty: none)
 */
public record PointRecord(
        StudyPlan.Point point,
        String status,
        String error,
        String result,
        Map<String, Double> measures,
        Map<String, List<CurvePoint>> curves) {

    /** A point without curves. */
    public PointRecord(
            StudyPlan.Point point, String status, String error, String result, Map<String, Double> measures) {
        this(point, status, error, result, measures, Map.of());
    }

    /** One element of a curve: its x and y, each null when the element has no number there. */
    public record CurvePoint(Double x, Double y) {}

    public boolean done() {
        return status.equals("done");
    }
}
