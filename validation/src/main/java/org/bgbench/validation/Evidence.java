package org.bgbench.validation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogFormat;
import org.bgbench.validation.log.LogManifest;

/**
 * What a run's logs can vouch for, checked against their manifest before a record is trusted: which files to read and
 * how far, what is wrong, and whether the logs still hold <em>every</em> write. That last question decides what can be
 * checked at all: a read is judged against all the writes of its item, and the item's value before the run is derived
 * from its final value minus the logged writes, so one lost write can make any read look unpredictable. With every
 * write present, the reads that remain can be checked soundly even when others were lost.
 */
final class Evidence {
    /** One file to read; {@code entry} is its manifest entry (null: no manifest, nothing to verify against). */
    record Source(Path file, LogManifest.Entry entry) {
        String name() {
            return file.getFileName().toString();
        }

        long bytes() {
            if (entry != null) {
                return entry.bytes();
            }
            try {
                return Files.size(file);
            } catch (IOException e) {
                return 0;
            }
        }
    }

    final LogManifest manifest;
    final int blockBytes;
    final List<Source> sources = new ArrayList<>();
    final List<LogProblem> problems = Collections.synchronizedList(new ArrayList<>());
    /** Reads the manifest says were logged; -1 without a manifest. */
    final long readsExpected;
    /** Why not every write is in the logs, or null. */
    private volatile String writesMissing;

    private Evidence(LogManifest manifest) {
        this.manifest = manifest;
        this.blockBytes = manifest == null ? 0 : manifest.blockBytes();
        this.readsExpected = manifest == null
                ? -1
                : manifest.files().stream().mapToLong(LogManifest.Entry::reads).sum();
    }

    /** Files given by a caller who vouches for them: read as they are, damage only warned about (no manifest). */
    static Evidence trusting(List<Path> files) {
        Evidence e = new Evidence(null);
        files.forEach(f -> e.sources.add(new Source(f, null)));
        return e;
    }

    /** The logs of {@code dir}, checked against their manifest. */
    static Evidence of(Path dir) {
        List<Path> onDisk;
        try (LogDirectory d = LogDirectory.open(dir)) {
            onDisk = d.files();
        }
        LogManifest m = null;
        String bad = null;
        try {
            m = LogManifest.read(dir);
        } catch (IOException e) {
            bad = e.getMessage();
        }
        Evidence ev = new Evidence(m);
        if (m == null) {
            String why = bad != null
                    ? bad + "; without it the logs cannot be checked for completeness"
                    : "missing: the run did not close its logs (it was killed or crashed, or BG older than the "
                            + "manifest made them), so each file ends where its last flush left it";
            ev.problem(LogManifest.FILE, -1, why);
            ev.writesMissing(
                    bad != null
                            ? LogManifest.FILE + " cannot be read, so nothing vouches for the logs and "
                                    + "writes may be missing from them"
                            : "there is no " + LogManifest.FILE + ": the run did not close "
                                    + "its logs, so writes may be missing from them");
            onDisk.forEach(f -> ev.sources.add(new Source(f, null)));
            return ev;
        }
        if (m.unloggedWrites() != null) {
            ev.problem(null, -1, "writes may be missing from every log: " + m.unloggedWrites());
            ev.writesMissing(m.unloggedWrites());
        }
        Set<String> listed = new HashSet<>();
        for (LogManifest.Entry e : m.files()) {
            listed.add(e.name());
            Path f = dir.resolve(e.name());
            if (!Files.isRegularFile(f)) {
                ev.problem(
                        e.name(),
                        -1,
                        String.format(
                                Locale.ROOT,
                                "missing; the run logged %,d records to it " + "(%,d reads, %,d writes)",
                                e.records(),
                                e.reads(),
                                e.writes()));
                if (e.writes() > 0) {
                    ev.writesMissing(e.name() + " is missing, and it held writes");
                }
                continue;
            }
            if (!e.ok()) {
                ev.problem(e.name(), e.bytes(), "logging did not keep every record: " + e.status());
                if (e.lastWriteEnd() > e.bytes()) {
                    ev.writesMissing(e.name() + " lost writes when logging stopped (" + e.status() + ")");
                }
            }
            try {
                long size = Files.size(f);
                if (size > e.bytes()) {
                    ev.problem(
                            e.name(),
                            e.bytes(),
                            String.format(
                                    Locale.ROOT,
                                    "%,d bytes beyond the %,d the run " + "wrote (appended later); ignored",
                                    size - e.bytes(),
                                    e.bytes()));
                }
            } catch (IOException x) {
                // reading it will say what is wrong
            }
            ev.sources.add(new Source(f, e));
        }
        for (Path f : onDisk) {
            if (!listed.contains(f.getFileName().toString())) {
                ev.problem(f.getFileName().toString(), -1, "not in the manifest (not written by this run); ignored");
            }
        }
        return ev;
    }

    void problem(String file, long offset, String what) {
        problems.add(new LogProblem(file, offset, what));
    }

    /** Notes that writes are missing (the first reason is kept). */
    void writesMissing(String why) {
        synchronized (this) {
            if (writesMissing == null) {
                writesMissing = why;
            }
        }
    }

    String writesMissing() {
        return writesMissing;
    }

    boolean writesComplete() {
        return writesMissing == null;
    }

    /** What a file's reader left unread that the run logged: checks that its writes were all read. */
    void afterReading(Source s, long deliveredEnd) {
        if (s.entry() != null && deliveredEnd < s.entry().lastWriteEnd()) {
            writesMissing(String.format(
                    Locale.ROOT,
                    "%s could be read only up to byte %,d, and it holds writes up to " + "byte %,d",
                    s.name(),
                    deliveredEnd,
                    s.entry().lastWriteEnd()));
        }
    }

    long estimatedRecords() {
        long n = 0;
        for (Source s : sources) {
            n += LogFormat.recordsInFile(s.bytes());
        }
        return n;
    }

    /** Problems in a stable order: run-level first, then by file and offset. */
    List<LogProblem> sortedProblems() {
        List<LogProblem> out = new ArrayList<>(problems);
        out.sort((a, b) -> {
            if (a.file() == null || b.file() == null) {
                return a.file() == null ? (b.file() == null ? 0 : -1) : 1;
            }
            int c = a.file().compareTo(b.file());
            return c != 0 ? c : Long.compare(a.offset(), b.offset());
        });
        return out;
    }
}
