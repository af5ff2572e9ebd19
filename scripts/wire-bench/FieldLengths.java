import java.lang.invoke.*;
import java.nio.ByteOrder;
/**
 * How fast the wire client reads the field lengths of a List Friends reply (100 rows × 13 columns): four byte loads
 * and shifts per int against one big-endian load through a byte-array view VarHandle. Run: {@code java
 * scripts/wire-bench/FieldLengths.java}; prints µs per reply for each, five rounds.
 */
public class FieldLengths {
    static final VarHandle INT32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static int a(byte[] a, int p) { return ((a[p] & 0xff) << 24) | ((a[p + 1] & 0xff) << 16) | ((a[p + 2] & 0xff) << 8) | (a[p + 3] & 0xff); }
    static int b(byte[] a, int p) { return (int) INT32.get(a, p); }
    static int[] off = new int[1300], len = new int[1300];
    static int parseA(byte[] buf) { int p = 0, base = 0; for (int r = 0; r < 100; r++) { p += 2; for (int f = 0; f < 13; f++) { int l = a(buf, p); p += 4; off[base+f] = p; len[base+f] = l; if (l > 0) p += l; } base += 13; } return p; }
    static int parseB(byte[] buf) { int p = 0, base = 0; for (int r = 0; r < 100; r++) { p += 2; for (int f = 0; f < 13; f++) { int l = b(buf, p); p += 4; off[base+f] = p; len[base+f] = l; if (l > 0) p += l; } base += 13; } return p; }
    public static void main(String[] x) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        java.util.Random rnd = new java.util.Random(1);
        for (int r = 0; r < 100; r++) { o.write(0); o.write(13); for (int f = 0; f < 13; f++) { int l = f == 0 ? 4 : 5 + rnd.nextInt(20); o.write(l >>> 24); o.write(l >>> 16); o.write(l >>> 8); o.write(l); for (int i = 0; i < l; i++) o.write('a'); } }
        byte[] buf = o.toByteArray();
        long s = 0;
        for (int round = 0; round < 5; round++) {
            long t0 = System.nanoTime(); for (int i = 0; i < 200_000; i++) s += parseA(buf); long t1 = System.nanoTime();
            for (int i = 0; i < 200_000; i++) s += parseB(buf); long t2 = System.nanoTime();
            System.out.printf("shifts %.2f µs  varhandle %.2f µs per reply%n", (t1 - t0) / 200_000e3, (t2 - t1) / 200_000e3);
        }
        System.out.println(s);
    }
}
