package org.bgbench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import org.bgbench.model.state.GraphState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * BG's expected state bound to the store, with real {@code bg} processes against a SQLite file: a run killed with
 * SIGKILL leaves the store marked {@code running:} and the next run is refused until the store is repaired
 * ({@code bg verify --repair}) or reloaded; a store changed behind BG's back, or whose token has no state file here, is
 * refused until it is repaired, or its image restored. Every step checks the exit code, the message and what is on
 * disk (the store's mark, the state files).
 */
@Tag("server")
class StateMarkRecoveryTest extends StateMarkFixture {
    @Test
    void aKilledRunIsRefusedUntilBgVerifyRepairsTheStore() throws Exception {
        Done load = bg(sqlite("load"));
        assertThat(load.code()).as(load.both()).isZero();
        assertThat(mark()).isEqualTo(LOADED);
        killARunMidway();

        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "2s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(refused, "a run on this store has not ended (");
        assertThat(refused.err()).contains("it was interrupted and BG does not know which of its writes reached");
        assertThat(dir.resolve("refused.json")).doesNotExist();
        assertThat(mark()).startsWith("running:");
        // bg rate is refused alike.
        assertRunRefused(
                bg(sqlite(
                        "rate",
                        "--delta",
                        "1s",
                        "--sla",
                        "95%:100ms:0.01%:1s",
                        "--max-threads",
                        "2",
                        "--out",
                        dir.resolve("rating").toString())),
                "a run on this store has not ended (");

        // Read-only verify reports the mark and what differs from the generated graph, and changes nothing.
        Done verify = bg(sqlite("verify"));
        assertThat(verify.code()).as(verify.both()).isEqualTo(Bg.FAILED);
        assertThat(verify.out())
                .contains("State mark: running:")
                .contains("compared with the generated graph")
                .contains("Problem: a run on this store has not ended")
                .contains("The store differs");
        assertThat(mark()).startsWith("running:");

        Done repair = bg(sqlite("verify", "--repair", "--threads", "2"));
        assertThat(repair.code()).as(repair.both()).isZero();
        assertThat(repair.out())
                .contains("State mark before: running:")
                .contains("Read 1,000 members")
                .contains("State mark after: " + LOADED)
                .contains("The store holds exactly the generated graph again.");
        assertThat(repair.out()).doesNotContain("restored 0 relationships and 0 comments");
        assertThat(mark()).isEqualTo(LOADED);
        assertThat(stateFiles()).isEmpty();
        Done clean = bg(sqlite("verify"));
        assertThat(clean.code()).as(clean.both()).isZero();
        assertThat(clean.out()).contains("State mark: " + LOADED).contains("0 differences");

        cleanRun("after-repair");
        Done after = bg(sqlite("verify"));
        assertThat(after.code()).as(after.both()).isZero();
        assertThat(after.out())
                .contains("State mark: state:")
                .contains("The store holds exactly the state BG expects.");
    }

    @Test
    void aKilledRunIsRefusedUntilTheStoreIsReloaded() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        cleanRun("before");
        String before = mark();
        killARunMidway();
        assertThat(stateFiles())
                .as("the state of the run before was deleted when the killed run began writing")
                .doesNotContain(before.substring("state:".length()) + ".state");

        // bg load without --replace leaves the store alone and says the run will be refused.
        Done keep = bg(sqlite("load"));
        assertThat(keep.code()).as(keep.both()).isZero();
        assertThat(keep.out()).contains("already holds this graph");
        assertThat(keep.err())
                .contains("a run on it has not ended")
                .contains("bg run will refuse it")
                .contains("Pass --replace");
        assertRunRefused(
                bg(sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "2s",
                        "--quiet",
                        "--out",
                        dir.resolve("refused.json").toString())),
                "a run on this store has not ended (");

        Done reload = bg(sqlite("load", "--replace"));
        assertThat(reload.code()).as(reload.both()).isZero();
        assertThat(reload.out()).contains("sanity check passed: 1,000 members");
        assertThat(mark()).isEqualTo(LOADED);
        cleanRun("after-reload");
    }

    @Test
    void aStoreChangedBehindBgsBackIsRefusedByTheSampledCheck() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        // Few writes, so every member they touched is in the sample of 50.
        Done run = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--operations",
                "150",
                "--quiet",
                "--out",
                dir.resolve("few.json").toString()));
        assertThat(run.code()).as(run.both()).isZero();
        String token = mark().substring("state:".length());
        GraphState state;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(states.resolve(token + ".state")))) {
            state = GraphState.readFrom(SOCIAL, in);
        }
        assertThat(state.touchedMembers()).isBetween(1, 50);
        // A friendship of a member the run touched disappears, as if a crash had lost it or someone deleted it.
        int[] pair = {-1, -1};
        state.forEachTouched(i -> {
            if (pair[0] < 0 && state.friends(i).length > 0) {
                pair[0] = SOCIAL.memberId(i);
                pair[1] = SOCIAL.memberId(state.friends(i)[0]);
            }
        });
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                PreparedStatement ps =
                        c.prepareStatement("DELETE FROM friendship WHERE ((inviterid = ? AND inviteeid = ?)"
                                + " OR (inviterid = ? AND inviteeid = ?)) AND status = 2")) {
            ps.setInt(1, pair[0]);
            ps.setInt(2, pair[1]);
            ps.setInt(3, pair[1]);
            ps.setInt(4, pair[0]);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "2s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(
                refused, "the store does not hold the state BG expects (the state saved under token " + token + "): ");
        assertThat(refused.err())
                .contains("member " + pair[0] + ": VP friend count")
                .contains("totals: friendships")
                .contains("changed behind BG's back")
                .contains("-p verify.sample=0 skips this check");
        assertThat(dir.resolve("refused.json")).doesNotExist();
        assertThat(mark()).as("a refused run changes nothing").isEqualTo("state:" + token);
        assertThat(stateFiles()).containsExactly(token + ".state");

        Done repair = bg(sqlite("verify", "--repair"));
        assertThat(repair.code()).as(repair.both()).isZero();
        assertThat(mark()).isEqualTo(LOADED);
        assertThat(stateFiles()).as("the stale state was deleted").isEmpty();
        cleanRun("after-repair");
    }

    @Test
    void aTokenWithoutItsStateFileOrNoMarkIsRefusedAndTheImageBringsTheLoadedGraphBack() throws Exception {
        assertThat(bg(sqlite("load")).code()).isZero();
        // A short rating takes the database image of the loaded graph and ends with its last experiment's state.
        Done rate = bg(sqlite(
                "rate",
                "--target",
                "soar",
                "--reset",
                "image",
                "--delta",
                "1s",
                "--warmup",
                "0s",
                "--sla",
                "95%:100ms:0.01%:1s",
                "--max-threads",
                "2",
                "--no-confirm",
                "--out",
                dir.resolve("rating").toString()));
        assertThat(rate.code()).as(rate.both()).isZero();
        assertThat(dir.resolve("bg.sqlite.image")).isRegularFile();
        String token = mark().substring("state:".length());
        assertThat(stateFiles()).containsExactly(token + ".state");

        // The same store seen from another bg-data/state (another machine, a deleted file): refused, naming it.
        Path elsewhere = dir.resolve("state-elsewhere");
        Files.move(states, elsewhere);
        Done refused = bg(sqlite(
                "run",
                "--workload",
                "high",
                "--threads",
                "2",
                "--duration",
                "1s",
                "--quiet",
                "--out",
                dir.resolve("refused.json").toString()));
        assertRunRefused(
                refused,
                "the store holds the state a run left under token " + token + ", but " + states + " has no " + token
                        + ".state");
        assertThat(refused.err()).contains("restore its database image (bg load --store sqlite --restore-image)");
        Files.move(elsewhere, states);
        assertThat(bg(sqlite(
                                "run",
                                "--workload",
                                "vp",
                                "--threads",
                                "2",
                                "--duration",
                                "1s",
                                "--quiet",
                                "--out",
                                dir.resolve("back.json").toString()))
                        .code())
                .as("found again, read-only: the mark stays")
                .isZero();
        assertThat(mark()).isEqualTo("state:" + token);

        // A store that records no mark (loaded by an older BG): refused too.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                PreparedStatement ps = c.prepareStatement("DELETE FROM bg_meta WHERE key = 'state'")) {
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        assertRunRefused(
                bg(sqlite(
                        "run",
                        "--workload",
                        "high",
                        "--threads",
                        "2",
                        "--duration",
                        "1s",
                        "--quiet",
                        "--out",
                        dir.resolve("nomark.json").toString())),
                "the store holds this graph but records no state mark");

        // The image a rating took puts the loaded graph back, with its mark; the stale state goes.
        Done restore = bg(sqlite("load", "--restore-image"));
        assertThat(restore.code()).as(restore.both()).isZero();
        assertThat(restore.out()).contains("Restored the database image of sqlite; its state mark: " + LOADED);
        assertThat(mark()).isEqualTo(LOADED);
        Done verify = bg(sqlite("verify"));
        assertThat(verify.code()).as(verify.both()).isZero();
        // With the mark gone, nothing named the old state file any more: BG leaves it (another store may share the
        // directory), as a store from an older BG leaves its settings-named file.
        assertThat(stateFiles()).containsExactly(token + ".state");
        Files.delete(states.resolve(token + ".state"));
        cleanRun("after-image");
    }
}
