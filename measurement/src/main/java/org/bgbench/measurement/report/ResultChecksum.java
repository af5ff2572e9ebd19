package org.bgbench.measurement.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The checksum a result file carries of its figures ({@value #KEY}: {@code sha256:} and the SHA-256 of everything else
 * in the file, in a canonical form: object keys sorted, numbers by value, layout ignored). BG computes it whenever it
 * writes a result, so a figure changed by hand afterwards shows, and reformatting the file (another indentation, key
 * order, {@code 12.0} for {@code 12}) does not. A file of an older BG has none.
 */
public final class ResultChecksum {
    public static final String KEY = "checksum";
    private static final String PREFIX = "sha256:";

    /** What a file's checksum says. */
    public enum Status {
        /** the figures are those BG wrote */
        MATCHES,
        /** a figure was changed after BG wrote the file */
        DIFFERS,
        /** no checksum: written by a BG older than the checksum */
        NONE
    }

    private ResultChecksum() {}

    /** The serialized result {@code json} with its checksum added as its last key. */
    static byte[] sign(ObjectMapper mapper, byte[] json) throws IOException {
        ObjectNode tree = (ObjectNode) mapper.readTree(json);
        tree.remove(KEY);
        tree.put(KEY, PREFIX + digest(tree));
        return mapper.writeValueAsBytes(tree);
    }

    /** What the checksum of the result file {@code file} says; IOException when it is not JSON. */
    public static Status check(Path file) throws IOException {
        JsonNode tree = ResultJson.mapper().readTree(file.toFile());
        if (!(tree instanceof ObjectNode o) || !o.has(KEY)) {
            return Status.NONE;
        }
        String recorded = o.remove(KEY).asText();
        return recorded.equals(PREFIX + digest(o)) ? Status.MATCHES : Status.DIFFERS;
    }

    /** The status of {@code file}, NONE when it cannot be read as JSON (its reader says so). */
    public static Status checkQuietly(Path file) {
        try {
            return check(file);
        } catch (IOException | RuntimeException e) {
            return Status.NONE;
        }
    }

    /** The one line that says a file's figures were changed. */
    public static String differs(Path file) {
        return file + ": its measured figures do not match the checksum it was written with (edited by hand?)";
    }

    private static String digest(JsonNode tree) {
        StringBuilder sb = new StringBuilder();
        canonical(tree, sb);
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(sb.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    private static void canonical(JsonNode n, StringBuilder sb) {
        if (n.isObject()) {
            List<String> keys = new ArrayList<>();
            n.fieldNames().forEachRemaining(keys::add);
            keys.sort(null);
            sb.append('{');
            for (String k : keys) {
                sb.append(quoted(k)).append(':');
                canonical(n.get(k), sb);
                sb.append(',');
            }
            sb.append('}');
        } else if (n.isArray()) {
            sb.append('[');
            for (JsonNode e : n) {
                canonical(e, sb);
                sb.append(',');
            }
            sb.append(']');
        } else if (n.isNumber()) {
            sb.append(n.decimalValue().stripTrailingZeros().toString());
        } else if (n.isTextual()) {
            sb.append(quoted(n.asText()));
        } else {
            sb.append(n.asText()); // true, false, null
        }
    }

    private static String quoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
