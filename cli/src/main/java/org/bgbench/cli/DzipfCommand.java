package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.bgbench.cluster.plan.ClusterPlan;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.workload.distribution.DZipfian;
import org.bgbench.workload.distribution.Zipfian;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "dzipf",
        mixinStandardHelpOptions = true,
        header = "Measure how far D-Zipfian is from one central Zipfian.",
        description = "How far D-Zipfian (each of N workers draws from its own cluster of members) is from one "
                + "centralised Zipfian over all members: χ² from the probabilities and from a sample of drawn ids. "
                + "A range of N (--workers 1-16) prints one line per N.")
final class DzipfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = {"-M", "--members"},
            paramLabel = "M",
            defaultValue = "10000",
            description = "Members M (default ${DEFAULT-VALUE}).")
    int members;

    @Option(
            names = "--theta",
            paramLabel = "THETA",
            defaultValue = "0.27",
            description = "Zipfian θ (zipfianmean), from 0 (most skewed) "
                    + "to 1 (uniform); BG's default ${DEFAULT-VALUE} sends ~62 %% of draws to 20 %% of the members, 0.01 is "
                    + "YCSB's constant 0.99.")
    double theta;

    @Option(
            names = {"-N", "--workers"},
            paramLabel = "N|A-B",
            defaultValue = "1-16",
            description = "Workers N, or a range A-B " + "(default ${DEFAULT-VALUE}).")
    String workers;

    @Option(
            names = "--rates",
            paramLabel = "R[,R…]",
            hideParamSyntax = true,
            split = ",",
            description = "Relative request rates of the workers (heterogeneous "
                    + "D-Zipfian, e.g. 1,1,2); replaces --workers.")
    double[] rates;

    @Option(
            names = "--requests",
            paramLabel = "N",
            defaultValue = "1000000",
            description = "Ids drawn for the sampled χ² " + "(0: skip the sample; default ${DEFAULT-VALUE}).")
    long requests;

    @Option(
            names = "--seed",
            paramLabel = "SEED",
            defaultValue = "1",
            description = "Seed of the rank scramble and the sample (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--fragments",
            paramLabel = "F",
            defaultValue = "0",
            description = "Workers own whole graph fragments, as 'bg run --workers' assigns them (F fragments of M "
                    + "members; F ≥ N); 0: members assigned rank by rank as in the dissertation (default).")
    int fragments;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (members < 1) {
            throw new InvalidParameterException("--members", "must be at least 1, got " + members);
        }
        Zipfian.checkTheta("--theta", theta);
        if (requests < 0) {
            throw new InvalidParameterException("--requests", "must be 0 or more, got " + requests);
        }
        if (rates != null) {
            out.print(DZipfian.heterogeneous(members, theta, rates, seed)
                    .report(requests, seed)
                    .format());
            return 0;
        }
        int[] range = parseRange(workers);
        if (range[0] == range[1]) {
            out.print(DZipfian.homogeneous(members, theta, range[0], seed)
                    .report(requests, seed)
                    .format());
            return 0;
        }
        out.printf(
                Locale.ROOT,
                "D-Zipfian vs centralised Zipfian, M=%d θ=%s%s%n",
                members,
                theta,
                requests > 0 ? String.format(Locale.ROOT, ", sample of %,d ids", requests) : "");
        out.printf(
                Locale.ROOT, "%4s %14s %14s %14s %12s%n", "N", "χ² (probs)", "χ² (sample)", "noise floor", "Pearson p");
        List<String> lines = new ArrayList<>();
        if (fragments > 0) {
            out.printf(Locale.ROOT, "Workers own whole fragments: F=%d, as bg run --workers assigns them%n", fragments);
        }
        for (int n = range[0]; n <= range[1]; n++) {
            DZipfian d = fragments > 0 ? byFragments(n) : DZipfian.homogeneous(members, theta, n, seed);
            if (requests > 0) {
                DZipfian.Sample s = d.sample(requests, seed);
                lines.add(String.format(
                        Locale.ROOT,
                        "%4d %14.4e %14.4e %14.4e %12.4f",
                        n,
                        d.chiSquare(),
                        s.chiSquare(),
                        s.noiseFloor(),
                        s.fit().pValue()));
            } else {
                lines.add(String.format(Locale.ROOT, "%4d %14.4e %14s %14s %12s", n, d.chiSquare(), "-", "-", "-"));
            }
            out.println(lines.getLast());
            out.flush();
        }
        if (requests > 0) {
            out.println("The sample's χ² stays near its noise floor (M−1)/O when D-Zipfian matches the "
                    + "centralised distribution.");
        }
        return 0;
    }

    /** The D-Zipfian of a cluster run: fragments assigned to N equal workers by {@link ClusterPlan}. */
    private DZipfian byFragments(int n) {
        if (fragments < n) {
            throw new InvalidParameterException(
                    "--fragments", "N=" + n + " workers need at least " + n + " fragments, got " + fragments);
        }
        SocialGraph g = new SocialGraph(GraphSpec.builder()
                .members(members)
                .friendsPerMember(2)
                .resourcesPerMember(0)
                .attributeCount(1)
                .attributeLength(1)
                .commentLength(1)
                .fragments(fragments)
                .seed(seed)
                .build());
        double[] rates = new double[n];
        Arrays.fill(rates, 1);
        return ClusterPlan.assign(g, rates, seed).dzipfian(theta);
    }

    private int[] parseRange(String text) {
        String t = text.trim();
        int dash = t.indexOf('-', 1);
        try {
            int a = Integer.parseInt(dash < 0 ? t : t.substring(0, dash).trim());
            int b = dash < 0 ? a : Integer.parseInt(t.substring(dash + 1).trim());
            if (a < 1 || b < a) {
                throw new NumberFormatException();
            }
            if (b > members) {
                throw new InvalidParameterException(
                        "--workers",
                        "needs at least one member per worker: " + b + " workers for " + members + " members");
            }
            return new int[] {a, b};
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(
                    "--workers", "must be a count N ≥ 1 or a range A-B with " + "1 ≤ A ≤ B, got '" + text + "'");
        }
    }
}
