package org.bgbench.store.postgres;

import org.bgbench.model.Action;
import org.bgbench.store.Attributes;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreException;
import org.bgbench.store.postgres.wire.PgWire;
import org.bgbench.store.postgres.wire.Rows;
import org.bgbench.store.postgres.wire.WireException;
import org.bgbench.store.relational.RelationalSchema;

/**
 * View Profile, List Friends, View Friend Requests and View Top-K Resources, and the friendship writes the design does
 * in one statement (Invite, Accept, Reject, Thaw with one friendship table, one row per friendship, a pull feed and
 * counts by aggregate: {@link RelationalSchema#oneStatementWrite}), through BG's own protocol client ({@code
 * postgres.client=wire}, {@link PgWire}), with the Basic design's statements and the same results as {@link
 * org.bgbench.store.relational.RelationalSession}: each reply's rows arrive in one array and the views' attributes
 * are slices of it, so no object is made per field; a write is one round trip in autocommit, as pgJDBC's, and fails
 * the same way when it changes another number of rows than its state implies. Owns its connection. Not thread-safe,
 * like every session.
 */
final class WireActions implements AutoCloseable {
    private final PgWire w;
    private final int attributes;
    private final PgWire.Statement viewProfile;
    private final PgWire.Statement viewOwnProfile;
    private final PgWire.Statement listFriends;
    private final PgWire.Statement viewFriendRequests;
    private final PgWire.Statement topResources;
    /** The one-statement friendship writes; null where the design needs a transaction (on pgJDBC then). */
    private final PgWire.Statement invite;
    private final PgWire.Statement accept;
    private final PgWire.Statement reject;
    private final PgWire.Statement thaw;
    private final int thawRows;

    /** Prepares the statements on {@code w}, which it owns from now on (and closes if preparing fails). */
    WireActions(PgWire w, RelationalSchema schema) throws WireException {
        this.w = w;
        this.attributes = schema.attributeCount();
        this.thawRows = schema.oneStatementRows(Action.TF);
        try {
            viewProfile = w.prepare(schema.viewProfileSql());
            viewOwnProfile = w.prepare(schema.viewOwnProfileSql());
            listFriends = w.prepare(schema.listFriendsSql());
            viewFriendRequests = w.prepare(schema.viewFriendRequestsSql());
            topResources = w.prepare(schema.topResourcesSql());
            invite = write(w, schema, Action.IF);
            accept = write(w, schema, Action.AFR);
            reject = write(w, schema, Action.RFR);
            thaw = write(w, schema, Action.TF);
        } catch (WireException e) {
            w.close();
            throw e;
        }
    }

    private static PgWire.Statement write(PgWire w, RelationalSchema schema, Action action) throws WireException {
        String sql = schema.oneStatementWrite(action);
        return sql == null ? null : w.prepareUpdate(sql);
    }

    /** Whether {@code action}, a friendship write, runs here; else it needs the design's transaction on pgJDBC. */
    boolean writes(Action action) {
        return switch (action) {
            case IF -> invite != null;
            case AFR -> accept != null;
            case RFR -> reject != null;
            case TF -> thaw != null;
            default -> false;
        };
    }

    void inviteFriend(int inviter, int invitee) {
        write(invite, inviter, invitee, "IF");
    }

    void acceptFriendRequest(int invitee, int inviter) {
        write(accept, inviter, invitee, "AFR");
    }

    void rejectFriendRequest(int invitee, int inviter) {
        write(reject, inviter, invitee, "RFR");
    }

    void thawFriendship(int member, int friend) {
        int changed;
        try {
            changed = w.update(thaw, member, friend, friend, member);
        } catch (WireException e) {
            throw failed("TF", e);
        }
        expect(changed, thawRows, "TF");
    }

    private void write(PgWire.Statement st, int inviter, int invitee, String action) {
        int changed;
        try {
            changed = w.update(st, inviter, invitee);
        } catch (WireException e) {
            throw failed(action, e);
        }
        expect(changed, 1, action);
    }

    /** As the relational session: a write that changed another number of rows met a state it was not valid for. */
    private static void expect(int changed, int rows, String action) {
        if (changed != rows) {
            throw new StoreException(action + " changed " + changed + " rows, expected " + rows
                    + " (the store does not hold the state the action was chosen for)");
        }
    }

    void viewProfile(int requester, int profile, ProfileView out) {
        boolean own = requester == profile;
        out.clear();
        Rows rows;
        try {
            rows = w.query(own ? viewOwnProfile : viewProfile, profile);
        } catch (WireException e) {
            throw failed("VP", e);
        }
        if (rows.size() == 0) {
            throw new StoreException("VP: member " + profile + " not found");
        }
        text(rows, 0, 0, out.attributes);
        int col = attributes;
        out.profileImage = rows.bytes(0, col);
        out.friendCount = rows.getInt(0, col + 1);
        out.resourceCount = rows.getInt(0, col + 2);
        if (own) {
            out.pendingCount = rows.getInt(0, col + 3);
        }
        out.memberId = profile;
    }

    void listFriends(int profile, MemberList out) {
        try {
            members(listFriends.parameters() == 2 ? w.query(listFriends, profile, profile)
                    : w.query(listFriends, profile), out);
        } catch (WireException e) {
            throw failed("LF", e);
        }
    }

    void viewFriendRequests(int member, MemberList out) {
        try {
            members(w.query(viewFriendRequests, member), out);
        } catch (WireException e) {
            throw failed("VFR", e);
        }
    }

    void viewTopKResources(int profile, int k, ResourceList out) {
        out.clear();
        Rows rows;
        try {
            rows = w.query(topResources, profile, k);
        } catch (WireException e) {
            throw failed("VTR", e);
        }
        for (int r = 0; r < rows.size(); r++) {
            ResourceList.Row row = out.add(rows.getLong(r, 0));
            row.creatorId = rows.getInt(r, 1);
            row.wallUserId = rows.getInt(r, 2);
            row.type = rows.string(r, 3);
            row.body = rows.string(r, 4);
            row.doc = rows.string(r, 5);
        }
    }

    private void members(Rows rows, MemberList out) {
        out.clear();
        for (int r = 0; r < rows.size(); r++) {
            MemberList.Row row = out.add(rows.getInt(r, 0));
            text(rows, r, 1, row.attributes);
            row.thumbnail = rows.bytes(r, attributes + 1);
        }
    }

    /** The attribute columns from {@code first} on, as slices of the reply's arrays: three references per row. */
    private void text(Rows rows, int r, int first, Attributes out) {
        out.setUtf8Row(rows.data(), rows.offsets(), rows.lengths(), rows.index(r, first),
                Math.min(attributes, out.count()));
    }

    private static StoreException failed(String action, WireException e) {
        return new StoreException(action + " failed: " + org.bgbench.store.ErrorText.message(e), e);
    }

    /** Whether the connection is gone (a timeout, the server went away): the session opens another. */
    boolean isClosed() {
        return w.isClosed();
    }

    @Override
    public void close() {
        w.close();
    }
}
