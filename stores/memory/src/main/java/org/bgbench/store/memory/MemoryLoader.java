package org.bgbench.store.memory;

import java.util.Arrays;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.EdgeVisitor;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.LoadProgress;
import org.bgbench.store.StoreException;

/**
 * Writes members straight into the {@link Db}. Loaders of disjoint ranges run concurrently and meet only in the
 * relationship sets of members near range boundaries, which each write under that member's monitor.
 */
final class MemoryLoader implements GraphLoader {
    private static final int PROGRESS_EVERY = 256;

    private final Db db;
    private final SocialGraph graph;
    private final int attributeCount;
    private final int resourcesPerMember;
    private final int commentsPerResource;
    /** First allocation of a set, sized for the generated graph so loading does not regrow every array. */
    private final int friendCapacity;

    private final int inviterCapacity;
    private final EdgeVisitor edges = this::edge;
    private final int pagesPerMember;
    private long rows;

    MemoryLoader(Db db, SocialGraph graph) {
        this.db = db;
        this.graph = graph;
        GraphSpec spec = graph.spec();
        this.attributeCount = spec.attributeCount();
        this.resourcesPerMember = spec.resourcesPerMember();
        this.commentsPerResource = spec.commentsPerResource();
        double confirmed = spec.confirmedFraction();
        this.friendCapacity = (int) Math.ceil(spec.friendsPerMember() * confirmed) + 2;
        this.inviterCapacity = (int) Math.ceil(spec.friendsPerMember() * (1 - confirmed) / 2) + 2;
        this.pagesPerMember = graph.pagesPerMember();
    }

    @Override
    public void load(int from, int to, LoadProgress progress) {
        if (from < 0 || to > db.members.length || from > to) {
            throw new StoreException("load range [" + from + ", " + to + ") is outside the " + db.members.length
                    + " members of the schema");
        }
        // A loader is given several ranges one after the other and rows counts them all: report only this call's.
        long reported = rows;
        for (int i = from; i < to; i++) {
            loadMember(i);
            graph.forEachStartedRelationship(i, edges);
            if ((i - from + 1) % PROGRESS_EVERY == 0) {
                progress.rows(rows - reported);
                reported = rows;
            }
        }
        graph.forEachPageLoadedWith(from, to, this::loadPage);
        progress.rows(rows - reported);
    }

    private void loadPage(int p) {
        int rp = graph.resourcesPerPage();
        int id = graph.accountId(graph.pageAccount(p));
        Resource[] wall = rp == 0 ? Resource.NONE : new Resource[rp];
        for (int j = 0; j < rp; j++) {
            long rid = graph.pageResourceId(p, j);
            wall[j] = new Resource(
                    rid, id, id, graph.resourceType(rid), graph.resourceBody(rid), graph.resourceDoc(rid), 0);
        }
        int[] followers = new int[graph.followersPerPage()];
        int[] n = {0};
        graph.forEachFollower(p, m -> {
            if (n[0] == followers.length) {
                throw new StoreException("page " + id + " has more followers than ι=" + followers.length);
            }
            followers[n[0]++] = graph.memberId(m);
        });
        db.pages[p] = new Page(
                id, graph.pageName(p), wall, n[0] == followers.length ? followers : Arrays.copyOf(followers, n[0]));
        rows += 1 + rp;
    }

    private void loadMember(int index) {
        int id = graph.memberId(index);
        String[] attributes = new String[attributeCount];
        graph.attributes(index, attributes);
        Resource[] wall = resourcesPerMember == 0 ? Resource.NONE : new Resource[resourcesPerMember];
        for (int j = 0; j < resourcesPerMember; j++) {
            long rid = graph.resourceId(index, j);
            Resource r = new Resource(
                    rid,
                    id,
                    id,
                    graph.resourceType(rid),
                    graph.resourceBody(rid),
                    graph.resourceDoc(rid),
                    commentsPerResource);
            for (int k = 0; k < commentsPerResource; k++) {
                long mid = graph.commentId(rid, k);
                r.append(new Comment(
                        mid,
                        graph.memberId(graph.commentModifier(mid)),
                        graph.commentTimestamp(mid),
                        graph.commentContent(mid)));
            }
            wall[j] = r;
        }
        byte[] thumbnail = graph.thumbnail(index);
        byte[] profileImage = graph.profileImage(index);
        int[] pages = SortedInts.EMPTY;
        if (pagesPerMember > 0) {
            int[] followed = new int[pagesPerMember];
            int[] n = {0};
            graph.forEachFollowedPage(index, p -> followed[n[0]++] = graph.accountId(graph.pageAccount(p)));
            Arrays.sort(followed);
            pages = followed;
        }
        Member m = db.slot(index);
        synchronized (m) {
            m.beginWrite();
            m.pages = pages;
            m.profileImage = profileImage;
            m.wall = wall;
            m.resourceCount = wall.length;
            m.endWrite();
        }
        db.thumbnails[index] = thumbnail;
        // Last: a member exists once its attributes are set. Sessions start after the load has finished, which orders
        // all these writes before their reads.
        db.attributes[index] = attributes;
        rows += 1 + (long) resourcesPerMember * (1 + commentsPerResource) + pages.length;
    }

    private void edge(int inviter, int invitee, boolean confirmed) {
        int inviterId = graph.memberId(inviter);
        int inviteeId = graph.memberId(invitee);
        Member a = db.slot(inviter);
        Member b = db.slot(invitee);
        if (confirmed) {
            // The two ends are written one at a time: no session runs during a load, so atomicity is not needed.
            synchronized (a) {
                a.beginWrite();
                a.addFriend(inviteeId, friendCapacity);
                a.endWrite();
            }
            synchronized (b) {
                b.beginWrite();
                b.addFriend(inviterId, friendCapacity);
                b.endWrite();
            }
        } else {
            synchronized (b) {
                b.beginWrite();
                b.addInviter(inviterId, inviterCapacity);
                b.endWrite();
            }
        }
        rows++;
    }

    @Override
    public void close() {
        // Nothing to release: the loader writes straight into the shared contents.
    }
}
