package org.bgbench.runner.rating;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.rating.ResetPolicy.Method;
import org.bgbench.runner.rating.ResetPolicy.Mode;
import org.bgbench.runner.rating.ResetPolicy.Situation;
import org.junit.jupiter.api.Test;

class ResetPolicyTest {
    /** A symmetric writing mix after a clean experiment, with an image, 100 members touched. */
    private static Situation clean() {
        return new Situation(true, true, true, false, true, 100);
    }

    private static Situation after(boolean symmetric, boolean clean, boolean errors, boolean image) {
        return new Situation(true, symmetric, clean, errors, image, 100);
    }

    @Test
    void autoKeepsTheStoreWhenLoadFreeIsSound() {
        ResetPolicy p = new ResetPolicy(Mode.AUTO);
        assertThat(p.choose(clean())).isEqualTo(Method.LOADFREE);
        // A read-only mix never changes the store, whatever the last experiment saw.
        assertThat(p.choose(new Situation(false, false, false, true, false, 0))).isEqualTo(Method.LOADFREE);
    }

    @Test
    void autoTriesRepairThenImageOnceAndThenPicksTheCheaper() {
        ResetPolicy p = new ResetPolicy(Mode.AUTO);
        Situation s = after(false, true, false, true);
        assertThat(p.choose(s)).isEqualTo(Method.REPAIR);
        p.repaired(10.0, 100); // 0.1 s per member
        assertThat(p.choose(s)).isEqualTo(Method.IMAGE);
        p.restored(2.0);
        // 100 members × 0.1 s = 10 s of repair against 2 s of image.
        assertThat(p.choose(s)).isEqualTo(Method.IMAGE);
        // With 10 touched members the repair (1 s) is cheaper.
        assertThat(p.choose(new Situation(true, false, true, false, true, 10))).isEqualTo(Method.REPAIR);
    }

    @Test
    void autoNeverRepairsAfterErrorsAndReloadsWithoutAnImage() {
        ResetPolicy p = new ResetPolicy(Mode.AUTO);
        assertThat(p.choose(after(true, false, true, true))).isEqualTo(Method.IMAGE);
        assertThat(p.choose(after(true, false, true, false))).isEqualTo(Method.RELOAD);
    }

    @Test
    void anUnpredictableReadEndsLoadFreeEvenForASymmetricMix() {
        ResetPolicy p = new ResetPolicy(Mode.AUTO);
        assertThat(p.choose(after(true, false, false, false))).isEqualTo(Method.REPAIR);
    }

    @Test
    void explicitModesAreObeyedUnlessUnsound() {
        assertThat(new ResetPolicy(Mode.LOADFREE).choose(after(false, false, true, true)))
                .isEqualTo(Method.LOADFREE);
        assertThat(new ResetPolicy(Mode.RELOAD).choose(after(false, true, false, true)))
                .isEqualTo(Method.RELOAD);
        assertThat(new ResetPolicy(Mode.IMAGE).choose(after(false, true, false, true)))
                .isEqualTo(Method.IMAGE);
        assertThat(new ResetPolicy(Mode.IMAGE).choose(after(false, true, false, false)))
                .isEqualTo(Method.RELOAD);
        ResetPolicy repair = new ResetPolicy(Mode.REPAIR);
        assertThat(repair.choose(after(false, true, false, false))).isEqualTo(Method.REPAIR);
        Situation errors = after(false, false, true, true);
        assertThat(repair.choose(errors)).isEqualTo(Method.IMAGE);
        assertThat(repair.note(errors, Method.IMAGE, 3))
                .contains("experiment 3 counted errors")
                .contains("the image");
        assertThat(repair.note(after(false, true, false, true), Method.REPAIR, 3))
                .isNull();
    }

    @Test
    void onlyModesThatMayRestoreAnImageTakeOne() {
        assertThat(new ResetPolicy(Mode.AUTO).usesImage()).isTrue();
        assertThat(new ResetPolicy(Mode.REPAIR).usesImage()).isTrue();
        assertThat(new ResetPolicy(Mode.LOADFREE).usesImage()).isFalse();
        assertThat(new ResetPolicy(Mode.RELOAD).usesImage()).isFalse();
    }

    @Test
    void aFailedRepairFallsBackToTheImageElseAReload() {
        ResetPolicy p = new ResetPolicy(Mode.AUTO);
        assertThat(p.fallback(true)).isEqualTo(Method.IMAGE);
        assertThat(p.fallback(false)).isEqualTo(Method.RELOAD);
    }

    @Test
    void anUnknownModeIsBadInputNamingTheOption() {
        assertThat(Mode.parse(" Repair ")).isEqualTo(Mode.REPAIR);
        assertThatThrownBy(() -> Mode.parse("snapshot"))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("--reset")
                .hasMessageContaining("snapshot");
    }
}
