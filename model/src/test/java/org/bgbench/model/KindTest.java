package org.bgbench.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class KindTest {
    @Test
    void indexIsDenseActionsThenSessions() {
        assertThat(Kind.count()).isEqualTo(Action.count() + SessionType.count());
        for (int i = 0; i < Kind.count(); i++) {
            assertThat(Kind.byIndex(i).index()).isEqualTo(i);
            assertThat(Kind.all().get(i)).isSameAs(Kind.byIndex(i));
            assertThat(Kind.isAction(i)).isEqualTo(Kind.byIndex(i).isAction());
        }
        for (Action a : Action.values()) {
            assertThat(a.index()).isEqualTo(a.ordinal());
        }
        for (SessionType s : SessionType.values()) {
            assertThat(s.index()).isEqualTo(Action.count() + s.ordinal());
        }
    }

    /**
     * The numbers are written into validation logs and results by position, so they must not move unless an action
     * or session is added; adding one at the end of its enum moves only what comes after it.
     */
    @Test
    void indexIsStable() {
        assertThat(Kind.all().stream().map(Kind::code))
                .containsExactly(
                        "VP", "LF", "VFR", "IF", "AFR", "RFR", "TF", "VTR", "VCR", "PCR", "DCR", "SR", "VNF", "VSP",
                        "VFP", "PCS", "DCS", "IFS", "AFS", "RFS", "TFS");
        assertThat(Action.VP.index()).isZero();
        assertThat(Action.VNF.index()).isEqualTo(Action.count() - 1);
        assertThat(SessionType.VIEW_SELF_PROFILE.index()).isEqualTo(Action.count());
    }

    @Test
    void codesAndUscKeysRoundTrip() {
        for (Kind k : Kind.all()) {
            assertThat(Kind.byCode(k.code())).contains(k);
            assertThat(Kind.byUscKey(k.uscKey())).contains(k);
            assertThat(Kind.byUscKey(" " + k.uscKey().toUpperCase(Locale.ROOT) + " "))
                    .contains(k);
        }
        assertThat(Kind.byUscKey("ViewProfileAction")).contains(Action.VP);
        assertThat(Kind.byUscKey("DeleteCommentOnResourceAction")).contains(Action.DCR);
        assertThat(Kind.byUscKey("ViewFrndProfileSession"))
                .as("dissertation spelling")
                .contains(SessionType.VIEW_FRIEND_PROFILE);
        assertThat(Kind.byUscKey("InviteFrndSession")).contains(SessionType.INVITE_FRIEND);
        assertThat(Kind.byCode("vp")).as("codes are exact").isEmpty();
        assertThat(Kind.byUscKey("ShareResourceAction")).contains(Action.SR);
        assertThat(Kind.byUscKey("ViewNewsFeedAction")).as("USC BG's key").contains(Action.VNF);
        assertThat(Kind.byUscKey("ListCommonFriendsAction")).isEmpty();
        assertThat(Kind.byUscKey(null)).isEmpty();
    }

    @Test
    void writesAreTheWriteActionsAndTheSessionsThatIssueOne() {
        assertThat(Kind.all().stream().filter(Kind::isWrite).map(Kind::code))
                .containsExactly(
                        "IF", "AFR", "RFR", "TF", "PCR", "DCR", "SR", "PCS", "DCS", "IFS", "AFS", "RFS", "TFS");
        assertThat(List.of(Action.values())).allMatch(Kind::isAction);
        assertThat(List.of(SessionType.values())).noneMatch(Kind::isAction);
    }
}
