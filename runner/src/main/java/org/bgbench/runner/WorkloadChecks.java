package org.bgbench.runner;

import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.workload.WorkloadSpec;

/** Checks of a workload against the graph it will run on, before anything runs. */
public final class WorkloadChecks {
    private WorkloadChecks() {
    }

    /** Refuses a mix that can only produce no-ops on this graph (AFR/RFR without any pending invitation). */
    public static void feasible(WorkloadSpec ws, SocialGraph graph) {
        if (ws.mix().needsPendingInvitations() && graph.totalPendingInvitations() == 0) {
            throw new InvalidParameterException("mix", "the mix accepts or rejects friend requests but issues no "
                    + "Invite Friend and the graph starts with no pending invitation (confperc="
                    + graph.spec().confirmedFraction() + "); set confperc below 1 or add InviteFriendAction");
        }
    }

}
