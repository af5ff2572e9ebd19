package org.bgbench.measurement;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.bgbench.measurement.open.OpenModelResult;

/**
 * The JSON form of a {@link RunResult}: one flat object whose keys and their order are the result file's schema
 * (measurement/README.md), whatever parts the record groups them into. The sections inside (each action's figures,
 * the CPU, the nodes, …) are written and read by Jackson as usual.
 */
public final class RunResultJson {
    private RunResultJson() {}

    /** Writes the keys in the schema's order; nulls are kept. */
    public static final class Writer extends StdSerializer<RunResult> {
        public Writer() {
            super(RunResult.class);
        }

        @Override
        public void serialize(RunResult r, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject(r);
            gen.writeStringField("format", r.format());
            gen.writeBooleanField("partial", r.partial());
            gen.writeStringField("start_time", r.startTime());
            gen.writeStringField("end_time", r.endTime());
            gen.writeNumberField("throughput", r.throughput());
            gen.writeNumberField("threads", r.threads());
            gen.writeNumberField("duration_s", r.durationS());
            gen.writeNumberField("warmup_s", r.warmupS());
            gen.writeNumberField("beta_ms", r.betaMs());
            provider.defaultSerializeField("open", r.open(), gen);
            provider.defaultSerializeField("total", r.total(), gen);
            provider.defaultSerializeField("actions", r.actions(), gen);
            provider.defaultSerializeField("sessions", r.sessions(), gen);
            provider.defaultSerializeField("cpu", r.cpu(), gen);
            provider.defaultSerializeField("nodes", r.nodes(), gen);
            provider.defaultSerializeField("bg_wait", r.bgWait(), gen);
            provider.defaultSerializeField("bottleneck_warnings", r.bottleneckWarnings(), gen);
            provider.defaultSerializeField("series", r.series(), gen);
            provider.defaultSerializeField("histogram_config", r.histogramConfig(), gen);
            provider.defaultSerializeField("workload", r.workload(), gen);
            provider.defaultSerializeField("store", r.store(), gen);
            provider.defaultSerializeField("graph", r.graph(), gen);
            provider.defaultSerializeField("config", r.config(), gen);
            provider.defaultSerializeField("unpredictable", r.unpredictable(), gen);
            gen.writeEndObject();
        }
    }

    /** Reads the keys in any order; absent keys read as zero, false, null or empty, unknown keys are skipped. */
    public static final class Reader extends StdDeserializer<RunResult> {
        public Reader() {
            super(RunResult.class);
        }

        @Override
        public RunResult deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartObjectToken() && !p.hasToken(JsonToken.FIELD_NAME)) {
                return (RunResult) ctxt.handleUnexpectedToken(RunResult.class, p);
            }
            TypeFactory types = ctxt.getTypeFactory();
            JavaType kinds = types.constructMapType(Map.class, String.class, KindResult.class);
            JavaType section = types.constructMapType(Map.class, String.class, Object.class);
            Fields f = new Fields();
            String name = p.hasToken(JsonToken.FIELD_NAME) ? p.currentName() : p.nextFieldName();
            for (; name != null; name = p.nextFieldName()) {
                p.nextToken();
                switch (name) {
                    case "format" -> f.format = read(p, ctxt, String.class);
                    case "partial" -> f.partial = Boolean.TRUE.equals(read(p, ctxt, Boolean.class));
                    case "start_time" -> f.startTime = read(p, ctxt, String.class);
                    case "end_time" -> f.endTime = read(p, ctxt, String.class);
                    case "throughput" -> f.throughput = number(read(p, ctxt, Double.class));
                    case "threads" -> f.threads = (int) number(read(p, ctxt, Integer.class));
                    case "duration_s" -> f.durationS = number(read(p, ctxt, Double.class));
                    case "warmup_s" -> f.warmupS = number(read(p, ctxt, Double.class));
                    case "beta_ms" -> f.betaMs = number(read(p, ctxt, Double.class));
                    case "open" -> f.open = read(p, ctxt, OpenModelResult.class);
                    case "total" -> f.total = read(p, ctxt, KindResult.class);
                    case "actions" -> f.actions = read(p, ctxt, kinds);
                    case "sessions" -> f.sessions = read(p, ctxt, kinds);
                    case "cpu" -> f.cpu = read(p, ctxt, CpuResult.class);
                    case "nodes" ->
                        f.nodes = ctxt.readValue(p, types.constructCollectionType(List.class, NodeResult.class));
                    case "bg_wait" -> f.bgWait = read(p, ctxt, BgWaitResult.class);
                    case "bottleneck_warnings" ->
                        f.warnings = ctxt.readValue(p, types.constructCollectionType(List.class, String.class));
                    case "series" ->
                        f.series = ctxt.readValue(p, types.constructCollectionType(List.class, SeriesPoint.class));
                    case "histogram_config" -> f.histogramConfig = read(p, ctxt, HistogramConfig.class);
                    case "workload" -> f.workload = read(p, ctxt, section);
                    case "store" -> f.store = read(p, ctxt, section);
                    case "graph" -> f.graph = read(p, ctxt, section);
                    case "config" -> f.config = read(p, ctxt, section);
                    case "unpredictable" -> f.unpredictable = read(p, ctxt, Unpredictable.class);
                    default -> p.skipChildren();
                }
            }
            return f.result();
        }

        /** The value at the parser, null for a JSON null (as a record's creator reads it). */
        private static <T> T read(JsonParser p, DeserializationContext ctxt, Class<T> type) throws IOException {
            return p.hasToken(JsonToken.VALUE_NULL) ? null : ctxt.readValue(p, type);
        }

        private static <T> T read(JsonParser p, DeserializationContext ctxt, JavaType type) throws IOException {
            return p.hasToken(JsonToken.VALUE_NULL) ? null : ctxt.readValue(p, type);
        }

        private static double number(Number n) {
            return n == null ? 0 : n.doubleValue();
        }
    }

    /** The keys read so far. */
    private static final class Fields {
        String format;
        boolean partial;
        String startTime;
        String endTime;
        double throughput;
        int threads;
        double durationS;
        double warmupS;
        double betaMs;
        OpenModelResult open;
        KindResult total;
        Map<String, KindResult> actions;
        Map<String, KindResult> sessions;
        CpuResult cpu;
        List<NodeResult> nodes;
        BgWaitResult bgWait;
        List<String> warnings;
        List<SeriesPoint> series;
        HistogramConfig histogramConfig;
        Map<String, Object> workload;
        Map<String, Object> store;
        Map<String, Object> graph;
        Map<String, Object> config;
        Unpredictable unpredictable;

        RunResult result() {
            return new RunResult(
                    new RunResult.Header(format, partial, startTime, endTime),
                    new RunResult.Rate(throughput, threads, durationS, warmupS, betaMs),
                    new RunResult.Figures(actions, sessions, total, series, histogramConfig),
                    new RunResult.Environment(cpu, bgWait, nodes, warnings),
                    new RunContext(workload, store, graph, config),
                    unpredictable,
                    open);
        }
    }
}
