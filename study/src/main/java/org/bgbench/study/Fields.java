package org.bgbench.study;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One object of a study file read strictly: each getter names the field's path in its refusal, and {@link #only}
 * refuses a field the format does not have, listing those it has.
 */
final class Fields {
    private final String file;
    private final String path;
    private final JsonNode node;

    Fields(String file, String path, JsonNode node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    /** The object at the top of {@code file}. */
    static Fields root(String file, JsonNode node) {
        Fields f = new Fields(file, "", node);
        if (node == null || !node.isObject()) {
            throw f.refuse("", "expected a mapping of the study's fields (name, title, source, ...)");
        }
        return f;
    }

    StudyFileException refuse(String field, String what) {
        return new StudyFileException(file, at(field), what);
    }

    private String at(String field) {
        if (field.isEmpty()) {
            return path;
        }
        return path.isEmpty() ? field : path + "." + field;
    }

    /** Refuses any field but {@code allowed}. */
    Fields only(Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String n = names.next();
            if (!allowed.contains(n)) {
                throw refuse(n, "unknown field; accepted: " + String.join(", ", allowed));
            }
        }
        return this;
    }

    boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    private JsonNode required(String field) {
        if (!has(field)) {
            throw refuse(field, "missing; it is required");
        }
        return node.get(field);
    }

    String text(String field) {
        JsonNode v = required(field);
        if (!v.isTextual() || v.asText().isBlank()) {
            throw refuse(field, "expected a non-empty text, got " + shown(v));
        }
        return v.asText();
    }

    String text(String field, String otherwise) {
        return has(field) ? text(field) : otherwise;
    }

    boolean bool(String field, boolean otherwise) {
        if (!has(field)) {
            return otherwise;
        }
        JsonNode v = node.get(field);
        if (!v.isBoolean()) {
            throw refuse(field, "expected true or false, got " + shown(v));
        }
        return v.asBoolean();
    }

    int positiveInt(String field) {
        JsonNode v = required(field);
        if (!v.isIntegralNumber() || v.asLong() < 1 || v.asLong() > Integer.MAX_VALUE) {
            throw refuse(field, "expected a whole number of at least 1, got " + shown(v));
        }
        return v.asInt();
    }

    double number(String field) {
        JsonNode v = required(field);
        if (!v.isNumber()) {
            throw refuse(field, "expected a number, got " + shown(v));
        }
        return v.asDouble();
    }

    /** A duration such as {@code 500ms}, {@code 2s}, {@code 1m} or {@code PT30S}. */
    Duration duration(String field, boolean mayBeZero) {
        JsonNode v = required(field);
        Duration d = v.isTextual() ? StudyDurations.parse(v.asText()) : null;
        if (d == null || d.isNegative() || (!mayBeZero && d.isZero())) {
            throw refuse(
                    field,
                    "expected a duration such as 500ms, 2s or 1m" + (mayBeZero ? " (0s allowed)" : " longer than 0")
                            + ", got " + shown(v));
        }
        return d;
    }

    Fields object(String field) {
        JsonNode v = required(field);
        if (!v.isObject()) {
            throw refuse(field, "expected a mapping, got " + shown(v));
        }
        return new Fields(file, at(field), v);
    }

    /** Each element of the list {@code field} read by {@code each}; {@code required}: missing or empty is refused. */
    <T> List<T> list(String field, boolean required, Function<Fields, T> each) {
        List<T> out = new ArrayList<>();
        for (JsonNode e : elements(field, required)) {
            String p = at(field) + "[" + out.size() + "]";
            if (!e.isObject()) {
                throw new StudyFileException(file, p, "expected a mapping, got " + shown(e));
            }
            out.add(each.apply(new Fields(file, p, e)));
        }
        return out;
    }

    List<String> texts(String field, boolean required) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : elements(field, required)) {
            if (!e.isTextual() || e.asText().isBlank()) {
                throw new StudyFileException(
                        file, at(field) + "[" + out.size() + "]", "expected a non-empty text, got " + shown(e));
            }
            out.add(e.asText());
        }
        return out;
    }

    List<Integer> positiveInts(String field) {
        List<Integer> out = new ArrayList<>();
        for (JsonNode e : elements(field, true)) {
            if (!e.isIntegralNumber() || e.asLong() < 1 || e.asLong() > Integer.MAX_VALUE) {
                throw new StudyFileException(
                        file,
                        at(field) + "[" + out.size() + "]",
                        "expected a whole number of at least 1, got " + shown(e));
            }
            out.add(e.asInt());
        }
        return out;
    }

    /** The raw elements of a list, for objects copied verbatim. */
    List<JsonNode> raw(String field) {
        return elements(field, false);
    }

    private List<JsonNode> elements(String field, boolean required) {
        if (!has(field)) {
            if (required) {
                throw refuse(field, "missing; it is required (a list)");
            }
            return List.of();
        }
        JsonNode v = node.get(field);
        if (!v.isArray()) {
            throw refuse(field, "expected a list, got " + shown(v));
        }
        if (required && v.isEmpty()) {
            throw refuse(field, "expected at least one element, got an empty list");
        }
        List<JsonNode> out = new ArrayList<>();
        v.forEach(out::add);
        return out;
    }

    /** A mapping of BG's {@code -p} keys to scalar values (text, number or true/false), kept as text. */
    Map<String, String> keys(String field) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!has(field)) {
            return out;
        }
        JsonNode v = node.get(field);
        if (!v.isObject()) {
            throw refuse(field, "expected a mapping of BG keys to values, e.g. usercount: 200, got " + shown(v));
        }
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw refuse(
                        field + "." + e.getKey(), "expected a text, number or true/false, got " + shown(e.getValue()));
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** A field's value as given (null when absent). */
    JsonNode node(String field) {
        return node.get(field);
    }

    /** Whether {@code field} is given as a text. */
    boolean isText(String field) {
        return has(field) && node.get(field).isTextual();
    }

    /** Whether {@code field} is given as a whole number. */
    boolean isWholeNumber(String field) {
        return has(field) && node.get(field).isIntegralNumber();
    }

    /** A text, number or true/false, as text. */
    String scalarText(String field) {
        JsonNode v = required(field);
        if (!v.isValueNode()) {
            throw refuse(field, "expected a text or a number, got " + shown(v));
        }
        return v.asText();
    }

    String path() {
        return path;
    }

    String file() {
        return file;
    }

    /** A number or a text, as given (a paper value's x: a T or a category). */
    JsonNode scalar(String field) {
        JsonNode v = required(field);
        if (!v.isNumber() && !v.isTextual()) {
            throw refuse(field, "expected a number or a text, got " + shown(v));
        }
        return v;
    }

    private static String shown(JsonNode v) {
        if (v.isObject()) {
            return "a mapping";
        }
        if (v.isArray()) {
            return "a list";
        }
        if (v.isTextual()) {
            return "'" + v.asText() + "'";
        }
        return v.toString();
    }
}
