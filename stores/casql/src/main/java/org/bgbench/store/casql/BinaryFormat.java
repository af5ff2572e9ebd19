package org.bgbench.store.casql;

import org.bgbench.store.CommentList;
import org.bgbench.store.FeedList;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;

/** Entries as {@link ViewCodec} byte arrays, for Redis and memcached. */
final class BinaryFormat implements EntryFormat {
    private final ViewCodec codec = new ViewCodec();

    @Override
    public Object entry(ProfileView v) {
        return codec.encode(v);
    }

    @Override
    public Object entry(MemberList list) {
        return codec.encode(list);
    }

    @Override
    public Object entry(ResourceList list) {
        return codec.encode(list);
    }

    @Override
    public Object entry(CommentList list) {
        return codec.encode(list);
    }

    @Override
    public Object entry(int k, FeedList list) {
        return codec.encode(k, list);
    }

    @Override
    public void read(Object entry, ProfileView out) {
        codec.decode(bytes(entry), out);
    }

    @Override
    public void read(Object entry, MemberList out) {
        codec.decode(bytes(entry), out);
    }

    @Override
    public void read(Object entry, ResourceList out) {
        codec.decode(bytes(entry), out);
    }

    @Override
    public void read(Object entry, CommentList out) {
        codec.decode(bytes(entry), out);
    }

    @Override
    public boolean read(Object entry, int k, FeedList out) {
        return codec.decode(bytes(entry), k, out);
    }

    private static byte[] bytes(Object entry) {
        if (entry instanceof byte[] b) {
            return b;
        }
        throw new IllegalArgumentException(
                "expected a byte array, found " + entry.getClass().getName());
    }
}
