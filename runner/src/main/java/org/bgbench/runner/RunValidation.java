package org.bgbench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.bgbench.measurement.RunResult;
import org.bgbench.model.Action;
import org.bgbench.model.state.GraphState;
import org.bgbench.validation.ActionStats;
import org.bgbench.validation.FreshnessBucket;
import org.bgbench.validation.UnpredictableRead;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogWriter;

/** Validates a run's logs against BG's expected state and puts the findings into its result [SPEC §10]. */
public final class RunValidation {
    private static final String[] ACTIONS = Stream.of(Action.values()).map(Action::name).toArray(String[]::new);

    private RunValidation() {
    }

    public static RunResult validateInto(RunResult result, RunArtifacts artifacts, GraphState state, ValidationOptions o,
                                  PrintWriter progress) {
        if (progress != null) {
            progress.println("bg: validating the reads of the run (logs in " + artifacts.logs() + ")");
            progress.flush();
        }
        ValidationResult v = validate(artifacts, state, o);
        RunResult out = result.withUnpredictable(section(v, o.tauPct()));
        if (v.pct() > o.tauPct()) {
            out = out.withWarning(String.format(Locale.ROOT, "%.4f %% of reads observed unpredictable data, more than "
                    + "τ = %s %%", v.pct(), o.tauPct()));
        }
        if (!o.keepLogs()) {
            deleteLogs(artifacts.logs());
        }
        return out;
    }

    public static ValidationResult validate(RunArtifacts artifacts, GraphState state, ValidationOptions o) {
        return Validator.builder((kind, item) -> switch (kind) {
                    case LogWriter.FRIENDS -> state.friendCount((int) item);
                    case LogWriter.PENDING -> state.pendingCount((int) item);
                    case LogWriter.COMMENTS -> state.commentCount(item);
                    default -> throw new IllegalArgumentException("unknown item kind " + kind);
                }, ValueMode.FINAL)
                .threads(o.threads())
                .memoryLimitBytes(o.memoryBytes())
                .freshnessBuckets(o.buckets())
                .actionNames(ACTIONS)
                .build()
                .validate(artifacts.logs());
    }

    /** The result's {@code unpredictable} section. */
    public static Map<String, Object> section(ValidationResult v, double tauPct) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reads_checked", v.readsChecked());
        m.put("unpredictable_reads", v.unpredictableReads());
        m.put("pct", v.pct());
        m.put("tau_pct", tauPct);
        m.put("meets_tau", v.pct() <= tauPct);
        m.put("reads_skipped", v.readsSkipped());
        Map<String, Object> per = new LinkedHashMap<>();
        for (ActionStats a : v.perAction()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("reads_checked", a.checked());
            x.put("unpredictable_reads", a.unpredictable());
            x.put("pct", a.pct());
            per.put(a.name(), x);
        }
        m.put("actions", per);
        List<Map<String, Object>> fresh = new ArrayList<>();
        for (FreshnessBucket b : v.freshness()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("from_ms", b.fromMs());
            x.put("to_ms", b.toMs());
            x.put("reads", b.reads());
            x.put("valid", b.valid());
            x.put("p", Double.isNaN(b.p()) ? null : b.p());
            x.put("p_at_most", Double.isNaN(b.cumulativeP()) ? null : b.cumulativeP());
            fresh.add(x);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("horizon_ms", v.freshnessHorizonMs());
        f.put("reads", v.freshnessReads());
        f.put("buckets", fresh);
        m.put("freshness", f);
        List<Map<String, Object>> samples = new ArrayList<>();
        for (UnpredictableRead r : v.samples()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("action", r.actionName());
            x.put("item", kindName(r.kind()) + " " + r.item());
            x.put("observed", r.observed());
            x.put("acceptable", r.acceptable());
            x.put("duration_us", (r.endNanos() - r.startNanos()) / 1000);
            samples.add(x);
        }
        m.put("samples", samples);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("records", v.recordsRead());
        run.put("seconds", v.seconds());
        run.put("records_per_s", v.recordsPerSecond());
        run.put("threads", v.threads());
        run.put("partitions", v.partitions());
        run.put("spilled_bytes", v.spillBytes());
        run.put("warnings", v.warnings());
        m.put("validation", run);
        return m;
    }

    static String kindName(byte kind) {
        return switch (kind) {
            case LogWriter.FRIENDS -> "friends of member";
            case LogWriter.PENDING -> "pending invitations of member";
            case LogWriter.COMMENTS -> "comments on resource";
            default -> "kind " + kind;
        };
    }

    /** Lines for the run summary. */
    @SuppressWarnings("unchecked")
    public static String summary(Map<String, Object> u) {
        if (u == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Unpredictable reads: %,d of %,d checked (%.4f %%), τ = %s %%: %s%n",
                ((Number) u.get("unpredictable_reads")).longValue(), ((Number) u.get("reads_checked")).longValue(),
                ((Number) u.get("pct")).doubleValue(), u.get("tau_pct"),
                Boolean.TRUE.equals(u.get("meets_tau")) ? "met" : "NOT met"));
        ((Map<String, Map<String, Object>>) u.get("actions")).forEach((a, x) -> sb.append(String.format(Locale.ROOT,
                "  %-4s %,12d reads %,10d unpredictable (%.4f %%)%n", a, ((Number) x.get("reads_checked")).longValue(),
                ((Number) x.get("unpredictable_reads")).longValue(), ((Number) x.get("pct")).doubleValue())));
        Map<String, Object> f = (Map<String, Object>) u.getOrDefault("freshness", Map.of("reads", 0, "buckets", List.of()));
        List<Map<String, Object>> buckets = (List<Map<String, Object>>) f.get("buckets");
        if (!buckets.isEmpty() && ((Number) u.get("unpredictable_reads")).longValue() > 0) {
            sb.append(String.format(Locale.ROOT, "Freshness confidence (%,d reads after a write):%n", ((Number) f.get("reads")).longValue()));
            sb.append(String.format(Locale.ROOT, "  %22s %12s %10s %10s%n", "time after the write", "reads", "fresh %", "p(≤ t) %"));
            for (Map<String, Object> b : buckets) {
                sb.append(String.format(Locale.ROOT, "  %9.0f – %7.0f ms %12d %10s %10s%n",
                        ((Number) b.get("from_ms")).doubleValue(), ((Number) b.get("to_ms")).doubleValue(),
                        ((Number) b.get("reads")).longValue(), pct(b.get("p")), pct(b.get("p_at_most"))));
            }
        }
        for (Map<String, Object> s : (List<Map<String, Object>>) u.get("samples")) {
            sb.append(String.format(Locale.ROOT, "  e.g. %s of %s observed %s, acceptable %s%n", s.get("action"),
                    s.get("item"), s.get("observed"), s.get("acceptable")));
            break;
        }
        return sb.toString();
    }

    private static String pct(Object p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.2f", 100 * ((Number) p).doubleValue());
    }

    private static void deleteLogs(Path logs) {
        try (Stream<Path> files = Files.walk(logs)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Keeping logs the user asked to drop is harmless.
        }
    }
}
