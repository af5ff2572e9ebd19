package org.bgbench.measurement.report;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.bgbench.measurement.RunResult;

/** JSON form of {@link RunResult}: snake_case keys (declared on the records), pretty-printed, nulls kept. */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            // Readers of older or newer result files skip keys they do not know.
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultJson() {}

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

    /** The result file's bytes, with the checksum of its figures ({@link ResultChecksum}). */
    static byte[] toBytes(RunResult result) {
        try {
            return ResultChecksum.sign(MAPPER, MAPPER.writeValueAsBytes(result));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("result cannot be written as JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RunResult fromJson(String json) {
        try {
            return MAPPER.readValue(json, RunResult.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a BG result: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Reads a result file.
     *
     * @throws BadResultException when the file is not JSON, or not a BG result: the message names the file and the
     *                            line and column where reading stopped
     */
    public static RunResult read(Path file) throws IOException {
        try {
            return MAPPER.readValue(file.toFile(), RunResult.class);
        } catch (JsonProcessingException e) {
            throw new BadResultException(file, e);
        }
    }

    /** A result file that cannot be read as one: which file, where, and what was wrong. */
    public static final class BadResultException extends IOException {
        private final boolean notJson;

        BadResultException(Path file, JsonProcessingException e) {
            super(describe(file, e), e);
            this.notJson = e instanceof JsonParseException
                    || e instanceof JsonEOFException
                    || String.valueOf(e.getOriginalMessage()).startsWith("No content to map");
        }

        /** The file is not (complete) JSON, as opposed to JSON that is not a BG result. */
        public boolean notJson() {
            return notJson;
        }

        private static String describe(Path file, JsonProcessingException e) {
            String what = String.valueOf(e.getOriginalMessage());
            if (what.startsWith("No content to map")) {
                return file + " is empty: not a BG result";
            }
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            // Jackson's own wording, without its pointer to the source (which it redacts anyway)
            int cut = what.indexOf("\n at [Source");
            what = (cut >= 0 ? what.substring(0, cut) : what).replace('\n', ' ');
            boolean syntax = e instanceof JsonParseException || e instanceof JsonEOFException;
            return file + (syntax ? " is not valid JSON" : " is not a BG result") + where + ": " + what;
        }
    }
}
