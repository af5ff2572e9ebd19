package org.bgbench.cli;

import java.util.concurrent.Callable;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "stores", mixinStandardHelpOptions = true, header = "List the data store bindings and their settings.")
final class StoresCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        for (StoreProvider p : StoreRegistry.discover().all()) {
            out.printf("%s%n    %s%n", p.name(), p.description());
            for (StoreSetting s : p.settings()) {
                out.printf(
                        "    -p %-22s %s%s%n",
                        s.key() + "=",
                        s.description(),
                        s.defaultValue() == null ? "" : " (default: " + s.defaultValue() + ")");
            }
            out.println();
        }
        return 0;
    }
}
