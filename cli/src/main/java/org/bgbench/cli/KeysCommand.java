package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.bgbench.model.GraphParameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.workload.WorkloadParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        header = "List every -p key BG understands.",
        description = "USC BG's keys are included; 'bg stores' lists each store's own settings.")
final class KeysCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        print(out, "Graph (bg load)", GraphParameters.KEYS);
        print(out, "Loader", Keys.LOAD);
        print(out, "Workload (bg run)", WorkloadParameters.KEYS);
        print(out, "Emulator (bg run)", RunKeys.RUN);
        out.println("Accepted from USC BG property files but not used: "
                + String.join(", ", new TreeSet<>(Keys.IGNORED_USC)));
        return 0;
    }

    static void print(PrintWriter out, String title, Map<String, String> keys) {
        out.println(title + ":");
        keys.forEach((k, d) -> out.printf("  %-26s %s%n", k, d));
        out.println();
    }
}
