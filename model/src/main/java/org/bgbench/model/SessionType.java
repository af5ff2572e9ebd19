package org.bgbench.model;

import static org.bgbench.model.Action.AFR;
import static org.bgbench.model.Action.DCR;
import static org.bgbench.model.Action.IF;
import static org.bgbench.model.Action.LF;
import static org.bgbench.model.Action.PCR;
import static org.bgbench.model.Action.RFR;
import static org.bgbench.model.Action.TF;
import static org.bgbench.model.Action.VCR;
import static org.bgbench.model.Action.VFR;
import static org.bgbench.model.Action.VP;
import static org.bgbench.model.Action.VTR;

import java.util.List;
import java.util.Optional;

/**
 * The eight sessions of BG (dissertation 3.3): sequences of actions by one socialite with think time ε between them.
 * Every session starts with the socialite viewing her own profile and top-k resources; a session ends early when its
 * next step is impossible (no friend, no pending invitation, no comment), so {@link #steps()} is the full sequence,
 * the most a session issues. The enum order is the reporting order; as {@link Kind}s they come after every action.
 */
public enum SessionType implements Kind {
    /** {VP(i), VTR(i)}. */
    VIEW_SELF_PROFILE("VSP", "ViewSelfProfile", "ViewSelfProfileSession", List.of(), VP, VTR),
    /** {VP(i), VTR(i), LF(i), VP(j), VTR(j)} for a random friend j of i. */
    VIEW_FRIEND_PROFILE(
            "VFP", "ViewFrndProfile", "ViewFrdProfileSession", List.of("ViewFrndProfileSession"), VP, VTR, LF, VP, VTR),
    /** {VP(i), VTR(i), VP(r), VTR(r), VCR(c), PCR(c), VCR(c)} for a random member r and one of r's resources c. */
    POST_COMMENT("PCS", "PostCmtOnRes", "PostCmtOnResSession", List.of(), VP, VTR, VP, VTR, VCR, PCR, VCR),
    /** {VP(i), VTR(i), VCR(c), DCR(c), VCR(c)} for one of i's own resources c that has a comment. */
    DELETE_COMMENT("DCS", "DeleteCmtOnRes", "DeleteCmtOnResSession", List.of(), VP, VTR, VCR, DCR, VCR),
    /** {VP(i), VTR(i), LF(i), IF(j), VFR(i)} for a member j with no relationship to i. */
    INVITE_FRIEND("IFS", "InviteFrnd", "InviteFrdSession", List.of("InviteFrndSession"), VP, VTR, LF, IF, VFR),
    /** {VP(i), VTR(i), LF(i), VFR(i), AFR(j), VFR(i), LF(i)} for a member j with a pending invitation to i. */
    ACCEPT_FRIEND_REQUEST("AFS", "AcceptFrdReq", "AcceptFrdReqSession", List.of(), VP, VTR, LF, VFR, AFR, VFR, LF),
    /** {VP(i), VTR(i), LF(i), VFR(i), RFR(j), VFR(i), LF(i)} for a member j with a pending invitation to i. */
    REJECT_FRIEND_REQUEST("RFS", "RejectFrdReq", "RejectFrdReqSession", List.of(), VP, VTR, LF, VFR, RFR, VFR, LF),
    /** {VP(i), VTR(i), LF(i), TF(j), LF(i)} for a random friend j of i. */
    THAW_FRIENDSHIP("TFS", "ThawFrdship", "ThawFrdshipSession", List.of(), VP, VTR, LF, TF, LF);

    private static final SessionType[] VALUES = values();

    private final String code;
    private final String title;
    private final String uscKey;
    private final List<String> keyAliases;
    private final List<Action> steps;
    private final int[] actionCounts;
    private final Action write;
    private final int index;

    SessionType(String code, String title, String uscKey, List<String> keyAliases, Action... steps) {
        this.code = code;
        this.title = title;
        this.uscKey = uscKey;
        this.keyAliases = keyAliases;
        this.steps = List.of(steps);
        this.index = Action.count() + ordinal();
        this.actionCounts = new int[Action.count()];
        Action w = null;
        for (Action a : steps) {
            actionCounts[a.ordinal()]++;
            if (a.isWrite()) {
                w = a;
            }
        }
        this.write = w;
    }

    /** {@link Action#count()} plus its ordinal: sessions come after every action among the kinds. */
    @Override
    public int index() {
        return index;
    }

    /** Short code for reports, e.g. {@code VSP}. */
    @Override
    public String code() {
        return code;
    }

    /** The dissertation's name without the "Session" suffix, e.g. {@code ViewFrndProfile}. */
    @Override
    public String title() {
        return title;
    }

    /** The frequency key of USC BG's workload files, e.g. {@code ViewFrdProfileSession}. */
    @Override
    public String uscKey() {
        return uscKey;
    }

    /** Other spellings accepted for {@link #uscKey()} (the dissertation's, e.g. {@code InviteFrndSession}). */
    public List<String> keyAliases() {
        return keyAliases;
    }

    /** The full action sequence (dissertation 3.3); a session that ends early issues a prefix of it. */
    public List<Action> steps() {
        return steps;
    }

    /** How many times the full sequence issues {@code action}. */
    public int count(Action action) {
        return actionCounts[action.ordinal()];
    }

    /** The one write action this session issues, if any. */
    public Optional<Action> writeAction() {
        return Optional.ofNullable(write);
    }

    /** Whether it issues a write action. */
    @Override
    public boolean isWrite() {
        return write != null;
    }

    public static SessionType byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    public static int count() {
        return VALUES.length;
    }
}
