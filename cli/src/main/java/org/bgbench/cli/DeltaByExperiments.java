package org.bgbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bgbench.measurement.report.ReportFiles;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.rating.DoublingDelta;
import org.bgbench.rating.SaturatingThreads;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.LocalStore;
import org.bgbench.runner.OutputGuard;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.delta.DeltaExperiments;
import org.bgbench.runner.delta.LocalBench;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.workload.WorkloadSpec;
import org.bgbench.workload.mix.Mixes;

/**
 * {@code bg delta --method experiments}: the dissertation's Delta Analyzer (7.3.1) on a store on this machine, through
 * {@link DeltaExperiments}. Prints each probe and experiment as it ends and rewrites the JSON after each, so a Ctrl-C
 * keeps what was measured.
 */
final class DeltaByExperiments {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final DeltaCommand c;

    DeltaByExperiments(DeltaCommand command) {
        this.c = command;
    }

    Integer call() throws IOException {
        PrintWriter stdout = c.spec.commandLine().getOut();
        PrintWriter err = c.spec.commandLine().getErr();
        for (String o : List.of("--deltas", "--skip")) {
            if (c.spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new InvalidParameterException(o, "applies to --method windows only");
            }
        }
        DeltaExperiments.Settings settings = settings();
        String how = c.reset.trim().toLowerCase(Locale.ROOT);
        if (!List.of("auto", "image", "repair", "reload").contains(how)) {
            throw new InvalidParameterException(
                    "--reset",
                    "expected auto, image, repair or reload (every experiment starts from the loaded graph), got '"
                            + c.reset + "'");
        }
        StoreProvider provider = c.storeOptions.provider(StoreRegistry.discover());
        Parameters params = c.storeOptions.parameters();
        if (Mixes.find(c.workload).isEmpty()) {
            throw new InvalidParameterException(
                    "--workload",
                    "'" + c.workload + "' is not a named mix; named mixes: " + String.join(", ", Mixes.names()));
        }
        params.put("mix", c.workload, "--workload");
        ExperimentSetup setup =
                ExperimentSetup.checked(provider, params, err).withStoreGraph(c.storeOptions, c.load, false, err);
        WorkloadSpec ws = setup.plan().workload();
        Duration warm = Durations.parse("--warmup", c.warmup);
        List<String> hosts = c.storeHosts.resolve(err);
        Path file = c.out != null
                ? c.out
                : Path.of(
                        "runs",
                        "delta-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                                + ".json");
        OutputGuard.file("--out", file);
        if (file.toAbsolutePath().getParent() != null) {
            java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        }
        int loaders = setup.loaders();
        ReportFiles files = new ReportFiles();
        files.reserve(file);
        try (LocalStore store = LocalStore.open(
                provider,
                setup.storeSettings(c.storeOptions),
                setup.plan().graph(),
                c.load ? LocalStore.IfMissing.LOAD : LocalStore.IfMissing.REFUSE,
                loaders,
                RunKeys.verifySample(params),
                err)) {
            String resetBy = SweepCommand.resetMethod(how, store, loaders, err);
            Map<String, Object> header = new LinkedHashMap<>();
            header.put("format", "bg-delta-experiments/1"); // first: OutputGuard recognises BG's files by it
            header.put("method", "experiments");
            header.put("store", provider.name());
            header.put("workload", c.workload);
            header.put("duration_s", settings.delta().maxDeltaS());
            header.put("pi_pct", c.pi);
            header.put("m", c.m);
            header.put("mix_tolerance", c.mixTolerance);
            header.put("inflation", c.inflation);
            header.put("network_mbps", c.networkMbps);
            header.put("reset", resetBy);
            header.put("warmup_s", warm.toMillis() / 1000.0);
            err.printf(
                    Locale.ROOT,
                    "bg: delta analysis of %s on %s: δ = 1, 2, 4, … ≤ %d s, each from a store reset by %s%n",
                    c.workload,
                    provider.name(),
                    settings.delta().maxDeltaS(),
                    resetBy);
            ExperimentSpec template = setup.timedAsKeysSay(
                            ws, 1, Duration.ofSeconds(1), warm, ExperimentSpec.DEFAULT_BETA)
                    .withValidation(null)
                    .withStoreHosts(hosts);
            LocalBench bench = new LocalBench(
                    store, ws, template, () -> SweepCommand.resetStore(resetBy, store, loaders, err), null);
            Listener listener = new Listener(stdout, err, files, file, header, new ArrayList<>());
            DeltaExperiments.Analysis a = DeltaExperiments.analyze(bench, settings, listener);
            String growth = growthNote(a, ws);
            header.put("grows_data", growth);
            listener.write(a);
            files.release();
            DeltaReport.summary(a, stdout);
            if (growth != null) {
                stdout.println("  ! " + growth);
            }
            stdout.println("Result: " + file.toAbsolutePath());
            String unwritten = files.errorLine("the analysis above");
            if (unwritten != null) {
                err.println(unwritten);
                return Bg.FAILED;
            }
            if (a.interrupted() != null) {
                err.println("bg: the delta analysis stopped early (" + a.interrupted()
                        + "); the file keeps what was measured");
                return Bg.FAILED;
            }
            return 0;
        }
    }

    /** Why δ did not converge when the mix grows the data (dissertation figure 7.12), or null. */
    private static String growthNote(DeltaExperiments.Analysis a, WorkloadSpec ws) {
        if (a.verdict() == null || a.interrupted() != null) {
            return null;
        }
        List<DeltaExperiments.Row> rows = a.experiments();
        boolean falling = rows.size() >= 2
                && rows.getLast().measured().throughput()
                        < rows.get(rows.size() - 2).measured().throughput();
        return DeltaCommand.growthNote(a.verdict().converged(), falling, "as δ doubled", ws);
    }

    /** The settings from the options, each refused in one line when out of range. */
    private DeltaExperiments.Settings settings() {
        Duration big = Durations.parse("--duration", c.duration);
        Duration probe = Durations.parse("--probe", c.probe);
        if (!probe.isPositive()) {
            throw new InvalidParameterException("--probe", "must be longer than 0, got " + c.probe);
        }
        if (c.threads != null && c.threads < 1) {
            throw new InvalidParameterException("--threads", "T must be at least 1, got " + c.threads);
        }
        if (c.networkMbps != null && !(c.networkMbps > 0 && Double.isFinite(c.networkMbps))) {
            throw new InvalidParameterException(
                    "--network-mbps", "expected the link speed in Mbit/s, a number > 0, got " + c.networkMbps);
        }
        DoublingDelta.Settings delta = new DoublingDelta.Settings(
                c.pi, c.m, c.mixTolerance, (int) Math.min(Integer.MAX_VALUE, big.toSeconds()));
        SaturatingThreads.Settings threads =
                new SaturatingThreads.Settings(c.inflation, SaturatingThreads.FULL, c.pi, c.maxThreads);
        double link = c.networkMbps == null ? 0 : c.networkMbps * 1e6 / 8;
        return new DeltaExperiments.Settings(threads, delta, probe, link, c.threads);
    }

    /** Prints each probe and experiment and rewrites the file after each. */
    private record Listener(
            PrintWriter stdout,
            PrintWriter err,
            ReportFiles files,
            Path file,
            Map<String, Object> header,
            List<SaturatingThreads.Probe> probes)
            implements DeltaExperiments.Listener {
        @Override
        public void probe(SaturatingThreads.Probe p) {
            err.println("bg: probe " + DeltaReport.probeLine(p));
            err.flush();
            probes.add(p);
            write(new DeltaExperiments.Analysis(null, List.of(), null, null));
        }

        @Override
        public void threads(DeltaExperiments.ThreadChoice choice) {
            stdout.println(DeltaReport.threadsLine(choice));
            stdout.println(DeltaReport.HEADER);
            stdout.flush();
        }

        @Override
        public void experiment(DeltaExperiments.Row row, DeltaExperiments.Analysis soFar) {
            stdout.println(DeltaReport.row(row));
            stdout.flush();
            write(soFar);
        }

        void write(DeltaExperiments.Analysis a) {
            Map<String, Object> json = new LinkedHashMap<>(header);
            json.putAll(DeltaReport.toMap(a, probes));
            try {
                files.write(file, JSON.writeValueAsString(json));
            } catch (IOException e) {
                files.failed(file + ": " + e.getMessage());
            }
        }
    }
}
