package org.bgbench.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.bgbench.cluster.rpc.WorkerException.Kind;
import org.bgbench.cluster.security.TlsClient;
import org.bgbench.cluster.security.TlsServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardened transport over real gRPC on loopback: wrong secrets slowed per source, one coordinator session at a
 * time, TLS with pinned or CA-signed certificates, the warning about wildcard addresses.
 */
@Tag("slow")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerSecurityTest {

    private static final String SECRET = "security-test-secret-0123";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Duration CALL = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<String> messages = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** Answers every call with "pong", counting them. */
    private static final class Pong implements WorkerBackend {
        final AtomicInteger invocations = new AtomicInteger();

        @Override
        public JsonNode call(String op, JsonNode args) {
            invocations.incrementAndGet();
            return NODES.textNode("pong");
        }

        @Override
        public JsonNode stream(String op, JsonNode args, Consumer<JsonNode> out) {
            invocations.incrementAndGet();
            out.accept(NODES.textNode("one"));
            return NODES.textNode("end");
        }
    }

    private WorkerServer.Builder builder(String host, WorkerBackend backend) throws IOException {
        return WorkerServer.builder(new InetSocketAddress(InetAddress.getByName(host), 0), backend)
                .secret(SECRET)
                .messages(messages::add);
    }

    private WorkerServer started(WorkerServer.Builder b) throws IOException {
        WorkerServer server = b.start();
        toClose.add(server);
        return server;
    }

    private WorkerClient client(WorkerServer server, String secret, TlsClient tls) {
        WorkerClient client = new WorkerClient("127.0.0.1:" + server.port(), secret, tls);
        toClose.add(client);
        return client;
    }

    private List<String> messagesContaining(String text) {
        return messages.stream().filter(m -> m.contains(text)).toList();
    }

    // --- wrong secrets are slowed ---------------------------------------------------------------------------------

    @Test
    void wrongGuessesInALoopAreSlowedAndTheRightSecretStillWorks() throws Exception {
        Pong backend = new Pong();
        WorkerServer server = started(builder("127.0.0.1", backend)); // the real backoff: 100 ms doubling to 5 s
        WorkerClient guesser = client(server, "not-the-secret-but-long", null);

        // Unthrottled, a loop like this completes ~280 refused calls a second on loopback. With the backoff the
        // calls that complete within 4 s are at t = 0, 0.1, 0.3, 0.7, 1.5 and 3.1 s: 6. A slow machine completes
        // fewer, never more; 15 leaves room for any rounding of timers.
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        int completed = 0;
        while (System.nanoTime() < end) {
            WorkerException e = catchThrowableOfType(WorkerException.class, () -> guesser.call("ping", null, CALL));
            assertThat(e.kind()).isEqualTo(Kind.REFUSED_SECRET);
            completed++;
        }
        assertThat(completed).as("refused calls completed in 4 s").isBetween(1, 15);
        assertThat(backend.invocations).hasValue(0);
        // One warning for the source, not one per attempt.
        assertThat(messagesContaining("refused a call from 127.0.0.1")).hasSize(1);
        assertThat(messagesContaining("refused")).hasSize(1);

        // The right secret from the same address still gets in (after the current wait, at most 5 s).
        WorkerClient coordinator = client(server, SECRET, null);
        assertThat(coordinator.call("ping", null, CALL).asText()).isEqualTo("pong");
        String counted = "after " + completed + " refused call" + (completed == 1 ? "" : "s");
        assertThat(messagesContaining("127.0.0.1 presented the right secret after"))
                .singleElement()
                .asString()
                .endsWith(counted);
        // And once it did, the address is no longer slowed.
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            coordinator.call("ping", null, CALL);
        }
        assertThat(backend.invocations).hasValue(21);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
    }

    // --- one coordinator at a time ------------------------------------------------------------------------------

    @Test
    void aSecondCoordinatorIsRefusedNamingTheFirstUntilTheFirstCloses() throws Exception {
        Pong backend = new Pong();
        WorkerServer server = started(builder("127.0.0.1", backend));
        WorkerClient first = client(server, SECRET, null);
        WorkerClient second = client(server, SECRET, null);
        String address = "127.0.0.1:" + server.port();

        assertThat(first.call("ping", null, CALL).asText()).isEqualTo("pong");
        assertThat(server.coordinator()).isEqualTo("127.0.0.1");
        for (int i = 0; i < 2; i++) {
            WorkerException busy = catchThrowableOfType(WorkerException.class, () -> second.call("ping", null, CALL));
            assertThat(busy.kind()).isEqualTo(Kind.BUSY);
            assertThat(busy.worker()).isEqualTo(address);
            assertThat(busy)
                    .hasMessageMatching("worker " + address.replace(".", "\\.") + " is serving another"
                            + " coordinator \\(127\\.0\\.0\\.1, since \\d\\d:\\d\\d:\\d\\d\\); stop it or wait");
        }
        WorkerException busyStream = catchThrowableOfType(
                WorkerException.class, () -> second.stream("run", null, Duration.ofSeconds(5), CALL, m -> {}));
        assertThat(busyStream.kind()).isEqualTo(Kind.BUSY);
        assertThat(backend.invocations)
                .as("the second coordinator reached nothing")
                .hasValue(1);
        assertThat(messagesContaining("refused a coordinator at 127.0.0.1")).hasSize(1); // once, not per call

        // The first goes on undisturbed, streams included.
        List<JsonNode> got = new ArrayList<>();
        assertThat(first.stream("run", null, Duration.ofSeconds(5), CALL, got::add)
                        .asText())
                .isEqualTo("end");
        assertThat(got).hasSize(1);

        // When the first closes, its session ends at once and the second gets in.
        first.close();
        assertThat(second.call("ping", null, CALL).asText()).isEqualTo("pong");
        assertThat(messagesContaining("ended its session")).hasSize(1);
        // and now the second holds it
        WorkerClient third = client(server, SECRET, null);
        assertThat(catchThrowableOfType(WorkerException.class, () -> third.call("ping", null, CALL))
                        .kind())
                .isEqualTo(Kind.BUSY);
    }

    @Test
    void aDisconnectedCoordinatorKeepsItsSessionForTheGracePeriod() throws Exception {
        WorkerServer server = started(builder("127.0.0.1", new Pong()).sessionGrace(Duration.ofMinutes(5)));
        WorkerClient first = client(server, SECRET, null);
        first.call("ping", null, CALL);
        first.closeWithoutEnding(); // as a coordinator that died: its connection closes, no End

        WorkerClient second = client(server, SECRET, null);
        WorkerException busy = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) { // until the worker has seen the connection close
            busy = catchThrowableOfType(WorkerException.class, () -> second.call("ping", null, CALL));
            assertThat(busy.kind()).isEqualTo(Kind.BUSY);
            if (busy.getMessage().contains("disconnected")) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(busy)
                .hasMessageContaining("is serving another coordinator (127.0.0.1, since ")
                .hasMessageMatching(".*, disconnected \\d+ s ago: free in \\d+ s\\); stop it or wait");
    }

    @Test
    void aDisconnectedCoordinatorsSessionEndsAfterTheGracePeriod() throws Exception {
        WorkerServer server = started(builder("127.0.0.1", new Pong()).sessionGrace(Duration.ZERO));
        WorkerClient first = client(server, SECRET, null);
        first.call("ping", null, CALL);
        first.closeWithoutEnding();

        WorkerClient second = client(server, SECRET, null);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        JsonNode answer = null;
        while (answer == null && System.nanoTime() < deadline) { // until the worker has seen the connection close
            try {
                answer = second.call("ping", null, CALL);
            } catch (WorkerException e) {
                assertThat(e.kind()).isEqualTo(Kind.BUSY);
                Thread.sleep(50);
            }
        }
        assertThat(answer).isNotNull();
        assertThat(messagesContaining("has been disconnected for")).hasSize(1);
    }

    @Test
    void aCoordinatorThatReconnectsKeepsItsSession() throws Exception {
        WorkerServer server = started(builder("127.0.0.1", new Pong()));
        WorkerClient first = client(server, SECRET, null);
        first.call("ping", null, CALL);
        // Its one client goes on through any number of calls and connections; others stay out meanwhile.
        for (int i = 0; i < 5; i++) {
            assertThat(first.call("ping", null, CALL).asText()).isEqualTo("pong");
        }
        assertThat(catchThrowableOfType(
                                WorkerException.class,
                                () -> client(server, SECRET, null).call("ping", null, CALL))
                        .kind())
                .isEqualTo(Kind.BUSY);
        first.close();
        assertThat(server.coordinator()).isNull();
    }

    // --- TLS --------------------------------------------------------------------------------------------------------

    @Test
    void tlsWithAPinnedSelfSignedCertificateWorks() throws Exception {
        Pong backend = new Pong();
        TlsServer identity = TlsServer.selfSigned(List.of("bg-worker.invalid")); // names nothing we connect to
        WorkerServer server = started(builder("127.0.0.1", backend).tls(identity));
        WorkerClient client = client(server, SECRET, TlsClient.pinning(List.of(identity.fingerprint())));

        assertThat(client.tls()).isTrue();
        assertThat(client.call("ping", null, CALL).asText()).isEqualTo("pong");
        assertThat(client.stream("run", null, Duration.ofSeconds(5), CALL, m -> {})
                        .asText())
                .isEqualTo("end");
        // pins are accepted lower case, without colons, and with other pins beside
        WorkerClient another = client(
                server,
                SECRET,
                TlsClient.pinning(List.of(
                        "ab".repeat(32), identity.fingerprint().replace(":", "").toLowerCase())));
        // (past TLS: refused only because the first client holds the session)
        assertThat(catchThrowableOfType(WorkerException.class, () -> another.call("ping", null, CALL))
                        .kind())
                .isEqualTo(Kind.BUSY);
        client.close();
        assertThat(another.call("ping", null, CALL).asText()).isEqualTo("pong");
    }

    @Test
    void aWrongPinIsRefusedBeforeTheSecretIsSent() throws Exception {
        Pong backend = new Pong();
        TlsServer identity = TlsServer.selfSigned(List.of("localhost", "127.0.0.1"));
        WorkerServer server = started(builder("127.0.0.1", backend).tls(identity));
        String other = TlsServer.selfSigned(List.of("localhost")).fingerprint();
        WorkerClient client = client(server, SECRET, TlsClient.pinning(List.of(other)));

        WorkerException e = catchThrowableOfType(WorkerException.class, () -> client.call("ping", null, CALL));

        assertThat(e.kind()).isEqualTo(Kind.TLS);
        assertThat(e)
                .hasMessage("worker 127.0.0.1:" + server.port() + " failed the TLS handshake: the worker's"
                        + " certificate has SHA-256 fingerprint " + identity.fingerprint()
                        + ", which is not the one pinned"
                        + " with --tls-pin; nothing was sent");
        assertThat(backend.invocations).hasValue(0);
        assertThat(server.coordinator()).isNull();
    }

    @Test
    void aPlaintextCoordinatorIsRefusedByATlsWorker() throws Exception {
        Pong backend = new Pong();
        WorkerServer server = started(builder("127.0.0.1", backend).tls(TlsServer.selfSigned(List.of("localhost"))));
        WorkerClient plaintext = client(server, SECRET, null);

        WorkerException e = catchThrowableOfType(WorkerException.class, () -> plaintext.call("ping", null, CALL));

        System.out.println("plaintext coordinator, TLS worker: " + e.getMessage());
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.TLS);
        assertThat(e)
                .hasMessageContaining("worker 127.0.0.1:" + server.port())
                .hasMessageContaining("it probably expects TLS");
        assertThat(backend.invocations).hasValue(0);
        assertThat(server.coordinator()).isNull();
    }

    @Test
    void aTlsCoordinatorIsRefusedByAPlaintextWorker() throws Exception {
        Pong backend = new Pong();
        WorkerServer server = started(builder("127.0.0.1", backend));
        WorkerClient client = client(
                server,
                SECRET,
                TlsClient.pinning(List.of(TlsServer.selfSigned(List.of("x")).fingerprint())));

        WorkerException e = catchThrowableOfType(WorkerException.class, () -> client.call("ping", null, CALL));

        System.out.println("TLS coordinator, plaintext worker: " + e.getMessage());
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.TLS);
        assertThat(e).hasMessageContaining("does not speak TLS");
        assertThat(backend.invocations).hasValue(0);
    }

    @Test
    void tlsWithACertificateAuthorityChecksTheHostName() throws Exception {
        TestCa ca = new TestCa();
        Path caPem = ca.writeCa(dir.resolve("ca.pem"));
        Path certPem = dir.resolve("w.pem");
        Path keyPem = dir.resolve("w.key");
        ca.issue(List.of("127.0.0.1", "localhost"), certPem, keyPem);
        Pong backend = new Pong();
        WorkerServer server = started(builder("127.0.0.1", backend).tls(TlsServer.fromPem(certPem, keyPem)));

        WorkerClient client = client(server, SECRET, TlsClient.trusting(caPem));
        assertThat(client.call("ping", null, CALL).asText()).isEqualTo("pong");

        // The same authority, but a certificate that does not name 127.0.0.1
        Path otherCert = dir.resolve("o.pem");
        Path otherKey = dir.resolve("o.key");
        ca.issue(List.of("elsewhere.invalid"), otherCert, otherKey);
        WorkerServer misnamed = started(builder("127.0.0.1", backend).tls(TlsServer.fromPem(otherCert, otherKey)));
        WorkerException e = catchThrowableOfType(
                WorkerException.class,
                () -> client(misnamed, SECRET, TlsClient.trusting(caPem)).call("ping", null, CALL));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.TLS);
        assertThat(e).hasMessageContaining("does not name 127.0.0.1");

        // A certificate from another authority
        WorkerServer stranger =
                started(builder("127.0.0.1", backend).tls(TlsServer.selfSigned(List.of("127.0.0.1", "localhost"))));
        WorkerException e2 = catchThrowableOfType(
                WorkerException.class,
                () -> client(stranger, SECRET, TlsClient.trusting(caPem)).call("ping", null, CALL));
        assertThat(e2.kind()).as(e2.getMessage()).isEqualTo(Kind.TLS);
        assertThat(e2).hasMessageContaining("not signed by an authority trusted here (the certificates in " + caPem);
        assertThat(backend.invocations).hasValue(1);
    }

    // --- wildcard addresses -----------------------------------------------------------------------------------------

    @Test
    void listeningOnEveryInterfaceIsWarnedAbout() throws Exception {
        WorkerServer server = started(builder("0.0.0.0", new Pong()));
        assertThat(messagesContaining("listening on every interface"))
                .singleElement()
                .asString()
                .contains("(0.0.0.0:" + server.port() + ")");
        messages.clear();
        started(builder("127.0.0.1", new Pong()));
        assertThat(messagesContaining("every interface")).isEmpty();
    }

    @Test
    void generatedKeyFilesAreTheOwnersOnly() throws Exception {
        Path cert = dir.resolve("gen/cert.pem");
        Path key = dir.resolve("gen/key.pem");
        Files.createDirectories(cert.getParent());
        List<String> said = new ArrayList<>();
        TlsServer generated = TlsServer.resolve(cert, key, List.of("localhost"), said::add);
        assertThat(said).singleElement().asString().contains("generated a self-signed TLS certificate");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
                .isEqualTo("rw-------");
        // The next start reads them: the same fingerprint, so a pin survives restarts.
        TlsServer again = TlsServer.resolve(cert, key, List.of("localhost"), said::add);
        assertThat(again.fingerprint()).isEqualTo(generated.fingerprint());
        assertThat(again.generated()).isFalse();
    }
}
