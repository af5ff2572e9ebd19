package org.bgbench.store.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.stream.IntStream;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.StateMark;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreException;

/** The contents of one schema: the members of one {@link GraphSpec}, indexed by member index. */
final class Db {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Member[].class);
    private static final int COPY_CHUNK = 4096;

    final GraphSpec spec;
    final int offset;
    /** Slot per member index; filled by the loaders (or by a copy). */
    final Member[] members;
    /**
     * Attributes per member index, immutable once set; null until the loader has written the member, which does not
     * exist before that. Dense arrays beside {@link #members}: a listed friend costs one array element, not an object.
     */
    final String[][] attributes;

    final byte[][] thumbnails;
    /** Slot per page index (account id {@code offset + members.length + p}); null until the loader wrote the page. */
    final Page[] pages;
    /** How feeds are kept; fixed with the schema because push designs store feeds the other designs do not keep. */
    final FeedDesign design;
    /** Fingerprint of the finished load, or null while empty or loading. */
    volatile String loadedFingerprint;
    /** BG's state mark ({@link StateMark}), or null; part of the contents, so images carry it. */
    volatile String stateMark;

    private static final AtomicReferenceFieldUpdater<Db, String> STATE_MARK =
            AtomicReferenceFieldUpdater.newUpdater(Db.class, String.class, "stateMark");

    Db(GraphSpec spec, FeedDesign design) {
        this.spec = spec;
        this.design = design;
        this.pages = new Page[spec.feed().pages()];
        this.offset = spec.memberIdOffset();
        this.members = new Member[spec.members()];
        this.attributes = new String[spec.members()][];
        this.thumbnails = new byte[spec.members()][];
    }

    /** Index of the loaded member with id {@code id}; an unknown id is a BG bug and fails loudly. */
    int index(int id) {
        int i = id - offset;
        if (i < 0 || i >= members.length) {
            throw new StoreException("member " + id + " does not exist: ids run from " + offset + " to "
                    + (offset + members.length - 1));
        }
        if (attributes[i] == null) {
            throw new StoreException("member " + id + " has not been loaded");
        }
        return i;
    }

    /** The loaded member or page with account id {@code id}. */
    Account account(int id) {
        int i = id - offset - members.length;
        if (i < 0) {
            return member(id);
        }
        if (i >= pages.length || pages[i] == null) {
            throw new StoreException("account " + id + " is neither a loaded member nor a loaded page: members are "
                    + offset + ".." + (offset + members.length - 1) + ", pages "
                    + (offset + members.length) + ".." + (offset + members.length + pages.length - 1));
        }
        return pages[i];
    }

    /** Removes every share and pushed feed entry, account by account; run while no actions run. */
    void clearShares() {
        for (int i = 0; i < members.length; i++) {
            Member m = members[i];
            if (m != null) {
                clear(m);
            }
        }
        for (Page p : pages) {
            if (p != null) {
                clear(p);
            }
        }
    }

    private static void clear(Account a) {
        synchronized (a) {
            a.beginWrite();
            a.clearShares();
            a.endWrite();
        }
    }

    /** The loaded member with id {@code id}. */
    Member member(int id) {
        return members[index(id)];
    }

    /** The member in slot {@code index}, created when absent; loaders of neighbouring ranges may race for it. */
    Member slot(int index) {
        Member m = (Member) SLOTS.getAcquire(members, index);
        if (m != null) {
            return m;
        }
        Member created = new Member();
        Member witness = (Member) SLOTS.compareAndExchange(members, index, (Member) null, created);
        return witness == null ? created : witness;
    }

    /** A deep copy (for images), each member copied atomically; copied in parallel because graphs are large. */
    Db copy() {
        Db c = new Db(spec, design);
        int n = members.length;
        IntStream.range(0, (n + COPY_CHUNK - 1) / COPY_CHUNK).parallel().forEach(chunk -> {
            for (int i = chunk * COPY_CHUNK, end = Math.min(n, i + COPY_CHUNK); i < end; i++) {
                Member m = members[i];
                if (m != null) {
                    c.members[i] = m.copy();
                }
            }
        });
        // Immutable profile data is shared.
        System.arraycopy(attributes, 0, c.attributes, 0, n);
        System.arraycopy(thumbnails, 0, c.thumbnails, 0, n);
        for (int p = 0; p < pages.length; p++) {
            if (pages[p] != null) {
                c.pages[p] = pages[p].copy();
            }
        }
        c.loadedFingerprint = loadedFingerprint;
        c.stateMark = stateMark;
        return c;
    }

    /**
     * Replaces the state mark with {@code mark} if it equals {@code expected}: a compare-and-set on the field, so of
     * many threads expecting one mark one wins, whatever plain writes of it happen meanwhile.
     */
    boolean replaceStateMark(String expected, String mark) {
        while (true) {
            String now = stateMark;
            if (!expected.equals(now)) {
                return false;
            }
            if (STATE_MARK.compareAndSet(this, now, mark)) {
                return true;
            }
        }
    }

    /** Totals over loaded members; each member is read atomically, the whole is exact when no writes run. */
    StoreCounts counts() {
        long memberCount = 0;
        long friendEnds = 0;
        long pending = 0;
        long resources = 0;
        long comments = 0;
        long follows = 0;
        long shares = 0;
        for (int i = 0; i < members.length; i++) {
            Member m = members[i];
            if (attributes[i] == null) {
                continue;
            }
            memberCount++;
            synchronized (m) {
                friendEnds += m.friendCount;
                pending += m.inviterCount;
                shares += m.shareCount;
            }
            follows += m.pages.length;
            for (Resource r : m.wall) {
                resources++;
                synchronized (r) {
                    comments += r.commentCount;
                }
            }
        }
        long pageCount = 0;
        long pageResources = 0;
        for (Page p : pages) {
            if (p != null) {
                pageCount++;
                pageResources += p.wall.length;
                synchronized (p) {
                    shares += p.shareCount;
                }
            }
        }
        return new StoreCounts(
                new StoreCounts.Social(memberCount, friendEnds / 2, pending, resources, comments),
                new StoreCounts.Feed(pageCount, follows, pageResources, shares));
    }
}
