package org.bgbench.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.bgbench.measurement.CpuResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.report.ResultChecksum;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.InvalidParameterException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        header = "Print one line per run result, to compare runs.",
        description = "One line per run result (JSON files or folders of them): store, mix, T, throughput, p95, CPU. A "
                + "result whose figures no longer match the checksum BG wrote with them is marked '!' before its "
                + "file.")
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RESULT", arity = "1..*", description = "Result files, or folders holding them.")
    List<Path> inputs;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p)) {
                    s.filter(Files::isRegularFile)
                            .filter(f -> !SideFiles.isSide(f))
                            .sorted()
                            .forEach(files::add);
                }
            } else if (Files.isRegularFile(p)) {
                files.add(p);
            } else {
                throw new InvalidParameterException("RESULT", "no such file or folder: " + p);
            }
        }
        out.printf(
                "%-10s %-9s %6s %12s %9s %9s %8s %8s %8s %9s  %s%n",
                "store",
                "mix",
                "T",
                "actions/s",
                "p50 ms",
                "p95 ms",
                "≤β %",
                "BG cores",
                "store c.",
                "BG µs/act",
                "file");
        for (Path f : files) {
            RunResult r;
            try {
                r = ResultJson.read(f);
            } catch (ResultJson.BadResultException e) {
                if (e.notJson()) {
                    // a damaged result: say where, so it can be repaired or removed
                    out.println("(" + e.getMessage() + ")");
                    continue;
                }
                r = null;
            } catch (IOException | RuntimeException e) {
                r = null;
            }
            if (r == null || r.total() == null) { // e.g. a rating's rating.json beside its experiments
                out.println("(not a BG result: " + f + ")");
                continue;
            }
            CpuResult c = r.cpu();
            // A figure changed by hand since BG wrote the file: listed, and marked as such.
            boolean edited = ResultChecksum.checkQuietly(f) == ResultChecksum.Status.DIFFERS;
            out.printf(
                    Locale.ROOT,
                    "%-10s %-9s %6d %,12.0f %9.3f %9.3f %8.2f %8s %8s %9s %s %s%n",
                    r.store().getOrDefault("name", "?"),
                    r.workload().getOrDefault("mix_name", "?"),
                    r.threads(),
                    r.throughput(),
                    nz(r.total().p50Ms()),
                    nz(r.total().p95Ms()),
                    nz(r.total().withinBetaPct()),
                    fmt(c == null ? null : c.bgCores()),
                    fmt(c == null ? null : c.storeCores()),
                    fmt(c == null ? null : c.bgUsPerAction()),
                    edited ? "!" : " ",
                    f);
            if (edited) {
                out.println("  (! " + ResultChecksum.differs(f) + ")");
            }
        }
        return 0;
    }

    private static double nz(Double d) {
        return d == null ? Double.NaN : d;
    }

    private static String fmt(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }
}
