package org.bgbench.measurement.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import org.bgbench.measurement.RunResult;

/** JSON form of {@link RunResult}: snake_case keys (declared on the records), pretty-printed, nulls kept. */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            // Readers of older or newer result files skip keys they do not know.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultJson() {
    }

    /** A copy of the configured mapper, for callers that embed results in their own JSON. */
    public static ObjectMapper mapper() {
        return MAPPER.copy();
    }

    public static String toJson(RunResult result) {
        try {
            return MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("result cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static byte[] toBytes(RunResult result) {
        try {
            return MAPPER.writeValueAsBytes(result);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("result cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    public static RunResult fromJson(String json) {
        try {
            return MAPPER.readValue(json, RunResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a BG result: " + e.getOriginalMessage(), e);
        }
    }

    public static RunResult read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), RunResult.class);
    }
}
