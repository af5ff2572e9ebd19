package org.bgbench.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.measurement.report.ResultWriter;
import org.bgbench.validation.ValidationResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Check every logged read of a finished run for unpredictable data (dissertation chapter 6), again or with",
            "other settings, and update the run's result JSON. RUN is the result file or the directory beside it."})
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN", description = "A run's result JSON (runs/….json) or its directory (runs/…/).")
    Path run;

    @Option(names = "-p", paramLabel = "KEY=VALUE", description = "validation.memory, validation.threads, "
            + "freshness.buckets, tau; repeatable.")
    List<String> overrides = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        org.bgbench.runner.Parameters params = org.bgbench.runner.Parameters.of(List.of(), overrides);
        params.check(java.util.Set.of("validation.memory", "validation.threads", "freshness.buckets", "tau"),
                java.util.Set.of());
        org.bgbench.runner.ValidationOptions o = org.bgbench.runner.RunKeys.validation(params);
        org.bgbench.runner.RunArtifacts a = org.bgbench.runner.RunArtifacts.find(run);
        ValidationResult v = org.bgbench.runner.RunValidation.validate(a, a.loadExpectedState(), o);
        org.bgbench.measurement.Unpredictable section = org.bgbench.runner.RunValidation.section(v, o.tauPct());
        out.print(org.bgbench.runner.RunValidation.summary(section));
        out.printf(java.util.Locale.ROOT, "Validated %,d records in %.2f s (%,.0f records/s, %d threads%s)%n",
                v.recordsRead(), v.seconds(), v.recordsPerSecond(), v.threads(),
                v.spilled() ? ", spilled " + (v.spillBytes() >> 20) + " MiB" : "");
        v.warnings().forEach(w -> out.println("warning: " + w));
        if (Files.isRegularFile(a.result())) {
            RunResult r = ResultJson.read(a.result()).withUnpredictable(section);
            new ResultWriter(a.result()).write(r);
            out.println("Updated " + a.result());
        }
        return 0;
    }
}
