package org.bgbench.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import org.bgbench.emulator.EmulatorConfig.ThreadKind;
import org.bgbench.model.Durations;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.runner.ExperimentSpec;
import org.bgbench.runner.Parameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.runner.ValidationOptions;
import org.bgbench.runner.WorkloadChecks;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;
import org.bgbench.workload.WorkloadSpec;

/**
 * How every command that runs experiments sets one up (run, rate, sweep, delta, elasticity; scale checks its keys
 * with it): the parameters checked against the store's run keys and their warnings printed, the graph and the
 * workload built and checked against each other, the experiment built with the thread kind the parameters name, the
 * store's settings and the loader threads. A command calls the steps in its own order (its options' checks come in
 * between), so each input error is reported where it always was. It lives in cli because the key catalogue
 * ({@link Keys}) and the store options do.
 */
final class ExperimentSetup {
    private final StoreProvider provider;
    private final Parameters params;

    /**
     * The graph and the workload of an experiment.
     *
     * @param graphSpec the graph's parameters
     * @param graph     the graph they generate
     * @param workload  the workload's parameters, feasible on the graph
     */
    record Plan(GraphSpec graphSpec, SocialGraph graph, WorkloadSpec workload) {}

    private ExperimentSetup(StoreProvider provider, Parameters params) {
        this.provider = provider;
        this.params = params;
    }

    /** Checks {@code params} against the run keys of {@code provider} and prints their warnings to {@code err}. */
    static ExperimentSetup checked(StoreProvider provider, Parameters params, PrintWriter err) {
        checkKeys(provider, params, Keys.IGNORED_USC);
        params.warnings().forEach(w -> err.println("bg: warning: " + w));
        return new ExperimentSetup(provider, params);
    }

    /** Refuses a key of {@code params} that is not a run key of {@code provider} (nor one of {@code ignored}). */
    static void checkKeys(StoreProvider provider, Parameters params, Set<String> ignored) {
        params.check(k -> Keys.isRunKey(provider, k), Keys.forRun(provider).keySet(), ignored);
    }

    /**
     * This setup with the graph chosen with the store ({@link StoreGraph}): the store's graph when the parameters
     * name no graph key, the keys they name changing only those parameters of it; the graph used is said on
     * {@code err}. Named keys that differ from the store's graph are refused, naming each, unless {@code load} (the
     * command's {@code --load}, then the graph named is loaded in its place); {@code offersLoad}: the command has one.
     */
    ExperimentSetup withStoreGraph(StoreOptions options, boolean load, boolean offersLoad, PrintWriter err) {
        return withStoreGraph(options, StoreGraph.local(provider), load, offersLoad, err);
    }

    /** As {@link #withStoreGraph(StoreOptions, boolean, boolean, PrintWriter)}, the store's graph read by {@code record}. */
    ExperimentSetup withStoreGraph(
            StoreOptions options, StoreGraph.Record record, boolean load, boolean offersLoad, PrintWriter err) {
        StoreGraph.Choice c = StoreGraph.choose(record, options.settings(provider, params), params);
        if (c.differs() && !load) {
            throw c.refusal(provider.name(), offersLoad);
        }
        c.line().ifPresent(l -> err.println("bg: " + l));
        return new ExperimentSetup(provider, c.params());
    }

    /** The parameters, with the store's graph keys after {@link #withStoreGraph}. */
    Parameters params() {
        return params;
    }

    /** The graph and the workload the parameters describe; refused when the workload cannot run on the graph. */
    Plan plan() {
        GraphSpec graphSpec = GraphParameters.toSpec(params.asMap());
        WorkloadSpec ws = WorkloadParameters.toSpec(params.asMap());
        SocialGraph graph = new SocialGraph(graphSpec);
        WorkloadChecks.feasible(ws, graph);
        return new Plan(graphSpec, graph, ws);
    }

    /** The thread kind the parameters name ({@code threadkind}). */
    ThreadKind threadKind() {
        return RunKeys.threadKind(params);
    }

    /** The validation the parameters ask for, or null for none. */
    ValidationOptions validation() {
        return RunKeys.validation(params);
    }

    /**
     * The experiment of the workload's keys with the command line's {@code duration}, {@code operations} and
     * {@code warmup} taking precedence ({@link ExperimentSpec#of}); β is parsed from {@code beta} (option --beta).
     */
    ExperimentSpec experiment(
            WorkloadSpec ws, String duration, Long operations, String warmup, String beta, boolean validated) {
        ThreadKind kind = threadKind();
        Duration b = Durations.parse("--beta", beta);
        return ExperimentSpec.of(ws, duration, operations, warmup, kind, b, validated ? validation() : null);
    }

    /**
     * A timed experiment of the workload's settings: T threads for {@code duration} after {@code warmup}, validated as
     * {@code validation} says (null: not).
     */
    ExperimentSpec timed(
            WorkloadSpec ws,
            int threads,
            Duration duration,
            Duration warmup,
            Duration beta,
            ValidationOptions validation) {
        return ExperimentSpec.timed(ws, threads, duration, warmup, threadKind(), beta, validation);
    }

    /** {@link #timed(WorkloadSpec, int, Duration, Duration, Duration, ValidationOptions)}, validated as the keys say. */
    ExperimentSpec timedAsKeysSay(WorkloadSpec ws, int threads, Duration duration, Duration warmup, Duration beta) {
        ThreadKind kind = threadKind();
        return ExperimentSpec.timed(ws, threads, duration, warmup, kind, beta, validation());
    }

    /** The store's settings from {@code options} and the parameters. */
    StoreSettings storeSettings(StoreOptions options) {
        return options.settings(provider, params);
    }

    /** Loader threads ({@code numloadthreads}), twice the cores by default. */
    int loaders() {
        return GraphParameters.intOf(
                params.asMap(), "numloadthreads", 2 * Runtime.getRuntime().availableProcessors());
    }
}
