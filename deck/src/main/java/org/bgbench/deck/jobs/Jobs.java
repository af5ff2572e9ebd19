package org.bgbench.deck.jobs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bgbench.model.Kind;

/**
 * Starts the commands the deck's forms ask for as {@code bg} processes, exactly as a user would type them, so the deck
 * checks input with the command line's own checks and gets its messages; a refused input (exit 2) is mapped to the
 * form field its message names. A run keeps going if the deck is closed; stopping a job sends it SIGTERM, which BG
 * handles like Ctrl-C (what was measured is kept).
 */
public final class Jobs {
    /** Commands the deck starts. */
    public static final Set<String> COMMANDS = Set.of("load", "run", "rate", "delta", "sweep");
    /** Options given once per value; the form takes them comma-separated. */
    private static final Set<String> REPEATABLE = Set.of("--store-host");

    private static final Pattern ERROR = Pattern.compile("^bg(?: \\w+)?: error: (.*)$");
    private static final Pattern OPTION = Pattern.compile("(?:option '|^)(--?[\\w.-]+)'?");
    private static final Pattern KEY = Pattern.compile("^([\\w.]+):");
    private final List<String> bg;
    private final Path workDir;
    private final Path runs;
    private final AtomicInteger ids = new AtomicInteger();
    private final ConcurrentSkipListMap<Integer, Job> jobs = new ConcurrentSkipListMap<>();

    /**
     * @param bg      how to start BG (e.g. the JVM, its class path and BG's main class)
     * @param workDir where the jobs run (relative store paths are relative to it)
     * @param runs    the results directory the deck browses
     */
    public Jobs(List<String> bg, Path workDir, Path runs) {
        this.bg = List.copyOf(bg);
        this.workDir = workDir;
        this.runs = runs;
    }

    public List<Job> all() {
        return new ArrayList<>(jobs.values());
    }

    public Job get(int id) {
        return jobs.get(id);
    }

    /** The arguments of {@code r} after {@code bg}, with the result path the deck chose. */
    public static List<String> arguments(JobRequest r, Path result) {
        if (r.command() == null || !COMMANDS.contains(r.command())) {
            throw new IllegalArgumentException("command: one of " + String.join(", ", new TreeSet<>(COMMANDS)));
        }
        List<String> a = new ArrayList<>();
        a.add(r.command());
        if (r.store() != null && !r.store().isBlank()) {
            a.add("--store=" + r.store());
        }
        r.settings().forEach((k, v) -> addKey(a, k, v));
        r.graph().forEach((k, v) -> addKey(a, k, v));
        if (!r.command().equals("load")) {
            if ("custom".equals(r.workload())) {
                // Every kind as USC BG's frequency key, so the mix is exactly the form's.
                r.mix().forEach((code, pct) -> {
                    if (pct != null && pct > 0) {
                        String key = Kind.byCode(code)
                                .orElseThrow(() ->
                                        new IllegalArgumentException("mix: unknown action or session '" + code + "'"))
                                .uscKey();
                        a.add("-p");
                        a.add(key + "=" + pct + "%");
                    }
                });
            } else if (r.workload() != null && !r.workload().isBlank()) {
                a.add("--workload=" + r.workload());
            }
        }
        r.options().forEach((name, v) -> {
            if (!name.matches("--[a-z][a-z0-9-]*")) {
                throw new IllegalArgumentException(name + ": not an option name");
            }
            if (name.equals("--out")) {
                return;
            }
            if (REPEATABLE.contains(name) && v != null) {
                // one field, several values: the option once per value
                for (String one : String.valueOf(v).split("[,\\s]+")) {
                    if (!one.isBlank()) {
                        a.add(name + "=" + one);
                    }
                }
            } else if (Boolean.TRUE.equals(v) || "true".equals(v)) {
                a.add(name);
            } else if (v != null
                    && !(v instanceof Boolean)
                    && !String.valueOf(v).isBlank()) {
                a.add(name + "=" + v);
            }
        });
        if (result != null) {
            a.add("--out=" + result);
        }
        return a;
    }

    private static void addKey(List<String> a, String k, String v) {
        if (v != null && !v.isBlank()) {
            a.add("-p");
            a.add(k + "=" + v.trim());
        }
    }

    /** Starts {@code r}; what it writes goes under the runs directory. */
    public Job start(JobRequest r) throws IOException {
        Path result = resultFor(r);
        List<String> args = arguments(r, result);
        List<String> cmd = new ArrayList<>(bg);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        Job job = new Job(ids.incrementAndGet(), r.command(), args, result, p);
        jobs.put(job.id(), job);
        Thread.ofVirtual().name("deck-job-" + job.id()).start(() -> follow(job));
        return job;
    }

    private Path resultFor(JobRequest r) {
        String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String store =
                r.store() == null || r.store().isBlank() ? "store" : r.store().replaceAll("[^\\w.-]", "_");
        String mix = r.workload() == null || r.workload().isBlank()
                ? "mix"
                : r.workload().replaceAll("[^\\w.-]", "_");
        int n = ids.get() + 1;
        return switch (r.command()) {
            case "run" ->
                runs.resolve(String.format(
                        Locale.ROOT,
                        "deck-%s-%d-%s-%s-T%s.json",
                        time,
                        n,
                        store,
                        mix,
                        String.valueOf(r.options().getOrDefault("--threads", ""))
                                .replaceAll("[^\\w]", "")));
            case "rate" -> runs.resolve(String.format(Locale.ROOT, "rate-deck-%s-%d-%s", time, n, store));
            case "delta" -> runs.resolve(String.format(Locale.ROOT, "delta-deck-%s-%d-%s.json", time, n, store));
            case "sweep" -> runs.resolve(String.format(Locale.ROOT, "sweep-deck-%s-%d-%s.json", time, n, store));
            default -> null;
        };
    }

    private void follow(Job job) {
        String firstError = null;
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(job.process().getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                job.line(line);
                if (firstError == null && ERROR.matcher(line).matches()) {
                    firstError = line;
                }
            }
        } catch (IOException e) {
            job.line("deck: lost the command's output: " + e.getMessage());
        }
        int code;
        try {
            code = job.process().waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = -1;
        }
        job.ended(code, code == 2 && firstError != null ? fieldError(firstError) : null);
    }

    /**
     * The form field a refusal names: an option ({@code --threads}) or a key ({@code usercount}, {@code members},
     * {@code sqlite.file}); the page maps the graph's own names (members) to its fields.
     */
    public static Job.FieldError fieldError(String line) {
        Matcher m = ERROR.matcher(line);
        String message = m.matches() ? m.group(1) : line;
        Matcher o = OPTION.matcher(message);
        if (o.find() && o.group(1).startsWith("--")) {
            return new Job.FieldError(o.group(1), message);
        }
        Matcher k = KEY.matcher(message);
        if (k.find()) {
            return new Job.FieldError(k.group(1), message);
        }
        return new Job.FieldError(null, message);
    }

    /** Sends every running job SIGTERM (BG keeps what it measured) and waits a little for them. */
    public void stopAll() {
        for (Job j : jobs.values()) {
            j.stop();
        }
    }

    /** The line that says why a job failed: its first error line, else its last non-blank line ("" without any). */
    private static String failure(List<String> lines) {
        for (String l : lines) {
            Matcher m = ERROR.matcher(l);
            if (m.matches()) {
                return m.group(1);
            }
        }
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (!lines.get(i).isBlank()) {
                return lines.get(i);
            }
        }
        return "";
    }

    /** Whether a job's result exists: a run's JSON, or a rating's rating.json. */
    private static boolean written(Path result) {
        return Files.isDirectory(result) ? Files.exists(result.resolve("rating.json")) : Files.exists(result);
    }

    /** A summary of a job for the page, its secrets masked. */
    public static Map<String, Object> summary(Job j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", j.id());
        m.put("command", j.command());
        m.put("args", Masked.args(j.args())); // never a password, secret or token
        m.put("result", j.result() == null ? null : j.result().getFileName().toString());
        // Whether the result is there: a failed start lists none.
        m.put("result_written", j.result() != null && written(j.result()));
        m.put("started", j.startedMillis());
        m.put("running", j.exitCode() == null);
        m.put("exit_code", j.exitCode());
        Job.FieldError e = j.error();
        m.put(
                "error",
                e == null
                        ? null
                        : new Job.FieldError(
                                e.field(),
                                Masked.lines(List.of(e.message()), j.args()).get(0)));
        List<String> lines = j.lines();
        // Why a job failed that was not refused (a refusal's message is "error", next to its field): its first error
        // line, else its last line, so the page shows it beside the job and not only in its output.
        m.put(
                "failure",
                e != null || j.exitCode() == null || j.exitCode() == 0
                        ? null
                        : Masked.lines(List.of(failure(lines)), j.args()).get(0));
        m.put("output", Masked.lines(lines.subList(Math.max(0, lines.size() - 40), lines.size()), j.args()));
        return m;
    }
}
