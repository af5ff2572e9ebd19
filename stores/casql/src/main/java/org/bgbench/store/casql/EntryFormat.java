package org.bgbench.store.casql;

import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;

/**
 * How a session turns a read's result into a cache entry and back: a byte array for the client-server caches
 * ({@link BinaryFormat}), an immutable copy of the view for the in-process cache ({@link SnapshotFormat}). The
 * {@code read} methods clear the view and fill it; they throw {@link IllegalArgumentException} for an entry that is
 * not of the expected kind. One instance per session.
 */
interface EntryFormat {
    Object entry(ProfileView v);

    Object entry(MemberList list);

    Object entry(ResourceList list);

    Object entry(CommentList list);

    /** A VNF result for {@code k}; the entry records k. */
    Object entry(int k, FeedList list);

    void read(Object entry, ProfileView out);

    void read(Object entry, MemberList out);

    void read(Object entry, ResourceList out);

    void read(Object entry, CommentList out);

    /**
     * The first {@code k} rows of a feed entry, or false (with {@code out} cleared) when the entry was filled for a
     * smaller k and is full, so it cannot say what lies beyond its rows.
     */
    boolean read(Object entry, int k, FeedList out);
}
