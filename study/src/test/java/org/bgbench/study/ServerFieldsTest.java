package org.bgbench.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A store entry's {@code server:} is read strictly: each bad field is one line naming it and what is accepted. */
class ServerFieldsTest {
    private static final String SQLITE =
            "  - store: sqlite\n    starts: true\n    settings: {sqlite.file: \"${data}/bg.sqlite\"}\n";

    /** The test study with its one store replaced by {@code entry}. */
    private static String store(String entry) {
        return StudyFiles.with(SQLITE, entry);
    }

    @Test
    void aServerByNameOrWithOptionsReads() {
        Study a = StudyParser.parse("t.yaml", store("  - store: mariadb\n    server: mariadb\n"));
        Study.StoreEntry e = a.subjects().stores().getFirst();
        assertThat(e.starts()).isTrue();
        assertThat(e.server().kind()).isEqualTo(ServerKind.MARIADB);
        assertThat(e.server().args()).isEmpty();

        Study b = StudyParser.parse(
                "t.yaml",
                store("  - store: postgres\n    server: {name: postgres-replica, replicas: 1, delay: 0.5s}\n"));
        Study.Server s = b.subjects().stores().getFirst().server();
        assertThat(s.options()).isEqualTo(Map.of("replicas", "1", "delay", "0.5s"));
        assertThat(s.args()).containsExactly("--replicas", "1", "--delay", "0.5s");
        assertThat(s.words()).isEqualTo("postgres-replica --replicas 1 --delay 0.5s");

        Study c = StudyParser.parse("t.yaml", store("  - store: cassandra\n    server: {name: cassandra, nodes: 3}\n"));
        assertThat(c.subjects().stores().getFirst().server().args()).containsExactly("--nodes", "3");
        assertThat(StudyParser.parse("t.yaml", StudyFiles.VALID)
                        .subjects()
                        .stores()
                        .getFirst()
                        .server())
                .isNull();
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of(
                        "unknown server",
                        "  - store: mariadb\n    server: mysql\n",
                        "stores[0].server: unknown server 'mysql'; accepted: mariadb, ferretdb, cassandra, hbase,"
                                + " postgres-replica"),
                Arguments.of(
                        "unknown server in a mapping",
                        "  - store: mariadb\n    server: {name: maria}\n",
                        "stores[0].server.name: unknown server 'maria'; accepted: mariadb"),
                Arguments.of(
                        "missing name",
                        "  - store: cassandra\n    server: {nodes: 3}\n",
                        "stores[0].server.name: missing; it is required"),
                Arguments.of(
                        "not a text or mapping",
                        "  - store: mariadb\n    server: [mariadb]\n",
                        "stores[0].server: expected a mapping, got a list"),
                Arguments.of(
                        "an option the server does not take",
                        "  - store: mariadb\n    server: {name: mariadb, nodes: 3}\n",
                        "stores[0].server.nodes: unknown field; accepted: name"),
                Arguments.of(
                        "a bad backend",
                        "  - store: mongodb\n    server: {name: ferretdb, backend: mysql}\n",
                        "stores[0].server.backend: expected sqlite or postgresql, got 'mysql'"),
                Arguments.of(
                        "too many nodes",
                        "  - store: cassandra\n    server: {name: cassandra, nodes: 10}\n",
                        "stores[0].server.nodes: expected a whole number from 1 to 9, got '10'"),
                Arguments.of(
                        "no nodes",
                        "  - store: cassandra\n    server: {name: cassandra, nodes: 0}\n",
                        "stores[0].server.nodes: expected a whole number from 1 to 9, got '0'"),
                Arguments.of(
                        "nodes as text",
                        "  - store: cassandra\n    server: {name: cassandra, nodes: '3'}\n",
                        "stores[0].server.nodes: expected a whole number from 1 to 9, got '3'"),
                Arguments.of(
                        "nodes as a fraction",
                        "  - store: cassandra\n    server: {name: cassandra, nodes: 1.5}\n",
                        "stores[0].server.nodes: expected a whole number from 1 to 9, got '1.5'"),
                Arguments.of(
                        "negative replicas",
                        "  - store: postgres\n    server: {name: postgres-replica, replicas: -1}\n",
                        "stores[0].server.replicas: expected a whole number from 0 to 9, got '-1'"),
                Arguments.of(
                        "a bad delay",
                        "  - store: postgres\n    server: {name: postgres-replica, delay: soon}\n",
                        "stores[0].server.delay: expected a delay such as 0, 500ms, 0.5s or 2s, got 'soon'"),
                Arguments.of(
                        "a delay as a mapping",
                        "  - store: postgres\n    server: {name: postgres-replica, delay: {s: 2}}\n",
                        "stores[0].server.delay: expected a text or a number, got a mapping"),
                Arguments.of(
                        "a server for another store",
                        "  - store: sqlite\n    server: mariadb\n",
                        "stores[0].server: the server mariadb serves the store mariadb, not 'sqlite'; give store:"
                                + " mariadb or another server"),
                Arguments.of(
                        "starts false with a server",
                        "  - store: hbase\n    starts: false\n    server: hbase\n",
                        "stores[0].starts: false contradicts server: BG starts the store's server itself"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachBadServerFieldIsOneLineNamingIt(String kind, String entry, String expected) {
        assertThatThrownBy(() -> StudyParser.parse("my-study.yaml", store(entry)))
                .isInstanceOf(StudyFileException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("my-study.yaml: ").contains(expected);
                    assertThat(e.getMessage().lines()).hasSize(1);
                });
    }

    @Test
    void everyKindNamesItsScriptAndStore() {
        for (ServerKind k : ServerKind.values()) {
            assertThat(ServerKind.of(k.key())).contains(k);
            assertThat(k.script()).endsWith(".sh");
        }
        assertThat(List.of(ServerKind.values()))
                .extracting(ServerKind::store)
                .containsExactly("mariadb", "mongodb", "cassandra", "hbase", "postgres");
    }
}
