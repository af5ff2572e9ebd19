package org.bgbench.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.bgbench.store.conformance.servers.ServerScripts;
import org.bgbench.store.mongodb.FerretServer.Backend;
import org.bson.Document;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real FerretDB servers (scripts/ferretdb.sh) over both backends, and what the servers need; the rule for missing
 * prerequisites is ServerScriptsTest's (store-conformance).
 */
@Tag("server")
class FerretServerTest {

    @ParameterizedTest
    @EnumSource(Backend.class)
    void sharedServerRoundTripsDocuments(Backend backend) {
        FerretServer s = FerretServer.shared(backend);
        assertThat(s.backend()).isEqualTo(backend);
        assertThat(s.uri()).matches("mongodb://127\\.0\\.0\\.1:\\d+/");
        assertThat(s.dir()).isDirectory().startsWith(Path.of("/tmp"));
        try (MongoClient c = MongoClients.create(s.uri())) {
            MongoDatabase db = c.getDatabase("ferret_server_test");
            assertThat(db.runCommand(new Document("buildInfo", 1)).getString("version"))
                    .isEqualTo("7.0.42");
            MongoCollection<Document> col = db.getCollection("kv");
            col.drop();
            col.createIndex(Indexes.ascending("k"), new IndexOptions().unique(true));

            col.insertOne(new Document("_id", "a").append("k", "a").append("v", 1));
            assertThat(col.find(Filters.eq("_id", "a")).first()).containsEntry("v", 1);
            assertThat(col.updateOne(Filters.eq("_id", "a"), Updates.set("v", 2))
                            .getModifiedCount())
                    .isEqualTo(1);
            assertThat(col.find(Filters.eq("_id", "a")).first()).containsEntry("v", 2);

            // A second document with the same k: the unique index rejects it with a duplicate key error.
            assertThatThrownBy(() -> col.insertOne(new Document("_id", "b").append("k", "a")))
                    .isInstanceOfSatisfying(MongoWriteException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(11000);
                        assertThat(ErrorCategory.fromErrorCode(e.getCode())).isEqualTo(ErrorCategory.DUPLICATE_KEY);
                    });
            assertThat(col.countDocuments()).isEqualTo(1);

            assertThat(col.deleteOne(Filters.eq("_id", "a")).getDeletedCount()).isEqualTo(1);
            assertThat(col.find(Filters.eq("_id", "a")).first()).isNull();
            col.drop();
        }
        assertThat(FerretServer.shared(backend)).isSameAs(s);
        s.close(); // no-op for a shared server
        assertThat(s.pids())
                .allSatisfy(p -> assertThat(ProcessHandle.of(p))
                        .hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue()));
    }

    @Test
    void postgresBackendHasOneMoreProcessAndADatabaseForBgsPostgresStore() throws Exception {
        FerretServer s = FerretServer.shared(Backend.POSTGRESQL);
        assertThat(s.pids()).hasSize(2);
        assertThat(s.postgresUrl()).matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+/bg\\?user=postgres");
        // The PostgreSQL JDBC driver is not on this module's classpath: check the server answers on its port.
        int port = Integer.parseInt(s.postgresUrl().replaceAll(".*:(\\d+)/.*", "$1"));
        try (Socket socket = new Socket("127.0.0.1", port)) {
            assertThat(socket.isConnected()).isTrue();
        }
        assertThat(FerretServer.shared(Backend.SQLITE).pids()).hasSize(1);
        assertThat(FerretServer.shared(Backend.SQLITE).postgresUrl()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void closeKillsTheProcessesAndDeletesTheDirectory(Backend backend) {
        FerretServer s = FerretServer.start(backend);
        assertThat(s).isNotSameAs(FerretServer.shared(backend));
        List<Long> pids = s.pids();
        assertThat(pids).hasSize(backend == Backend.POSTGRESQL ? 2 : 1);
        try (MongoClient c = MongoClients.create(s.uri())) {
            c.getDatabase("x").getCollection("y").insertOne(new Document("_id", 1));
        }
        s.close();
        for (long p : pids) {
            assertThat(ProcessHandle.of(p).map(ProcessHandle::isAlive))
                    .as("pid %d", p)
                    .isNotEqualTo(Optional.of(true));
        }
        assertThat(Files.exists(s.dir())).isFalse();
    }

    @Test
    void goVersionsFrom124On() {
        assertThat(FerretServer.goVersionOk("go1.24")).isTrue();
        assertThat(FerretServer.goVersionOk("go1.24.3")).isTrue();
        assertThat(FerretServer.goVersionOk("go1.26.8")).isTrue();
        assertThat(FerretServer.goVersionOk("go2.0")).isTrue();
        assertThat(FerretServer.goVersionOk("go1.23.9")).isFalse();
        assertThat(FerretServer.goVersionOk("go1.19.8")).isFalse();
        assertThat(FerretServer.goVersionOk("devel go1.25-abc")).isFalse();
        assertThat(FerretServer.goVersionOk("")).isFalse();
    }

    @Test
    void thisMachineHasWhatTheServersNeed() {
        // Here (and in CI) a launcher is available and PostgreSQL's binaries exist, else the tests above are skipped.
        if (ServerScripts.ciRequired()) {
            assertThat(FerretServer.launcherAvailable()).isTrue();
            assertThat(FerretServer.postgresFound()).isTrue();
        }
    }
}
