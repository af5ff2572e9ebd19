package org.bgbench.emulator;

import org.bgbench.model.state.GraphState;

/**
 * What every member of one run shares: BG's expected state, the workload, the configuration, the member locks, the
 * run's phases, and whether members yield their thread between requests ({@link ThreadStrategy}).
 */
record RunContext(
        GraphState state,
        Workload workload,
        EmulatorConfig config,
        MemberLocks locks,
        RunPhases phases,
        boolean yieldBetweenRequests) {}
