package org.bgbench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.bgbench.measurement.KindResult;
import org.bgbench.measurement.RunResult;
import org.bgbench.measurement.open.LatencySummary;
import org.bgbench.measurement.report.ResultChecksum;
import org.bgbench.measurement.report.ResultJson;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.rating.BreakEven;
import org.bgbench.runner.OutputGuard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "breakeven",
        mixinStandardHelpOptions = true,
        header = "Compute the break-even point of a physical design change.",
        description =
                "Break-even point of a physical design change (CIKM 2013 section H): from two results of the same "
                        + "workload, BASIC under the first design and NEW under the changed one, derives Q̄ and Ū (mean "
                        + "read and write service times under BASIC), u (write fraction) and X (read speed-up), prints the "
                        + "write slow-down Y the change may cost before the workload's mean service time gets worse, and "
                        + "whether NEW's measured write slow-down is inside it. A folder (a rating's or a sweep's) stands "
                        + "for its result with the fewest threads, or the one at --threads: the formula assumes a lightly "
                        + "loaded store, without queueing.")
final class BreakevenCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "BASIC",
            description = "Result (JSON) or folder of results under the first design.")
    Path basic;

    @Parameters(
            index = "1",
            paramLabel = "NEW",
            description = "Result (JSON) or folder of results under the changed design.")
    Path changed;

    @Option(
            names = "--threads",
            paramLabel = "T",
            description = "In folders, use the result measured at T threads (default: the fewest threads).")
    Integer threads;

    @Option(
            names = "--write-fraction",
            paramLabel = "u",
            description =
                    "Evaluate the break-even point at this write fraction (0 < u ≤ 1) instead of BASIC's measured one,"
                            + " e.g. for a mix that was not run (CIKM section H, observation 3).")
    Double writeFraction;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the inputs and figures as JSON to FILE.")
    Path json;

    /**
     * Q̄, Ū and u of one result: the count-weighted mean service time of its read and of its write actions. A closed
     * model's latencies are service times; an open model's are response times from each arrival's due time, so its
     * service times (send to reply) are taken instead.
     */
    record ServiceTimes(Path file, RunResult result, long reads, double readMs, long writes, double writeMs) {
        double writeFraction() {
            return (double) writes / (reads + writes);
        }

        boolean open() {
            return result.open() != null;
        }

        static ServiceTimes of(Path file, RunResult r) {
            long reads = 0;
            long writes = 0;
            double readSum = 0;
            double writeSum = 0;
            for (Map.Entry<String, KindResult> e : r.actions().entrySet()) {
                KindResult k = e.getValue();
                Double mean = k.meanMs();
                if (r.open() != null) {
                    LatencySummary service = r.open().service().get(e.getKey());
                    mean = service == null ? null : service.meanMs();
                }
                if (k.count() == 0 || mean == null) {
                    continue;
                }
                Action a;
                try {
                    a = Action.valueOf(e.getKey());
                } catch (IllegalArgumentException unknown) {
                    throw new InvalidParameterException(
                            "RESULT", file + " has an action BG does not know: " + e.getKey());
                }
                if (a.isWrite()) {
                    writes += k.count();
                    writeSum += k.count() * mean;
                } else {
                    reads += k.count();
                    readSum += k.count() * mean;
                }
            }
            return new ServiceTimes(
                    file,
                    r,
                    reads,
                    reads == 0 ? Double.NaN : readSum / reads,
                    writes,
                    writes == 0 ? Double.NaN : writeSum / writes);
        }
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (writeFraction != null && !(writeFraction > 0 && writeFraction <= 1)) {
            throw new InvalidParameterException(
                    "--write-fraction", "expected a number in (0, 1], got " + writeFraction);
        }
        if (threads != null && threads < 1) {
            throw new InvalidParameterException("--threads", "T must be at least 1, got " + threads);
        }
        if (json != null) {
            OutputGuard.file("--json", json);
        }
        Path bf = pick(basic, "BASIC");
        Path nf = pick(changed, "NEW");
        ServiceTimes b = ServiceTimes.of(bf, read(bf));
        ServiceTimes n = ServiceTimes.of(nf, read(nf));
        for (Path f : List.of(bf, nf)) {
            if (ResultChecksum.checkQuietly(f) == ResultChecksum.Status.DIFFERS) {
                err.println("bg: warning: " + ResultChecksum.differs(f));
            }
        }
        for (ServiceTimes s : List.of(b, n)) {
            String which = s == b ? "BASIC" : "NEW";
            if (s.reads() == 0) {
                throw new InvalidParameterException(
                        which,
                        s.file() + " has no completed read action; the break-even "
                                + "point needs reads and writes under both designs");
            }
            if (s.writes() == 0 && (writeFraction == null || s == n)) {
                throw new InvalidParameterException(
                        which,
                        s.file() + " has no completed write action; the "
                                + "break-even point needs reads and writes under both designs (use a mix with writes)");
            }
        }
        if (b.open() != n.open()) {
            ServiceTimes open = b.open() ? b : n;
            throw new InvalidParameterException(
                    open == b ? "BASIC" : "NEW",
                    open.file() + " ran the open model (arrivals at a rate) and " + (open == b ? n : b).file()
                            + " the closed one (T threads): their loads differ, so their service times do not"
                            + " compare one design with another; give two results of the same model");
        }
        double u = writeFraction != null ? writeFraction : b.writeFraction();
        // Without writes in BASIC (allowed with --write-fraction), NEW's write time cannot be compared: refused above
        // unless BASIC has writes.
        if (b.writes() == 0) {
            throw new InvalidParameterException("BASIC", b.file() + " has no completed write action");
        }
        BreakEven be = new BreakEven(b.readMs(), b.writeMs(), u, b.readMs() / n.readMs());
        double x = be.speedup();
        double measuredY = n.writeMs() / b.writeMs();
        double tolerable = be.tolerableSlowdown();
        if (!be.breaksEven()) {
            throw new InvalidParameterException(
                    "NEW",
                    String.format(
                            Locale.ROOT,
                            "%s reads %.1f times slower than %s (X = %.4f): no write slow-down Y > 0 makes up for"
                                    + " that at u = %.6f (equation 3 gives Y = %.1f), even writes taking no time;"
                                    + " the model of CIKM 2013 section H weighs a change that speeds reads up",
                            n.file(),
                            1 / x,
                            b.file(),
                            x,
                            u,
                            tolerable));
        }

        out.println("Break-even point (CIKM 2013 section H): Y = (X − 1)/X · (1 − u)/u · Q̄/Ū + 1");
        // The settings in which the two stores differ: usually the design change itself.
        out.println("BASIC: " + design(b.result(), n.result()));
        out.println("NEW:   " + design(n.result(), b.result()));
        out.printf(Locale.ROOT, "%-34s %-22s %-22s%n", "", "BASIC", "NEW");
        out.printf(Locale.ROOT, "%-34s %-22s %-22s%n", "result", b.file(), n.file());
        out.printf(Locale.ROOT, "%-34s %-22s %-22s%n", "mix", mix(b.result()), mix(n.result()));
        out.printf(
                Locale.ROOT,
                "%-34s %-22d %-22d%n",
                "threads",
                b.result().threads(),
                n.result().threads());
        out.printf(
                Locale.ROOT,
                "%-34s %-22s %-22s%n",
                "reads / writes completed",
                b.reads() + " / " + b.writes(),
                n.reads() + " / " + n.writes());
        out.printf(Locale.ROOT, "%-34s %-22.6f %-22.6f%n", "write fraction", b.writeFraction(), n.writeFraction());
        out.printf(Locale.ROOT, "%-34s %-22.4f %-22.4f%n", "mean read service time (ms)", b.readMs(), n.readMs());
        out.printf(Locale.ROOT, "%-34s %-22.4f %-22.4f%n", "mean write service time (ms)", b.writeMs(), n.writeMs());
        out.println();
        out.printf(
                Locale.ROOT,
                "Q̄ = %.4f ms   Ū = %.4f ms   u = %.6f%s%n",
                be.readMs(),
                be.writeMs(),
                u,
                writeFraction != null ? " (--write-fraction)" : " (BASIC's)");
        out.printf(Locale.ROOT, "X = Q̄ / Q̄(NEW) = %.4f   (reads %s)%n", x, x >= 1 ? "faster" : "slower");
        out.printf(Locale.ROOT, "tolerable write slow-down Y = %s%n", number(tolerable));
        if (tolerable < 1) {
            out.printf(
                    Locale.ROOT,
                    "  (Y < 1: NEW's reads are slower, so its writes must be at least %.4f times faster to break even)%n",
                    1 / tolerable);
        }
        if (b.open()) {
            out.println("  (open model: Q̄ and Ū are service times, send to reply, without the wait for a thread)");
        }
        out.printf(Locale.ROOT, "measured write slow-down  Ū(NEW) / Ū = %.4f%n", measuredY);
        double s1 = be.basicServiceMs();
        double s2 = be.newServiceMs(measuredY);
        out.printf(
                Locale.ROOT,
                "mean service time: BASIC %.4f ms (eq. 1), NEW %.4f ms (eq. 2 with the measured Y)%n",
                s1,
                s2);
        boolean inside = measuredY <= tolerable;
        String verdict = inside
                ? String.format(
                        Locale.ROOT,
                        "NEW's write slow-down %.4f is inside the tolerable %s: the change lowers "
                                + "the mean service time by %.1f %% at u = %.6f",
                        measuredY,
                        number(tolerable),
                        100 * (s1 - s2) / s1,
                        u)
                : String.format(
                        Locale.ROOT,
                        "NEW's write slow-down %.4f is beyond the tolerable %s: the change raises "
                                + "the mean service time by %.1f %% at u = %.6f",
                        measuredY,
                        number(tolerable),
                        100 * (s2 - s1) / s1,
                        u);
        out.println("verdict: " + verdict);
        for (String w : warnings(b, n)) {
            err.println("bg breakeven: warning: " + w);
        }
        if (json != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("format", "bg-breakeven/1");
            m.put("basic", side(b));
            m.put("new", side(n));
            m.put("write_fraction", u);
            m.put("write_fraction_given", writeFraction != null);
            m.put("read_ms", be.readMs());
            m.put("write_ms", be.writeMs());
            m.put("speedup_x", x);
            m.put("tolerable_slowdown_y", Double.isFinite(tolerable) ? tolerable : null);
            m.put("measured_slowdown", measuredY);
            m.put("basic_service_ms", s1);
            m.put("new_service_ms", s2);
            m.put("inside", inside);
            m.put("warnings", warnings(b, n));
            Path parent = json.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            JSON.writeValue(json.toFile(), m);
        }
        out.flush();
        err.flush();
        return 0;
    }

    private static Map<String, Object> side(ServiceTimes s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", s.file().toString());
        m.put("store", s.result().store());
        m.put("mix", mix(s.result()));
        m.put("threads", s.result().threads());
        m.put("reads", s.reads());
        m.put("writes", s.writes());
        m.put("read_ms", s.readMs());
        m.put("write_ms", s.writeMs());
        return m;
    }

    private List<String> warnings(ServiceTimes b, ServiceTimes n) {
        List<String> w = new ArrayList<>();
        if (!Objects.equals(mix(b.result()), mix(n.result()))) {
            w.add("the two results ran different mixes (" + mix(b.result()) + ", " + mix(n.result())
                    + "); the formula compares one workload under two designs");
        } else if (Math.abs(b.writeFraction() - n.writeFraction()) > 0.1 * Math.max(b.writeFraction(), 1e-9)
                && b.writes() + n.writes() > 200) {
            w.add(String.format(
                    Locale.ROOT,
                    "measured write fractions differ by more than 10 %% (%.3g, %.3g): compare results of one mix",
                    b.writeFraction(),
                    n.writeFraction()));
        }
        if (b.result().threads() != n.result().threads()) {
            w.add("the results ran at different thread counts (" + b.result().threads() + ", "
                    + n.result().threads() + ")");
        }
        int t = Math.max(b.result().threads(), n.result().threads());
        if (t > 4) {
            w.add("measured at " + t + " threads: the formula models a lightly loaded store without queueing; "
                    + "service times at many threads include waiting (use results at T = 1 where you have them)");
        }
        for (ServiceTimes s : List.of(b, n)) {
            if (s.result().total() != null && s.result().total().errors() > 0) {
                w.add(String.format(
                        Locale.ROOT,
                        "%s has %,d failed actions, left out of the means",
                        s.file(),
                        s.result().total().errors()));
            }
        }
        return w;
    }

    /** The result file {@code p} names: itself, or in a folder the one with the fewest threads (or --threads). */
    private Path pick(Path p, String which) throws IOException {
        if (Files.isRegularFile(p)) {
            return p;
        }
        if (!Files.isDirectory(p)) {
            throw new InvalidParameterException(which, "no such file or folder: " + p);
        }
        TreeMap<Integer, Path> byThreads = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(p, 2)) {
            files = s.filter(f -> f.toString().endsWith(".json") && Files.isRegularFile(f))
                    .sorted(Comparator.naturalOrder())
                    .toList();
        }
        for (Path f : files) {
            try {
                RunResult r = ResultJson.read(f);
                if (r.total() != null && !r.partial()) {
                    byThreads.putIfAbsent(r.threads(), f);
                }
            } catch (IOException | RuntimeException notAResult) {
                // a rating.json, a sweep summary or a damaged file: not a run result, skipped
            }
        }
        if (byThreads.isEmpty()) {
            throw new InvalidParameterException(which, "no BG run result in " + p);
        }
        if (threads == null) {
            return byThreads.firstEntry().getValue();
        }
        Path f = byThreads.get(threads);
        if (f == null) {
            throw new InvalidParameterException(
                    "--threads", "no result at T = " + threads + " in " + p + "; it holds T = " + byThreads.keySet());
        }
        return f;
    }

    private static RunResult read(Path f) throws IOException {
        RunResult r;
        try {
            r = ResultJson.read(f);
        } catch (ResultJson.BadResultException e) {
            throw new InvalidParameterException("RESULT", e.getMessage());
        }
        if (r.total() == null) {
            throw new InvalidParameterException("RESULT", f + " is not a BG run result");
        }
        return r;
    }

    private static String mix(RunResult r) {
        return String.valueOf(r.workload().getOrDefault("mix_name", "?"));
    }

    /** The store's name and the settings in which it differs from {@code other}'s. */
    @SuppressWarnings("unchecked")
    private static String design(RunResult r, RunResult other) {
        Object name = r.store().getOrDefault("name", "?");
        Map<String, Object> mine =
                r.store().get("settings") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, Object> theirs =
                other.store().get("settings") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        StringBuilder s = new StringBuilder(String.valueOf(name));
        new TreeMap<>(mine).forEach((k, v) -> {
            if (!Objects.equals(v, theirs.get(k)) && !k.endsWith(".url") && !k.endsWith("password")) {
                s.append(' ').append(k).append('=').append(v);
            }
        });
        return s.toString();
    }

    private static String number(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "unbounded (no writes)" : "none (reads got slower and there are no writes)";
        }
        return String.format(Locale.ROOT, "%.4f", d);
    }
}
