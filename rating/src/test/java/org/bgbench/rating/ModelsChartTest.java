package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ModelsChartTest {
    @Test
    void bothModelsPointsTheirRatingsAndBetaAreDrawnWhereTheirValuesSay() {
        List<ModelsChart.Point> closed = List.of(
                new ModelsChart.Point(1000, 2, true),
                new ModelsChart.Point(4000, 8, true),
                new ModelsChart.Point(3000, 300, false));
        List<ModelsChart.Point> open = List.of(
                new ModelsChart.Point(1000, 3, true),
                new ModelsChart.Point(2000, 40, true),
                new ModelsChart.Point(4000, 2000, false));
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        String svg;
        try {
            svg = ModelsChart.svg("Closed & open <pg>", closed, open, 4000.0, 2000.0, 100);
        } finally {
            Locale.setDefault(before);
        }
        assertThat(svg)
                .startsWith("<svg")
                .endsWith("</svg>\n")
                .contains(
                        "Closed &amp; open &lt;pg&gt;",
                        "SoAR 4,000 actions/s",
                        "open-model rating 2,000 arrivals/s",
                        "β = 100 ms");
        // Three circles (closed) and three squares (open) with tooltips, besides the legend's.
        assertThat(count(svg, "<circle[^>]*><title>closed")).isEqualTo(3);
        assertThat(count(svg, "<rect[^>]*><title>open")).isEqualTo(3);
        // A missed point is hollow.
        assertThat(svg)
                .contains("fill=\"#ffffff\" stroke=\"#ef6c00\" stroke-width=\"2\"><title>open 4,000/s: p99 "
                        + "2,000 ms, missed the SLA");
        // y is a log scale: 40 ms lies between 10 and 100 ms, and higher on the chart (smaller y) than 3 ms.
        double y40 = y(svg, "open 2,000/s");
        double y3 = y(svg, "open 1,000/s");
        assertThat(y40).isLessThan(y3);
        // x is linear in load: the open point at 2,000/s halfway between 1,000 and 3,000 closed.
        double x1 = x(svg, "closed 1,000/s");
        double x3 = x(svg, "closed 3,000/s");
        double x2 = x(svg, "open 2,000/s");
        assertThat(x2).isBetween((x1 + x3) / 2 - 6, (x1 + x3) / 2 + 6);
    }

    private static int count(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static double y(String svg, String tip) {
        Matcher m = Pattern.compile("(?:cy|y)=\"([\\d.]+)\"[^>]*><title>" + Pattern.quote(tip))
                .matcher(svg);
        assertThat(m.find()).as(tip).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static double x(String svg, String tip) {
        Matcher m = Pattern.compile("(?:cx|x)=\"([\\d.]+)\"[^>]*><title>" + Pattern.quote(tip))
                .matcher(svg);
        assertThat(m.find()).as(tip).isTrue();
        double v = Double.parseDouble(m.group(1));
        // A square's x is its left edge.
        return tip.startsWith("open") ? v + 4.5 : v;
    }
}
