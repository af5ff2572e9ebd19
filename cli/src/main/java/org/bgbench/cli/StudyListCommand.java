package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.bgbench.study.Scale;
import org.bgbench.study.Study;
import org.bgbench.study.StudyCatalog;
import org.bgbench.study.StudyFileException;
import org.bgbench.study.StudyPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code bg study list}: the catalog, with what each study reproduces, needs and costs. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        header = "Print the catalog of studies.",
        description = "Print each shipped study: its name, the paper and figure or table it reproduces, what it "
                + "varies, the stores it needs and whether BG starts them itself, and its points and measured time "
                + "at each scale (loads and resets come on top).")
final class StudyListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Study> studies;
        try {
            studies = StudyCatalog.all();
        } catch (StudyFileException e) {
            throw StudyCommand.refusal(e);
        }
        for (Study s : studies) {
            out.println(s.name());
            out.println("    " + s.title());
            out.println("    source: " + s.source().paper() + ": " + s.source().where());
            out.println("    varies: " + String.join(", ", s.varies()));
            out.println("    stores: " + stores(s));
            List<String> times = new ArrayList<>();
            for (Scale scale : Scale.values()) {
                StudyPlan p = StudyPlan.of(s, scale, List.of());
                // A rate study's time is an estimate: its searches choose how many experiments they run.
                String what = s.subjects().kind() == Study.Kind.RATE ? " ratings, about " : " points, ";
                times.add(scale.key() + " " + p.points().size() + what + StudyCommand.time(p.measuredTime()));
            }
            out.println("    time:   " + String.join("; ", times) + " (measured; loads and resets on top)");
        }
        out.flush();
        return 0;
    }

    static String stores(Study s) {
        List<String> out = new ArrayList<>();
        for (Study.StoreEntry e : s.subjects().stores()) {
            out.add(StudyServers.describe(e));
        }
        return String.join(", ", out);
    }
}
