package org.bgbench.runner;

import java.util.random.RandomGenerator;
import org.bgbench.emulator.Workload;
import org.bgbench.workload.distribution.MemberSampler;
import org.bgbench.workload.mix.Mix;

/** A workload spec's mix and samplers as the emulator sees them. The mix's choices are the emulator's kinds. */
final class WorkloadAdapter implements Workload {
    private final Mix mix;
    private final MemberSampler socialites;
    private final MemberSampler targets;

    WorkloadAdapter(Mix mix, MemberSampler socialites, MemberSampler targets) {
        this.mix = mix;
        this.socialites = socialites;
        this.targets = targets;
    }

    @Override
    public int pickKind(double u) {
        return mix.pick(u);
    }

    @Override
    public int pickSocialite(RandomGenerator rnd) {
        return socialites.next(rnd);
    }

    @Override
    public int pickTarget(RandomGenerator rnd) {
        return targets.next(rnd);
    }

    @Override
    public boolean issues(int kind) {
        return mix.weight(kind) > 0;
    }
}
