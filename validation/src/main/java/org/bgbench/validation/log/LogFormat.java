package org.bgbench.validation.log;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The binary layout of a validation log file (all numbers little-endian).
 *
 * <pre>
 * header, 32 bytes
 *   0  4  magic "BGVL"
 *   4  2  format version (1)
 *   6  2  record size in bytes (34)
 *   8  8  writer id (the n of thread-n.bglog)
 *  16  8  wall-clock time the file was created, ms since the epoch
 *  24  8  System.nanoTime() when the file was created (relates record times to the wall clock)
 * record, 34 bytes
 *   0  1  tag: type &lt;&lt; 4 | kind   (type 1 read, 2 delta write, 3 absolute write; kind 0..15)
 *   1  1  action code (unsigned)
 *   2  8  item id
 *  10  8  start, System.nanoTime()
 *  18  8  end, System.nanoTime()
 *  26  8  value: observed value (read), change (delta write), new value (absolute write)
 * </pre>
 *
 * A tag of 0 is never written, so a zero-filled tail left by a crash is recognised as the end of the log.
 */
public final class LogFormat {
    /** "BGVL" read as a little-endian int. */
    public static final int MAGIC = 'B' | 'G' << 8 | 'V' << 16 | 'L' << 24;
    public static final short VERSION = 1;
    public static final int HEADER_SIZE = 32;
    public static final int RECORD_SIZE = 34;

    public static final byte TYPE_READ = 1;
    public static final byte TYPE_DELTA = 2;
    public static final byte TYPE_ABSOLUTE = 3;

    /** Kinds are 4 bits: 0..15. */
    public static final int MAX_KIND = 15;

    static final int OFF_TAG = 0;
    static final int OFF_ACTION = 1;
    static final int OFF_ITEM = 2;
    static final int OFF_START = 10;
    static final int OFF_END = 18;
    static final int OFF_VALUE = 26;

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private LogFormat() {}

    /** Record type of a raw record at {@code off}: 1..3, anything else is invalid. */
    public static int type(byte[] b, int off) {
        return (b[off + OFF_TAG] >>> 4) & 0x0F;
    }

    public static byte kind(byte[] b, int off) {
        return (byte) (b[off + OFF_TAG] & 0x0F);
    }

    public static int tag(byte[] b, int off) {
        return b[off + OFF_TAG] & 0xFF;
    }

    public static byte action(byte[] b, int off) {
        return b[off + OFF_ACTION];
    }

    public static long item(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_ITEM);
    }

    public static long start(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_START);
    }

    public static long end(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_END);
    }

    public static long value(byte[] b, int off) {
        return (long) LONG_LE.get(b, off + OFF_VALUE);
    }

    /** Whether the tag byte at {@code off} starts a well-formed record. */
    public static boolean validTag(byte[] b, int off) {
        int type = type(b, off);
        return type >= TYPE_READ && type <= TYPE_ABSOLUTE;
    }

    /** Encodes one record into {@code b} at {@code off}. */
    public static void encode(byte[] b, int off, int type, byte kind, byte action, long item, long start, long end, long value) {
        b[off + OFF_TAG] = (byte) (type << 4 | kind);
        b[off + OFF_ACTION] = action;
        LONG_LE.set(b, off + OFF_ITEM, item);
        LONG_LE.set(b, off + OFF_START, start);
        LONG_LE.set(b, off + OFF_END, end);
        LONG_LE.set(b, off + OFF_VALUE, value);
    }

    static void encodeHeader(byte[] b, long writerId, long wallMillis, long nanoTime) {
        INT_LE.set(b, 0, MAGIC);
        SHORT_LE.set(b, 4, VERSION);
        SHORT_LE.set(b, 6, (short) RECORD_SIZE);
        LONG_LE.set(b, 8, writerId);
        LONG_LE.set(b, 16, wallMillis);
        LONG_LE.set(b, 24, nanoTime);
    }

    static int headerMagic(byte[] b) {
        return (int) INT_LE.get(b, 0);
    }

    static int headerVersion(byte[] b) {
        return (short) SHORT_LE.get(b, 4);
    }

    static int headerRecordSize(byte[] b) {
        return (short) SHORT_LE.get(b, 6);
    }

    static long headerLong(byte[] b, int off) {
        return (long) LONG_LE.get(b, off);
    }

    /** Complete records a log file of {@code fileSize} bytes holds if nothing in it is corrupt. */
    public static long recordsInFile(long fileSize) {
        return fileSize <= HEADER_SIZE ? 0 : (fileSize - HEADER_SIZE) / RECORD_SIZE;
    }
}
