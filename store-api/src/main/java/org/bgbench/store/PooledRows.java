package org.bgbench.store;

import java.util.Arrays;

/**
 * A list of an action's output rows that keeps its row objects across calls: {@link #clear} forgets the rows but not
 * the objects, and the next call's {@link #next} hands them out again, so a session's reads allocate no rows once its
 * lists have grown to their largest output.
 *
 * @param <R> the row type
 */
public abstract class PooledRows<R> {
    private Object[] rows = new Object[0];
    private int size;

    /** A new row object, for a slot that has none yet. */
    protected abstract R newRow();

    public void clear() {
        size = 0;
    }

    /** Appends a row (recycled from an earlier call when possible, with its old values) and returns it. */
    @SuppressWarnings("unchecked")
    protected final R next() {
        if (size == rows.length) {
            rows = Arrays.copyOf(rows, Math.max(8, size * 2));
        }
        Object r = rows[size];
        if (r == null) {
            r = rows[size] = newRow();
        }
        size++;
        return (R) r;
    }

    public int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    public R get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return (R) rows[i];
    }
}
