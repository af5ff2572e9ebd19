package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.Unpredictable;
import org.bgbench.measurement.report.ResultChecksum;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.ResultWriter;
import org.bgbench.runner.RunArtifacts;
import org.bgbench.runner.RunBinding;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.RunValidation;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.validation.ValidationResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        header = "Check a finished run's reads for unpredictable data.",
        description =
                "Check every logged read of a finished run for unpredictable data (dissertation chapter 6), again "
                        + "or with other settings, and update the run's result JSON. RUN is the result file or the "
                        + "directory beside it. The logs are first checked against the manifest the run wrote: a log that "
                        + "is missing, cut short or damaged makes the verdict incomplete (exit code 1), and so do logs or "
                        + "an expected state that another run wrote (the result records its run's id and their checksums). "
                        + "An incomplete verdict does not replace a complete one in the result unless --overwrite is given; "
                        + "a result whose figures no longer match its checksum (edited by hand) is not updated.")
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN", description = "A run's result JSON (runs/….json) or its directory (runs/…/).")
    Path run;

    @Option(
            names = "-p",
            paramLabel = "KEY=VALUE",
            description = "validation.memory, validation.threads, " + "freshness.buckets, tau; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Option(
            names = "--overwrite",
            description = "Record an incomplete verdict in the result even when it holds a " + "complete one.")
    boolean overwrite;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        org.bgbench.runner.Parameters params = org.bgbench.runner.Parameters.of(List.of(), overrides);
        params.check(Set.of("validation.memory", "validation.threads", "freshness.buckets", "tau"), Set.of());
        ValidationOptions o = RunKeys.validation(params);
        RunArtifacts a = RunArtifacts.find(run);
        RunResult result = readQuietly(a);
        // The logs and the expected state must be this run's: another run's are named, never judged.
        RunBinding.Checked bound = RunBinding.check(a, result);
        ValidationResult v = bound.problem() != null
                ? RunValidation.inspectUnbound(a, o, bound.file(), bound.problem())
                : bound.state() != null
                        ? RunValidation.validate(a, bound.state(), o)
                        : RunValidation.inspectWithoutState(a, o);
        Unpredictable section = RunValidation.section(v, o.tauPct());
        if (result != null && RunEvidence.of(result).runId() == null) {
            out.println(
                    "note: " + a.result() + " records no run id (a BG older than run ids wrote it), so its logs and "
                            + "expected state cannot be checked to be its own");
        }
        out.print(RunValidation.summary(section));
        out.printf(
                Locale.ROOT,
                "%s %,d records in %.2f s (%,.0f records/s, %d threads%s)%n",
                section.verdictComplete() ? "Validated" : "Read",
                v.recordsRead(),
                v.seconds(),
                v.recordsPerSecond(),
                v.threads(),
                v.spilled() ? ", spilled " + (v.spillBytes() >> 20) + " MiB" : "");
        v.warnings().forEach(w -> out.println("warning: " + w));
        boolean recorded = record(a, section, o, out, err);
        if (!section.verdictComplete()) {
            err.println("bg: error: validation incomplete: " + section.incompleteReason());
            return Bg.FAILED;
        }
        return recorded ? 0 : Bg.FAILED;
    }

    /** The run's result, or null when there is none or it cannot be read ({@link #record} says why). */
    private static RunResult readQuietly(RunArtifacts a) {
        if (!Files.isRegularFile(a.result())) {
            return null;
        }
        try {
            return ResultJson.read(a.result());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Puts the verdict into the run's result, unless that would hide a complete verdict or the result's figures were
     * changed by hand (rewriting it would give them a checksum); false if it could not.
     */
    private boolean record(
            RunArtifacts a, Unpredictable section, ValidationOptions o, PrintWriter out, PrintWriter err) {
        if (!Files.isRegularFile(a.result())) {
            out.println("No result to update: " + a.result() + " does not exist (the run did not finish)");
            return true;
        }
        RunResult r;
        try {
            r = ResultJson.read(a.result());
        } catch (IOException e) {
            err.println("bg: error: the verdict above was not recorded: " + e.getMessage());
            return false;
        }
        switch (ResultChecksum.checkQuietly(a.result())) {
            case DIFFERS -> {
                err.println("bg: error: " + ResultChecksum.differs(a.result()) + "; the verdict above was not recorded "
                        + "in it");
                return false;
            }
            case NONE ->
                out.println("note: " + a.result() + " carries no checksum of its figures (a BG older than "
                        + "the checksum wrote it); recording the verdict gives it one");
            case MATCHES -> {}
        }
        Unpredictable old = r.unpredictable();
        if (!section.verdictComplete() && old != null && old.verdictComplete()) {
            String was = String.format(
                    Locale.ROOT,
                    "%,d unpredictable of %,d reads checked, τ %s",
                    old.unpredictableReads(),
                    old.readsChecked(),
                    old.meetsTau() ? "met" : "not met");
            if (!overwrite) {
                out.println("Not updated: " + a.result() + " keeps the complete verdict it holds (" + was + "); this "
                        + "check was incomplete, so it does not replace it (--overwrite records it anyway)");
                return true;
            }
            out.println("Replacing the complete verdict in " + a.result() + " (" + was + ") with this incomplete one, "
                    + "as --overwrite asks");
        }
        try {
            new ResultWriter(a.result()).write(RunValidation.into(withoutValidationWarnings(r), section, o, null));
        } catch (IOException e) {
            err.println("bg: error: cannot update " + a.result() + ": " + e.getMessage());
            return false;
        }
        out.println("Updated " + a.result());
        return true;
    }

    /** The result without the warnings an earlier validation added, so a new verdict does not pile onto them. */
    private static RunResult withoutValidationWarnings(RunResult r) {
        List<String> kept = r.bottleneckWarnings().stream()
                .filter(w -> !w.startsWith("validation incomplete: ")
                        && !w.contains("of reads observed unpredictable data, more than"))
                .toList();
        if (kept.size() == r.bottleneckWarnings().size()) {
            return r;
        }
        return r.withWarnings(kept);
    }
}
