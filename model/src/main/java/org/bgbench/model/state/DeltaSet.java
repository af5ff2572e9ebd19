package org.bgbench.model.state;

import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.IntConsumer;

/**
 * A set of member indexes kept as its difference from a generated initial set: members removed from the initial set
 * and members added that were not in it. Memory grows with the writes of a run, not with the graph. Not thread-safe;
 * {@link GraphState} guards it.
 */
final class DeltaSet {
    private IntOpenHashSet removed;
    private IntOpenHashSet added;

    boolean contains(int x, boolean initially) {
        return initially ? removed == null || !removed.contains(x) : added != null && added.contains(x);
    }

    /** Adds {@code x}; returns false if it was already in. */
    boolean add(int x, boolean initially) {
        if (initially) {
            return removed != null && removed.remove(x);
        }
        if (added == null) {
            added = new IntOpenHashSet(4);
        }
        return added.add(x);
    }

    /** Removes {@code x}; returns false if it was not in. */
    boolean remove(int x, boolean initially) {
        if (initially) {
            if (removed == null) {
                removed = new IntOpenHashSet(4);
            }
            return removed.add(x);
        }
        return added != null && added.remove(x);
    }

    boolean isRemovedInitial(int x) {
        return removed != null && removed.contains(x);
    }

    int addedSize() {
        return added == null ? 0 : added.size();
    }

    /** The {@code n}-th added member (0-based) in the set's iteration order. */
    int addedAt(int n) {
        var it = added.iterator();
        for (int i = 0; i < n; i++) {
            it.nextInt();
        }
        return it.nextInt();
    }

    void write(DataOutput out) throws IOException {
        writeSet(out, removed);
        writeSet(out, added);
    }

    /** Reads what {@link #write} wrote; {@code members} bounds the set sizes, so garbage cannot exhaust the heap. */
    void read(DataInput in, int members) throws IOException {
        removed = readSet(in, members);
        added = readSet(in, members);
    }

    private static void writeSet(DataOutput out, IntOpenHashSet set) throws IOException {
        out.writeInt(set == null ? 0 : set.size());
        if (set != null) {
            var it = set.iterator();
            while (it.hasNext()) {
                out.writeInt(it.nextInt());
            }
        }
    }

    private static IntOpenHashSet readSet(DataInput in, int members) throws IOException {
        int n = StateFile.count(in.readInt(), members, "members in a set");
        if (n == 0) {
            return null;
        }
        IntOpenHashSet set = new IntOpenHashSet(Math.min(n, 1 << 10));
        for (int i = 0; i < n; i++) {
            set.add(in.readInt());
        }
        return set;
    }

    void forEachAdded(IntConsumer out) {
        if (added != null) {
            added.forEach(out);
        }
    }
}
