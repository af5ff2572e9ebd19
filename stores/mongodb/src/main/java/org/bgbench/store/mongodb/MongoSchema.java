package org.bgbench.store.mongodb;

import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import java.util.ArrayList;
import java.util.List;

/**
 * The collections and fields of the JSON design (CIKM figures 2 and 9): a member document holds her attributes, her
 * images (inline) or their GridFS ids, and the arrays {@code pendingFriends}, {@code confirmedFriends} and
 * {@code wallResourceIds}; resources and comments have collections of their own (comments may instead be an array in
 * their resource). Feed following adds {@code pages} (a page's followers as an array), the members' {@code pages}
 * array, {@code shares}, and for the push designs {@code feeds} (one document per viewer and share).
 */
final class MongoSchema {
    static final String MEMBERS = "members";
    static final String RESOURCES = "resources";
    static final String COMMENTS = "comments";
    static final String PAGES = "pages";
    static final String SHARES = "shares";
    static final String FEEDS = "feeds";
    static final String META = "bg_meta";
    /** GridFS bucket of the images (collections images.files and images.chunks). */
    static final String IMAGE_BUCKET = "images";

    // Member fields.
    static final String ID = "_id";
    static final String PENDING = "pendingFriends";
    static final String CONFIRMED = "confirmedFriends";
    static final String WALL = "wallResourceIds";
    static final String FOLLOWS = "pages";
    static final String PIC = "profileImage";
    static final String THUMB = "thumbnailImage";
    static final String PIC_ID = "profileImageId";
    static final String THUMB_ID = "thumbnailImageId";

    // Resource, comment, page, share and feed fields.
    static final String CREATOR = "creatorid";
    static final String WALL_USER = "walluserid";
    static final String TYPE = "type";
    static final String BODY = "body";
    static final String DOC = "doc";
    static final String EMBEDDED = "comments";
    static final String RID = "rid";
    static final String MODIFIER = "modifierid";
    static final String TIMESTAMP = "timestamp";
    static final String CONTENT = "content";
    static final String NAME = "name";
    static final String FOLLOWERS = "followers";
    static final String SHARER = "sharer";
    static final String PUBLIC = "public";
    static final String LISTED = "listed";
    static final String VIEWER = "member";
    static final String SHARE = "share";

    private MongoSchema() {}

    /** The collections of a configuration (GridFS's own are created by the driver). */
    static List<String> collections(MongoConfig c) {
        List<String> all = new ArrayList<>(List.of(MEMBERS, RESOURCES, PAGES, SHARES, META));
        if (c.comments() == MongoConfig.Comments.COLLECTION) {
            all.add(COMMENTS);
        }
        if (c.feed().push()) {
            all.add(FEEDS);
        }
        return all;
    }

    /** Secondary indexes, built after the load: a wall's resources newest first, a resource's comments, ... */
    static List<IndexModel> indexes(String collection, MongoConfig c) {
        return switch (collection) {
            // VTR: the k newest resources of a wall, read from the index in order.
            case RESOURCES ->
                List.of(new IndexModel(Indexes.compoundIndex(Indexes.ascending(WALL_USER), Indexes.descending(ID))));
            case COMMENTS -> List.of(new IndexModel(Indexes.ascending(RID)));
            // Pull: a producer's newest shares.
            case SHARES ->
                List.of(new IndexModel(Indexes.compoundIndex(Indexes.ascending(SHARER), Indexes.descending(ID))));
            // One entry per viewer and share (an AFR and an SR that push the same share write it once), newest first.
            case FEEDS ->
                List.of(new IndexModel(
                        Indexes.compoundIndex(Indexes.ascending(VIEWER), Indexes.descending(SHARE)),
                        new IndexOptions().unique(true)));
            default -> List.of();
        };
    }
}
