package org.bgbench.validation;

import java.util.function.IntConsumer;
import org.bgbench.model.generator.Relation;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;

/**
 * What feed validation needs of BG's state at one end of the logs, the same end as the item values
 * ({@link ValueMode}): who follows which page (never changes), who is whose friend, and the shares that exist. Shares
 * and friendships that existed before the logged run are definite (dissertation 6.1.2: BG is aware of the initial
 * friendships and follows). Accounts are indexes: members 0..M-1, then pages. Called from several validation threads;
 * implementations must be thread-safe (reads only).
 */
public interface FeedState {
    /** Members (the accounts below this are members, the rest pages). */
    int members();

    /** Members plus pages. */
    int accounts();

    /** Visits the account indexes of the pages {@code member} follows. */
    void forEachFollowedAccount(int member, IntConsumer account);

    /** Visits the friends of {@code member} (member indexes). */
    void forEachFriend(int member, IntConsumer friend);

    boolean friends(int a, int b);

    /** Visits every share: {@code recipients} are member indexes, sorted, or null for public. */
    void forEachShare(ShareSink sink);

    @FunctionalInterface
    interface ShareSink {
        void share(int account, long shareId, int[] recipients);
    }

    /** BG's expected state (at the start of the run for {@link ValueMode#INITIAL}, at its end for FINAL). */
    static FeedState of(GraphState state) {
        SocialGraph g = state.graph();
        return new FeedState() {
            @Override
            public int members() {
                return g.members();
            }

            @Override
            public int accounts() {
                return g.accounts();
            }

            @Override
            public void forEachFollowedAccount(int member, IntConsumer account) {
                g.forEachFollowedPage(member, p -> account.accept(g.pageAccount(p)));
            }

            @Override
            public void forEachFriend(int member, IntConsumer friend) {
                for (int f : state.friends(member)) {
                    friend.accept(f);
                }
            }

            @Override
            public boolean friends(int a, int b) {
                return state.relation(a, b) == Relation.FRIENDS;
            }

            @Override
            public void forEachShare(ShareSink sink) {
                state.forEachShare(sh -> sink.share(sh.account(), sh.id(), sh.recipients()));
            }
        };
    }
}
