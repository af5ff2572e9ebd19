package org.bgbench.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SessionTypeTest {
    @Test
    void eightSessionsWithDistinctCodesAndKeys() {
        assertThat(SessionType.count()).isEqualTo(8);
        assertThat(Arrays.stream(SessionType.values()).map(SessionType::code)).doesNotHaveDuplicates();
        assertThat(Arrays.stream(SessionType.values()).map(SessionType::uscKey))
                .containsExactly(
                        "ViewSelfProfileSession",
                        "ViewFrdProfileSession",
                        "PostCmtOnResSession",
                        "DeleteCmtOnResSession",
                        "InviteFrdSession",
                        "AcceptFrdReqSession",
                        "RejectFrdReqSession",
                        "ThawFrdshipSession");
    }

    @Test
    void everySessionStartsWithSelfProfileAndIssuesAtMostOneWrite() {
        for (SessionType s : SessionType.values()) {
            assertThat(s.steps()).as(s.title()).startsWith(Action.VP, Action.VTR);
            assertThat(s.steps().stream().filter(Action::isWrite).count())
                    .as(s.title())
                    .isLessThanOrEqualTo(1);
        }
        assertThat(SessionType.ACCEPT_FRIEND_REQUEST.writeAction()).contains(Action.AFR);
        assertThat(SessionType.VIEW_FRIEND_PROFILE.writeAction()).isEmpty();
        assertThat(SessionType.POST_COMMENT.count(Action.VCR)).isEqualTo(2);
    }
}
