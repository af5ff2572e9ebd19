package org.bgbench.store.mongodb;

import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code mongodb.document-locks}: updates of one document from this BG process, one at a time. MongoDB applies each
 * single-document update atomically and needs none of this; FerretDB v1 does not (it reads the document, changes it
 * and writes it back, so concurrent updates of one document are lost: see the README). BG's workers own disjoint
 * members, so a lock in each process is enough to keep every update. Striped: a few kilobytes whatever the graph.
 */
final class DocumentLocks {
    private static final int STRIPES = 4096;

    private final ReentrantLock[] locks;

    private DocumentLocks(boolean on) {
        if (on) {
            locks = new ReentrantLock[STRIPES];
            for (int i = 0; i < STRIPES; i++) {
                locks[i] = new ReentrantLock();
            }
        } else {
            locks = null;
        }
    }

    static DocumentLocks of(boolean on) {
        return new DocumentLocks(on);
    }

    /** Runs {@code update} holding the lock of document {@code id} (a member or a resource id). */
    void update(long id, Runnable update) {
        if (locks == null) {
            update.run();
            return;
        }
        ReentrantLock l = locks[(int) Math.floorMod(Long.hashCode(id) * 0x9E3779B9, STRIPES)];
        l.lock();
        try {
            update.run();
        } finally {
            l.unlock();
        }
    }

    boolean enabled() {
        return locks != null;
    }
}
