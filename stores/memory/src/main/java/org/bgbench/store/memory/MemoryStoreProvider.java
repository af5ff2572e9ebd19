package org.bgbench.store.memory;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.OptionalLong;
import org.bgbench.model.Durations;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;

/** The {@code memory} store: in-process, linearizable, the reference other stores are compared with. */
public final class MemoryStoreProvider implements StoreProvider {
    public static final String NAME_KEY = "memory.name";
    public static final String DEFAULT_NAME = "default";
    public static final String FANOUT_DELAY_KEY = "feed.fanout.delay";

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public String description() {
        return "In-process linearizable reference store (per-member sorted id arrays, sequence-locked reads); "
                + "lives only in this JVM";
    }

    @Override
    public List<StoreSetting> settings() {
        return List.of(
                new StoreSetting(
                        NAME_KEY,
                        DEFAULT_NAME,
                        "instance name; opens with the same name in one JVM share the data, which lasts until the JVM exits"),
                new StoreSetting(
                        FeedDesign.DESIGN_KEY,
                        "pull",
                        "news feed design (dissertation 8.4.2): pull, push or sorted-push; fixed when the schema is made"),
                new StoreSetting(
                        FeedDesign.PUSH_KEY,
                        "reference",
                        "what push designs put in a feed: reference (joined with the resource at VNF) or content"),
                new StoreSetting(
                        FANOUT_DELAY_KEY,
                        "0",
                        "push designs: 0 fans a share out inside SR; a duration (e.g. 200ms) fans it out that long "
                                + "after SR returned, on a background thread: a deliberately stale store for "
                                + "checking BG's feed validation, not for measurements"));
    }

    /**
     * Measured here (M = 5,000–20,000, φ and ρ 10–100, with and without images): about 130 bytes per row (member,
     * relationship, resource, comment) plus 1 KB per member and the images' bytes, within 25 % and never below. Pages
     * cost about 200 bytes each, their resources count as rows, and a follow 8 bytes (an int at each end). Shares
     * and pushed feeds grow during a run (about 60 bytes a share, 4 to 8 per feed entry) and are not known here.
     */
    @Override
    public OptionalLong heapBytes(SocialGraph g) {
        long rows = g.members()
                + g.totalFriendships()
                + g.totalPendingInvitations()
                + g.totalResources()
                + g.totalInitialComments()
                + g.totalPageResources();
        long images = g.spec().images()
                ? (long) g.members() * (g.spec().thumbnailBytes() + g.spec().profileImageBytes())
                : 0;
        long pages = g.pages() * 200L + g.totalFollows() * 8;
        return OptionalLong.of(rows * 130 + (long) g.members() * 1024 + images + pages);
    }

    /** In BG's process, gone when BG exits, one per worker. */
    @Override
    public StoreTraits traits() {
        return new StoreTraits(true, true, true, null);
    }

    @Override
    public DataStore open(StoreSettings settings) {
        String name = settings.get(NAME_KEY, DEFAULT_NAME).trim();
        FeedDesign design = FeedDesign.of(settings);
        Duration delay = Durations.parse(FANOUT_DELAY_KEY, settings.get(FANOUT_DELAY_KEY, "0"), ChronoUnit.MILLIS);
        if (delay.isNegative()) {
            throw new InvalidParameterException(
                    FANOUT_DELAY_KEY, "must be 0 or a positive duration, " + "got " + settings.get(FANOUT_DELAY_KEY));
        }
        if (!delay.isZero() && !design.pushes()) {
            throw new InvalidParameterException(
                    FANOUT_DELAY_KEY,
                    "delays the fan-out of push " + "designs; set feed.design=push or sorted-push, or leave it 0");
        }
        return new MemoryStore(Instance.named(name.isEmpty() ? DEFAULT_NAME : name), design, delay);
    }

    /** Forgets the named instance and its data (and image), e.g. between tests; open handles keep the old data. */
    public static void discard(String name) {
        Instance.discard(name);
    }
}
