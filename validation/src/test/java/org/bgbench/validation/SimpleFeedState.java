package org.bgbench.validation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/** A small, explicit {@link FeedState} for tests: members 0..M-1, pages after them, friendships and shares by hand. */
final class SimpleFeedState implements FeedState {
    record Sh(int account, long id, int[] recipients) {}

    final int members;
    final int pages;
    final boolean[][] friends;
    final boolean[][] follows; // [member][page]
    final List<Sh> shares = new ArrayList<>();

    SimpleFeedState(int members, int pages) {
        this.members = members;
        this.pages = pages;
        this.friends = new boolean[members][members];
        this.follows = new boolean[members][pages];
    }

    SimpleFeedState befriend(int a, int b) {
        friends[a][b] = true;
        friends[b][a] = true;
        return this;
    }

    SimpleFeedState follow(int member, int page) {
        follows[member][page] = true;
        return this;
    }

    SimpleFeedState share(int account, long id, int... recipients) {
        int[] r = recipients == null ? null : recipients.clone();
        if (r != null) {
            Arrays.sort(r);
        }
        shares.add(new Sh(account, id, r));
        return this;
    }

    @Override
    public int members() {
        return members;
    }

    @Override
    public int accounts() {
        return members + pages;
    }

    @Override
    public void forEachFollowedAccount(int member, IntConsumer account) {
        for (int p = 0; p < pages; p++) {
            if (follows[member][p]) {
                account.accept(members + p);
            }
        }
    }

    @Override
    public void forEachFriend(int member, IntConsumer friend) {
        for (int f = 0; f < members; f++) {
            if (friends[member][f]) {
                friend.accept(f);
            }
        }
    }

    @Override
    public boolean friends(int a, int b) {
        return friends[a][b];
    }

    @Override
    public void forEachShare(ShareSink sink) {
        for (Sh s : shares) {
            sink.share(s.account(), s.id(), s.recipients());
        }
    }
}
