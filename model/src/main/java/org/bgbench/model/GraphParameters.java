package org.bgbench.model;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The property keys that shape the graph, as in USC BG's property files ({@code usercount},
 * {@code friendcountperuser}, ...) plus BG's own, and their mapping to a {@link GraphSpec}.
 */
public final class GraphParameters {
    /** Key → description, in the order {@code bg load --help} lists them. */
    public static final Map<String, String> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("usercount", "M, number of members (default 10000)");
        KEYS.put("useroffset", "id of the first member (default 0)");
        KEYS.put("friendcountperuser", "φ, relationships per member, confirmed or pending (default 100)");
        KEYS.put("resourcecountperuser", "ρ, resources on each member's wall (default 100)");
        KEYS.put("commentcountperresource", "comments each resource starts with (default 0)");
        KEYS.put(
                "confperc",
                "fraction of relationships that start confirmed, 0..1; the rest are pending invitations (default 1)");
        KEYS.put("insertimage", "true: members get a thumbnail and a profile image (default false)");
        KEYS.put("thumbnailsize", "thumbnail size in KB, as USC BG (default 2)");
        KEYS.put("imagesize", "profile image size in KB, as USC BG (default 12)");
        KEYS.put("thumbnailbytes", "thumbnail size in bytes; accepts units: 2048, 2KB");
        KEYS.put("profileimagebytes", "profile image size in bytes; accepts units: 12KB");
        KEYS.put("attributecount", "string attributes per member, 1.." + GraphSpec.MAX_ATTRIBUTES + " (default 11)");
        KEYS.put("attributelength", "characters per member attribute (default 20)");
        KEYS.put("commentlength", "characters per comment (default 100)");
        KEYS.put("fragments", "disjoint sub-graphs (0: one per ~1000 members, at most 64)");
        KEYS.put("pagecount", "P, pages members follow for feed following (default 0: none)");
        KEYS.put("pagesperuser", "ϱ, pages each member follows (default 0)");
        KEYS.put("followersperpage", "ι, followers per page; must equal M·ϱ/P (default: derived)");
        KEYS.put("resourcecountperpage", "resources each page owns (default: ρ)");
        KEYS.put("graphseed", "seed of the generator's pseudo-random choices");
    }

    private GraphParameters() {}

    /** Builds a spec from {@code props}; keys not listed in {@link #KEYS} are ignored here (callers check them). */
    public static GraphSpec toSpec(Map<String, String> props) {
        GraphSpec d = GraphSpec.defaults();
        int thumb = d.thumbnailBytes();
        int profile = d.profileImageBytes();
        if (props.containsKey("thumbnailsize")) {
            thumb = Math.multiplyExact(intOf(props, "thumbnailsize", 0), 1024);
        }
        if (props.containsKey("imagesize")) {
            profile = Math.multiplyExact(intOf(props, "imagesize", 0), 1024);
        }
        if (props.containsKey("thumbnailbytes")) {
            thumb = bytesOf(props, "thumbnailbytes");
        }
        if (props.containsKey("profileimagebytes")) {
            profile = bytesOf(props, "profileimagebytes");
        }
        return GraphSpec.builder()
                .members(intOf(props, "usercount", d.members()))
                .memberIdOffset(intOf(props, "useroffset", d.memberIdOffset()))
                .friendsPerMember(intOf(props, "friendcountperuser", d.friendsPerMember()))
                .resourcesPerMember(intOf(props, "resourcecountperuser", d.resourcesPerMember()))
                .commentsPerResource(intOf(props, "commentcountperresource", d.commentsPerResource()))
                .confirmedFraction(doubleOf(props, "confperc", d.confirmedFraction()))
                .images(boolOf(props, "insertimage", d.images()))
                .thumbnailBytes(thumb)
                .profileImageBytes(profile)
                .attributeCount(intOf(props, "attributecount", d.attributeCount()))
                .attributeLength(intOf(props, "attributelength", d.attributeLength()))
                .commentLength(intOf(props, "commentlength", d.commentLength()))
                .fragments(intOf(props, "fragments", d.fragments()))
                .seed(longOf(props, "graphseed", d.seed()))
                .feed(new FeedSpec(
                        intOf(props, "pagecount", 0),
                        intOf(props, "pagesperuser", 0),
                        intOf(props, "followersperpage", 0),
                        intOf(props, "resourcecountperpage", -1)))
                .build();
    }

    public static int intOf(Map<String, String> p, String key, int fallback) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return Numbers.parseInt(key, v);
    }

    public static long longOf(Map<String, String> p, String key, long fallback) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return Numbers.parseLong(key, v);
    }

    public static double doubleOf(Map<String, String> p, String key, double fallback) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(key, "expected a number, got '" + v + "'");
        }
    }

    public static boolean boolOf(Map<String, String> p, String key, boolean fallback) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1" -> true;
            case "false", "no", "off", "0" -> false;
            default -> throw new InvalidParameterException(key, "expected true or false, got '" + v + "'");
        };
    }

    /** A byte size: a plain number of bytes or a number with B, KB, MB (powers of 1024). */
    public static int bytesOf(Map<String, String> p, String key) {
        String v = p.get(key).trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        String num = v;
        if (v.endsWith("KB")) {
            mult = 1024;
            num = v.substring(0, v.length() - 2);
        } else if (v.endsWith("MB")) {
            mult = 1024 * 1024;
            num = v.substring(0, v.length() - 2);
        } else if (v.endsWith("B")) {
            num = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(num.trim()) * mult;
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new InvalidParameterException(key, "must be from 0 to 2 GB, got '" + p.get(key) + "'");
            }
            return (int) n;
        } catch (NumberFormatException e) {
            throw new InvalidParameterException(
                    key, "expected a size such as 2048, 2KB or 1MB, got '" + p.get(key) + "'");
        }
    }
}
