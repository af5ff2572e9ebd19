package org.bgbench.deck.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.bgbench.deck.results.Results;
import org.bgbench.runner.rating.RatingSession;

/**
 * The live view's source: once a second it reads what the runs' live files ({@link LiveFile}) and the ratings'
 * {@code experiments.jsonl} gained, and sends it to every connected page as server-sent events. Files written in the
 * last minute count as live, whoever started their run (the deck or a terminal). A page that connects gets what the
 * live files hold so far first. Each page has its own bounded queue and writer thread, so a slow page cannot hold up
 * the others; one that falls 600 events behind is dropped (it reconnects and starts from the files).
 */
public final class LiveFeed implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long LIVE_MILLIS = 60_000;
    private static final int QUEUE = 600;
    private final Path runs;
    private final Supplier<Object> jobs;
    private final Map<Path, Long> offsets = new ConcurrentHashMap<>();
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    /**
     * Held while a page connects (reads the files, joins) and while a tick reads the files and hands out what they
     * gained, so a page that joins between a tick's read and its hand-out cannot miss the lines that tick read.
     */
    private final Object turn = new Object();

    private final Thread ticker;
    private volatile boolean closed;

    /**
     * @param runs the runs directory
     * @param jobs the deck's jobs as the page shows them, sent each second
     */
    public LiveFeed(Path runs, Supplier<Object> jobs) {
        this.runs = runs.toAbsolutePath().normalize();
        this.jobs = jobs;
        this.ticker = Thread.ofPlatform().daemon().name("deck-live").start(this::tick);
    }

    /** Streams events to {@code out} until the page goes away; returns then. */
    public void serve(OutputStream out) throws InterruptedException {
        Client c = new Client(out);
        // What the live files hold so far, then everything new: a page opened mid-run draws the whole run.
        synchronized (turn) {
            for (Path f : liveFiles()) {
                Read r = readFrom(f, 0);
                for (int i = 0; i < r.lines.size(); i++) {
                    c.offer(event("line", f, r.lines.get(i), r.ends.get(i)));
                }
            }
            for (Path dir : liveRatings()) {
                Read r = readFrom(dir.resolve(RatingSession.PROGRESS_FILE), 0);
                for (int i = 0; i < r.lines.size(); i++) {
                    c.offer(event("experiment", dir, r.lines.get(i), r.ends.get(i)));
                }
            }
            clients.add(c);
        }
        try {
            c.pump();
        } finally {
            clients.remove(c);
        }
    }

    public int clients() {
        return clients.size();
    }

    private void tick() {
        while (!closed) {
            try {
                long next = System.currentTimeMillis() + 1000;
                String jobsEvent = "event: jobs\ndata: " + JSON.writeValueAsString(jobs.get()) + "\n\n";
                synchronized (turn) {
                    List<String> events = new ArrayList<>();
                    for (Path f : liveFiles()) {
                        collect(f, "line", events);
                    }
                    for (Path dir : liveRatings()) {
                        collect(dir.resolve(RatingSession.PROGRESS_FILE), "experiment", events);
                    }
                    events.add(jobsEvent);
                    for (Client c : clients) {
                        for (String e : events) {
                            c.offer(e);
                        }
                    }
                }
                Thread.sleep(Math.max(50, next - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // a file that vanished or is being replaced: the next tick reads it again
            }
        }
    }

    private void collect(Path file, String type, List<String> events) {
        long from = offsets.getOrDefault(file, -1L);
        if (from < 0) {
            // First seen by the ticker: pages get its beginning when they connect; from now on, what it gains.
            from = 0;
        }
        Read r = readFrom(file, from);
        offsets.put(file, r.end);
        Path owner = type.equals("line") ? file : file.getParent();
        for (int i = 0; i < r.lines.size(); i++) {
            events.add(event(type, owner, r.lines.get(i), r.ends.get(i)));
        }
    }

    /**
     * One event; {@code at} is where the line ends in its file, so a page that got a line both from the files and
     * from the ticker (it connected between two ticks) keeps it once.
     */
    private String event(String type, Path owner, String line, long at) {
        String rel = runs.relativize(owner).toString().replace('\\', '/');
        return "event: " + type + "\ndata: {\"path\":" + quote(rel) + ",\"at\":" + at + ",\"data\":" + line + "}\n\n";
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Read(List<String> lines, List<Long> ends, long end) {}

    /** Whole lines from {@code from} on; a last line without its newline is left for the next read. */
    private static Read readFrom(Path file, long from) {
        List<String> lines = new ArrayList<>();
        List<Long> ends = new ArrayList<>();
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long len = f.length();
            if (len < from) {
                from = 0; // replaced by a new run with the same name
            }
            byte[] b = new byte[(int) Math.min(len - from, 16 << 20)];
            f.seek(from);
            f.readFully(b);
            int start = 0;
            for (int i = 0; i < b.length; i++) {
                if (b[i] == '\n') {
                    String line = new String(b, start, i - start, StandardCharsets.UTF_8);
                    if (!line.isBlank()) {
                        lines.add(line);
                        ends.add(from + i + 1);
                    }
                    start = i + 1;
                }
            }
            return new Read(lines, ends, from + start);
        } catch (IOException e) {
            return new Read(lines, ends, from);
        }
    }

    private List<Path> liveFiles() {
        return recent(p -> p.getFileName().toString().endsWith(LiveFile.SUFFIX));
    }

    private List<Path> liveRatings() {
        return recent(p -> p.getFileName().toString().equals(RatingSession.PROGRESS_FILE)).stream()
                .map(Path::getParent)
                .toList();
    }

    /**
     * Files a run writes now: live files sit beside results, in the runs directory or one level down (a rating's or a
     * sweep's directory); the walk stops there, so the runs' validation logs are never listed each second.
     */
    private List<Path> recent(Predicate<Path> which) {
        if (!Files.isDirectory(runs)) {
            return List.of();
        }
        long since = System.currentTimeMillis() - LIVE_MILLIS;
        try (Stream<Path> s = Files.walk(runs, 2)) {
            // a link out of the runs directory is not followed (it could name any file of this host)
            return s.filter(which)
                    .filter(p -> Results.confined(runs, p))
                    .filter(p -> {
                        try {
                            return Files.getLastModifiedTime(p).toMillis() >= since;
                        } catch (IOException e) {
                            return false;
                        }
                    })
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    @Override
    public void close() {
        closed = true;
        ticker.interrupt();
        for (Client c : clients) {
            c.offer(null);
        }
    }

    /** One connected page. */
    private static final class Client {
        private static final String END = "";
        private final OutputStream out;
        private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(QUEUE);
        private volatile boolean dropped;

        Client(OutputStream out) {
            this.out = out;
        }

        void offer(String event) {
            if (!queue.offer(event == null ? END : event)) {
                dropped = true;
            }
        }

        void pump() throws InterruptedException {
            try {
                out.write(": BG deck live feed\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                while (!dropped) {
                    String e = queue.poll(15, TimeUnit.SECONDS);
                    if (e == END) {
                        return;
                    }
                    out.write((e == null ? ": keep-alive\n\n" : e).getBytes(StandardCharsets.UTF_8));
                    if (queue.isEmpty()) {
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // the page went away
            }
        }
    }
}
