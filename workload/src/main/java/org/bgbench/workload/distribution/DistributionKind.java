package org.bgbench.workload.distribution;

import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/** How members are picked (dissertation 4.3.1): USC BG's {@code requestdistribution} values. */
public enum DistributionKind {
    /** Every member equally likely. */
    UNIFORM("uniform"),
    /** BG's Zipfian (eq. 4.1) over all members with a scrambled rank → member mapping. */
    ZIPFIAN("zipfian"),
    /** Zipfian decentralised over N workers ({@link DZipfian}); with one worker it is {@link #ZIPFIAN}. */
    DZIPFIAN("dzipfian"),
    /** YCSB's latest: Zipfian favouring the highest member indexes. */
    LATEST("latest");

    private final String key;

    DistributionKind(String key) {
        this.key = key;
    }

    /** The property value, e.g. {@code dzipfian}. */
    public String key() {
        return key;
    }

    /** Whether θ shapes this distribution. */
    public boolean skewed() {
        return this != UNIFORM;
    }

    /** Parses a property value (any case). */
    public static DistributionKind parse(String parameter, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (DistributionKind k : values()) {
            if (k.key.equals(v)) {
                return k;
            }
        }
        throw new InvalidParameterException(
                parameter, "unknown distribution '" + value + "'; accepted: uniform, zipfian, dzipfian, latest");
    }
}
