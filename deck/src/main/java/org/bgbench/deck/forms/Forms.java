package org.bgbench.deck.forms;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bgbench.model.GraphParameters;
import org.bgbench.model.Kind;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import org.bgbench.workload.mix.Mix;
import org.bgbench.workload.mix.Mixes;

/**
 * What the deck's forms are built from: every store's declared settings (key, default, description), the graph's keys,
 * the named mixes with their percentages and the kinds a custom mix can weigh. Nothing here is typed twice: a new store
 * or mix appears in the deck by being registered.
 */
public final class Forms {
    private Forms() {}

    public static Map<String, Object> describe(StoreRegistry stores) {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> list = new ArrayList<>();
        for (StoreProvider p : stores.all()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", p.name());
            s.put("description", p.description());
            List<Map<String, Object>> settings = new ArrayList<>();
            for (StoreSetting st : p.settings()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("key", st.key());
                f.put("default", st.defaultValue());
                f.put("description", st.description());
                settings.add(f);
            }
            s.put("settings", settings);
            list.add(s);
        }
        m.put("stores", list);
        List<Map<String, Object>> graph = new ArrayList<>();
        GraphParameters.KEYS.forEach((k, d) -> graph.add(Map.of("key", k, "description", d)));
        m.put("graph", graph);
        List<Map<String, Object>> mixes = new ArrayList<>();
        for (Mixes.NamedMix nm : Mixes.all()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", nm.name());
            x.put("description", nm.description());
            x.put("percent", percents(nm.mix()));
            mixes.add(x);
        }
        m.put("mixes", mixes);
        List<Map<String, Object>> kinds = new ArrayList<>();
        for (Kind k : Kind.all()) {
            kinds.add(Map.of("code", k.code(), "title", k.title(), "key", k.uscKey(), "write", k.isWrite()));
        }
        m.put("kinds", kinds);
        return m;
    }

    private static Map<String, Double> percents(Mix mix) {
        Map<String, Double> p = new LinkedHashMap<>();
        List<Kind> all = Kind.all();
        for (int i = 0; i < all.size(); i++) {
            double w = mix.weight(i);
            if (w > 0) {
                p.put(all.get(i).code(), 100 * w);
            }
        }
        return p;
    }

    /**
     * The live check of a custom mix: its sum (must be 100 %) and, when it sums to 100 %, whether it is symmetric
     * (dissertation 4.1: the mix leaves the number of friendships, invitations and comments unchanged), with the
     * warnings BG itself prints.
     */
    public static Map<String, Object> checkMix(Map<String, Double> percentByCode) {
        double sum = 0;
        Mix.Builder b = Mix.builder();
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, Double> e : percentByCode.entrySet()) {
            double v = e.getValue() == null ? 0 : e.getValue();
            if (v < 0 || !Double.isFinite(v)) {
                errors.add(e.getKey() + ": a percentage from 0 to 100, got " + v);
                continue;
            }
            Optional<Kind> k = Kind.byCode(e.getKey());
            if (k.isEmpty()) {
                errors.add(e.getKey() + ": not an action or session code");
                continue;
            }
            b.percent(k.get(), v);
            sum += v;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sum", sum);
        boolean sums = Math.abs(sum - 100) < 1e-6;
        m.put("sums_to_100", sums);
        List<String> warnings = List.of();
        if (sums && errors.isEmpty()) {
            try {
                warnings = b.build().symmetryWarnings();
            } catch (RuntimeException e) {
                errors.add(e.getMessage());
            }
        }
        m.put("symmetric", sums && errors.isEmpty() && warnings.isEmpty());
        m.put("warnings", warnings);
        m.put("errors", errors);
        return m;
    }
}
