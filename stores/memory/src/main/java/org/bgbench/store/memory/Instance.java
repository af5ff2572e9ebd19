package org.bgbench.store.memory;

import java.util.concurrent.ConcurrentHashMap;
import org.bgbench.store.StoreException;

/**
 * A named store living in this JVM: every {@code open} with the same {@code memory.name} shares it, so a load and a
 * later run in one process (or several tests) see the same data. Nothing survives the JVM.
 */
final class Instance {
    private static final ConcurrentHashMap<String, Instance> NAMED = new ConcurrentHashMap<>();

    final String name;
    /** Current contents, null when no schema exists. Sessions re-read it per action, so restores take effect. */
    volatile Db db;
    /** The saved image (DBIL), kept apart from the contents so schema changes do not touch it. */
    volatile Db image;

    private Instance(String name) {
        this.name = name;
    }

    static Instance named(String name) {
        return NAMED.computeIfAbsent(name, Instance::new);
    }

    /** Forgets the instance so its memory can be reclaimed; handles already open keep working on the old one. */
    static void discard(String name) {
        NAMED.remove(name);
    }

    Db requireDb() {
        Db d = db;
        if (d == null) {
            throw new StoreException(
                    "memory store '" + name + "' has no schema; create the schema and load a graph first");
        }
        return d;
    }
}
