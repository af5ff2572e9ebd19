package org.bgbench.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A graph's parameters as the {@link GraphParameters} keys a user writes ({@code usercount=2000}), and a store's
 * recorded {@link GraphSpec#fingerprint()} read back into them, so that a command naming no graph key can use the
 * graph a store holds and name it in words.
 */
public final class GraphKeys {
    private GraphKeys() {}

    /**
     * The keys of the graph a fingerprint describes, or empty when the text is not a fingerprint BG writes (or one
     * whose keys would not generate the same graph, e.g. from another version of BG).
     */
    public static Optional<Map<String, String>> fromFingerprint(String fingerprint) {
        if (fingerprint == null || !fingerprint.startsWith("bg-graph/1 ")) {
            return Optional.empty();
        }
        Map<String, String> f = new LinkedHashMap<>();
        for (String token : fingerprint.substring("bg-graph/1 ".length()).split(" ")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                return Optional.empty();
            }
            f.put(token.substring(0, eq), token.substring(eq + 1));
        }
        try {
            String[] attrs = f.getOrDefault("attrs", "").split("x");
            boolean images = Boolean.parseBoolean(f.get("images"));
            GraphSpec d = GraphSpec.defaults();
            GraphSpec spec = GraphSpec.builder()
                    .members(Integer.parseInt(f.get("M")))
                    .memberIdOffset(Integer.parseInt(f.get("offset")))
                    .friendsPerMember(Integer.parseInt(f.get("phi")))
                    .resourcesPerMember(Integer.parseInt(f.get("rho")))
                    .commentsPerResource(Integer.parseInt(f.get("comments")))
                    .confirmedFraction(Double.parseDouble(f.get("confirmed")))
                    .images(images)
                    .thumbnailBytes(images ? Integer.parseInt(f.get("thumb")) : d.thumbnailBytes())
                    .profileImageBytes(images ? Integer.parseInt(f.get("profile")) : d.profileImageBytes())
                    .attributeCount(Integer.parseInt(attrs[0]))
                    .attributeLength(Integer.parseInt(attrs[1]))
                    .commentLength(Integer.parseInt(f.get("commentlen")))
                    .fragments(Integer.parseInt(f.get("fragments")))
                    .seed(Long.parseLong(f.get("seed")))
                    .feed(
                            f.containsKey("pages")
                                    ? new FeedSpec(
                                            Integer.parseInt(f.get("pages")),
                                            Integer.parseInt(f.get("follows")),
                                            0,
                                            Integer.parseInt(f.get("pageres")))
                                    : FeedSpec.NONE)
                    .build();
            Map<String, String> keys = of(spec);
            // Only keys that generate exactly the recorded graph are offered as the store's.
            return GraphParameters.toSpec(keys).fingerprint().equals(fingerprint)
                    ? Optional.of(keys)
                    : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The keys that describe {@code spec}: {@code usercount} always, every other key only where the graph differs
     * from the default (or, for fragments and a page's resources, from what BG derives), in {@link GraphParameters}'
     * order.
     */
    public static Map<String, String> of(GraphSpec spec) {
        GraphSpec d = GraphSpec.defaults();
        Map<String, String> k = new LinkedHashMap<>();
        k.put("usercount", Integer.toString(spec.members()));
        putIf(k, "useroffset", spec.memberIdOffset(), d.memberIdOffset());
        putIf(k, "friendcountperuser", spec.friendsPerMember(), d.friendsPerMember());
        putIf(k, "resourcecountperuser", spec.resourcesPerMember(), d.resourcesPerMember());
        putIf(k, "commentcountperresource", spec.commentsPerResource(), d.commentsPerResource());
        if (spec.confirmedFraction() != d.confirmedFraction()) {
            k.put("confperc", Double.toString(spec.confirmedFraction()));
        }
        if (spec.images()) {
            k.put("insertimage", "true");
            putIf(k, "thumbnailbytes", spec.thumbnailBytes(), d.thumbnailBytes());
            putIf(k, "profileimagebytes", spec.profileImageBytes(), d.profileImageBytes());
        }
        putIf(k, "attributecount", spec.attributeCount(), d.attributeCount());
        putIf(k, "attributelength", spec.attributeLength(), d.attributeLength());
        putIf(k, "commentlength", spec.commentLength(), d.commentLength());
        int automatic = spec.toBuilder().fragments(0).build().resolvedFragments();
        putIf(k, "fragments", spec.resolvedFragments(), automatic);
        FeedSpec feed = spec.feed();
        if (feed.hasPages()) {
            k.put("pagecount", Integer.toString(feed.pages()));
            k.put("pagesperuser", Integer.toString(feed.pagesPerMember()));
            putIf(k, "resourcecountperpage", feed.pageResources(spec.resourcesPerMember()), spec.resourcesPerMember());
        }
        if (spec.seed() != d.seed()) {
            k.put("graphseed", Long.toString(spec.seed()));
        }
        return k;
    }

    /** A key whose value differs between two graphs, with each graph's value. */
    public record Difference(String key, String held, String asked) {
        @Override
        public String toString() {
            return key + " " + held + " (held) vs " + asked + " (asked)";
        }
    }

    /** The keys whose values differ between the graph a store holds and the one asked for, in key order. */
    public static List<Difference> differences(GraphSpec held, GraphSpec asked) {
        Map<String, String> h = all(held);
        Map<String, String> a = all(asked);
        List<Difference> out = new ArrayList<>();
        h.forEach((key, v) -> {
            if (!v.equals(a.get(key))) {
                out.add(new Difference(key, v, a.get(key)));
            }
        });
        return out;
    }

    /** Every key with the value the graph has (derived ones resolved), to compare two graphs key by key. */
    private static Map<String, String> all(GraphSpec spec) {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("usercount", Integer.toString(spec.members()));
        k.put("useroffset", Integer.toString(spec.memberIdOffset()));
        k.put("friendcountperuser", Integer.toString(spec.friendsPerMember()));
        k.put("resourcecountperuser", Integer.toString(spec.resourcesPerMember()));
        k.put("commentcountperresource", Integer.toString(spec.commentsPerResource()));
        k.put("confperc", Double.toString(spec.confirmedFraction()));
        k.put("insertimage", Boolean.toString(spec.images()));
        k.put("thumbnailbytes", spec.images() ? Integer.toString(spec.thumbnailBytes()) : "none");
        k.put("profileimagebytes", spec.images() ? Integer.toString(spec.profileImageBytes()) : "none");
        k.put("attributecount", Integer.toString(spec.attributeCount()));
        k.put("attributelength", Integer.toString(spec.attributeLength()));
        k.put("commentlength", Integer.toString(spec.commentLength()));
        k.put("fragments", Integer.toString(spec.resolvedFragments()));
        k.put("pagecount", Integer.toString(spec.feed().pages()));
        k.put("pagesperuser", Integer.toString(spec.feed().pagesPerMember()));
        k.put(
                "resourcecountperpage",
                spec.feed().hasPages()
                        ? Integer.toString(spec.feed().pageResources(spec.resourcesPerMember()))
                        : "none");
        k.put("graphseed", Long.toString(spec.seed()));
        return k;
    }

    /** The keys as a user writes them on one line: {@code usercount=2000 friendcountperuser=10}. */
    public static String text(Map<String, String> keys) {
        return keys.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
    }

    private static void putIf(Map<String, String> k, String key, long value, long usual) {
        if (value != usual) {
            k.put(key, Long.toString(value));
        }
    }
}
