package org.bgbench.study;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every point of a study at one scale, in the order they run: store, setting, mix, T, repetition. The stores of one
 * group (a store with one setting) share one load of the graph.
 *
 * @param study  the study
 * @param scale  the scale
 * @param groups the store × setting groups, each with its points
 */
public record StudyPlan(Study study, Scale scale, List<Group> groups) {

    /**
     * A store with one setting: one data directory, one load, its points in order.
     *
     * @param store   the store entry
     * @param setting the setting, or null when the study has none
     * @param points  its points
     * @param rating  a rate study's rating options for it (the scale's, the setting's over them), else null
     */
    public record Group(Study.StoreEntry store, Study.Setting setting, List<Point> points, RatingOptions rating) {
        public Group(Study.StoreEntry store, Study.Setting setting, List<Point> points) {
            this(store, setting, points, null);
        }

        /** A name unique to this store and setting, for its data directory ({@code ${group}}). */
        public String name() {
            return setting == null ? store.id() : store.id() + "-" + setting.name();
        }

        /** The store's keys with the setting's over them. */
        public Map<String, String> keys() {
            Map<String, String> k = new LinkedHashMap<>(store.settings());
            if (setting != null) {
                k.putAll(setting.keys());
            }
            return k;
        }
    }

    /**
     * One measured point: an experiment at T, or a rating ({@code threads} 0: its search chooses T).
     *
     * @param key        its key, e.g. {@code sqlite/vp/T=4/r1} (the setting after the store when there are settings),
     *                   {@code sqlite/vp/r1} for a rating
     * @param store      the store entry's id
     * @param setting    the setting's name, or null
     * @param mix        the mix
     * @param threads    T
     * @param repetition 1, 2, ...
     */
    public record Point(String key, String store, String setting, String mix, int threads, int repetition) {
        /** The point's result file under the study's directory. */
        public String resultPath() {
            String name = key.replace('/', '_');
            return rating() ? "points/" + name + "/rating.json" : "points/" + name + ".json";
        }

        /** Whether the point is a rating (by BG's rating engine, in its own directory), not one experiment. */
        public boolean rating() {
            return threads == 0;
        }

        /** The series label of this point for the dimensions {@code by}. */
        public String dimension(String d) {
            return switch (d) {
                case "store" -> store;
                case "setting" -> setting == null ? "" : setting;
                case "mix" -> mix;
                case "threads" -> Integer.toString(threads);
                default -> throw new IllegalArgumentException(d);
            };
        }
    }

    /**
     * The plan of {@code study} at {@code scale} over the stores whose id or binding is in {@code only} (empty: all);
     * a name no store of the study has is refused.
     */
    public static StudyPlan of(Study study, Scale scale, List<String> only) {
        for (String s : only) {
            if (study.subjects().stores().stream()
                    .noneMatch(e -> e.id().equals(s) || e.store().equals(s))) {
                throw new StudyFileException(
                        study.name(),
                        "stores",
                        "has no store '" + s + "'; it measures "
                                + String.join(
                                        ", ",
                                        study.subjects().stores().stream()
                                                .map(Study.StoreEntry::id)
                                                .toList())
                                + " (--store)");
            }
        }
        Study.ScalePlan sp = study.scales().get(scale);
        List<Study.Setting> settings = study.subjects().settings().isEmpty()
                ? java.util.Collections.singletonList(null)
                : study.subjects().settings();
        List<Group> groups = new ArrayList<>();
        for (Study.StoreEntry store : study.subjects().stores()) {
            if (!only.isEmpty() && !only.contains(store.id()) && !only.contains(store.store())) {
                continue;
            }
            for (Study.Setting declared : settings) {
                Study.Setting setting = atScale(declared, sp);
                List<Point> points = new ArrayList<>();
                String name = setting == null ? null : setting.name();
                if (study.subjects().kind() == Study.Kind.RATE) {
                    for (String mix : study.subjects().mixes()) {
                        for (int r = 1; r <= sp.repetitions(); r++) {
                            String key = store.id() + "/" + (name == null ? "" : name + "/") + mix + "/r" + r;
                            points.add(new Point(key, store.id(), name, mix, 0, r));
                        }
                    }
                    groups.add(new Group(store, setting, points, RateStudyCheck.options(sp, setting)));
                    continue;
                }
                for (String mix : study.subjects().mixes()) {
                    for (int t : sp.threads()) {
                        for (int r = 1; r <= sp.repetitions(); r++) {
                            String key =
                                    store.id() + "/" + (name == null ? "" : name + "/") + mix + "/T=" + t + "/r" + r;
                            points.add(new Point(key, store.id(), name, mix, t, r));
                        }
                    }
                }
                groups.add(new Group(store, setting, points));
            }
        }
        return new StudyPlan(study, scale, groups);
    }

    /** {@code s} with the keys {@code grid} gives it over its own (e.g. a TTL scaled to the points' duration). */
    static Study.Setting atScale(Study.Setting s, Study.ScalePlan grid) {
        Map<String, String> over = s == null ? null : grid.settings().get(s.name());
        if (over == null || over.isEmpty()) {
            return s;
        }
        Map<String, String> keys = new LinkedHashMap<>(s.keys());
        keys.putAll(over);
        return new Study.Setting(s.name(), keys);
    }

    /** The plan of every store of the study (a run of some stores keeps the others' points in study.json). */
    public StudyPlan all() {
        return of(study, scale, List.of());
    }

    /** Every point, in order. */
    public List<Point> points() {
        return groups.stream().flatMap(g -> g.points().stream()).toList();
    }

    /** The scale's grid. */
    public Study.ScalePlan grid() {
        return study.scales().get(scale);
    }

    /**
     * A point's times: the measured period, the warm-up and β.
     *
     * @param duration the measured time
     * @param warmup   the warm-up
     * @param beta     β
     */
    public record ScaleTimes(Duration duration, Duration warmup, Duration beta) {}

    /** The times of every point of this plan. */
    public ScaleTimes times() {
        return new ScaleTimes(
                grid().duration(), grid().warmup(), study.subjects().beta());
    }

    /** The measured time of the whole plan: points × (warm-up + duration); loads and resets come on top. */
    public Duration measuredTime() {
        Study.ScalePlan g = grid();
        if (study.subjects().kind() == Study.Kind.RATE) {
            return groups.stream()
                    .map(gr -> ratingTime(gr.rating()).multipliedBy(gr.points().size()))
                    .reduce(Duration.ZERO, Duration::plus);
        }
        return g.duration().plus(g.warmup()).multipliedBy(points().size());
    }

    /**
     * About how long one rating's experiments take: hill climbing up to its largest T, about as many experiments in
     * the local search, each of warm-up and δ, and a confirmation run of Δ per target.
     */
    private static Duration ratingTime(RatingOptions o) {
        RatingOptions.Search s = o.search();
        long climb = 1 + (long) Math.ceil(Math.log(s.maxThreads()) / Math.log(s.climbingFactor()));
        long local = (long) Math.ceil(Math.log(Math.max(2, s.maxThreads())) / Math.log(2));
        Duration each = o.delta().plus(o.warmup());
        Duration t = each.multipliedBy(climb + local);
        if (o.confirm()) {
            int targets = o.target().equals("both") ? 2 : 1;
            t = t.plus(o.parsedSla().duration().plus(o.warmup()).multipliedBy(targets));
        }
        return t;
    }

    /** The study's own deviations from the paper's setting, then every setting of this scale that differs from it. */
    public List<String> deviations() {
        return StudyDocument.deviations(this);
    }

    /** The graph keys of this scale: the study's, with the scale's over them. */
    public Map<String, String> graphKeys() {
        Map<String, String> k = new LinkedHashMap<>(study.subjects().graph());
        k.putAll(grid().graph());
        return k;
    }

    /** The graph keys of {@code g}: this scale's, with its setting's for this scale over them. */
    public Map<String, String> graphKeys(Group g) {
        Map<String, String> k = graphKeys();
        k.putAll(RateStudyCheck.graph(g.setting(), scale));
        return k;
    }
}
