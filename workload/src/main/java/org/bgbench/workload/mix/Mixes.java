package org.bgbench.workload.mix;

import static org.bgbench.model.Action.AFR;
import static org.bgbench.model.Action.IF;
import static org.bgbench.model.Action.LF;
import static org.bgbench.model.Action.RFR;
import static org.bgbench.model.Action.SR;
import static org.bgbench.model.Action.TF;
import static org.bgbench.model.Action.VCR;
import static org.bgbench.model.Action.VFR;
import static org.bgbench.model.Action.VNF;
import static org.bgbench.model.Action.VP;
import static org.bgbench.model.Action.VTR;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import org.bgbench.model.InvalidParameterException;

/**
 * The papers' mixes as named workloads (dissertation table 4.1). Percentages are copied from the tables cited in each
 * {@link NamedMix#source()}. Not shipped: the feed-following mixes of [dissertation table 8.9] ("Mixed Very Low (0.2 %) Write"
 * and "Mixed High (11 %) Write"), which are 99.8 % and 89 % View News Feed plus Share Resource, actions this BG does
 * not implement yet.
 */
public final class Mixes {
    /**
     * A named mix.
     *
     * @param name        the value of the {@code mix} key, e.g. {@code low}
     * @param description one line for listings
     * @param source      where the percentages come from
     */
    public record NamedMix(String name, String description, String source, Mix mix) {}

    private static final List<NamedMix> ALL = List.of(
            new NamedMix("vp", "read only: 100 % View Profile", "[dissertation 3.2, fig. 4.5]", Mix.only(VP)),
            new NamedMix("lf", "read only: 100 % List Friends", "[dissertation 3.2]", Mix.only(LF)),
            new NamedMix(
                    "verylow",
                    "Very Low (0.1 %) Write, symmetric",
                    "[dissertation table 4.1]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.04)
                            .percent(AFR, 0.02)
                            .percent(RFR, 0.02)
                            .percent(TF, 0.02)
                            .percent(VTR, 49.9)
                            .build()),
            new NamedMix(
                    "low",
                    "Low (1 %) Write, symmetric",
                    "[dissertation table 4.1]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.4)
                            .percent(AFR, 0.2)
                            .percent(RFR, 0.2)
                            .percent(TF, 0.2)
                            .percent(VTR, 49)
                            .build()),
            new NamedMix(
                    "high",
                    "High (10 %) Write, symmetric",
                    "[dissertation table 4.1]",
                    Mix.builder()
                            .percent(VP, 35)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 4)
                            .percent(AFR, 2)
                            .percent(RFR, 2)
                            .percent(TF, 2)
                            .percent(VTR, 45)
                            .build()),
            new NamedMix(
                    "cikm-verylow",
                    "CIKM Very Low (0.1 %) Write, with VCR; not symmetric",
                    "[CIKM table 1]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.02)
                            .percent(AFR, 0.02)
                            .percent(RFR, 0.03)
                            .percent(TF, 0.03)
                            .percent(VTR, 40)
                            .percent(VCR, 9.9)
                            .build()),
            new NamedMix(
                    "cikm-low",
                    "CIKM Low (1 %) Write, with VCR; not symmetric",
                    "[CIKM table 1]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.2)
                            .percent(AFR, 0.2)
                            .percent(RFR, 0.3)
                            .percent(TF, 0.3)
                            .percent(VTR, 40)
                            .percent(VCR, 9)
                            .build()),
            new NamedMix(
                    "cikm-high",
                    "CIKM High (10 %) Write, with VCR; not symmetric",
                    "[CIKM table 1]",
                    Mix.builder()
                            .percent(VP, 35)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 2)
                            .percent(AFR, 2)
                            .percent(RFR, 3)
                            .percent(TF, 3)
                            .percent(VTR, 35)
                            .percent(VCR, 10)
                            .build()),
            new NamedMix(
                    "gurevich-verylow",
                    "VeryLowUpdate: table 4.1 writes with CIKM reads, symmetric",
                    "[Cassandra report table 5]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.04)
                            .percent(AFR, 0.02)
                            .percent(RFR, 0.02)
                            .percent(TF, 0.02)
                            .percent(VTR, 40)
                            .percent(VCR, 9.9)
                            .build()),
            new NamedMix(
                    "gurevich-low",
                    "LowUpdate: table 4.1 writes with CIKM reads, symmetric",
                    "[Cassandra report table 5]",
                    Mix.builder()
                            .percent(VP, 40)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 0.4)
                            .percent(AFR, 0.2)
                            .percent(RFR, 0.2)
                            .percent(TF, 0.2)
                            .percent(VTR, 40)
                            .percent(VCR, 9)
                            .build()),
            // The report prints VCR 1 % for High, which sums to 91 %; CIKM's High has VCR 10 %, which sums to 100 %.
            new NamedMix(
                    "gurevich-high",
                    "HighUpdate: table 4.1 writes with CIKM reads (VCR 10 %), symmetric",
                    "[Cassandra report table 5, its VCR 1 % read as 10 %]",
                    Mix.builder()
                            .percent(VP, 35)
                            .percent(LF, 5)
                            .percent(VFR, 5)
                            .percent(IF, 4)
                            .percent(AFR, 2)
                            .percent(RFR, 2)
                            .percent(TF, 2)
                            .percent(VTR, 35)
                            .percent(VCR, 10)
                            .build()),
            // Feed following: the two mixes of dissertation table 8.9 and the SR/VNF-only ones of figure 8.12.
            new NamedMix(
                    "feed-verylow",
                    "Feed Very Low (0.2 %) Write: friendship writes, SR 0.1 %, VNF 99.8 %",
                    "[dissertation table 8.9]",
                    Mix.builder()
                            .percent(IF, 0.04)
                            .percent(AFR, 0.02)
                            .percent(RFR, 0.02)
                            .percent(TF, 0.02)
                            .percent(SR, 0.1)
                            .percent(VNF, 99.8)
                            .build()),
            new NamedMix(
                    "feed-high",
                    "Feed High (11 %) Write: friendship writes 10 %, SR 1 %, VNF 89 %",
                    "[dissertation table 8.9]",
                    Mix.builder()
                            .percent(IF, 4)
                            .percent(AFR, 2)
                            .percent(RFR, 2)
                            .percent(TF, 2)
                            .percent(SR, 1)
                            .percent(VNF, 89)
                            .build()),
            new NamedMix(
                    "feed-sr1",
                    "1 % Share Resource, 99 % View News Feed",
                    "[dissertation figures 1.3, 8.12.a]",
                    Mix.builder().percent(SR, 1).percent(VNF, 99).build()),
            new NamedMix(
                    "feed-sr10",
                    "10 % Share Resource, 90 % View News Feed",
                    "[dissertation figure 8.12.b]",
                    Mix.builder().percent(SR, 10).percent(VNF, 90).build()),
            new NamedMix(
                    "feed-sr80",
                    "80 % Share Resource, 20 % View News Feed",
                    "[dissertation figure 8.12.c]",
                    Mix.builder().percent(SR, 80).percent(VNF, 20).build()));

    private Mixes() {}

    /** Every named mix in listing order. */
    public static List<NamedMix> all() {
        return ALL;
    }

    public static List<String> names() {
        return ALL.stream().map(NamedMix::name).toList();
    }

    /** The named mix, any case. */
    public static Optional<NamedMix> find(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return ALL.stream().filter(m -> m.name().equals(n)).findFirst();
    }

    /**
     * The mix called {@code name} (any case).
     *
     * @throws InvalidParameterException (parameter {@code mix}) listing the names
     */
    public static Mix byName(String name) {
        return byName("mix", name);
    }

    /** {@link #byName(String)} with the error naming {@code parameter}. */
    public static Mix byName(String parameter, String name) {
        return find(name)
                .map(NamedMix::mix)
                .orElseThrow(() -> new InvalidParameterException(
                        parameter, "unknown mix '" + name + "'; named mixes: " + listing()));
    }

    private static String listing() {
        StringJoiner j = new StringJoiner(", ");
        ALL.forEach(m -> j.add(m.name()));
        return j.toString();
    }
}
