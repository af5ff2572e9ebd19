package org.bgbench.scaling.speedup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.NodeResult;
import org.bgbench.measurement.report.ResultJson;

/**
 * A finished rating as {@code bg rate} wrote it: {@code rating.json}'s SoAR and, from the result of the experiment
 * that established it ({@code NN-T<T>.json}, the confirmation run when there was one), the nodes' resources.
 *
 * @param soar      SoAR in actions/s, T at SoAR, its status label (confirmed, unconfirmed, zero, …) and, from
 *                  {@code lower_bound_reason}, why it is only a lower bound
 * @param complete  whether the rating finished
 * @param stop      why it stopped early, or null
 * @param resources the SoAR experiment's {@code nodes}; empty when its result is missing or has none
 * @param cpu       the SoAR experiment's CPU figures (BG's and the store's processes), or null
 */
public record RatingDir(SoarFigure soar, boolean complete, String stop, List<NodeResult> resources, CpuResult cpu) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads {@code dir/rating.json} and the SoAR experiment's result.
     *
     * @throws IOException when rating.json is missing, unreadable or has no SoAR
     */
    public static RatingDir read(Path dir) throws IOException {
        Path file = dir.resolve("rating.json");
        JsonNode root = JSON.readTree(file.toFile());
        JsonNode soar = root.path("soar");
        if (!soar.isObject() || !soar.path("actions_per_second").isNumber()) {
            throw new IOException(file + " has no SoAR (was the rating's target soar?)");
        }
        JsonNode experiment = soar.path("confirmation_experiment").isIntegralNumber()
                ? soar.path("confirmation_experiment")
                : soar.path("search_experiment");
        List<NodeResult> nodes = List.of();
        CpuResult cpu = null;
        if (experiment.isIntegralNumber()) {
            Path result = experimentResult(
                    dir, experiment.asInt(), soar.path("threads").asInt());
            if (result != null) {
                var r = ResultJson.read(result);
                nodes = r.nodes();
                cpu = r.cpu();
            }
        }
        return new RatingDir(
                new SoarFigure(
                        soar.path("actions_per_second").asDouble(),
                        soar.path("threads").asInt(),
                        soar.path("status").asText(null),
                        lowerBound(soar)),
                root.path("complete").asBoolean(true),
                root.path("stop_reason").isTextual() ? root.path("stop_reason").asText() : null,
                nodes,
                cpu);
    }

    /**
     * Why the SoAR is a lower bound ({@code lower_bound_reason}, or a plain reason when a rating wrote only
     * {@code lower_bound: true}); null when it is exact or the rating is older than the key.
     */
    private static String lowerBound(JsonNode soar) {
        if (!soar.path("lower_bound").asBoolean(false)) {
            return null;
        }
        JsonNode reason = soar.path("lower_bound_reason");
        return reason.isTextual() && !reason.asText().isBlank()
                ? reason.asText()
                : "the rating marked it a lower bound";
    }

    /**
     * {@code NN-T<T>.json} of experiment {@code index} (the runner numbers them as they run), else the last result
     * at T, or null.
     */
    static Path experimentResult(Path dir, int index, int threads) throws IOException {
        Path exact = dir.resolve(String.format(Locale.ROOT, "%02d-T%d.json", index, threads));
        if (Files.isRegularFile(exact)) {
            return exact;
        }
        String prefix = String.format(Locale.ROOT, "%02d-T", index);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + "*.json")) {
            for (Path f : files) {
                if (f.getFileName().toString().matches(Pattern.quote(prefix) + "\\d+\\.json")) {
                    return f;
                }
            }
        }
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("\\d+-T" + threads + "\\.json"))
                    .max(Comparator.comparing(f -> f.getFileName().toString()))
                    .orElse(null);
        }
    }
}
