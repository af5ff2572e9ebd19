package org.bgbench.study.report;

/** A study with a line figure, a bar figure, every kind of finding, a failed point, not yet complete. */
final class Samples {
    private Samples() {}

    static Synthetic study() {
        return new Synthetic()
                .incomplete()
                .figure("3.3", "T", "actions/s")
                .series("sqlite VP", 1, 1234.5, 2, 2310, 4, 3520, 8, 4210, 16, 4010, 32, 3900)
                .series("memory VP", 1, 800, 2, 1700, 4, 3010, 8, 5120, 16, 7030, 32, Double.NaN)
                .paper("sqlite VP", 1, 1100)
                .paper("sqlite VP", 8, 4000)
                .paper("sqlite VP", 32, 3000)
                .paper("memory VP", 8, 6000)
                .figure("8.3", "design", "SoAR (actions/s)")
                .categories("10K members", new String[] {"Basic", "Boosted", "Manual"}, 420, 1350.25, 980)
                .categories("100K members", new String[] {"Basic", "Boosted", "Manual"}, 95, 610, 440)
                .paper("10K members", "Basic", 500)
                .paper("10K members", "Boosted", 1500)
                .paper("100K members", "Boosted", 700)
                .figure("7.11", "experiment duration (s)", "freshness confidence")
                .series(
                        "cache-augmented PostgreSQL with TTL = 30 s",
                        10,
                        0.412,
                        60,
                        0.7,
                        300,
                        0.93,
                        600,
                        0.97,
                        1800,
                        0.991,
                        3600,
                        0.995)
                .series("PostgreSQL alone", 10, 1, 60, 1, 300, 1, 600, 1, 1800, 1, 3600, 1)
                .paper("cache-augmented PostgreSQL with TTL = 30 s", 600, 0.95)
                .finding("{\"id\":\"peak\",\"kind\":\"trend\",\"figure\":\"3.3\",\"where\":\"figure 3.3\","
                        + "\"series\":\"sqlite VP\",\"paper_trend\":\"peaks-then-falls\"}")
                .finding("{\"id\":\"cross\",\"kind\":\"crossing\",\"figure\":\"3.3\",\"a\":\"sqlite VP\","
                        + "\"b\":\"memory VP\",\"paper_x\":[4,8]}")
                .finding("{\"id\":\"boosted-wins\",\"kind\":\"winner\",\"figure\":\"8.3\",\"where\":\"table 8.3\","
                        + "\"paper_winner\":\"10K members\",\"at\":\"Boosted\"}")
                .finding("{\"id\":\"size-factor\",\"kind\":\"ratio\",\"figure\":\"8.3\",\"a\":\"10K members\","
                        + "\"b\":\"100K members\",\"at\":\"Basic\",\"paper_factor\":2,\"tolerance\":0.5}")
                .finding("{\"id\":\"soar-table\",\"kind\":\"table\",\"figure\":\"8.3\",\"tolerance\":0.2}")
                .finding("{\"id\":\"memory-rises\",\"kind\":\"trend\",\"figure\":\"3.3\",\"series\":\"memory VP\","
                        + "\"paper_trend\":\"increasing\"}")
                .point("sqlite/VP/T=1/r1", "done", null)
                .point("sqlite/VP/T=2/r1", "done", null)
                .point("memory/VP/T=32/r1", "failed", "store refused: too many connections <pool of 16>")
                .point("memory/VP/T=32/r2", "pending", null);
    }
}
