package org.bgbench.emulator;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One busy flag per member: held while a thread emulates the member (unique socialites) or while a write locks it
 * [dissertation table 5.1]. Non-blocking: a busy member makes the caller pick another target, so threads never deadlock and
 * never park on each other; the time spent retrying is reported as BG wait.
 */
final class MemberLocks {
    private final AtomicIntegerArray busy;

    MemberLocks(int members) {
        busy = new AtomicIntegerArray(members);
    }

    boolean tryLock(int member) {
        return busy.get(member) == 0 && busy.compareAndSet(member, 0, 1);
    }

    void unlock(int member) {
        busy.setRelease(member, 0);
    }
}
