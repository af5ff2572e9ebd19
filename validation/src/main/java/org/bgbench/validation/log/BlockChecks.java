package org.bgbench.validation.log;

import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * What a verifying {@link LogReader} checks: each block of the file against the CRC32C the run recorded in its
 * manifest, how far the file is verified, and the first damage found (where, and what is wrong there).
 */
final class BlockChecks {
    private final int[] crcs;
    private final int blockBytes;
    private final long expectedBytes;
    private final CRC32C crc = new CRC32C();
    private long verifiedEnd;
    private String damage;
    private long damageOffset = -1;

    /** Checks blocks of {@code blockBytes} against {@code crcs}, in a file the run wrote {@code expectedBytes} of. */
    BlockChecks(int[] crcs, int blockBytes, long expectedBytes) {
        this.crcs = crcs;
        this.blockBytes = blockBytes;
        this.expectedBytes = expectedBytes;
    }

    /** The file offset up to which every block matched. */
    long verifiedEnd() {
        return verifiedEnd;
    }

    /** The first damage found, or null. */
    String damage() {
        return damage;
    }

    /** The byte offset {@link #damage()} refers to, -1 when none. */
    long damageOffset() {
        return damageOffset;
    }

    /**
     * Checks the buffer's new bytes [from, to) block by block; advances {@link #verifiedEnd} over good blocks. The
     * buffer starts at file offset {@code bufFileOffset} and holds {@code lim} bytes read.
     */
    void verify(byte[] buf, int from, int to, long bufFileOffset, int lim) {
        long off = bufFileOffset + from;
        while (from < to && damage == null) {
            int block = (int) (off / blockBytes);
            long blockStart = (long) block * blockBytes;
            long blockEnd = Math.min(blockStart + blockBytes, expectedBytes);
            int n = (int) Math.min(to - from, blockEnd - off);
            crc.update(buf, from, n);
            from += n;
            off += n;
            if (off == blockEnd) {
                if (block >= crcs.length || (int) crc.getValue() != crcs[block]) {
                    corruptBlock(buf, bufFileOffset, lim, blockStart, blockEnd);
                    return;
                }
                verifiedEnd = blockEnd;
                crc.reset();
            }
        }
    }

    /** Block [blockStart, blockEnd) does not match: says so, with the first record in it that cannot be right. */
    private void corruptBlock(byte[] buf, long bufFileOffset, int lim, long blockStart, long blockEnd) {
        String where = String.format(
                Locale.ROOT, "bytes %,d to %,d do not match the checksum the run recorded", blockStart, blockEnd - 1);
        long first = -1;
        // the first record starting at or after the block's start (a record straddling into the block counts too)
        long r0 = blockStart <= LogFormat.HEADER_SIZE
                ? LogFormat.HEADER_SIZE
                : LogFormat.HEADER_SIZE
                        + (blockStart - LogFormat.HEADER_SIZE) / LogFormat.RECORD_SIZE * LogFormat.RECORD_SIZE;
        for (long r = r0;
                r + LogFormat.RECORD_SIZE <= bufFileOffset + lim && r < blockEnd;
                r += LogFormat.RECORD_SIZE) {
            int p = (int) (r - bufFileOffset);
            if (p < 0) {
                continue;
            }
            if (!LogFormat.validTag(buf, p)
                    || (LogFormat.type(buf, p) != LogFormat.TYPE_CONTINUATION
                            && LogFormat.start(buf, p) > LogFormat.end(buf, p))) {
                first = r;
                break;
            }
        }
        damageAt(
                first >= 0 ? first : blockStart,
                where
                        + (first >= 0
                                ? String.format(
                                        Locale.ROOT,
                                        "; the first record that cannot be right starts at byte %,d",
                                        first)
                                : ""));
    }

    /** Records the first damage found: where, and what is wrong there. */
    void damageAt(long offset, String what) {
        damage = what;
        damageOffset = offset;
    }
}
