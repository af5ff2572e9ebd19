package org.bgbench.measurement.resource;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.bgbench.measurement.resource.ExpositionParser.Sample;
import org.junit.jupiter.api.Test;

class ExpositionParserTest {
    @Test
    void samplesWithAndWithoutLabelsCommentsAndBlanksSkipped() {
        List<Sample> s = ExpositionParser.parse("""
                # HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.
                # TYPE node_cpu_seconds_total counter
                node_cpu_seconds_total{cpu="0",mode="idle"} 123.45

                node_cpu_seconds_total{cpu="0",mode="user"} 6.5e+02
                node_memory_MemTotal_bytes 2.5276510208e+10
                #node_fake 1
                  node_load1 0.25 1700000000000
                """);
        assertThat(s)
                .containsExactly(
                        new Sample("node_cpu_seconds_total", Map.of("cpu", "0", "mode", "idle"), 123.45),
                        new Sample("node_cpu_seconds_total", Map.of("cpu", "0", "mode", "user"), 650.0),
                        new Sample("node_memory_MemTotal_bytes", Map.of(), 25276510208.0),
                        new Sample("node_load1", Map.of(), 0.25));
        assertThat(s.get(0).labels().keySet()).containsExactly("cpu", "mode");
    }

    @Test
    void escapesInLabelValues() {
        Sample s = ExpositionParser.line(
                "node_uname_info{machine=\"x86_64\",name=\"a \\\"quoted\\\" \\\\ path\\nnext\",odd=\"a\\tb\",e=\"\"} 1",
                n -> true);
        assertThat(s.labels())
                .containsEntry("machine", "x86_64")
                .containsEntry("name", "a \"quoted\" \\ path\nnext")
                .containsEntry("odd", "a\\tb")
                .containsEntry("e", "");
        // A '}' or ',' inside a quoted value is part of the value.
        Sample t = ExpositionParser.line("m{path=\"/a},b\",x=\"1\"} 2", n -> true);
        assertThat(t.labels()).containsEntry("path", "/a},b").containsEntry("x", "1");
        assertThat(t.value()).isEqualTo(2.0);
    }

    @Test
    void specialValues() {
        assertThat(ExpositionParser.line("h_bucket{le=\"+Inf\"} +Inf", n -> true)
                        .value())
                .isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(ExpositionParser.line("g -Inf", n -> true).value()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(ExpositionParser.line("g NaN", n -> true).value()).isNaN();
        assertThat(ExpositionParser.line("g{a=\"b\",} 3", n -> true).value())
                .as("a trailing comma")
                .isEqualTo(3.0);
    }

    @Test
    void malformedAndUnwantedLinesAreSkipped() {
        List<Sample> s = ExpositionParser.parse("""
                good 1
                m{a="unterminated} 1
                m{a=unquoted} 1
                m{="x"} 1
                m 1 2 3
                m notanumber
                m
                {a="b"} 1
                wanted{a="b"} 4
                other 5
                """, n -> n.equals("good") || n.equals("wanted") || n.equals("m"));
        assertThat(s).extracting(Sample::name).containsExactly("good", "wanted");
        assertThat(s.get(1).label("a")).isEqualTo("b");
    }

    @Test
    void windowsLineEndingsAndNoFinalNewline() {
        List<Sample> s = ExpositionParser.parse("a 1\r\nb{x=\"y\"} 2");
        assertThat(s).extracting(Sample::value).containsExactly(1.0, 2.0);
    }
}
