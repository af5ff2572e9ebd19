package org.bgbench.store.conformance;

import java.util.Optional;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.CommentList;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedList;
import org.bgbench.store.FinishProgress;
import org.bgbench.store.GraphLoader;
import org.bgbench.store.MemberList;
import org.bgbench.store.ProfileView;
import org.bgbench.store.ResourceList;
import org.bgbench.store.StoreCounts;
import org.bgbench.store.StoreSession;

/** A store that passes everything to another; tests override what they want to distort or to script. */
public class ForwardingStore implements DataStore {
    protected final DataStore delegate;

    public ForwardingStore(DataStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public Optional<String> loadedGraph() {
        return delegate.loadedGraph();
    }

    @Override
    public void createSchema(GraphSpec spec) {
        delegate.createSchema(spec);
    }

    @Override
    public void dropSchema() {
        delegate.dropSchema();
    }

    @Override
    public GraphLoader newLoader(SocialGraph graph) {
        return delegate.newLoader(graph);
    }

    @Override
    public void finishLoad(SocialGraph graph) {
        delegate.finishLoad(graph);
    }

    @Override
    public void finishLoad(SocialGraph graph, FinishProgress progress) {
        delegate.finishLoad(graph, progress);
    }

    @Override
    public Optional<String> stateMark() {
        return delegate.stateMark();
    }

    @Override
    public void writeStateMark(String mark) {
        delegate.writeStateMark(mark);
    }

    @Override
    public boolean replaceStateMark(String expected, String mark) {
        return delegate.replaceStateMark(expected, mark);
    }

    @Override
    public void clearShares() {
        delegate.clearShares();
    }

    @Override
    public StoreCounts counts() {
        return delegate.counts();
    }

    @Override
    public StoreSession openSession() {
        return new Session(delegate.openSession());
    }

    @Override
    public boolean inProcess() {
        return delegate.inProcess();
    }

    @Override
    public void close() {
        // the test closes the delegate
    }

    public static class Session implements StoreSession {
        private final StoreSession s;

        public Session(StoreSession s) {
            this.s = s;
        }

        @Override
        public void viewProfile(int requester, int profile, ProfileView out) {
            s.viewProfile(requester, profile, out);
        }

        @Override
        public void listFriends(int requester, int profile, MemberList out) {
            s.listFriends(requester, profile, out);
        }

        @Override
        public void viewFriendRequests(int member, MemberList out) {
            s.viewFriendRequests(member, out);
        }

        @Override
        public void inviteFriend(int inviter, int invitee) {
            s.inviteFriend(inviter, invitee);
        }

        @Override
        public void acceptFriendRequest(int invitee, int inviter) {
            s.acceptFriendRequest(invitee, inviter);
        }

        @Override
        public void rejectFriendRequest(int invitee, int inviter) {
            s.rejectFriendRequest(invitee, inviter);
        }

        @Override
        public void thawFriendship(int member, int friend) {
            s.thawFriendship(member, friend);
        }

        @Override
        public void viewTopKResources(int requester, int profile, int k, ResourceList out) {
            s.viewTopKResources(requester, profile, k, out);
        }

        @Override
        public void viewCommentsOnResource(int requester, int owner, long resource, CommentList out) {
            s.viewCommentsOnResource(requester, owner, resource, out);
        }

        @Override
        public void postCommentOnResource(
                int commenter, int owner, long resource, long commentId, long timestampMs, String content) {
            s.postCommentOnResource(commenter, owner, resource, commentId, timestampMs, content);
        }

        @Override
        public void deleteCommentFromResource(int owner, long resource, long commentId) {
            s.deleteCommentFromResource(owner, resource, commentId);
        }

        @Override
        public void shareResource(int sharer, long resource, long shareId, int[] recipients) {
            s.shareResource(sharer, resource, shareId, recipients);
        }

        @Override
        public void viewNewsFeed(int member, int k, FeedList out) {
            s.viewNewsFeed(member, k, out);
        }

        @Override
        public void close() {
            s.close();
        }
    }
}
