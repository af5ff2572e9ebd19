package org.bgbench.model.state;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Locale;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState.CommentDelta;
import org.bgbench.model.state.GraphState.MemberState;

/**
 * BG's state file: a {@link GraphState}'s differences from the generated graph (BGS1), followed by the shares (BGS2),
 * written after a run and read before the next so it starts where the last one ended.
 */
final class StateFile {
    private StateFile() {}

    private static final int FORMAT = 0x42475331; // "BGS1"
    /** BGS1 followed by the shares. */
    private static final int FORMAT_SHARES = 0x42475332; // "BGS2"

    /** Writes {@code state}; call when no thread is changing it. */
    static void write(GraphState state, DataOutput out) throws IOException {
        SocialGraph graph = state.graph();
        MemberState[] states = state.states;
        out.writeInt(FORMAT_SHARES);
        out.writeUTF(graph.spec().fingerprint());
        out.writeLong(state.nextCommentId.get());
        out.writeInt(state.touchedMembers());
        for (int i = 0; i < states.length; i++) {
            MemberState s = state.peek(i);
            if (s == null) {
                continue;
            }
            synchronized (s) {
                out.writeInt(i);
                s.friends.write(out);
                s.inviters.write(out);
                s.invitees.write(out);
                out.writeInt(s.friendCount);
                out.writeInt(s.pendingCount);
                out.writeInt(s.comments == null ? 0 : s.comments.size());
                if (s.comments != null) {
                    for (var e : s.comments.int2ObjectEntrySet()) {
                        CommentDelta d = e.getValue();
                        out.writeInt(e.getIntKey());
                        out.writeInt(d.deletedInitial == null ? 0 : d.deletedInitial.size());
                        if (d.deletedInitial != null) {
                            for (int k : d.deletedInitial) {
                                out.writeInt(k);
                            }
                        }
                        out.writeInt(d.added == null ? 0 : d.added.size());
                        if (d.added != null) {
                            for (long mid : d.added) {
                                out.writeLong(mid);
                            }
                        }
                    }
                }
            }
        }
        out.writeLong(state.nextShareSeq.get());
        out.writeLong(state.shareCount());
        IOException[] failed = {null};
        state.forEachShare(sh -> {
            try {
                out.writeLong(sh.id());
                out.writeInt(sh.account());
                out.writeLong(sh.resource());
                out.writeInt(sh.recipients() == null ? -1 : sh.recipients().length);
                if (sh.recipients() != null) {
                    for (int r : sh.recipients()) {
                        out.writeInt(r);
                    }
                }
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    /**
     * Reads a state written by {@link #write}; refuses one written for another graph. A state that is cut short or
     * damaged is refused with a {@link StateFormatException} naming the part reading stopped in. Counts are checked
     * against the graph and nothing is allocated from a count before its elements are read, so garbage fails here
     * instead of exhausting the heap.
     */
    static GraphState read(SocialGraph graph, DataInput in) throws IOException {
        String[] where = {"the header"};
        try {
            return readParts(graph, in, where);
        } catch (IOException | RuntimeException e) {
            throw StateFormatException.of(where[0], e);
        }
    }

    private static GraphState readParts(SocialGraph graph, DataInput in, String[] where) throws IOException {
        int format = in.readInt();
        if (format != FORMAT && format != FORMAT_SHARES) {
            throw new IOException(String.format(
                    Locale.ROOT, "it does not start as a BG state file " + "does (its first bytes are %08x)", format));
        }
        String fingerprint = in.readUTF();
        if (!fingerprint.equals(graph.spec().fingerprint())) {
            throw new IOException("it holds the state of another graph (fingerprint " + fingerprint
                    + "; this graph's is " + graph.spec().fingerprint() + ")");
        }
        GraphState state = new GraphState(graph, in.readLong());
        int members = graph.members();
        int touched = count(in.readInt(), members, "touched members");
        for (int t = 0; t < touched; t++) {
            where[0] = "the record of the " + ordinal(t + 1) + " touched member";
            int i = in.readInt();
            if (i < 0 || i >= members) {
                throw new IOException(
                        "it names member " + i + ", which a graph of " + members + " members " + "does not have");
            }
            where[0] = "member " + i + "'s record";
            MemberState s = new MemberState(0, 0);
            s.friends.read(in, members);
            s.inviters.read(in, members);
            s.invitees.read(in, members);
            s.friendCount = count(in.readInt(), members, "friends");
            s.pendingCount = count(in.readInt(), members, "pending invitations");
            int slots = count(in.readInt(), Integer.MAX_VALUE, "resources with changed comments");
            if (slots > 0) {
                s.comments = new Int2ObjectOpenHashMap<>();
                for (int c = 0; c < slots; c++) {
                    int slot = in.readInt();
                    CommentDelta d = new CommentDelta();
                    int deleted = count(in.readInt(), Integer.MAX_VALUE, "deleted comments");
                    if (deleted > 0) {
                        d.deletedInitial = new IntOpenHashSet();
                        for (int k = 0; k < deleted; k++) {
                            d.deletedInitial.add(in.readInt());
                        }
                    }
                    int added = count(in.readInt(), Integer.MAX_VALUE, "added comments");
                    if (added > 0) {
                        d.added = new LongArrayList();
                        for (int k = 0; k < added; k++) {
                            d.added.add(in.readLong());
                        }
                    }
                    s.comments.put(slot, d);
                }
            }
            state.states[i] = s;
        }
        if (format == FORMAT_SHARES) {
            where[0] = "the shares' header";
            state.nextShareSeq.set(in.readLong());
            long n = in.readLong();
            if (n < 0) {
                throw new IOException("a count of " + n + " shares");
            }
            for (long x = 0; x < n; x++) {
                where[0] = "the record of share " + (x + 1) + " of " + n;
                long id = in.readLong();
                int account = in.readInt();
                if (account < 0 || account >= graph.accounts()) {
                    throw new IOException("it names account " + account + ", which a graph of " + graph.accounts()
                            + " accounts does not have");
                }
                long rid = in.readLong();
                int r = in.readInt();
                int[] recipients = null;
                if (r >= 0) {
                    int size = count(r, members, "recipients");
                    IntArrayList list = new IntArrayList();
                    for (int k = 0; k < size; k++) {
                        list.add(in.readInt());
                    }
                    recipients = list.toIntArray();
                }
                state.share(account, id, rid, recipients);
            }
        }
        return state;
    }

    /** A count read from a state file, refused when it is negative or larger than {@code max}. */
    static int count(int n, int max, String what) throws IOException {
        if (n < 0 || n > max) {
            throw new IOException(String.format(
                    Locale.ROOT,
                    "a count of %,d %s%s",
                    n,
                    what,
                    n < 0 ? "" : String.format(Locale.ROOT, ", more than the graph's %,d members", max)));
        }
        return n;
    }

    private static String ordinal(int n) {
        int mod100 = n % 100;
        String suffix = mod100 >= 11 && mod100 <= 13
                ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return String.format(Locale.ROOT, "%,d", n) + suffix;
    }
}
