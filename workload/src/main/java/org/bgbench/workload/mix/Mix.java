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
import org.bgbench.workload.SessionType;
import org.bgbench.workload.distribution.AliasTables;

/**
 * An immutable mix of actions and sessions [SPEC §6, D 4.1]: the fraction of requests that are each {@link Action}
 * and each {@link SessionType}, summing to 1.
 *
 * <p>A request is one pick: an action or a whole session. Picks are encoded as a <em>choice</em>, an int from 0 to
 * {@link #CHOICES}−1: {@code 0..10} are the actions by {@link Action#ordinal()}, {@code 11..18} the sessions by
 * {@link SessionType#ordinal()} (see {@link #choice(Action)}, {@link #isAction(int)}, {@link #actionOf(int)},
 * {@link #sessionOf(int)}). {@link #pick(double)} draws a choice in O(1) with Vose's alias method over the choices
 * of non-zero weight, allocating nothing, so thousands of threads can share one mix.
 */
public final class Mix {
    /** Number of choices: every action, then every session. */
    public static final int CHOICES = Action.count() + SessionType.count();
    /** Largest allowed |sum − 1| of the fractions. */
    public static final double TOLERANCE = 1e-6;

    private static final int ACTIONS = Action.count();
    private static final double EPS = 1e-12;

    private final double[] weights;
    // Alias table over the non-zero choices only, so a zero-weight choice can never be drawn, not even by rounding.
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
        for (int c = 0, i = 0; c < CHOICES; c++) {
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
     * A mix from fractions of requests; choices not in the maps get 0. The fractions must be finite, non-negative and
     * sum to 1 within {@link #TOLERANCE}; they are then rescaled to sum to 1 and rounded to 12 decimals.
     *
     * @throws InvalidParameterException (parameter {@code mix}) naming the offending action or session
     */
    public static Mix of(Map<Action, Double> actions, Map<SessionType, Double> sessions) {
        double[] w = new double[CHOICES];
        actions.forEach((a, f) -> w[choice(a)] = f);
        sessions.forEach((s, f) -> w[choice(s)] = f);
        return ofWeights(w);
    }

    /** A mix from fractions indexed by choice (length {@link #CHOICES}); validated as {@link #of(Map, Map)}. */
    public static Mix ofWeights(double[] fractions) {
        if (fractions.length != CHOICES) {
            throw new IllegalArgumentException("expected " + CHOICES + " fractions, got " + fractions.length);
        }
        double[] w = fractions.clone();
        double sum = 0;
        for (int c = 0; c < CHOICES; c++) {
            if (!Double.isFinite(w[c]) || w[c] < 0) {
                throw new InvalidParameterException("mix", nameOf(c) + " has frequency " + w[c]
                        + "; frequencies must be 0 or more");
            }
            sum += w[c];
        }
        if (Math.abs(sum - 1) > TOLERANCE) {
            throw new InvalidParameterException("mix", "frequencies must sum to 100 %, got " + percent(sum)
                    + " (" + describe(w) + ")");
        }
        for (int c = 0; c < CHOICES; c++) {
            // Rounded to 12 decimals so that equal mixes written differently (0.4, 40 %, 0.4000000001) are equal.
            w[c] = Math.round(w[c] / sum * 1e12) / 1e12;
        }
        return new Mix(w);
    }

    /** 100 % of one action. */
    public static Mix only(Action action) {
        return builder().fraction(action, 1).build();
    }

    /** 100 % of one session. */
    public static Mix only(SessionType session) {
        return builder().fraction(session, 1).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects frequencies as fractions or percentages; {@link #build()} validates the sum. */
    public static final class Builder {
        private final double[] w = new double[CHOICES];

        private Builder() {
        }

        public Builder fraction(Action action, double fraction) {
            w[choice(action)] = fraction;
            return this;
        }

        public Builder fraction(SessionType session, double fraction) {
            w[choice(session)] = fraction;
            return this;
        }

        public Builder percent(Action action, double percent) {
            return fraction(action, percent / 100);
        }

        public Builder percent(SessionType session, double percent) {
            return fraction(session, percent / 100);
        }

        public Mix build() {
            return ofWeights(w);
        }
    }

    // ---- choices ----

    public static int choice(Action action) {
        return action.ordinal();
    }

    public static int choice(SessionType session) {
        return ACTIONS + session.ordinal();
    }

    public static boolean isAction(int choice) {
        return choice < ACTIONS;
    }

    public static Action actionOf(int choice) {
        return Action.byOrdinal(choice);
    }

    public static SessionType sessionOf(int choice) {
        return SessionType.byOrdinal(choice - ACTIONS);
    }

    /** The short code of a choice: the action's ({@code VP}) or the session's ({@code VSP}). */
    public static String nameOf(int choice) {
        return isAction(choice) ? actionOf(choice).name() : sessionOf(choice).code();
    }

    // ---- sampling ----

    /**
     * The choice for a uniform {@code u} in [0, 1): O(1), allocation-free, thread-safe. Equal {@code u} give equal
     * choices, so a recorded stream of uniforms replays the same requests.
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

    /** Fraction of requests that are choice {@code c}. */
    public double weight(int choice) {
        return weights[choice];
    }

    public double weight(Action action) {
        return weights[choice(action)];
    }

    public double weight(SessionType session) {
        return weights[choice(session)];
    }

    /** Fractions by choice (a copy). */
    public double[] weights() {
        return weights.clone();
    }

    public boolean hasSessions() {
        for (int c = ACTIONS; c < CHOICES; c++) {
            if (weights[c] > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * How often {@code action} is issued per request, counting each session's full sequence [D 3.3]: an action
     * contributes its weight, a session its weight times the number of times its sequence contains the action.
     * Sessions that end early (no friend, no invitation, no comment) issue fewer reads; each issues its one write
     * (if any) only when it gets that far.
     */
    public double perRequest(Action action) {
        double f = weights[choice(action)];
        for (SessionType s : SessionType.values()) {
            f += weights[choice(s)] * s.count(action);
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
     * {@link #perRequest(Action)} does; e.g. 0.01 for the Low mix of [D table 4.1].
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
     * Whether the mix keeps the graph's shape [D 4.1]: IF = AFR + RFR (pending invitations stay constant),
     * TF = AFR (friendships stay constant), PCR = DCR (comments stay constant). Counts include the writes that sessions
     * issue ({@link #perRequest(Action)}).
     */
    public boolean isSymmetric() {
        return symmetryWarnings().isEmpty();
    }

    /**
     * One human-readable warning per broken symmetry condition of [D 4.1] (empty when symmetric). Counts include the
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
                    + "invitations " + (inv > acc + rej ? "accumulate" : "shrink (AFR/RFR become no-ops once none "
                    + "are left)") + drift);
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
        for (int c = 0; c < CHOICES; c++) {
            p.put(MixKeys.key(c), plain(weights[c]));
        }
        return p;
    }

    /** Fractions of the actions by enum (including zeros). */
    public Map<Action, Double> actions() {
        Map<Action, Double> m = new EnumMap<>(Action.class);
        for (Action a : Action.values()) {
            m.put(a, weights[choice(a)]);
        }
        return m;
    }

    /** Fractions of the sessions by enum (including zeros). */
    public Map<SessionType, Double> sessions() {
        Map<SessionType, Double> m = new EnumMap<>(SessionType.class);
        for (SessionType s : SessionType.values()) {
            m.put(s, weights[choice(s)]);
        }
        return m;
    }

    /** E.g. {@code VP 40 %, LF 5 %, VTR 55 %}: the non-zero choices in order. */
    public String describe() {
        return describe(weights);
    }

    private static String describe(double[] w) {
        StringJoiner j = new StringJoiner(", ");
        for (int c = 0; c < CHOICES; c++) {
            if (w[c] != 0) {
                j.add(nameOf(c) + " " + percent(w[c]));
            }
        }
        return j.length() == 0 ? "nothing" : j.toString();
    }

    /** A fraction as a percentage with at most 6 significant digits, e.g. {@code 0.04 %}. */
    public static String percent(double fraction) {
        if (!Double.isFinite(fraction)) {
            return fraction + " %";
        }
        return new BigDecimal(fraction * 100).round(new MathContext(6)).stripTrailingZeros().toPlainString() + " %";
    }

    private static String plain(double fraction) {
        if (fraction == 0) {
            return "0";
        }
        return new BigDecimal(fraction).round(new MathContext(12)).stripTrailingZeros().toPlainString();
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
