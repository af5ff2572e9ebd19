package org.bgbench.cli;

import java.util.Map;
import java.util.Optional;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.study.Study;
import org.bgbench.study.StudyPlan;

/**
 * What a study's servers need, checked before anything runs: each server BG is to start has its script in BG's
 * installation and its software on this machine; a missing one is refused in one line naming it and how to install
 * it. {@link #needs} says the same for {@code bg study list} and {@code show}.
 */
final class StudyServers {
    private StudyServers() {}

    /** Refuses the first server of {@code plan} BG would start whose script or software is missing. */
    static void check(Study study, StudyPlan plan, Map<String, String> userKeys) {
        for (StudyPlan.Group g : plan.groups()) {
            if (!StudyExecutor.startsServer(g, userKeys)) {
                continue;
            }
            Study.Server server = g.store().server();
            BgHome.script(server.kind().script());
            Optional<String> missing = server.kind().missing(server.options());
            if (missing.isPresent()) {
                throw new InvalidParameterException(
                        study.name(),
                        "store " + g.store().id() + " needs the server " + server.words() + ", which BG starts, but "
                                + missing.get() + "; or run your own and give --store "
                                + g.store().id()
                                + " -p KEY=VALUE ...");
            }
        }
    }

    /** A store entry in words for list and show: whether BG starts it and what it needs. */
    static String describe(Study.StoreEntry e) {
        String name = e.id().equals(e.store()) ? e.id() : e.id() + " (" + e.store() + ")";
        if (e.server() != null) {
            Optional<String> missing = e.server().kind().missing(e.server().options());
            return name + " [BG starts " + e.server().words() + " via scripts/"
                    + e.server().kind().script()
                    + (missing.isPresent() ? "; missing here: " + missing.get() : "; installed here")
                    + "; or your own with --store " + e.id() + " -p ...]";
        }
        return name + (e.starts() ? " [BG starts it]" : " [needs a running server: --store " + e.id() + " -p ...]");
    }
}
