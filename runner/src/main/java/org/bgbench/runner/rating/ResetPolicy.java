package org.bgbench.runner.rating;

import java.util.Locale;
import org.bgbench.model.InvalidParameterException;

/**
 * How the store is brought back to a state BG knows between a rating's experiments (dissertation 7.2, agile data
 * loading). Pure: it sees only what the last experiment did and what each method has cost so far, so it is the same
 * decision in one process and on workers.
 *
 * <ul>
 *   <li>LoadFree keeps the store as the last experiment left it; sound when the mix does not write, or is symmetric
 *       and the last experiment saw no unpredictable read and no error (BG's expected state then still describes the
 *       store).</li>
 *   <li>RepairDB undoes the last experiment's writes through the store's own actions; only after an experiment without
 *       errors, since a failed write may still have changed the store.</li>
 *   <li>The image (DBIL) restores the store's own snapshot; a reload loads the graph again.</li>
 * </ul>
 * With {@link Mode#AUTO}: LoadFree whenever it is sound, else each of repair and image is tried once when first
 * possible (repair first), after which the cheaper is chosen: a repair predicted from its measured seconds per member
 * touched, an image restore from its last time.
 */
public final class ResetPolicy {
    /** What the user asked for ({@code --reset}). */
    public enum Mode {
        AUTO,
        LOADFREE,
        REPAIR,
        IMAGE,
        RELOAD;

        public static Mode parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InvalidParameterException(
                        "--reset", "expected auto, loadfree, repair, image or reload, got '" + s + "'");
            }
        }
    }

    /** What a reset does. */
    public enum Method {
        LOADFREE,
        REPAIR,
        IMAGE,
        RELOAD;

        /** The name in reports ({@code rating_time.resets}). */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the policy needs to know before a reset.
     *
     * @param writes         the mix writes at all
     * @param symmetric      the mix's writes cancel out (IF = AFR + RFR, TF = AFR, PCR = DCR)
     * @param lastClean      the last experiment saw no unpredictable read and no error
     * @param lastErrors     the last experiment counted errors
     * @param imageExists    the store has an image of the loaded graph
     * @param touchedMembers members the experiments changed since the store last held the generated graph
     */
    public record Situation(
            boolean writes,
            boolean symmetric,
            boolean lastClean,
            boolean lastErrors,
            boolean imageExists,
            int touchedMembers) {}

    private final Mode mode;
    private double repairSecondsPerMember = -1;
    private double imageSeconds = -1;

    public ResetPolicy(Mode mode) {
        this.mode = mode;
    }

    public Mode mode() {
        return mode;
    }

    /** Whether the rating may restore from an image, so one should be taken before the first experiment. */
    public boolean usesImage() {
        return mode != Mode.LOADFREE && mode != Mode.RELOAD;
    }

    /** The reset to do now. */
    public Method choose(Situation s) {
        boolean loadFree = !s.writes() || (s.symmetric() && s.lastClean());
        if (mode == Mode.LOADFREE || (mode == Mode.AUTO && loadFree)) {
            return Method.LOADFREE;
        }
        boolean repairable = !s.lastErrors();
        return switch (mode) {
            case REPAIR -> repairable ? Method.REPAIR : fallback(s.imageExists());
            case IMAGE -> fallback(s.imageExists());
            case RELOAD -> Method.RELOAD;
            default -> {
                if (repairable && repairSecondsPerMember < 0) {
                    yield Method.REPAIR;
                }
                if (s.imageExists() && imageSeconds < 0) {
                    yield Method.IMAGE;
                }
                double repair = repairable ? repairSecondsPerMember * s.touchedMembers() : Double.POSITIVE_INFINITY;
                double restore = s.imageExists() ? imageSeconds : Double.POSITIVE_INFINITY;
                if (repairable && repair <= restore) {
                    yield Method.REPAIR;
                }
                yield fallback(s.imageExists());
            }
        };
    }

    /** Why the choice differs from what the user asked for, or null (for the rating's notes). */
    public String note(Situation s, Method chosen, int experiment) {
        if (mode == Mode.REPAIR && chosen != Method.REPAIR && s.lastErrors()) {
            return "experiment " + experiment + " counted errors, so its writes cannot be undone safely; restored by "
                    + (chosen == Method.IMAGE ? "the image" : "a reload") + " instead of RepairDB";
        }
        return null;
    }

    /** The image when there is one, else a reload: after a repair that the store's read-back contradicted, too. */
    public Method fallback(boolean imageExists) {
        return imageExists ? Method.IMAGE : Method.RELOAD;
    }

    /** Learns what a repair cost. */
    public void repaired(double seconds, int touchedMembers) {
        repairSecondsPerMember = seconds / Math.max(1, touchedMembers);
    }

    /** Learns what an image restore cost. */
    public void restored(double seconds) {
        imageSeconds = seconds;
    }
}
