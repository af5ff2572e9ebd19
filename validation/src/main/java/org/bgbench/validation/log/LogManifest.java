package org.bgbench.validation.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * What a run's logs should hold, written beside them ({@value #FILE}) once they are closed: for each file its records
 * (reads and writes among them), the offset at which its last write ends, its length and a CRC32C per
 * {@link LogWriter#BLOCK_BYTES} block, and whether the run ended cleanly (every record given reached its file, and no
 * thread could still log). A run killed before it closed its logs has none. Validation checks the files against it
 * before it trusts a single record.
 *
 * <p>A small text file, so that a user can read it:
 *
 * <pre>
 * bg-validation-manifest 2
 * created 2025-01-31T12:00:00Z
 * run 3f2a9c1d5e6b7a80
 * clean true
 * reason -
 * unlogged-writes -
 * block-bytes 65536
 * files 2
 * file thread-00000.bglog id 0 records 1200 reads 1000 writes 200 last-write-end 40766 bytes 40832 status ok
 * crc 1a2b3c4d
 * file …
 * crc …
 * end 0badcafe
 * </pre>
 *
 * The last line is the CRC32C of everything before it, so a manifest that is cut or damaged is recognised as such.
 *
 * @param created        when the logs were closed (ISO-8601)
 * @param run            the id of the run that wrote the logs (its result records it too), or null (version 1, or a
 *                       caller that gave none)
 * @param clean          every record given reached its file and {@code unloggedWrites} is null
 * @param reason         why the run is not clean, or null
 * @param unloggedWrites why writes may be missing from every log although no writer failed (threads still running
 *                       when the logs were closed), or null
 * @param blockBytes     bytes per checksum
 * @param files          one entry per log file, by name
 */
public record LogManifest(
        String created,
        String run,
        boolean clean,
        String reason,
        String unloggedWrites,
        int blockBytes,
        List<Entry> files) {
    public static final String FILE = "manifest.txt";
    static final String MAGIC = "bg-validation-manifest";
    /** Version 2 adds the run's id; version 1 is still read. */
    static final int VERSION = 2;

    public LogManifest {
        files = List.copyOf(files);
    }

    /** A manifest that names no run. */
    public LogManifest(
            String created, boolean clean, String reason, String unloggedWrites, int blockBytes, List<Entry> files) {
        this(created, null, clean, reason, unloggedWrites, blockBytes, files);
    }

    /**
     * One log file.
     *
     * @param name         file name
     * @param writerId     the writer id in its header
     * @param records      records given to the writer
     * @param reads        reads among them
     * @param writes       writes among them
     * @param lastWriteEnd offset just after the last write given (the header's end when there was none): the file must
     *                     reach this far for its writes to be complete
     * @param bytes        the file's length as written, header included
     * @param status       {@code ok}, or what went wrong ({@link LogWriter#status()})
     * @param checksums    CRC32C of each block of {@code bytes}
     */
    public record Entry(
            String name,
            long writerId,
            long records,
            long reads,
            long writes,
            long lastWriteEnd,
            long bytes,
            String status,
            int[] checksums) {
        public boolean ok() {
            return "ok".equals(status);
        }

        /** Whole records the file holds when it has {@link #bytes()} bytes. */
        public long recordsInFile() {
            return LogFormat.recordsInFile(bytes);
        }

        /** A builder with every figure zero or absent, to be set by name. */
        public static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link Entry} by name rather than by position. */
        public static final class Builder {
            private String name;
            private long writerId;
            private long records;
            private long reads;
            private long writes;
            private long lastWriteEnd;
            private long bytes;
            private String status;
            private int[] checksums;

            private Builder() {}

            public Builder name(String v) {
                name = v;
                return this;
            }

            public Builder writerId(long v) {
                writerId = v;
                return this;
            }

            public Builder records(long v) {
                records = v;
                return this;
            }

            public Builder reads(long v) {
                reads = v;
                return this;
            }

            public Builder writes(long v) {
                writes = v;
                return this;
            }

            public Builder lastWriteEnd(long v) {
                lastWriteEnd = v;
                return this;
            }

            public Builder bytes(long v) {
                bytes = v;
                return this;
            }

            public Builder status(String v) {
                status = v;
                return this;
            }

            public Builder checksums(int[] v) {
                checksums = v;
                return this;
            }

            public Entry build() {
                return new Entry(name, writerId, records, reads, writes, lastWriteEnd, bytes, status, checksums);
            }
        }
    }

    /** Writes the manifest into {@code dir}, atomically (a temporary file renamed). */
    public void write(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(MAGIC).append(' ').append(VERSION).append('\n');
        sb.append("created ").append(created).append('\n');
        sb.append("run ").append(text(run)).append('\n');
        sb.append("clean ").append(clean).append('\n');
        sb.append("reason ").append(text(reason)).append('\n');
        sb.append("unlogged-writes ").append(text(unloggedWrites)).append('\n');
        sb.append("block-bytes ").append(blockBytes).append('\n');
        sb.append("files ").append(files.size()).append('\n');
        for (Entry e : files) {
            sb.append("file ")
                    .append(e.name())
                    .append(" id ")
                    .append(e.writerId())
                    .append(" records ")
                    .append(e.records())
                    .append(" reads ")
                    .append(e.reads())
                    .append(" writes ")
                    .append(e.writes())
                    .append(" last-write-end ")
                    .append(e.lastWriteEnd())
                    .append(" bytes ")
                    .append(e.bytes())
                    .append(" status ")
                    .append(text(e.status()))
                    .append('\n');
            sb.append("crc");
            for (int c : e.checksums()) {
                sb.append(' ').append(String.format(Locale.ROOT, "%08x", c));
            }
            sb.append('\n');
        }
        byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        byte[] end =
                String.format(Locale.ROOT, "end %08x\n", (int) crc.getValue()).getBytes(StandardCharsets.UTF_8);
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            try (var out = Files.newOutputStream(tmp)) {
                out.write(body);
                out.write(end);
            }
            try {
                Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String text(String s) {
        return s == null ? "-" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static String untext(String s) {
        return s.equals("-") ? null : s;
    }

    /** A manifest that cannot be read: what is wrong, and where. */
    public static final class BadManifestException extends IOException {
        public BadManifestException(String message) {
            super(message);
        }
    }

    /** Reads the manifest of {@code dir}; null when there is none. */
    public static LogManifest read(Path dir) throws IOException {
        byte[] all;
        try {
            all = Files.readAllBytes(dir.resolve(FILE));
        } catch (NoSuchFileException e) {
            return null;
        }
        String text = new String(all, StandardCharsets.UTF_8);
        int cut = text.lastIndexOf("\nend ");
        if (cut < 0) {
            throw new BadManifestException(FILE + " has no end line: it was cut short (" + all.length + " bytes)");
        }
        byte[] body = text.substring(0, cut + 1).getBytes(StandardCharsets.UTF_8);
        CRC32C crc = new CRC32C();
        crc.update(body);
        String endLine = text.substring(cut + 1).strip();
        if (!endLine.equals(String.format(Locale.ROOT, "end %08x", (int) crc.getValue()))) {
            throw new BadManifestException(FILE + " does not match its own checksum (line " + lineAt(text, cut + 1)
                    + "): it was changed or damaged after the run");
        }
        String[] lines = text.substring(0, cut).split("\n", -1);
        Parser p = new Parser(lines);
        String[] head = p.next().split(" ");
        if (head.length != 2 || !head[0].equals(MAGIC)) {
            throw p.bad("not a BG validation manifest");
        }
        if (!head[1].equals("1") && !head[1].equals(Integer.toString(VERSION))) {
            throw p.bad("manifest version " + head[1] + " (this BG reads versions 1 to " + VERSION + ")");
        }
        String created = p.value("created");
        String run = head[1].equals("1") ? null : untext(p.value("run"));
        boolean clean = Boolean.parseBoolean(p.value("clean"));
        String reason = untext(p.value("reason"));
        String unlogged = untext(p.value("unlogged-writes"));
        int blockBytes = (int) p.number(p.value("block-bytes"));
        if (blockBytes < LogFormat.HEADER_SIZE) {
            throw p.bad("block size " + blockBytes);
        }
        long n = p.number(p.value("files"));
        List<Entry> files = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            String line = p.value("file");
            int st = line.indexOf(" status ");
            if (st < 0) {
                throw p.bad("no status");
            }
            String status = line.substring(st + 8);
            String[] f = line.substring(0, st).split(" ");
            if (f.length != 13
                    || !f[1].equals("id")
                    || !f[3].equals("records")
                    || !f[5].equals("reads")
                    || !f[7].equals("writes")
                    || !f[9].equals("last-write-end")
                    || !f[11].equals("bytes")) {
                throw p.bad("malformed file line");
            }
            String[] c = p.value("crc").split(" ");
            int[] crcs = new int[c[0].isEmpty() ? 0 : c.length];
            for (int k = 0; k < crcs.length; k++) {
                try {
                    crcs[k] = Integer.parseUnsignedInt(c[k], 16);
                } catch (NumberFormatException e) {
                    throw p.bad("bad checksum '" + c[k] + "'");
                }
            }
            files.add(Entry.builder()
                    .name(f[0])
                    .writerId(p.number(f[2]))
                    .records(p.number(f[4]))
                    .reads(p.number(f[6]))
                    .writes(p.number(f[8]))
                    .lastWriteEnd(p.number(f[10]))
                    .bytes(p.number(f[12]))
                    .status(status)
                    .checksums(crcs)
                    .build());
        }
        return new LogManifest(created, run, clean, reason, unlogged, blockBytes, files);
    }

    private static int lineAt(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static final class Parser {
        private final String[] lines;
        private int line;

        Parser(String[] lines) {
            this.lines = lines;
        }

        String next() throws BadManifestException {
            if (line >= lines.length) {
                throw new BadManifestException(FILE + " ends early (line " + (line + 1) + ")");
            }
            return lines[line++];
        }

        /** The rest of the next line after {@code key }, which it must start with. */
        String value(String key) throws BadManifestException {
            String l = next();
            if (l.equals(key)) {
                return "";
            }
            if (!l.startsWith(key + " ")) {
                throw bad("expected '" + key + "'");
            }
            return l.substring(key.length() + 1);
        }

        long number(String s) throws BadManifestException {
            try {
                long v = Long.parseLong(s.trim());
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // fall through
            }
            throw bad("'" + s + "' is not a count");
        }

        BadManifestException bad(String what) {
            return new BadManifestException(FILE + " line " + line + ": " + what);
        }
    }

    /** Now, for {@link #created()}. */
    static String now() {
        return Instant.now().toString();
    }
}
