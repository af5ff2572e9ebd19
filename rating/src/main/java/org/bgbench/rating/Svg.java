package org.bgbench.rating;

import java.util.Locale;

/** The few pieces of SVG and HTML text BG's reports write by hand (rating, scale, elasticity charts). */
public final class Svg {
    private Svg() {}

    /** A {@code <text>} element; {@code weight}, {@code colour} and {@code transform} may be null. */
    public static void text(
            StringBuilder s,
            double x,
            double y,
            String anchor,
            int size,
            String weight,
            String content,
            String colour,
            String transform) {
        s.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" text-anchor=\"")
                .append(anchor)
                .append("\" font-size=\"")
                .append(size)
                .append('"');
        if (weight != null) {
            s.append(" font-weight=\"").append(weight).append('"');
        }
        if (colour != null) {
            s.append(" fill=\"").append(colour).append('"');
        }
        if (transform != null) {
            s.append(" transform=\"").append(transform).append('"');
        }
        s.append('>').append(esc(content)).append("</text>\n");
    }

    /** A coordinate with one decimal, whatever the default locale. */
    public static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Escapes text for XML and HTML content and attribute values (control characters become spaces). */
    public static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
                        b.append(' ');
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
