package org.bgbench.store.casql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.junit.jupiter.api.Test;

/** Round trips of every view through the binary codec and the in-process snapshots, and malformed entries. */
class ViewCodecTest {
    private static final String[] ODD_STRINGS = {
        "",
        "plain ascii",
        "naïve café",
        "日本語テキスト",
        "emoji 😀 and 𝄞",
        "tab\tnewline\n\\",
        null,
        "x".repeat(5000),
        "\u0000zero"
    };

    private final ViewCodec codec = new ViewCodec();

    private static ProfileView profile(int attributes, SplittableRandom rnd) {
        ProfileView v = new ProfileView(attributes);
        v.memberId = rnd.nextInt();
        for (int a = 0; a < attributes; a++) {
            v.attributes.set(a, ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)]);
        }
        v.profileImage = rnd.nextBoolean() ? null : bytes(rnd, rnd.nextInt(20_000));
        v.friendCount = rnd.nextInt(1000);
        v.resourceCount = rnd.nextInt(100);
        v.pendingCount = rnd.nextBoolean() ? -1 : rnd.nextInt(50);
        return v;
    }

    private static byte[] bytes(SplittableRandom rnd, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) rnd.nextInt();
        }
        return b;
    }

    private static String show(ProfileView v) {
        return Arrays.toString(v.attributes.toArray()) + Arrays.toString(v.profileImage) + v.friendCount + "/"
                + v.resourceCount + "/" + v.pendingCount;
    }

    private static String show(MemberList l) {
        StringBuilder b = new StringBuilder("n=" + l.size());
        for (int i = 0; i < l.size(); i++) {
            MemberList.Row r = l.get(i);
            b.append('|')
                    .append(r.memberId)
                    .append(Arrays.toString(r.attributes.toArray()))
                    .append(Arrays.toString(r.thumbnail));
        }
        return b.toString();
    }

    private static String show(ResourceList l) {
        StringBuilder b = new StringBuilder("n=" + l.size());
        for (int i = 0; i < l.size(); i++) {
            ResourceList.Row r = l.get(i);
            b.append('|')
                    .append(r.resourceId)
                    .append('/')
                    .append(r.creatorId)
                    .append('/')
                    .append(r.wallUserId)
                    .append('/')
                    .append(r.type)
                    .append('/')
                    .append(r.body)
                    .append('/')
                    .append(r.doc);
        }
        return b.toString();
    }

    private static String show(CommentList l) {
        StringBuilder b = new StringBuilder("n=" + l.size());
        for (int i = 0; i < l.size(); i++) {
            CommentList.Row r = l.get(i);
            b.append('|')
                    .append(r.commentId)
                    .append('/')
                    .append(r.resourceId)
                    .append('/')
                    .append(r.creatorId)
                    .append('/')
                    .append(r.modifierId)
                    .append('/')
                    .append(r.timestampMs)
                    .append('/')
                    .append(r.type)
                    .append('/')
                    .append(r.content);
        }
        return b.toString();
    }

    private static String show(FeedList l) {
        StringBuilder b = new StringBuilder("n=" + l.size());
        for (int i = 0; i < l.size(); i++) {
            FeedList.Row r = l.get(i);
            b.append('|')
                    .append(r.shareId)
                    .append('/')
                    .append(r.resourceId)
                    .append('/')
                    .append(r.sharerId)
                    .append('/')
                    .append(r.type)
                    .append('/')
                    .append(r.body)
                    .append('/')
                    .append(r.doc);
        }
        return b.toString();
    }

    private static FeedList feed(int n, SplittableRandom rnd) {
        FeedList l = new FeedList();
        for (int i = 0; i < n; i++) {
            FeedList.Row r = l.add(rnd.nextLong());
            r.resourceId = rnd.nextLong();
            r.sharerId = rnd.nextInt();
            r.type = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
            r.body = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
            r.doc = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
        }
        return l;
    }

    /** The first {@code k} rows of {@code l}. */
    private static FeedList prefix(FeedList l, int k) {
        FeedList out = new FeedList();
        for (int i = 0; i < Math.min(k, l.size()); i++) {
            FeedList.Row r = l.get(i);
            FeedList.Row c = out.add(r.shareId);
            c.resourceId = r.resourceId;
            c.sharerId = r.sharerId;
            c.type = r.type;
            c.body = r.body;
            c.doc = r.doc;
        }
        return out;
    }

    private static MemberList members(int attributes, int n, SplittableRandom rnd) {
        MemberList l = new MemberList(attributes);
        for (int i = 0; i < n; i++) {
            MemberList.Row r = l.add(rnd.nextInt());
            for (int a = 0; a < attributes; a++) {
                r.attributes.set(a, ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)]);
            }
            r.thumbnail = rnd.nextInt(4) == 0 ? null : bytes(rnd, rnd.nextInt(3000));
        }
        return l;
    }

    private static ResourceList resources(int n, SplittableRandom rnd) {
        ResourceList l = new ResourceList();
        for (int i = 0; i < n; i++) {
            ResourceList.Row r = l.add(rnd.nextLong());
            r.creatorId = rnd.nextInt();
            r.wallUserId = rnd.nextInt();
            r.type = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
            r.body = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
            r.doc = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
        }
        return l;
    }

    private static CommentList comments(int n, SplittableRandom rnd) {
        CommentList l = new CommentList();
        for (int i = 0; i < n; i++) {
            CommentList.Row r = l.add(rnd.nextLong());
            r.resourceId = rnd.nextLong();
            r.creatorId = rnd.nextInt();
            r.modifierId = rnd.nextInt();
            r.timestampMs = rnd.nextBoolean() ? Long.MIN_VALUE : rnd.nextLong();
            r.type = "comment";
            r.content = ODD_STRINGS[rnd.nextInt(ODD_STRINGS.length)];
        }
        return l;
    }

    @Test
    void everyViewRoundTripsThroughBothFormats() {
        SplittableRandom rnd = new SplittableRandom(11);
        EntryFormat binary = new BinaryFormat();
        EntryFormat snapshot = SnapshotFormat.INSTANCE;
        for (int round = 0; round < 300; round++) {
            int attributes = rnd.nextInt(15);
            int n = round % 10 == 0 ? 0 : rnd.nextInt(40);
            for (EntryFormat f : new EntryFormat[] {binary, snapshot}) {
                ProfileView p = profile(attributes, rnd);
                ProfileView p2 = profile(attributes, rnd);
                f.read(f.entry(p), p2);
                assertThat(show(p2)).isEqualTo(show(p));

                MemberList m = members(attributes, n, rnd);
                // The view read into holds more rows than the entry, from an earlier call: they must not show.
                MemberList m2 = members(attributes, n + 3, rnd);
                f.read(f.entry(m), m2);
                assertThat(show(m2)).isEqualTo(show(m));

                ResourceList r = resources(n, rnd);
                ResourceList r2 = resources(n + 2, rnd);
                f.read(f.entry(r), r2);
                assertThat(show(r2)).isEqualTo(show(r));

                CommentList c = comments(n, rnd);
                CommentList c2 = comments(n + 1, rnd);
                f.read(f.entry(c), c2);
                assertThat(show(c2)).isEqualTo(show(c));

                // A full feed: as many rows as its k.
                FeedList v = feed(n, rnd);
                FeedList v2 = feed(n + 2, rnd);
                assertThat(f.read(f.entry(n, v), n, v2)).isTrue();
                assertThat(show(v2)).isEqualTo(show(v));
            }
        }
    }

    /**
     * A feed entry answers a VNF with any k up to the one it was filled for (a prefix), and any k at all when it
     * holds fewer rows than its k (the whole feed); a full entry cannot answer a larger k.
     */
    @Test
    void aFeedEntryAnswersTheKsItCovers() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (EntryFormat f : new EntryFormat[] {new BinaryFormat(), SnapshotFormat.INSTANCE}) {
            FeedList full = feed(10, rnd);
            Object entry = f.entry(10, full);
            for (int k = 0; k <= 10; k++) {
                FeedList out = feed(3, rnd);
                assertThat(f.read(entry, k, out))
                        .as("k=%d of a full k=10 entry", k)
                        .isTrue();
                assertThat(show(out)).isEqualTo(show(prefix(full, k)));
            }
            FeedList stale = feed(4, rnd);
            assertThat(f.read(entry, 11, stale)).as("k=11 of a full k=10 entry").isFalse();
            assertThat(stale.size()).as("left cleared").isZero();

            FeedList whole = feed(6, rnd);
            Object short6 = f.entry(10, whole);
            for (int k : new int[] {1, 6, 10, 11, 500}) {
                FeedList out = new FeedList();
                assertThat(f.read(short6, k, out))
                        .as("k=%d of a 6-row k=10 entry", k)
                        .isTrue();
                assertThat(show(out)).isEqualTo(show(prefix(whole, k)));
            }
            FeedList empty = new FeedList();
            assertThat(f.read(f.entry(5, new FeedList()), 50, empty))
                    .as("an empty feed is complete")
                    .isTrue();
            assertThat(empty.size()).isZero();
        }
    }

    @Test
    void malformedFeedEntriesAreRefused() {
        FeedList l = new FeedList();
        l.add(7).type = "photo";
        l.add(3).type = "photo";
        // Two rows claimed filled for k=1: no VNF with k=1 returns two rows.
        byte[] overfull = codec.encode(1, l);
        assertThatThrownBy(() -> codec.decode(overfull, 1, new FeedList()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rows for k=1");
        byte[] good = codec.encode(2, l);
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> codec.decode(truncated, 2, new FeedList()))
                    .as("cut at %d", cut)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> codec.decode(codec.encode(new ResourceList()), 2, new FeedList()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind 'F'");
        assertThatThrownBy(() -> SnapshotFormat.INSTANCE.read(
                        new SnapshotFormat.Resources(
                                new long[0], new int[0], new int[0], new String[0], new String[0], new String[0]),
                        2,
                        new FeedList()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ViewCodec.isLease(good)).isFalse();
    }

    @Test
    void extremeNumbersRoundTrip() {
        CommentList c = new CommentList();
        long[] values = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE, 127, 128};
        for (long v : values) {
            CommentList.Row r = c.add(v);
            r.resourceId = -v;
            r.creatorId = (int) v;
            r.modifierId = (int) -v;
            r.timestampMs = v;
        }
        CommentList out = new CommentList();
        codec.decode(codec.encode(c), out);
        assertThat(show(out)).isEqualTo(show(c));
        ProfileView p = new ProfileView(0);
        p.friendCount = Integer.MIN_VALUE;
        p.resourceCount = Integer.MAX_VALUE;
        p.pendingCount = -1;
        ProfileView q = new ProfileView(0);
        codec.decode(codec.encode(p), q);
        assertThat(show(q)).isEqualTo(show(p));
    }

    @Test
    void entriesAreCompact() {
        ProfileView p = new ProfileView(2);
        p.attributes.set(0, "ab");
        p.attributes.set(1, null);
        p.friendCount = 5;
        p.resourceCount = 10;
        p.pendingCount = -1;
        // tag, count, "ab" (length+1, 2 bytes), null, null image, three one-byte numbers
        assertThat(codec.encode(p)).hasSize(1 + 1 + 3 + 1 + 1 + 3);
    }

    @Test
    void aViewWithFewerAttributeSlotsKeepsTheFirstOnes() {
        ProfileView wide = new ProfileView(4);
        for (int i = 0; i < wide.attributes.count(); i++) {
            wide.attributes.set(i, "a" + i);
        }
        ProfileView narrow = new ProfileView(2);
        codec.decode(codec.encode(wide), narrow);
        assertThat(narrow.attributes.toArray()).containsExactly("a0", "a1");
    }

    @Test
    void loneSurrogatesBecomeQuestionMarksAsInStringGetBytes() {
        MemberList l = new MemberList(1);
        l.add(1).attributes.set(0, "a\ud800b");
        MemberList out = new MemberList(1);
        codec.decode(codec.encode(l), out);
        assertThat(out.get(0).attributes.get(0)).isEqualTo("a?b");
    }

    @Test
    void malformedEntriesAreRefused() {
        ProfileView p = new ProfileView(1);
        p.attributes.set(0, "hello");
        byte[] good = codec.encode(p);
        assertThatThrownBy(() -> codec.decode(good, new MemberList(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind 'M'");
        assertThatThrownBy(() -> codec.decode(new byte[0], p)).isInstanceOf(IllegalArgumentException.class);
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> codec.decode(truncated, new ProfileView(1)))
                    .as("cut at %d", cut)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> codec.decode(longer, new ProfileView(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> SnapshotFormat.INSTANCE.read(good, new ProfileView(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BinaryFormat().read(new Object(), new ProfileView(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void leaseTokensAreRecognisedAndUnique() {
        byte[] a = CacheBackend.newLeaseToken();
        byte[] b = CacheBackend.newLeaseToken();
        assertThat(ViewCodec.isLease(a)).isTrue();
        assertThat(a).isNotEqualTo(b);
        assertThat(ViewCodec.isLease(codec.encode(new ProfileView(0)))).isFalse();
        assertThat(ViewCodec.isLease(codec.encode(new MemberList(0)))).isFalse();
        assertThat(ViewCodec.isLease(codec.encode(new ResourceList()))).isFalse();
        assertThat(ViewCodec.isLease(codec.encode(new CommentList()))).isFalse();
    }
}
