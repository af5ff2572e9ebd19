package org.bgbench.store.postgres.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The rows of one reply, as the server sent them: the reply's bytes as they were read from the socket, DataRows among
 * the protocol's other messages, in one array ({@link #data()}), and each column's place in it ({@link #offsets()},
 * {@link #lengths()}), all three fresh for each reply and never written again, so views may keep them. Columns are in binary format: text and bytea as their bytes, integers big-endian. Reused by
 * the statement for its next reply; not thread-safe.
 */
public final class Rows {
    private final int columns;
    private byte[] data = new byte[0];
    private int[] offset;
    /** -1 for NULL. */
    private int[] length;
    private int size;

    Rows(int columns) {
        this.columns = columns;
        offset = new int[columns * 16];
        length = new int[columns * 16];
    }

    public int size() {
        return size;
    }

    public int columns() {
        return columns;
    }

    /** The reply's bytes; columns are slices of it ({@link #offset}, {@link #length}). */
    public byte[] data() {
        return data;
    }

    /**
     * Where each column starts in {@link #data()}, row after row: column {@code col} of row {@code row} at {@link
     * #index}{@code (row, col)}. Fresh for each reply, as the data.
     */
    public int[] offsets() {
        return offset;
    }

    /** Each column's length in bytes, -1 when NULL, indexed as {@link #offsets()}. */
    public int[] lengths() {
        return length;
    }

    /** The index of column {@code col} of row {@code row} in {@link #offsets()} and {@link #lengths()}. */
    public int index(int row, int col) {
        return check(row, col);
    }

    /** Where column {@code col} (0-based) of row {@code row} starts in {@link #data()}. */
    public int offset(int row, int col) {
        return offset[check(row, col)];
    }

    /** Its length in bytes, -1 when NULL. */
    public int length(int row, int col) {
        return length[check(row, col)];
    }

    public boolean isNull(int row, int col) {
        return length(row, col) < 0;
    }

    /** An integer column (int2, int4 or int8 in binary), 0 when NULL as JDBC's getInt; fails if it does not fit. */
    public int getInt(int row, int col) {
        int i = check(row, col);
        int p = offset[i];
        return switch (length[i]) {
            case -1 -> 0;
            case 2 -> (short) (((data[p] & 0xff) << 8) | (data[p + 1] & 0xff));
            case 4 -> int32(data, p);
            case 8 -> Math.toIntExact(((long) int32(data, p) << 32) | (int32(data, p + 4) & 0xffffffffL));
            default -> throw new IllegalStateException("column " + (col + 1) + " is not an integer");
        };
    }

    /** An integer column (int2, int4 or int8 in binary), 0 when NULL as JDBC's getLong. */
    public long getLong(int row, int col) {
        int i = check(row, col);
        int p = offset[i];
        return switch (length[i]) {
            case -1 -> 0;
            case 8 -> ((long) int32(data, p) << 32) | (int32(data, p + 4) & 0xffffffffL);
            default -> getInt(row, col);
        };
    }

    /** A column's bytes as a new array; null when NULL. */
    public byte[] bytes(int row, int col) {
        int i = check(row, col);
        return length[i] < 0 ? null : Arrays.copyOfRange(data, offset[i], offset[i] + length[i]);
    }

    /** A text column as a String; null when NULL. */
    public String string(int row, int col) {
        int i = check(row, col);
        return length[i] < 0 ? null : new String(data, offset[i], length[i], StandardCharsets.UTF_8);
    }

    private int check(int row, int col) {
        if (row < 0 || row >= size || col < 0 || col >= columns) {
            throw new IndexOutOfBoundsException("row " + row + ", column " + col + " of " + size + " x " + columns);
        }
        return row * columns + col;
    }

    // ---- filled by PgWire

    /** Starts a reply: fresh column arrays (views may keep the last ones), as long as the last reply needed. */
    void reset() {
        int n = Math.max(columns, size * columns);
        offset = new int[n];
        length = new int[n];
        size = 0;
    }

    /**
     * Notes a row whose DataRow body (field count, then each field's length and bytes) starts at {@code body} of
     * {@code buf}, which will be the reply's data once {@link #finish} hands it over.
     */
    void addRow(byte[] buf, int body) throws WireException {
        int fields = ((buf[body] & 0xff) << 8) | (buf[body + 1] & 0xff);
        if (fields != columns) {
            throw new WireException("a row of " + fields + " columns, " + columns + " described", "08P01", null);
        }
        int base = size * columns;
        if (base + columns > offset.length) {
            offset = Arrays.copyOf(offset, offset.length * 2);
            length = Arrays.copyOf(length, length.length * 2);
        }
        int p = body + 2;
        for (int f = 0; f < fields; f++) {
            int len = int32(buf, p);
            p += 4;
            offset[base + f] = p;
            length[base + f] = len;
            if (len > 0) {
                p += len;
            }
        }
        size++;
    }

    void finish(byte[] reply) {
        data = reply;
    }

    /** A big-endian int at {@code p}: one load where the JIT can (1,300 of them in a List Friends reply). */
    static int int32(byte[] a, int p) {
        return (int) INT32.get(a, p);
    }

    private static final java.lang.invoke.VarHandle INT32 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.BIG_ENDIAN);
}
