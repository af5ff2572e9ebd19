package org.bgbench.rating;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class SvgTest {
    @Test
    void textIsEscapedAndPlacedWithDotDecimalsInAnyLocale() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            StringBuilder s = new StringBuilder();
            Svg.text(s, 10.25, 3, "end", 12, "bold", "SoAR <T> & \"β\"", "#c33", "rotate(-90 1 2)");
            assertThat(s.toString())
                    .isEqualTo("<text x=\"10.3\" y=\"3.0\" text-anchor=\"end\" font-size=\"12\" "
                            + "font-weight=\"bold\" fill=\"#c33\" transform=\"rotate(-90 1 2)\">SoAR &lt;T&gt; &amp; "
                            + "&quot;β&quot;</text>\n");
            StringBuilder plain = new StringBuilder();
            Svg.text(plain, 1, 2, "start", 10, null, "a'b\u0001", null, null);
            assertThat(plain.toString())
                    .isEqualTo(
                            "<text x=\"1.0\" y=\"2.0\" text-anchor=\"start\" " + "font-size=\"10\">a&#39;b </text>\n");
        } finally {
            Locale.setDefault(before);
        }
    }
}
