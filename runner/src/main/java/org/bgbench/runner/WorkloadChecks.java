package org.bgbench.runner;

import java.util.ArrayList;
import java.util.List;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.workload.WorkloadSpec;

/** Checks of a workload against the graph it will run on, before anything runs. */
public final class WorkloadChecks {
    private WorkloadChecks() {}

    /** Refuses a mix that can only produce no-ops on this graph (AFR/RFR without any pending invitation). */
    public static void feasible(WorkloadSpec ws, SocialGraph graph) {
        if (ws.mix().needsPendingInvitations() && graph.totalPendingInvitations() == 0) {
            throw new InvalidParameterException(
                    "mix",
                    "the mix accepts or rejects friend requests but issues no "
                            + "Invite Friend and the graph starts with no pending invitation (confperc="
                            + graph.spec().confirmedFraction() + "); set confperc below 1 or add InviteFriendAction");
        }
        if (ws.mix().usesFeeds() && graph.pages() == 0 && graph.spec().friendsPerMember() == 0) {
            throw new InvalidParameterException(
                    "mix",
                    "the mix shares resources or views news feeds but the graph has "
                            + "no pages and no friends, so every feed stays empty; set pagecount and pagesperuser (e.g. "
                            + "pagecount=100 pagesperuser=10) or friendcountperuser");
        }
    }

    /** Warnings about a workload that runs but whose figures need care. */
    public static List<String> warnings(WorkloadSpec ws) {
        List<String> w = new ArrayList<>(ws.mix().symmetryWarnings());
        if (ws.mix().growsData()) {
            w.add("Share Resource grows the data as the run goes, so throughput and latency depend on the run's "
                    + "length; compare feed designs at equal durations, e.g. with bg sweep (dissertation 7.3, 8.4)");
        }
        return w;
    }
}
