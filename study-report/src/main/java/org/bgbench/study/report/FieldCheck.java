package org.bgbench.study.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Strict reading of one finding's fields: a bad one stops the check with one line naming it and what is accepted. */
final class FieldCheck {
    /** The one line a bad field yields. */
    static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }

    private final JsonNode node;
    private final String where;

    FieldCheck(JsonNode node, String where) {
        this.node = node;
        this.where = where;
    }

    Bad bad(String field, String accepted, JsonNode got) {
        return new Bad(where + ": field '" + field + "' " + accepted + (got == null ? "" : " (got " + got + ")"));
    }

    /** Refuses a field not in {@code allowed}. */
    void only(Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new Bad(where + ": unknown field '" + f + "'; accepted: " + String.join(", ", sorted(allowed)));
            }
        }
    }

    String text(String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw bad(field, "is required: a non-empty string", v);
        }
        return v.asText();
    }

    String optionalText(String field, String orElse) {
        return node.has(field) ? text(field) : orElse;
    }

    String oneOf(String field, List<String> accepted, String orElse) {
        JsonNode v = node.get(field);
        if (v == null && orElse != null) {
            return orElse;
        }
        if (v == null || !v.isTextual() || !accepted.contains(v.asText())) {
            throw bad(field, "must be one of " + String.join(", ", accepted), v);
        }
        return v.asText();
    }

    boolean bool(String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isBoolean()) {
            throw bad(field, "is required: true or false", v);
        }
        return v.asBoolean();
    }

    double positive(String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber() || !(v.asDouble() > 0) || Double.isInfinite(v.asDouble())) {
            throw bad(field, "is required: a number above 0", v);
        }
        return v.asDouble();
    }

    double optionalFraction(String field, double orElse) {
        JsonNode v = node.get(field);
        if (v == null) {
            return orElse;
        }
        if (!v.isNumber() || !(v.asDouble() > 0) || v.asDouble() >= 1) {
            throw bad(field, "must be a number above 0 and below 1 (a fraction: 0.05 is 5%)", v);
        }
        return v.asDouble();
    }

    /** An x value: a number or a category's name; {@code null} when absent. */
    Figure.X optionalX(String field) {
        JsonNode v = node.get(field);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() && !(v.isTextual() && !v.asText().isBlank())) {
            throw bad(field, "must be an x value of the figure: a number or a category's name", v);
        }
        return Figure.X.of(v);
    }

    List<String> optionalNames(String field) {
        JsonNode v = node.get(field);
        if (v == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        if (v.isArray()) {
            v.forEach(n -> {
                if (n.isTextual() && !n.asText().isBlank()) {
                    names.add(n.asText());
                }
            });
        }
        if (!v.isArray() || names.size() != v.size() || names.size() < 2) {
            throw bad(field, "must be a list of two or more series names", v);
        }
        return names;
    }

    JsonNode node() {
        return node;
    }

    String where() {
        return where;
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }
}
