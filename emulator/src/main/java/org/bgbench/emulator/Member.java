package org.bgbench.emulator;

import java.util.SplittableRandom;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.log.ActionRecorder;

/**
 * One emulated member's thread: its measured store session, random generator, actions and sessions. The arrival
 * drivers ({@link ClosedModel}, {@link OpenModel}) decide when it issues what; {@link #issue} dispatches a kind.
 */
final class Member {
    /** Virtual threads against an in-process store yield every 8 requests ({@link RunContext#yieldBetweenRequests}). */
    private static final int YIELD_EVERY_MASK = 7;

    final RunContext run;
    final ActionRecorder rec;
    final MeasuredSession s;
    final SplittableRandom rnd;
    final Sessions sessions;
    private final Actions actions;
    private final boolean unique;
    private final boolean yieldBetweenRequests;
    private int requests;

    Member(RunContext run, int index, ActionRecorder rec, MeasuredSession s) {
        EmulatorConfig config = run.config();
        this.run = run;
        this.rec = rec;
        this.s = s;
        this.rnd = new SplittableRandom(config.members().seed() * 0x9e3779b97f4a7c15L + index);
        this.actions = new Actions(
                run,
                s,
                rec,
                rnd,
                SocialGraph.text(
                        config.members().seed() + index, config.actions().commentLength()));
        this.sessions = new Sessions(run, actions);
        this.unique = config.members().uniqueSocialites();
        this.yieldBetweenRequests = run.yieldBetweenRequests();
    }

    /** Issues an action or a session by {@code socialite}, then frees her (unique socialites). */
    void issue(Kind kind, int socialite) {
        try {
            if (kind instanceof Action action) {
                actions.action(action, socialite);
            } else {
                sessions.session((SessionType) kind, socialite);
            }
        } finally {
            if (unique) {
                run.locks().unlock(socialite);
            }
        }
    }

    /**
     * Virtual threads are not time-sliced: against an in-process store that never blocks, a thread woken from a
     * contended monitor would wait until another thread blocks. Yielding every few requests bounds that wait, at a
     * cost in throughput (see {@link EmulatorConfig.ThreadKind#AUTO}).
     */
    void requestDone() {
        if (yieldBetweenRequests && (++requests & YIELD_EVERY_MASK) == 0) {
            Thread.yield();
        }
    }
}
