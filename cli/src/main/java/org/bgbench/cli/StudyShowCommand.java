package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.bgbench.study.Study;
import org.bgbench.study.StudyPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bg study show}: a study's plan at one scale, every point in the order it runs. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        header = "Print a study's plan: every point in the order it runs.",
        description = "Print the study's source, its keys at the scale, the deviations from the paper's setting, its "
                + "figures and every point (store, setting, mix, T, repetition) in the order 'bg study run' "
                + "measures them.")
final class StudyShowCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StudyChoice choice = new StudyChoice();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Study s = StudyCommand.resolve(choice.study);
        StudyPlan plan = StudyCommand.plan(s, StudyCommand.scale(choice.scale), List.of());
        out.println(s.name() + ": " + s.title());
        out.println("source:     " + s.source().paper() + ": " + s.source().where());
        out.println("finding:    " + s.source().finding());
        if (s.subjects().kind() == Study.Kind.RATE) {
            out.println(
                    "scale:      " + plan.scale().key() + ", " + plan.points().size() + " ratings, "
                            + plan.grid().repetitions() + " repetition(s), about "
                            + StudyCommand.time(plan.measuredTime()) + " of experiments");
        } else {
            out.println(
                    "scale:      " + plan.scale().key() + ", " + plan.points().size() + " points of "
                            + StudyCommand.time(plan.grid().duration()) + " after a warm-up of "
                            + StudyCommand.time(plan.grid().warmup()) + ", "
                            + plan.grid().repetitions()
                            + " repetition(s), " + StudyCommand.time(plan.measuredTime()) + " measured");
        }
        out.println("graph:      " + keys(plan.graphKeys()));
        for (Study.StoreEntry e : s.subjects().stores()) {
            out.println("store:      " + StudyServers.describe(e));
        }
        for (String d : plan.deviations()) {
            out.println("deviation:  " + d);
        }
        for (Study.Figure f : s.output().figures()) {
            out.println("figure:     " + f.id() + ": " + f.title() + " (" + f.y().label() + " against " + f.x().label()
                    + ")");
        }
        for (StudyPlan.Group g : plan.groups()) {
            out.println(g.name() + ": " + keys(g.keys()));
            if (!plan.graphKeys(g).equals(plan.graphKeys())) {
                out.println("  graph: " + keys(plan.graphKeys(g)));
            }
            if (g.rating() != null) {
                Map<String, String> r = new java.util.LinkedHashMap<>();
                g.rating().toMap().forEach((k, v) -> r.put(k, String.valueOf(v)));
                out.println("  rating: " + keys(r));
            }
            for (StudyPlan.Point p : g.points()) {
                out.println("  " + p.key());
            }
        }
        out.flush();
        return 0;
    }

    private static String keys(Map<String, String> keys) {
        StringBuilder b = new StringBuilder();
        keys.forEach((k, v) ->
                b.append(b.isEmpty() ? "" : ", ").append(k).append('=').append(v));
        return b.isEmpty() ? "(none)" : b.toString();
    }
}
