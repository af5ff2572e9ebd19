package org.bgbench.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bgbench.validation.log.LogDirectory;
import org.bgbench.validation.log.LogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Feed reads judged through the whole path: LogWriter, the files, the Validator (dissertation 6.1.2). */
class FeedValidationTest {
    static final byte VNF = 12;
    static final byte SR = 11;
    static final byte AFR = 4;
    static final byte TF = 6;

    @TempDir
    Path tmp;

    /** Writes a history, validates it, returns each feed read's verdict by its start time. */
    static final class History {
        final Path dir;
        final LogDirectory logs;
        final LogWriter w;

        History(Path dir) {
            this.dir = dir;
            this.logs = LogDirectory.create(dir);
            this.w = logs.newWriter();
        }

        History share(int account, long id, long s, long e, int... recipients) {
            w.share(SR, account, id, 1000 + id, s, e, recipients);
            return this;
        }

        History publicShare(int account, long id, long s, long e) {
            w.share(SR, account, id, 1000 + id, s, e, null);
            return this;
        }

        History afr(int a, int b, long s, long e) {
            w.friendship(AFR, a, b, s, e, true);
            return this;
        }

        History tf(int a, int b, long s, long e) {
            w.friendship(TF, a, b, s, e, false);
            return this;
        }

        History read(int member, int k, long s, long e, long... shown) {
            w.feedRead(VNF, member, k, s, e, shown, shown.length);
            return this;
        }

        Map<Long, Verdict> validate(FeedState state, ValueMode mode) {
            logs.close();
            Map<Long, Verdict> out = new ConcurrentHashMap<>();
            last = Validator.builder((kind, item) -> 0, mode)
                    .threads(2)
                    .feeds(state)
                    .readListener((action, kind, item, s, e, observed, verdict) -> out.put(s, verdict))
                    .build()
                    .validate(dir);
            return new HashMap<>(out);
        }

        ValidationResult last;
    }

    private History history(String name) {
        return new History(tmp.resolve(name));
    }

    @Test
    void dissertationExampleOf612() {
        // Members A = 0, B = 1, C = 2; B follows A (here: A is B's friend). AWL1: A shares resource 1 publicly over
        // [0, 3]; AWL2: A shares resource 2 with {B, C} over [0, 5]. Read1 by B over [4, 6]. Share ids are the
        // resources' numbers. Acceptable feeds: {1} and {1, 2}.
        SimpleFeedState st = new SimpleFeedState(3, 0).befriend(0, 1);
        Map<Long, Verdict> v = history("d612")
                .publicShare(0, 1, 0, 3)
                .share(0, 2, 0, 5, 1, 2)
                .read(1, 10, 4, 6, 2, 1) // {1, 2}: valid
                .read(1, 10, 104, 106) // a later read, not part of the example
                .read(1, 10, 14, 16, 3, 1) // {1, 3} (3 was never shared): unpredictable
                .read(1, 10, 24, 26, 1) // {1}: the share of 2 may not be seen yet... it completed at 5: no
                .read(1, 10, 5, 6, 1) // {1} while AWL2 overlaps: valid
                .validate(st, ValueMode.INITIAL);
        assertThat(v.get(4L)).isEqualTo(Verdict.VALID);
        assertThat(v.get(14L)).isEqualTo(Verdict.UNPREDICTABLE);
        assertThat(v.get(24L)).isEqualTo(Verdict.UNPREDICTABLE);
        assertThat(v.get(5L)).isEqualTo(Verdict.VALID);
        assertThat(v.get(104L)).isEqualTo(Verdict.UNPREDICTABLE); // empty although 1 and 2 are definite
    }

    @Test
    void dissertationExampleWithAPage() {
        // the same with A a page that B follows (account 3 = page 0)
        SimpleFeedState st = new SimpleFeedState(3, 1).follow(1, 0);
        History h = history("d612p")
                .publicShare(3, 1, 0, 3)
                .share(3, 2, 0, 5, 1, 2)
                .read(1, 10, 4, 6, 2, 1)
                .read(1, 10, 14, 16, 3, 1);
        Map<Long, Verdict> v = h.validate(st, ValueMode.INITIAL);
        assertThat(v).containsEntry(4L, Verdict.VALID).containsEntry(14L, Verdict.UNPREDICTABLE);
        ValidationResult r = h.last;
        assertThat(r.feedReads()).isEqualTo(2);
        assertThat(r.feedShares()).isEqualTo(2);
        assertThat(r.perAction()).anySatisfy(a -> {
            assertThat(a.action()).isEqualTo((int) VNF);
            assertThat(a.checked()).isEqualTo(2);
            assertThat(a.unpredictable()).isEqualTo(1);
        });
        assertThat(r.samples()).singleElement().satisfies(s -> {
            assertThat(s.observedFeed()).isEqualTo("[3, 1]");
            assertThat(s.acceptable())
                    .contains("no logged or earlier Share Resource")
                    .contains("share 3")
                    .contains("must (newest first) [2, 1]")
                    .contains("may also []");
        });
        assertThat(r.summary()).contains("feed of member 1");
    }

    @Test
    void recipientListThatExcludesTheReader() {
        SimpleFeedState st = new SimpleFeedState(3, 0).befriend(0, 1);
        Map<Long, Verdict> v = history("rec")
                .share(0, 1, 0, 1, 2)
                .read(1, 10, 10, 11, 1)
                .read(1, 10, 20, 21)
                .validate(st, ValueMode.INITIAL);
        assertThat(v).containsEntry(10L, Verdict.UNPREDICTABLE).containsEntry(20L, Verdict.VALID);
    }

    @Test
    void thawOverlappingTheReadAllowsBothOutcomes() {
        SimpleFeedState st = new SimpleFeedState(2, 0).befriend(0, 1);
        Map<Long, Verdict> v = history("tfo")
                .publicShare(0, 1, 0, 1)
                .tf(0, 1, 10, 20)
                .read(1, 10, 15, 25, 1)
                .read(1, 10, 16, 25)
                .validate(st, ValueMode.INITIAL);
        assertThat(v).containsEntry(15L, Verdict.VALID).containsEntry(16L, Verdict.VALID);
    }

    @Test
    void thawCompletedBeforeTheReadHidesTheSharersShares() {
        SimpleFeedState st = new SimpleFeedState(2, 0).befriend(0, 1);
        Map<Long, Verdict> v = history("tfc")
                .publicShare(0, 1, 0, 1)
                .tf(1, 0, 10, 12)
                .read(1, 10, 15, 25, 1)
                .read(1, 10, 16, 25)
                .read(1, 10, 5, 6)
                .validate(st, ValueMode.INITIAL);
        assertThat(v)
                .containsEntry(15L, Verdict.UNPREDICTABLE)
                .containsEntry(16L, Verdict.VALID)
                .containsEntry(5L, Verdict.UNPREDICTABLE); // before the TF, the share had to be there
    }

    @Test
    void acceptedFriendshipMakesTheFriendsOldPublicSharesAppear() {
        SimpleFeedState st = new SimpleFeedState(2, 0).share(0, 7, (int[]) null); // a share from before the run
        Map<Long, Verdict> v = history("afr")
                .publicShare(0, 8, 0, 1)
                .afr(0, 1, 10, 12)
                .read(1, 10, 15, 25)
                .read(1, 10, 16, 25, 8)
                .read(1, 10, 17, 25, 8, 7)
                .read(1, 10, 2, 3)
                .read(1, 10, 4, 5, 8)
                .validate(st, ValueMode.INITIAL);
        assertThat(v)
                .containsEntry(15L, Verdict.UNPREDICTABLE)
                .containsEntry(16L, Verdict.UNPREDICTABLE)
                .containsEntry(17L, Verdict.VALID)
                .containsEntry(2L, Verdict.VALID)
                .containsEntry(4L, Verdict.UNPREDICTABLE); // not friends yet
    }

    @Test
    void missingRecentShareWrongOrderDuplicateAndMoreThanK() {
        SimpleFeedState st = new SimpleFeedState(2, 0).befriend(0, 1);
        Map<Long, Verdict> v = history("adv")
                .publicShare(0, 1, 1, 2)
                .publicShare(0, 2, 5, 6)
                .read(1, 10, 10, 11, 1) // a delayed fan-out: 2 missing
                .read(1, 10, 20, 21, 1, 2) // oldest first
                .read(1, 10, 30, 31, 2, 2) // twice
                .read(1, 1, 40, 41, 2, 1) // more than k = 1
                .read(1, 1, 50, 51, 2) // the top 1: valid
                .read(1, 1, 60, 61, 1) // a full page without the newer 2
                .read(1, 10, 70, 71, 2, 1) // right
                .validate(st, ValueMode.INITIAL);
        assertThat(v)
                .containsEntry(10L, Verdict.UNPREDICTABLE)
                .containsEntry(20L, Verdict.UNPREDICTABLE)
                .containsEntry(30L, Verdict.UNPREDICTABLE)
                .containsEntry(40L, Verdict.UNPREDICTABLE)
                .containsEntry(50L, Verdict.VALID)
                .containsEntry(60L, Verdict.UNPREDICTABLE)
                .containsEntry(70L, Verdict.VALID);
    }

    @Test
    void finalStateIsUnwoundThroughTheLoggedChanges() {
        // at the end of the run 0 and 1 are no friends, because of a TF after the read: during the read they were
        SimpleFeedState end = new SimpleFeedState(2, 0).share(0, 1, (int[]) null);
        Map<Long, Verdict> v = history("final")
                .publicShare(0, 2, 0, 1)
                .tf(0, 1, 50, 60)
                .read(1, 10, 10, 11, 2, 1)
                .read(1, 10, 20, 21, 2)
                .read(1, 10, 70, 71)
                .validate(end, ValueMode.FINAL);
        assertThat(v)
                .containsEntry(10L, Verdict.VALID)
                .containsEntry(20L, Verdict.UNPREDICTABLE)
                .containsEntry(70L, Verdict.VALID);
    }

    @Test
    void feedReadsWithoutAStateAreSkipped() {
        History h = history("nostate").publicShare(0, 1, 0, 1).read(1, 10, 10, 11, 1);
        h.logs.close();
        ValidationResult r =
                Validator.builder((kind, item) -> 0, ValueMode.INITIAL).build().validate(h.dir);
        assertThat(r.readsSkipped()).isEqualTo(1);
        assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("no feed state"));
    }

    @Test
    void feedReadWithoutKIsJudgedAsAFullPage() {
        SimpleFeedState st = new SimpleFeedState(2, 0).befriend(0, 1);
        History h = history("nok").publicShare(0, 1, 1, 2).publicShare(0, 2, 5, 6);
        h.w.feedRead(VNF, 1, 10, 11, new long[] {2}, 1); // k unknown: 1 may be beyond the page
        h.w.feedRead(VNF, 1, 20, 21, new long[] {1}, 1); // but 2, newer than 1, must be there
        Map<Long, Verdict> v = h.validate(st, ValueMode.INITIAL);
        assertThat(v).containsEntry(10L, Verdict.VALID).containsEntry(20L, Verdict.UNPREDICTABLE);
        assertThat(h.last.warnings()).anySatisfy(w -> assertThat(w).contains("without their k"));
    }
}
