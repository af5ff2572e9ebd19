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
import org.bgbench.measurement.Unpredictable;
import org.bgbench.model.Action;
import org.bgbench.model.state.GraphState;
import org.bgbench.validation.ActionStats;
import org.bgbench.validation.FreshnessBucket;
import org.bgbench.validation.UnpredictableRead;
import org.bgbench.validation.ValidationResult;
import org.bgbench.validation.Validator;
import org.bgbench.validation.ValueMode;
import org.bgbench.validation.log.LogWriter;

/** Validates a run's logs against BG's expected state and puts the findings into its result (dissertation chapter 6). */
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
    public static Unpredictable section(ValidationResult v, double tauPct) {
        Map<String, Unpredictable.ActionReads> per = new LinkedHashMap<>();
        for (ActionStats a : v.perAction()) {
            per.put(a.name(), new Unpredictable.ActionReads(a.checked(), a.unpredictable(), a.pct()));
        }
        List<Unpredictable.Bucket> fresh = new ArrayList<>();
        for (FreshnessBucket b : v.freshness()) {
            fresh.add(new Unpredictable.Bucket(b.fromMs(), b.toMs(), b.reads(), b.valid(),
                    Double.isNaN(b.p()) ? null : b.p(), Double.isNaN(b.cumulativeP()) ? null : b.cumulativeP()));
        }
        List<Unpredictable.Sample> samples = new ArrayList<>();
        for (UnpredictableRead r : v.samples()) {
            samples.add(new Unpredictable.Sample(r.actionName(), kindName(r.kind()) + " " + r.item(), r.observed(),
                    r.acceptable(), (r.endNanos() - r.startNanos()) / 1000));
        }
        return new Unpredictable(v.readsChecked(), v.unpredictableReads(), v.pct(), tauPct, v.pct() <= tauPct,
                v.readsSkipped(), per, new Unpredictable.Freshness(v.freshnessHorizonMs(), v.freshnessReads(), fresh),
                samples, new Unpredictable.Stats(v.recordsRead(), v.seconds(), v.recordsPerSecond(), v.threads(),
                        v.partitions(), v.spillBytes(), v.warnings()), null);
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
    public static String summary(Unpredictable u) {
        if (u == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Unpredictable reads: %,d of %,d checked (%.4f %%), τ = %s %%: %s%n",
                u.unpredictableReads(), u.readsChecked(), u.pct(), u.tauPct(), u.meetsTau() ? "met" : "NOT met"));
        u.actions().forEach((a, x) -> sb.append(String.format(Locale.ROOT,
                "  %-4s %,12d reads %,10d unpredictable (%.4f %%)%n", a, x.readsChecked(), x.unpredictableReads(),
                x.pct())));
        Unpredictable.Freshness f = u.freshness();
        if (!f.buckets().isEmpty() && u.unpredictableReads() > 0) {
            sb.append(String.format(Locale.ROOT, "Freshness confidence (%,d reads after a write):%n", f.reads()));
            sb.append(String.format(Locale.ROOT, "  %22s %12s %10s %10s%n", "time after the write", "reads", "fresh %",
                    "p(≤ t) %"));
            for (Unpredictable.Bucket b : f.buckets()) {
                sb.append(String.format(Locale.ROOT, "  %9.0f – %7.0f ms %12d %10s %10s%n", b.fromMs(), b.toMs(),
                        b.reads(), pct(b.p()), pct(b.pAtMost())));
            }
        }
        if (!u.samples().isEmpty()) {
            Unpredictable.Sample s = u.samples().get(0);
            sb.append(String.format(Locale.ROOT, "  e.g. %s of %s observed %s, acceptable %s%n", s.action(), s.item(),
                    s.observed(), s.acceptable()));
        }
        return sb.toString();
    }

    private static String pct(Double p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.2f", 100 * p);
    }

    private static void deleteLogs(Path logs) {
        try (Stream<Path> files = Files.walk(logs)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Keeping logs the user asked to drop is harmless.
        }
    }
}
