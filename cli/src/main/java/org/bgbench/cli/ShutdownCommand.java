package org.bgbench.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.bgbench.cluster.coordinator.ClusterCoordinator;
import org.bgbench.model.InvalidParameterException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "shutdown",
        mixinStandardHelpOptions = true,
        header = "Shut down the workers given by --workers.",
        description = "Each worker closes its store and exits.")
final class ShutdownCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!cluster.active()) {
            throw new InvalidParameterException("--workers", "name the workers to shut down");
        }
        try (ClusterCoordinator c = cluster.connect(spec.commandLine().getErr())) {
            c.shutdownWorkers();
            out.println("Shut down " + c.names().size() + " workers: " + String.join(", ", c.names()));
        }
        return 0;
    }
}
