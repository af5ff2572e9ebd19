package org.bgbench.emulator;

import java.util.random.RandomGenerator;

/** Test workload: a mix given as weights per kind, members drawn uniformly. */
final class WeightedWorkload implements Workload {
    private final double[] cumulative = new double[Kinds.COUNT];
    private final int members;

    WeightedWorkload(int members, double[] weights) {
        this.members = members;
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double c = 0;
        for (int k = 0; k < Kinds.COUNT; k++) {
            c += k < weights.length ? weights[k] / sum : 0;
            cumulative[k] = c;
        }
    }

    /** The dissertation's High (10 % write) mix of table 4.1, as weights by action ordinal. */
    static double[] high() {
        // VP LF VFR IF AFR RFR TF VTR VCR PCR DCR
        return new double[] {35, 5, 5, 4, 2, 2, 2, 45, 0, 0, 0};
    }

    @Override
    public int pickKind(double u) {
        for (int k = 0; k < Kinds.COUNT; k++) {
            if (u < cumulative[k]) {
                return k;
            }
        }
        return Kinds.COUNT - 1;
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
