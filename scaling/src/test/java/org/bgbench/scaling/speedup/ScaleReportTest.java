package org.bgbench.scaling.speedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bgbench.measurement.NodeResult;
import org.bgbench.scaling.speedup.ScaleReport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleReportTest {
    private static Outcome rated(String name, int nodes, double soar, int threads) {
        return new Outcome(
                new Outcome.Config(name, nodes, 1000L * nodes, "0" + nodes + "-" + name),
                new Outcome.Rating(true, SoarFigure.exact(soar, threads, "confirmed"), null),
                new Outcome.Hardware(List.of(), null, false));
    }

    /** A configuration whose rating reached max-threads with the SLA still met: its SoAR is a lower bound. */
    private static Outcome atMaxThreads(String name, int nodes, double soar, int threads) {
        return new Outcome(
                new Outcome.Config(name, nodes, 1000L * nodes, "0" + nodes + "-" + name),
                new Outcome.Rating(
                        true,
                        new SoarFigure(soar, threads, "confirmed", "the hill climbing reached max-threads=" + threads),
                        null),
                new Outcome.Hardware(List.of(), null, false));
    }

    private static ScaleReport speedup(Outcome... outcomes) {
        return new ScaleReport(ScaleMode.SPEEDUP, "postgres", "95%:100ms:0.01%:60s", List.of(outcomes), List.of());
    }

    @Test
    void aLowerBoundSoarPrintsGreaterOrEqualAndBoundsItsSpeedupFromBelow() {
        ScaleReport r = speedup(rated("one", 1, 1000, 8), atMaxThreads("two", 2, 1800, 16));
        Outcome two = r.outcomes().get(1);
        assertThat(r.ratioBound(two)).isEqualTo(RatioBound.LOWER);
        assertThat(r.ratioBound(r.baseline())).isEqualTo(RatioBound.EXACT);

        assertThat(r.table())
                .containsPattern("two +2 +2,000 +≥ 1,800 +16 +≥ 1\\.80 +2\\.00 +≥ 90 %")
                .contains("two: SoAR ≥ 1,800 is a lower bound: the hill climbing reached max-threads=16")
                .contains("two: speedup ≥ 1.80 and efficiency ≥ 90 % are lower bounds too, as its SoAR is")
                .containsPattern("one +1 +1,000 +1,000 +8 +1\\.00 ");
        JsonNode json = new ObjectMapper().valueToTree(r.toMap());
        JsonNode c0 = json.path("configurations").get(0);
        JsonNode c1 = json.path("configurations").get(1);
        assertThat(c0.path("lower_bound").asBoolean()).isFalse();
        assertThat(c0.path("ratio_bound").asText()).isEqualTo("exact");
        assertThat(c1.path("lower_bound").asBoolean()).isTrue();
        assertThat(c1.path("lower_bound_reason").asText()).contains("max-threads=16");
        assertThat(c1.path("ratio_bound").asText()).isEqualTo("lower_bound");
        String svg = r.svg();
        assertThat(svg).contains("two ≥ 1,800 (≥ 90 %)").contains("SoAR ≥ 1,800 at T=16 (a lower bound: ");
        assertThat(svg).contains("≥ a lower bound");
    }

    @Test
    void aLowerBoundBaselineBoundsTheSpeedupFromAbove() {
        ScaleReport r = speedup(atMaxThreads("one", 1, 1000, 8), rated("two", 2, 1800, 16));
        Outcome two = r.outcomes().get(1);
        assertThat(r.ratioBound(two)).isEqualTo(RatioBound.UPPER);
        // The baseline's own ratio is 1 by definition, bound or not.
        assertThat(r.ratioBound(r.baseline())).isEqualTo(RatioBound.EXACT);
        assertThat(r.table())
                .containsPattern("one +1 +1,000 +≥ 1,000 +8 +1\\.00 ")
                .containsPattern("two +2 +2,000 +1,800 +16 +≤ 1\\.80 +2\\.00 +≤ 90 %")
                .contains("two: speedup ≤ 1.80 and efficiency ≤ 90 % are upper bounds");
        JsonNode c1 =
                new ObjectMapper().valueToTree(r.toMap()).path("configurations").get(1);
        assertThat(c1.path("lower_bound").asBoolean()).isFalse();
        assertThat(c1.path("ratio_bound").asText()).isEqualTo("upper_bound");
    }

    @Test
    void lowerBoundsOnBothSidesLeaveTheSpeedupsDirectionUnknown() {
        ScaleReport r = speedup(atMaxThreads("one", 1, 1000, 8), atMaxThreads("two", 2, 1800, 16));
        assertThat(r.ratioBound(r.outcomes().get(1))).isEqualTo(RatioBound.BOTH_SIDES);
        assertThat(r.table())
                .containsPattern("two +2 +2,000 +≥ 1,800 +16 +~ 1\\.80 +2\\.00 +~ 90 %")
                .contains("two: speedup ~ 1.80 and efficiency ~ 90 % have bounds on both sides");
        assertThat(new ObjectMapper()
                        .valueToTree(r.toMap())
                        .path("configurations")
                        .get(1)
                        .path("ratio_bound")
                        .asText())
                .isEqualTo("bounds_on_both_sides");
    }

    @Test
    void exactSoarsHaveNoSignAndNoBoundNotes() {
        String table =
                speedup(rated("one", 1, 1000, 8), rated("two", 2, 1800, 16)).table();
        assertThat(table).doesNotContain("≥").doesNotContain("≤").doesNotContain("bound");
    }

    @Test
    void speedupOfThreeConfigurations() {
        // SoAR 1,000 with 1 node, 1,800 with 2, 3,000 with 4: speedups 1, 1.8, 3 against ideals 1, 2, 4.
        ScaleReport r = new ScaleReport(
                ScaleMode.SPEEDUP,
                "postgres",
                "95%:100ms:0.01%:60s",
                List.of(rated("one", 1, 1000, 8), rated("two", 2, 1800, 16), rated("four", 4, 3000, 32)),
                List.of());
        List<Outcome> o = r.outcomes();
        assertThat(r.ratio(o.get(0))).isEqualTo(1.0);
        assertThat(r.ratio(o.get(1))).isCloseTo(1.8, within(1e-12));
        assertThat(r.ratio(o.get(2))).isCloseTo(3.0, within(1e-12));
        assertThat(r.ideal(o.get(2))).isEqualTo(4.0);
        assertThat(r.efficiency(o.get(1))).isCloseTo(0.9, within(1e-12));
        assertThat(r.efficiency(o.get(2))).isCloseTo(0.75, within(1e-12));
        assertThat(r.complete()).isTrue();
        String table = r.table();
        assertThat(table).contains("speedup").containsPattern("four +4 +4,000 +3,000 +32 +3\\.00 +4\\.00 +75 %");
    }

    @Test
    void scaleupFromATwoNodeBaseline() {
        // Ideal is the baseline's SoAR whatever the size: 2,200 of 2,000 is 110 %, superlinear as in E.2.2.
        ScaleReport r = new ScaleReport(
                ScaleMode.SCALEUP,
                "hbase",
                "95%:100ms:0.01%:60s",
                List.of(rated("two", 2, 2000, 8), rated("six", 6, 2200, 16)),
                List.of());
        Outcome six = r.outcomes().get(1);
        assertThat(r.ideal(six)).isEqualTo(1.0);
        assertThat(r.ratio(six)).isCloseTo(1.1, within(1e-12));
        assertThat(r.efficiency(six)).isCloseTo(1.1, within(1e-12));
    }

    @Test
    void failedConfigurationsHaveNoRatio() throws Exception {
        Outcome failed =
                Outcome.failed(new Outcome.Config("two", 2, 1000, "02-two"), "start failed: port in use", true);
        ScaleReport r = new ScaleReport(
                ScaleMode.SPEEDUP,
                "postgres",
                "95%:100ms:0.01%:1s",
                List.of(rated("one", 1, 500, 4), failed),
                List.of("every node shared this machine"));
        assertThat(r.complete()).isFalse();
        assertThat(r.ratio(failed)).isNull();
        JsonNode json = new ObjectMapper().valueToTree(r.toMap());
        assertThat(json.path("kind").asText()).isEqualTo("scale");
        assertThat(json.path("mode").asText()).isEqualTo("speedup");
        assertThat(json.path("complete").asBoolean()).isFalse();
        JsonNode c = json.path("configurations").get(1);
        assertThat(c.path("status").asText()).isEqualTo("failed");
        assertThat(c.path("error").asText()).isEqualTo("start failed: port in use");
        assertThat(c.path("ratio").isNull()).isTrue();
        assertThat(json.path("configurations").get(0).path("ratio").asDouble()).isEqualTo(1.0);
        assertThat(json.path("warnings").get(0).asText()).isEqualTo("every node shared this machine");
        assertThat(r.table()).contains("failed: start failed: port in use");
        // A failed baseline leaves every ratio unknown, and a zero baseline too (nothing to divide by).
        ScaleReport noBase = new ScaleReport(
                ScaleMode.SPEEDUP, "p", "s", List.of(rated("one", 1, 0, 1), rated("two", 2, 100, 2)), List.of());
        assertThat(noBase.ratio(noBase.outcomes().get(1))).isNull();
    }

    @Test
    void theTableShowsEachNodesUseAtSoar() {
        NodeResult.MeanMax cpu = new NodeResult.MeanMax(1.5, 2.0);
        NodeResult.MeanMax none = new NodeResult.MeanMax(null, null);
        NodeResult db = NodeResult.builder()
                .name("db1:9100")
                .role("store")
                .cpus(4)
                .seconds(10)
                .missingSeconds(2)
                .busyCores(cpu)
                .memUsedBytes(new NodeResult.MeanMax(2.5e9, 3e9))
                .memTotalBytes(none)
                .netRxBytesPerS(new NodeResult.MeanMax(3e6, 4e6))
                .netTxBytesPerS(new NodeResult.MeanMax(1e6, 2e6))
                .loBytesPerS(none)
                .diskReadBytesPerS(none)
                .diskWriteBytesPerS(none)
                .diskBusyPct(new NodeResult.MeanMax(40.0, 60.0))
                .build();
        Bottleneck b = Bottleneck.of(List.of(db), 0);
        Outcome one = new Outcome(
                new Outcome.Config("one", 1, 100, "01-one"),
                new Outcome.Rating(true, SoarFigure.exact(100.0, 2, "confirmed"), null),
                new Outcome.Hardware(List.of(db), b, false));
        String table = new ScaleReport(ScaleMode.SPEEDUP, "p", "s", List.of(one), List.of()).table();
        assertThat(table)
                .contains("bottleneck of one: store host db1:9100: busiest disk busy 40 % of the time (40 %)")
                .contains("  store host db1:9100: CPU 1.50 of 4 cores, disk busy 40 %, network in 3.00 / out 1.00 MB/s,"
                        + " memory 2.50 GB used, 2 seconds without an answer");
    }

    @Test
    void theChartHasAPointPerRatedConfigurationAndTheIdealLine() {
        ScaleReport r = new ScaleReport(
                ScaleMode.SPEEDUP,
                "postgres",
                "95%:100ms:0.01%:60s",
                List.of(
                        rated("one", 1, 1000, 8),
                        rated("two", 2, 1800, 16),
                        Outcome.failed(new Outcome.Config("three", 3, 1000, "03-three"), "x", false)),
                List.of());
        String svg = r.svg();
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n");
        assertThat(svg.split("<circle", -1)).hasSize(3);
        assertThat(svg).contains("ideal").contains("two (90 %)").contains("SoAR speedup of postgres");
        // The ideal line runs from the baseline's point to 3 × its SoAR at N = 3, so the axis goes past 3,000 (with 5 %
        // room) to the next round figure, 4,000, in steps of 800.
        assertThat(svg).contains(">4,000</text>").contains(">800</text>").doesNotContain(">5,000</text>");
    }

    @Test
    void readsWhetherARatingsSoarIsALowerBound(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rating.json"), """
                {"soar":{"actions_per_second":16000,"threads":16,"status":"confirmed","lower_bound":true,
                 "lower_bound_reason":"the hill climbing reached max-threads=16"},"complete":true}""");
        SoarFigure soar = RatingDir.read(dir).soar();
        assertThat(soar.isLowerBound()).isTrue();
        assertThat(soar.lowerBound()).isEqualTo("the hill climbing reached max-threads=16");
    }

    @Test
    void readsARatingDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("rating.json"), """
                {"soar":{"actions_per_second":1234.5,"threads":4,"status":"confirmed","search_experiment":2,
                 "confirmation_experiment":3},"complete":true,"stop_reason":null}""");
        // The confirmation run's result holds the nodes; the search run's is a decoy with other figures.
        String nodes = """
                {"format":1,"throughput":1.0,"nodes":[{"name":"client","role":"bg","cpus":2,"seconds":5,"missing_seconds":0,
                 "busy_cores":{"mean":%s,"max":1.5}},
                 {"name":"127.0.0.1:9100","role":"store","cpus":2,"seconds":5,"missing_seconds":0,
                 "busy_cores":{"mean":0.4,"max":0.5},"disk_busy_pct":{"mean":12.0,"max":20.0}}]}""";
        Files.writeString(dir.resolve("02-T4.json"), nodes.formatted("0.2"));
        Files.writeString(dir.resolve("03-T4.json"), nodes.formatted("1.2"));
        RatingDir r;
        try {
            r = RatingDir.read(dir);
        } catch (IOException e) {
            throw new AssertionError("a hand-written result should read: " + e.getMessage(), e);
        }
        assertThat(r.soar().actionsPerSecond()).isEqualTo(1234.5);
        assertThat(r.soar().threads()).isEqualTo(4);
        assertThat(r.soar().status()).isEqualTo("confirmed");
        assertThat(r.soar().isLowerBound()).isFalse();
        assertThat(r.resources()).hasSize(2);
        assertThat(r.resources().get(0).busyCores().mean()).isEqualTo(1.2);
        Bottleneck b = Bottleneck.of(r.resources(), 0);
        assertThat(b.role()).isEqualTo("bg");
        assertThat(b.utilisation()).isCloseTo(0.6, within(1e-9));
    }
}
