package org.bgbench.emulator;

import java.util.Map;
import java.util.random.RandomGenerator;
import org.bgbench.model.Action;
import org.bgbench.model.Kind;

/** Test workload: a mix given as weights per kind, members drawn uniformly. */
final class WeightedWorkload implements Workload {
    private final double[] cumulative = new double[Kind.count()];
    private final int members;

    WeightedWorkload(int members, double[] weights) {
        this.members = members;
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double c = 0;
        for (int k = 0; k < Kind.count(); k++) {
            c += k < weights.length ? weights[k] / sum : 0;
            cumulative[k] = c;
        }
    }

    /** The dissertation's High (10 % write) mix of table 4.1, as weights by {@link Kind#index()}. */
    static double[] high() {
        return weights(Map.of(
                Action.VP,
                35.0,
                Action.LF,
                5.0,
                Action.VFR,
                5.0,
                Action.IF,
                4.0,
                Action.AFR,
                2.0,
                Action.RFR,
                2.0,
                Action.TF,
                2.0,
                Action.VTR,
                45.0));
    }

    /** Weights by {@link Kind#index()}; kinds not given get 0. */
    static double[] weights(Map<? extends Kind, Double> byKind) {
        double[] w = new double[Kind.count()];
        byKind.forEach((k, v) -> w[k.index()] = v);
        return w;
    }

    @Override
    public int pickKind(double u) {
        for (int k = 0; k < Kind.count(); k++) {
            if (u < cumulative[k]) {
                return k;
            }
        }
        return Kind.count() - 1;
    }

    @Override
    public int pickSocialite(RandomGenerator rnd) {
        return rnd.nextInt(members);
    }

    @Override
    public int pickTarget(RandomGenerator rnd) {
        return rnd.nextInt(members);
    }

    @Override
    public boolean issues(int kind) {
        return (kind == 0 ? cumulative[0] : cumulative[kind] - cumulative[kind - 1]) > 0;
    }
}
