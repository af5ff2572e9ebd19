package org.bgbench.store;

/**
 * Where a store's session is about to block for a reply to a request it has sent. When BG runs several members on one
 * thread ({@code threadkind=shared}), the thread lets its other members run there, so their requests are in flight
 * at the same time and one wake-up serves several replies, as a client with asynchronous I/O does; on every other
 * thread {@link #handOff()} does nothing. A store that calls it says so with {@link DataStore#handsOffWhileWaiting()}.
 *
 * <p>Call it only where the caller holds nothing another member of the same thread could need (it may run before the
 * call returns), typically right before a blocking read of a socket whose request went out; code that waits while
 * holding a monitor or lock other members take wraps the wait in {@link #stay()}.
 */
public final class ReplyWait {
    /** What a shared thread does at a hand-off; its argument says whether the reply has arrived (null: unknown). */
    private static final ThreadLocal<java.util.function.Consumer<java.util.function.BooleanSupplier>> HAND_OFF =
            new ThreadLocal<>();

    /** How deep the thread is in {@link #stay()} regions: no hand-off there. */
    private static final ThreadLocal<int[]> STAYING = ThreadLocal.withInitial(() -> new int[1]);

    private ReplyWait() {
    }

    /**
     * A region in which the thread's member does not hand off, for code that waits for the store while it holds a
     * monitor or lock another member could take (that member, run meanwhile on the same thread, would wait forever
     * for it). Close it when the region ends: {@code try (ReplyWait.Stay s = ReplyWait.stay()) { … }}.
     */
    public static Stay stay() {
        int[] depth = STAYING.get();
        depth[0]++;
        return () -> depth[0]--;
    }

    /** A {@link #stay()} region; closing it ends the region. */
    public interface Stay extends AutoCloseable {
        @Override
        void close();
    }

    /** Lets the thread's other members run first, if it runs several; returns when this one may read its reply. */
    public static void handOff() {
        handOff(null);
    }

    /**
     * As {@link #handOff()}, with a cheap test of whether the reply is already there to be read without blocking
     * (e.g. the socket's {@code available() > 0}): the thread then runs first the members whose replies have arrived,
     * so one slow reply (a commit waiting for its log flush) does not hold up the others.
     */
    public static void handOff(java.util.function.BooleanSupplier replyArrived) {
        java.util.function.Consumer<java.util.function.BooleanSupplier> r = HAND_OFF.get();
        if (r != null && STAYING.get()[0] == 0) {
            r.accept(replyArrived);
        }
    }

    /** Installs, on the calling thread, what {@link #handOff()} does there (BG's shared member threads); null removes it. */
    public static void install(java.util.function.Consumer<java.util.function.BooleanSupplier> handOff) {
        if (handOff == null) {
            HAND_OFF.remove();
        } else {
            HAND_OFF.set(handOff);
        }
    }
}
