package org.bgbench.model.log;

/**
 * Where one emulator thread logs the reads and writes of validated items for the check of unpredictable data
 * (dissertation ch. 6): a member's friend count, her pending-invitation count, a resource's comment count.
 *
 * <p>It lives in {@code model}, not in {@code store-api}, because it speaks of BG's own items and actions, which a data
 * store never sees; this way the emulator needs only {@code store-api} and {@code model}, and {@code validation}
 * (whose {@code LogWriter} implements it) depends on nothing but {@code model}.
 *
 * <p>Implementations are used by one thread each and sit on the emulator's hot path: they must not lock or allocate.
 * They must not throw for a failure of their own storage (a full disk): the emulator would count it against the store.
 * They stop logging instead and report the failure where the end of the run finds it, so that validation is marked
 * incomplete. {@code action} is the action's {@link org.bgbench.model.Kind#index()}; times are
 * {@link System#nanoTime()}.
 */
public interface ValidationLog {
    /** Item: a member's confirmed-friend count (item id = member index). */
    byte FRIENDS = 0;
    /** Item: a member's pending-invitation count, the invitations she received (item id = member index). */
    byte PENDING = 1;
    /** Item: a resource's comment count (item id = resource id). */
    byte COMMENTS = 2;

    /** A read of item {@code id} of kind {@code item} that returned {@code observed}. */
    void read(byte action, byte item, long id, long startNanos, long endNanos, long observed);

    /**
     * Whether the reads given from now on are kept ({@code 1}, the measured period) or dropped ({@code 0}, the
     * warm-up), until the next call; writes are always kept. The emulator gives its warm-up's reads too, so that the
     * code it runs is the same before and after the measured period starts: a branch first taken then makes the JIT
     * throw away and recompile the members' whole hot path inside the measured period, on the cores the store
     * shares (docs/benchmarks.md). An int, not a boolean, so that the implementation need not branch on it.
     */
    void keepReads(int kept);

    /** A write that changed item {@code id} of kind {@code item} by {@code delta} (e.g. +1 friend). */
    void delta(byte action, byte item, long id, long startNanos, long endNanos, long delta);

    /**
     * A View News Feed of member {@code member} (index) for the {@code k} most recent shares that returned the first
     * {@code n} of {@code shareIds}, in the store's order (dissertation 6.1.2's read log record of a VNF); validation
     * needs k to tell a feed cut at k from one missing shares.
     */
    void feedRead(byte action, int member, int k, long startNanos, long endNanos, long[] shareIds, int n);

    /**
     * A Share Resource: account {@code account} (index: member, or M + page) shared {@code resource} as
     * {@code shareId} with {@code recipients} (member indexes), or publicly when null (dissertation 6.1.2's two SR
     * write log records).
     */
    void share(byte action, int account, long shareId, long resource, long startNanos, long endNanos, int[] recipients);

    /**
     * A friendship between members {@code a} and {@code b} (indexes) began (AFR, {@code began} true) or ended (TF): it
     * changes whose shares each sees in her feed.
     */
    void friendship(byte action, int a, int b, long startNanos, long endNanos, boolean began);
}
