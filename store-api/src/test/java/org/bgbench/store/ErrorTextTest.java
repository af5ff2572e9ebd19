package org.bgbench.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.ServerAddress;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** The drivers' real exceptions in words: their meaning kept, never a class name. */
class ErrorTextTest {
    private static final Pattern CLASS_NAME = Pattern.compile("\\b[A-Z]\\w*(Exception|Error)\\b");

    private static String words(Throwable t) {
        String s = ErrorText.of(t);
        assertThat(s).as("no class name in '%s'", s).doesNotContainPattern(CLASS_NAME.pattern());
        assertThat(s).doesNotContain("\n").isNotBlank();
        return s;
    }

    /** Netty's real closed-channel failure: a write on a closed channel fails with its stackless exception. */
    private static Throwable closedChannel() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.close();
        Throwable cause = channel.writeAndFlush("x").cause();
        assertThat(cause).isNotNull();
        return cause;
    }

    @Test
    void aClosedChannelIsAClosedConnection() {
        Throwable netty = closedChannel();
        assertThat(words(netty)).isEqualTo("the connection was closed");
        // As the Cassandra driver reports a lost node: its own words when the channel says nothing.
        assertThat(words(new ClosedConnectionException("Lost connection to remote peer", netty)))
                .isEqualTo("the connection was closed");
        assertThat(words(new ConnectionInitException(
                        "[s0|/127.0.0.1:9042] Protocol initialization request, step 1 "
                                + "(OPTIONS): failed to send request ("
                                + netty.getClass().getName() + ")",
                        netty)))
                .isEqualTo("the connection was closed");
    }

    @Test
    void allNodesFailedSaysWhyTheFirstNodeFailed() {
        // The driver's own failure for a contact point nobody listens on.
        Throwable failed = null;
        try (var session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", 1))
                .withLocalDatacenter("dc1")
                .build()) {
            assertThat(session).as("nothing listens on port 1").isNull();
        } catch (AllNodesFailedException e) {
            failed = e;
        }
        assertThat(failed).isNotNull();
        // Refused where nothing listens; closed where a firewall or proxy takes the connection and drops it (the
        // driver then names Netty's StacklessClosedChannelException, whose message is null).
        assertThat(words(failed)).matches("(?i)(connection refused.*|the connection was closed)");
    }

    @Test
    void aTimeoutKeepsItsDurationInWords() {
        assertThat(words(new DriverTimeoutException("Query timed out after PT10S")))
                .isEqualTo("Query timed out after 10 s");
        assertThat(words(new TimeoutException())).isEqualTo("timed out");
        assertThat(words(new SocketTimeoutException())).isEqualTo("timed out");
    }

    @Test
    void aRefusedConnectionSaysSo() {
        assertThat(words(new ConnectException())).isEqualTo("connection refused");
        assertThat(words(new ConnectException("Connection refused"))).isEqualTo("Connection refused");
        assertThat(words(new PSQLException(
                        "Connection to localhost:1 refused. Check that the hostname and port "
                                + "are correct and that the postmaster is accepting TCP/IP connections.",
                        PSQLState.CONNECTION_UNABLE_TO_CONNECT,
                        new ConnectException("Connection refused"))))
                .isEqualTo("Connection refused");
        assertThat(words(new MongoSocketOpenException(
                        "Exception opening socket",
                        new ServerAddress("localhost", 1),
                        new ConnectException("Connection refused"))))
                .isEqualTo("Connection refused");
    }

    @Test
    void sqliteBusyKeepsTheDatabasesWords() {
        assertThat(words(new SQLiteException(
                        "[SQLITE_BUSY] The database file is locked (database is locked)", SQLiteErrorCode.SQLITE_BUSY)))
                .isEqualTo("[SQLITE_BUSY] The database file is locked (database is " + "locked)");
    }

    @Test
    void aMessageOfClassNamesOnlyGetsItsTypesPhrase() {
        assertThat(words(new RuntimeException(new EOFException()))).isEqualTo("the connection ended unexpectedly");
        assertThat(words(new IllegalStateException("java.nio.channels.ClosedChannelException")))
                .isEqualTo("illegal state");
        assertThat(words(new NullPointerException())).isEqualTo("null pointer");
    }

    @Test
    void aDriversOwnSentenceStaysWithoutTheClassNamesInIt() {
        // As Jedis wraps a read timeout: its message is the cause's toString().
        assertThat(ErrorText.message(new IllegalStateException(
                        "java.net.SocketTimeoutException: Read timed out",
                        new SocketTimeoutException("Read timed out"))))
                .isEqualTo("Read timed out");
        assertThat(ErrorText.message(new PSQLException(
                        "ERROR: relation \"x\" does not exist\n  Position: 15", PSQLState.UNDEFINED_TABLE)))
                .isEqualTo("ERROR: relation \"x\" does not exist\n  Position: 15");
        assertThat(ErrorText.message(new IllegalStateException((String) null))).isEqualTo("illegal state");
    }

    @Test
    void bgsOwnWordsAreKept() {
        StoreException own = new StoreException(
                "loading into Cassandra failed: Query timed out after PT2S",
                new DriverTimeoutException("Query timed out after PT2S"));
        assertThat(words(own)).isEqualTo("loading into Cassandra failed: Query timed out after 2 s");
        assertThat(words(new StoreException("VP: no member 7"))).isEqualTo("VP: no member 7");
    }
}
