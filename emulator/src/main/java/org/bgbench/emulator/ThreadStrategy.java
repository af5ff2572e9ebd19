package org.bgbench.emulator;

import org.bgbench.emulator.EmulatorConfig.ThreadKind;
import org.bgbench.store.DataStore;

/**
 * Which threads run the members, platform or virtual ({@link ThreadKind#AUTO} chooses by T and the store), and
 * whether members yield between requests (virtual threads against a store inside BG's process, which never blocks).
 */
final class ThreadStrategy {
    private final boolean virtual;
    private final boolean yieldBetweenRequests;

    ThreadStrategy(ThreadKind kind, int threads, DataStore store) {
        int cores = Runtime.getRuntime().availableProcessors();
        this.virtual = switch (kind) {
            case VIRTUAL -> true;
            case PLATFORM -> false;
            case AUTO ->
                threads
                        > (store.inProcess()
                                ? ThreadKind.PLATFORM_LIMIT
                                : ThreadKind.NETWORKED_PLATFORM_PER_CORE * cores);
        };
        // Virtual threads are not time-sliced: against an in-process store that never blocks, a thread woken from a
        // contended monitor would wait until another thread blocks; yielding between requests bounds that wait.
        this.yieldBetweenRequests = virtual && store.inProcess() && threads > cores;
    }

    /** Whether the members run on virtual threads (else platform threads). */
    boolean virtual() {
        return virtual;
    }

    /** Whether a member yields its thread every few requests. */
    boolean yieldBetweenRequests() {
        return yieldBetweenRequests;
    }

    /** "virtual" or "platform", as the result's {@code config.thread_kind} says. */
    String name() {
        return virtual ? "virtual" : "platform";
    }

    /** An unstarted thread for member {@code index}; platform threads are daemons, so a stuck one does not hold BG. */
    Thread thread(int index, Runnable member) {
        return (virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon())
                .name("bg-member-" + index)
                .unstarted(member);
    }
}
