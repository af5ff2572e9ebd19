package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.store.StoreException;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jdbc store's settings: registration, defaults, the dialect guess, and one clear line for every bad value. */
class JdbcStoreProviderTest {
    @TempDir
    Path tmp;

    private String h2Url() {
        return "jdbc:h2:" + tmp.resolve("h2db").toAbsolutePath();
    }

    private String h2() {
        return "com.h2database:h2:" + JdbcTests.version("h2");
    }

    /** Opening with these settings fails with one line that starts with {@code key}. */
    private void refused(String key, String expected, String... keyValues) {
        assertThatThrownBy(() -> JdbcTests.open(tmp, keyValues).close())
                .as("%s", List.of(keyValues))
                .isInstanceOfAny(InvalidParameterException.class, StoreException.class)
                .hasMessageStartingWith(key + ": ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"));
    }

    @Test
    void theStoreIsRegisteredWithItsSettings() {
        JdbcStoreProvider p =
                (JdbcStoreProvider) new StoreRegistry(ServiceLoader.load(StoreProvider.class)).get("jdbc");
        List<String> keys = p.settings().stream().map(StoreSetting::key).toList();
        assertThat(keys)
                .contains(
                        "jdbc.url",
                        "jdbc.driver",
                        "jdbc.driver-jar",
                        "jdbc.driver-maven",
                        "jdbc.maven-repo",
                        "jdbc.user",
                        "jdbc.password",
                        "jdbc.pool",
                        "jdbc.dialect",
                        "jdbc.timeout",
                        "friendship.rows",
                        "feed.design",
                        "feed.push");
        assertThat(p.settings().stream()
                        .filter(s -> s.key().equals("jdbc.dialect"))
                        .findFirst()
                        .orElseThrow()
                        .description())
                .contains("guessed from jdbc.url");
        // Each setting says what it names: code (a worker refuses it unless allowed), a file or a URL.
        Map<String, StoreSetting> byKey = new HashMap<>();
        p.settings().forEach(s -> byKey.put(s.key(), s));
        for (String code : List.of("jdbc.driver-jar", "jdbc.driver-maven", "jdbc.maven-repo", "jdbc.driver")) {
            assertThat(byKey.get(code).loadsCode()).as(code).isTrue();
        }
        assertThat(byKey.get("jdbc.url").namesDatabase()).isTrue();
        assertThat(byKey.get("jdbc.dialect").namesFile("sqlite")).isFalse();
        assertThat(byKey.get("jdbc.dialect").namesFile("my.properties")).isTrue();
        assertThat(byKey.get("images.dir").namesFile()).isTrue();
        assertThat(byKey.get("jdbc.pool").namesFile() || byKey.get("jdbc.pool").loadsCode())
                .isFalse();
    }

    @Test
    void theDialectIsGuessedFromTheUrlPrefix() {
        assertThat(JdbcDialect.guess("jdbc:postgresql://db/bg")).isEqualTo("postgresql");
        assertThat(JdbcDialect.guess("jdbc:mysql://db/bg")).isEqualTo("mariadb");
        assertThat(JdbcDialect.guess("jdbc:mariadb://db/bg")).isEqualTo("mariadb");
        assertThat(JdbcDialect.guess("jdbc:sqlite:/x.db")).isEqualTo("sqlite");
        assertThat(JdbcDialect.guess("jdbc:oracle:thin:@//db:1521/bg")).isEqualTo("generic");
        assertThat(JdbcDialect.of(null, "jdbc:h2:mem:x").describe()).isEqualTo("generic (guessed from jdbc.url)");
        assertThat(JdbcDialect.of("MySQL", "jdbc:h2:mem:x").describe()).isEqualTo("mariadb");
        assertThat(JdbcDialect.of("ansi", "jdbc:postgresql://x/y").describe()).isEqualTo("generic");
    }

    @Test
    void theRewritesChangeOnlyWhatTheyName() {
        SqlRewriter none = SqlRewriter.NONE;
        String top = "SELECT rid FROM resources WHERE walluserid = ? ORDER BY rid DESC LIMIT ?";
        assertThat(none.rewrite(top)).isSameAs(top);
        assertThat(new SqlRewriter(SqlRewriter.Limit.FETCH_FIRST, null, true).rewrite(top))
                .isEqualTo("SELECT rid FROM resources WHERE walluserid = ? ORDER BY rid DESC FETCH FIRST ? ROWS ONLY");
        assertThat(new SqlRewriter(SqlRewriter.Limit.OFFSET_FETCH, null, true).rewrite(top))
                .endsWith("ORDER BY rid DESC OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY");
        SqlRewriter oracle = new SqlRewriter(SqlRewriter.Limit.LIMIT, "CLOB", false);
        assertThat(oracle.rewrite("CREATE TABLE t (a TEXT, b TEXT, textual INTEGER)"))
                .isEqualTo("CREATE TABLE t (a CLOB, b CLOB, textual INTEGER)");
        assertThat(oracle.rewrite("SELECT 'TEXT' FROM t")).isEqualTo("SELECT 'TEXT' FROM t");
        assertThat(oracle.rewrite("DROP TABLE IF EXISTS members")).isEqualTo("DROP TABLE members");
        assertThat(oracle.ignoresFailure("DROP TABLE IF EXISTS members")).isTrue();
        assertThat(oracle.ignoresFailure("DELETE FROM members")).isFalse();
        assertThat(none.ignoresFailure("DROP TABLE IF EXISTS members")).isFalse();
    }

    @Test
    void badNumbersAndChoicesNameTheirSetting() {
        refused("jdbc.url", "required", "jdbc.driver-maven", h2());
        refused("jdbc.url", "starting with jdbc:", "jdbc.url", "h2:mem:x");
        refused("jdbc.pool", "1 or more", "jdbc.url", h2Url(), "jdbc.pool", "0");
        refused("jdbc.pool", "", "jdbc.url", h2Url(), "jdbc.pool", "many");
        refused("friendship.rows", "expected one of 1, 2", "jdbc.url", h2Url(), "friendship.rows", "3");
        refused("feed.design", "expected one of pull, push, sorted-push", "jdbc.url", h2Url(), "feed.design", "fanout");
        refused("jdbc.timeout", "expected a timeout", "jdbc.url", h2Url(), "jdbc.timeout", "soon");
        refused("jdbc.timeout", "from 1s to 1d", "jdbc.url", h2Url(), "jdbc.timeout", "10ms");
        // Through the provider itself, as bg opens it.
        assertThatThrownBy(() -> new JdbcStoreProvider()
                        .open(JdbcTests.settings(
                                "jdbc.url",
                                h2Url(),
                                "jdbc.driver-maven",
                                h2(),
                                "jdbc.maven-repo",
                                "ftp://mirror/maven2")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("jdbc.maven-repo: expected an https://, http:// or file: URL");
    }

    @Test
    void badDialectsAndDialectFilesAreRefused() throws IOException {
        refused(
                "jdbc.dialect",
                "expected one of postgresql, mariadb (or mysql), sqlite, generic (or ansi)",
                "jdbc.url",
                h2Url(),
                "jdbc.dialect",
                "oracle");
        refused(
                "jdbc.dialect",
                "no such dialect file",
                "jdbc.url",
                h2Url(),
                "jdbc.dialect",
                tmp.resolve("missing.properties").toString());
        Path f = tmp.resolve("bad.properties");
        Files.writeString(f, "binary-typ=BLOB\n");
        refused(
                "jdbc.dialect",
                "line 1: holds a key that is not a dialect key",
                "jdbc.url",
                h2Url(),
                "jdbc.dialect",
                f.toString());
        Files.writeString(f, "# a dialect\nsingle-writer=yes\n");
        refused(
                "jdbc.dialect",
                "line 2: single-writer must be true or false",
                "jdbc.url",
                h2Url(),
                "jdbc.dialect",
                f.toString());
        Files.writeString(f, "limit=top\n");
        refused(
                "jdbc.dialect",
                "limit must be one of limit, fetch-first, offset-fetch",
                "jdbc.url",
                h2Url(),
                "jdbc.dialect",
                f.toString());
        Files.writeString(f, "table-exists-query=SELECT 1 FROM bg_meta\n");
        refused("jdbc.dialect", "one parameter", "jdbc.url", h2Url(), "jdbc.dialect", f.toString());
        Files.writeString(f, "big-id-type=\n");
        refused("jdbc.dialect", "big-id-type must not be empty", "jdbc.url", h2Url(), "jdbc.dialect", f.toString());
    }

    /** A file that is no dialect file (a password file named by mistake or by a hostile coordinator) is not shown. */
    @Test
    void aDialectFileThatDoesNotParseIsNamedButItsTextIsNotShown() throws IOException {
        Path f = tmp.resolve("shadow.properties");
        for (String text : List.of(
                "root:$6$s3cretHash:19000:0:99999:7:::\n",
                "name=x\nlimit=s3cretHash\n",
                "keys-at-create=s3cretHash\n",
                "bad\\uZZZZ s3cretHash\n")) {
            Files.writeString(f, text);
            assertThatThrownBy(() -> JdbcTests.open(tmp, "jdbc.url", h2Url(), "jdbc.dialect", f.toString())
                            .close())
                    .as(text)
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("jdbc.dialect: dialect file " + f)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cretHash", "root", "\n"));
        }
        Files.write(f, new byte[] {(byte) 0xff, (byte) 0xfe, 's', '3', 'c'});
        refused("jdbc.dialect", "not UTF-8 text", "jdbc.url", h2Url(), "jdbc.dialect", f.toString());
    }

    @Test
    void missingJarsCoordinatesAndClassesAreRefused() {
        refused(
                "jdbc.driver-jar",
                "no such jar file",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-jar",
                tmp.resolve("h2.jar").toString());
        refused("jdbc.driver-jar", "expected jar paths", "jdbc.url", h2Url(), "jdbc.driver-jar", " , ");
        refused(
                "jdbc.driver-maven",
                "expected Maven coordinates",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                "com.h2database:h2");
        refused(
                "jdbc.driver-maven",
                "org.example:no-such-driver:1.0 is neither in",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                "org.example:no-such-driver:1.0");
        refused(
                "jdbc.driver",
                "expected a class name",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                h2(),
                "jdbc.driver",
                "org..h2.Driver");
        refused(
                "jdbc.driver",
                "class org.example.NoDriver not found in [",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                h2(),
                "jdbc.driver",
                "org.example.NoDriver");
        refused(
                "jdbc.driver",
                "org.h2.tools.Server is not a java.sql.Driver",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                h2(),
                "jdbc.driver",
                "org.h2.tools.Server");
        refused(
                "jdbc.url",
                "driver org.h2.Driver does not accept 'jdbc:nosuchdb:x'",
                "jdbc.url",
                "jdbc:nosuchdb:x",
                "jdbc.driver-maven",
                h2(),
                "jdbc.driver",
                "org.h2.Driver");
        refused("jdbc.url", "no driver in [", "jdbc.url", "jdbc:nosuchdb:x", "jdbc.driver-maven", h2());
        // Without a jar, BG's class path (SQLite, PostgreSQL, MariaDB drivers) has no driver for it either.
        refused("jdbc.url", "no driver in BG's class path", "jdbc.url", "jdbc:nosuchdb:x");
    }

    @Test
    void aDatabaseThatCannotBeReachedNamesTheUrl() throws IOException {
        // H2 refuses to create a database with IFEXISTS=TRUE.
        refused(
                "jdbc.url",
                "cannot connect to " + h2Url() + ";IFEXISTS=TRUE",
                "jdbc.url",
                h2Url() + ";IFEXISTS=TRUE",
                "jdbc.driver-maven",
                h2());
        // Nothing listens on port 1: BG's own pgJDBC (no jar given) is refused.
        refused(
                "jdbc.url",
                "cannot connect to jdbc:postgresql://127.0.0.1:1/bg as bg",
                "jdbc.url",
                "jdbc:postgresql://127.0.0.1:1/bg",
                "jdbc.user",
                "bg",
                "jdbc.timeout",
                "2s");
        // A dialect whose init statement the engine refuses.
        Path f = tmp.resolve("init.properties");
        Files.writeString(f, "init=SET NO_SUCH_SETTING 1\n");
        refused(
                "jdbc.url",
                "the dialect's init statement 'SET NO_SUCH_SETTING 1' failed",
                "jdbc.url",
                h2Url(),
                "jdbc.driver-maven",
                h2(),
                "jdbc.dialect",
                f.toString());
    }

    /**
     * The dialect file is what makes H2 work: the generic dialect's SQL opens a connection but H2 2.x refuses BG's
     * schema ({@code value} is a keyword there), with an error naming the engine and the statement.
     */
    @Test
    void theGenericDialectIsNotEnoughForH2AndSaysWhy() {
        try (JdbcStore s = JdbcTests.open(tmp, "jdbc.url", h2Url(), "jdbc.driver-maven", h2())) {
            assertThat(s.dialectDescription()).isEqualTo("generic (guessed from jdbc.url)");
            assertThatThrownBy(() -> s.createSchema(GraphSpec.builder()
                            .members(120)
                            .memberIdOffset(1000)
                            .friendsPerMember(10)
                            .resourcesPerMember(4)
                            .commentsPerResource(2)
                            .confirmedFraction(0.7)
                            .images(true)
                            .thumbnailBytes(64)
                            .profileImageBytes(256)
                            .attributeLength(12)
                            .commentLength(40)
                            .fragments(3)
                            .seed(42)
                            .build()))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("creating the BG schema (CREATE TABLE bg_meta")
                    .hasMessageContaining("generic SQL");
        }
    }

    @Test
    void severalJarsAndCoordinatesAreOneClassPath() {
        String sqlite = "org.xerial:sqlite-jdbc:" + JdbcTests.version("sqlite");
        List<String> kv = new ArrayList<>(
                List.of("jdbc.url", "jdbc:sqlite:" + tmp.resolve("two.db"), "jdbc.driver-maven", h2() + ", " + sqlite));
        try (JdbcStore s = JdbcTests.open(tmp, kv.toArray(String[]::new))) {
            assertThat(s.product()).startsWith("SQLite");
        }
    }
}
