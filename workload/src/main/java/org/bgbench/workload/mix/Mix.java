package org.bgbench.workload.mix;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.random.RandomGenerator;
import org.bgbench.model.Action;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.Kind;
import org.bgbench.model.SessionType;
import org.bgbench.workload.distribution.AliasTables;

/**
 * An immutable mix of actions and sessions (dissertation 4.1): the fraction of requests that are each {@link Action}
 * and each {@link SessionType}, summing to 1.
 *
 * <p>A request is one pick: an action or a whole session, a {@link Kind}. Weights are indexed by {@link Kind#index()},
 * and {@link #pick(double)} returns that index: it draws in O(1) with Vose's alias method over the kinds of non-zero
 * weight, allocating nothing, so thousands of threads can share one mix.
 */
public final class Mix {
    /** Largest allowed |sum − 1| of the fractions. */
    public static final double TOLERANCE = 1e-6;

    private static final double EPS = 1e-12;

    private final double[] weights;
    // Alias table over the non-zero kinds only, so a zero-weight kind can never be drawn, not even by rounding.
    private final int size;
    private final double[] cut;
    private final int[] code;
    private final int[] aliasCode;

    private Mix(double[] weights) {
        this.weights = weights;
        int n = 0;
        for (double w : weights) {
            if (w > 0) {
                n++;
            }
        }
        this.size = n;
        this.code = new int[n];
        double[] w = new double[n];
        for (int c = 0, i = 0; c < weights.length; c++) {
            if (weights[c] > 0) {
                code[i] = c;
                w[i++] = weights[c];
            }
        }
        this.cut = new double[n];
        int[] alias = new int[n];
        AliasTables.build(w, cut, alias);
        this.aliasCode = new int[n];
        for (int i = 0; i < n; i++) {
            aliasCode[i] = code[alias[i]];
        }
    }

    // ---- construction ----

    /**
     * A mix from fractions of requests; kinds not in the maps get 0. The fractions must be finite, non-negative and
     * sum to 1 within {@link #TOLERANCE}; they are then rescaled to sum to 1 and rounded to 12 decimals.
     *
     * @throws InvalidParameterException (parameter {@code mix}) naming the offending action or session
     */
    public static Mix of(Map<Action, Double> actions, Map<SessionType, Double> sessions) {
        double[] w = new double[Kind.count()];
        actions.forEach((a, f) -> w[a.index()] = f);
        sessions.forEach((s, f) -> w[s.index()] = f);
        return ofWeights(w);
    }

    /** A mix from fractions indexed by {@link Kind#index()} (one per kind); validated as {@link #of(Map, Map)}. */
    public static Mix ofWeights(double[] fractions) {
        if (fractions.length != Kind.count()) {
            throw new IllegalArgumentException("expected " + Kind.count() + " fractions, got " + fractions.length);
        }
        double[] w = fractions.clone();
        double sum = 0;
        for (int c = 0; c < w.length; c++) {
            if (!Double.isFinite(w[c]) || w[c] < 0) {
                throw new InvalidParameterException(
                        "mix", Kind.byIndex(c).code() + " has frequency " + w[c] + "; frequencies must be 0 or more");
            }
            sum += w[c];
        }
        if (Math.abs(sum - 1) > TOLERANCE) {
            throw new InvalidParameterException(
                    "mix", "frequencies must sum to 100 %, got " + percent(sum) + " (" + describe(w) + ")");
        }
        for (int c = 0; c < w.length; c++) {
            // Rounded to 12 decimals so that equal mixes written differently (0.4, 40 %, 0.4000000001) are equal.
            w[c] = Math.round(w[c] / sum * 1e12) / 1e12;
        }
        return new Mix(w);
    }

    /** 100 % of one action or session. */
    public static Mix only(Kind kind) {
        return builder().fraction(kind, 1).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects frequencies as fractions or percentages; {@link #build()} validates the sum. */
    public static final class Builder {
        private final double[] w = new double[Kind.count()];

        private Builder() {}

        public Builder fraction(Kind kind, double fraction) {
            w[kind.index()] = fraction;
            return this;
        }

        public Builder percent(Kind kind, double percent) {
            return fraction(kind, percent / 100);
        }

        public Mix build() {
            return ofWeights(w);
        }
    }

    // ---- sampling ----

    /**
     * The {@link Kind#index()} for a uniform {@code u} in [0, 1): O(1), allocation-free, thread-safe. Equal {@code u}
     * give equal kinds, so a recorded stream of uniforms replays the same requests.
     */
    public int pick(double u) {
        double x = u * size;
        int i = (int) x;
        if (i >= size) {
            i = size - 1; // only if u was not below 1
        }
        return x - i < cut[i] ? code[i] : aliasCode[i];
    }

    /** {@link #pick(double)} with a uniform from {@code rnd}. */
    public int pick(RandomGenerator rnd) {
        return pick(rnd.nextDouble());
    }

    // ---- frequencies ----

    /** Fraction of requests that are the kind with index {@code kindIndex}. */
    public double weight(int kindIndex) {
        return weights[kindIndex];
    }

    public double weight(Kind kind) {
        return weights[kind.index()];
    }

    /** Fractions by {@link Kind#index()} (a copy). */
    public double[] weights() {
        return weights.clone();
    }

    /**
     * How often {@code action} is issued per request, counting each session's full sequence (dissertation 3.3): an action
     * contributes its weight, a session its weight times the number of times its sequence contains the action.
     * Sessions that end early (no friend, no invitation, no comment) issue fewer reads; each issues its one write
     * (if any) only when it gets that far.
     */
    public double perRequest(Action action) {
        double f = weights[action.index()];
        for (SessionType s : SessionType.values()) {
            f += weights[s.index()] * s.count(action);
        }
        return f;
    }

    /** Mean number of actions a request issues (1 for an action-only mix). */
    public double actionsPerRequest() {
        double n = 0;
        for (Action a : Action.values()) {
            n += perRequest(a);
        }
        return n;
    }

    /** Fraction of issued actions that are {@code action}, counting sessions as {@link #perRequest(Action)}. */
    public double actionShare(Action action) {
        return perRequest(action) / actionsPerRequest();
    }

    /**
     * Fraction of issued actions that are writes (IF, AFR, RFR, TF, PCR, DCR), counting the actions of sessions as
     * {@link #perRequest(Action)} does; e.g. 0.01 for the Low mix of dissertation table 4.1.
     */
    public double writeFraction() {
        double writes = 0;
        for (Action a : Action.values()) {
            if (a.isWrite()) {
                writes += perRequest(a);
            }
        }
        return writes / actionsPerRequest();
    }

    // ---- checks ----

    /**
     * Whether the mix keeps the graph's shape (dissertation 4.1): IF = AFR + RFR (pending invitations stay constant),
     * TF = AFR (friendships stay constant), PCR = DCR (comments stay constant). Counts include the writes that sessions
     * issue ({@link #perRequest(Action)}).
     */
    public boolean isSymmetric() {
        return symmetryWarnings().isEmpty();
    }

    /**
     * One human-readable warning per broken symmetry condition of dissertation 4.1 (empty when symmetric). Counts include the
     * writes that sessions issue; the check is static, so a session or AFR/RFR/DCR that finds nothing to act on (and
     * becomes a no-op) can still skew a symmetric mix at run time.
     */
    public List<String> symmetryWarnings() {
        double inv = perRequest(Action.IF);
        double acc = perRequest(Action.AFR);
        double rej = perRequest(Action.RFR);
        double thaw = perRequest(Action.TF);
        double post = perRequest(Action.PCR);
        double del = perRequest(Action.DCR);
        String drift = "; the graph drifts during a run, so repeated experiments do not start from the same state "
                + "unless the database is reloaded or repaired between them";
        List<String> warnings = new ArrayList<>();
        if (differ(inv, acc + rej)) {
            warnings.add("not symmetric: IF " + percent(inv) + " ≠ AFR + RFR " + percent(acc + rej) + ", so pending "
                    + "invitations "
                    + (inv > acc + rej ? "accumulate" : "shrink (AFR/RFR become no-ops once none " + "are left)")
                    + drift);
        }
        if (differ(thaw, acc)) {
            warnings.add("not symmetric: TF " + percent(thaw) + " ≠ AFR " + percent(acc) + ", so the number of "
                    + "friends per member " + (thaw > acc ? "shrinks" : "grows") + drift);
        }
        if (differ(post, del)) {
            warnings.add("not symmetric: PCR " + percent(post) + " ≠ DCR " + percent(del) + ", so comments per "
                    + "resource " + (post > del ? "accumulate" : "shrink (DCR becomes a no-op once none are left)")
                    + drift);
        }
        return List.copyOf(warnings);
    }

    /**
     * Whether the mix grows the data set as it runs: Share Resource adds a share (and, with push designs, feed entries)
     * that no action removes, so later View News Feeds read more and a run's throughput depends on its length
     * (dissertation 7.3 and 8.4: such workloads are compared by throughput versus T, not by SoAR).
     */
    public boolean growsData() {
        return perRequest(Action.SR) > 0;
    }

    /** Whether the mix issues the feed-following actions, which need a graph with pages or friends to show. */
    public boolean usesFeeds() {
        return perRequest(Action.SR) + perRequest(Action.VNF) > 0;
    }

    private static boolean differ(double a, double b) {
        return Math.abs(a - b) > EPS;
    }

    /**
     * Whether the mix accepts or rejects invitations (AFR, RFR, or the sessions that issue them) but creates none (no
     * IF, no InviteFrnd session): it then relies on the initial graph's pending invitations (USC {@code confperc} below
     * 1), and once those are used up every AFR/RFR becomes a no-op.
     */
    public boolean needsPendingInvitations() {
        return perRequest(Action.AFR) + perRequest(Action.RFR) > 0 && perRequest(Action.IF) == 0;
    }

    // ---- text ----

    /** The mix as USC BG frequency keys with fractions, every key including zeros, actions then sessions. */
    public Map<String, String> toProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        for (Kind k : Kind.all()) {
            p.put(k.uscKey(), plain(weights[k.index()]));
        }
        return p;
    }

    /** Fractions of the actions by enum (including zeros). */
    public Map<Action, Double> actions() {
        Map<Action, Double> m = new EnumMap<>(Action.class);
        for (Action a : Action.values()) {
            m.put(a, weights[a.index()]);
        }
        return m;
    }

    /** Fractions of the sessions by enum (including zeros). */
    public Map<SessionType, Double> sessions() {
        Map<SessionType, Double> m = new EnumMap<>(SessionType.class);
        for (SessionType s : SessionType.values()) {
            m.put(s, weights[s.index()]);
        }
        return m;
    }

    /** E.g. {@code VP 40 %, LF 5 %, VTR 55 %}: the non-zero kinds in order. */
    public String describe() {
        return describe(weights);
    }

    private static String describe(double[] w) {
        StringJoiner j = new StringJoiner(", ");
        for (int c = 0; c < w.length; c++) {
            if (w[c] != 0) {
                j.add(Kind.byIndex(c).code() + " " + percent(w[c]));
            }
        }
        return j.length() == 0 ? "nothing" : j.toString();
    }

    /** A fraction as a percentage with at most 6 significant digits, e.g. {@code 0.04 %}. */
    public static String percent(double fraction) {
        if (!Double.isFinite(fraction)) {
            return fraction + " %";
        }
        return new BigDecimal(fraction * 100)
                        .round(new MathContext(6))
                        .stripTrailingZeros()
                        .toPlainString() + " %";
    }

    private static String plain(double fraction) {
        if (fraction == 0) {
            return "0";
        }
        return new BigDecimal(fraction)
                .round(new MathContext(12))
                .stripTrailingZeros()
                .toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mix m && Arrays.equals(weights, m.weights);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Mix[%s]", describe());
    }
}
