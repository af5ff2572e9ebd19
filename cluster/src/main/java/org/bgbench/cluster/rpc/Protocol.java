package org.bgbench.cluster.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import org.bgbench.cluster.security.Secrets;

/**
 * The wire protocol, shared by {@link WorkerServer} and {@link WorkerClient}: a hand-written gRPC service
 * {@code bg.cluster.Worker} with two methods whose messages are JSON documents ({@link JsonNode}), so no protoc and
 * no generated code.
 *
 * <ul>
 *   <li>{@code Call} (unary): request {@code {"op": …, "args": …}}, response the backend's node.</li>
 *   <li>{@code Stream} (server streaming): same request; responses are envelopes {@code {"t":"hb"}} (heartbeat),
 *       {@code {"t":"msg","m":…}} (a message from the backend) and a last {@code {"t":"end","m":…}} (the final one).</li>
 * </ul>
 * The shared secret travels in the binary metadata header {@code bg-secret-bin}, the client's session id in
 * {@code bg-session}. A third unary method, {@code End}, ends the client's session (the transport answers it; the
 * backend never sees it).
 */
final class Protocol {

    private Protocol() {}

    static final String SERVICE = "bg.cluster.Worker";

    /** Heartbeat period of a running stream. */
    static final Duration HEARTBEAT = Duration.ofSeconds(1);

    /** Largest message either side accepts (a worker's final result may carry histograms). */
    static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

    /** Longest error message sent back to the coordinator (it travels in a header). */
    static final int MAX_ERROR_CHARS = 2000;

    static final Metadata.Key<byte[]> SECRET_HEADER =
            Metadata.Key.of("bg-secret" + Metadata.BINARY_HEADER_SUFFIX, Metadata.BINARY_BYTE_MARSHALLER);

    /** A random id per {@link WorkerClient}: the worker serves one session at a time. */
    static final Metadata.Key<String> SESSION_HEADER = Metadata.Key.of("bg-session", Metadata.ASCII_STRING_MARSHALLER);

    /** Longest session id the worker keeps (a longer one is cut: ids are random, 22 characters). */
    static final int MAX_SESSION_CHARS = 64;

    /** Trailers of a refusal because the worker serves another coordinator (status FAILED_PRECONDITION). */
    static final Metadata.Key<String> REFUSAL = Metadata.Key.of("bg-refusal", Metadata.ASCII_STRING_MARSHALLER);

    static final String REFUSAL_BUSY = "busy";
    /** The other coordinator's IP address. */
    static final Metadata.Key<String> HOLDER = Metadata.Key.of("bg-holder", Metadata.ASCII_STRING_MARSHALLER);
    /** When its session started, epoch milliseconds. */
    static final Metadata.Key<String> HOLDER_SINCE =
            Metadata.Key.of("bg-holder-since", Metadata.ASCII_STRING_MARSHALLER);
    /** How long ago its last connection closed, in milliseconds (absent while it is connected). */
    static final Metadata.Key<String> HOLDER_GONE =
            Metadata.Key.of("bg-holder-gone-ms", Metadata.ASCII_STRING_MARSHALLER);
    /** How long the worker keeps a disconnected coordinator's session, in milliseconds. */
    static final Metadata.Key<String> HOLDER_GRACE =
            Metadata.Key.of("bg-holder-grace-ms", Metadata.ASCII_STRING_MARSHALLER);

    static final ObjectMapper JSON = new ObjectMapper();

    static final MethodDescriptor.Marshaller<JsonNode> MARSHALLER = new JsonMarshaller();

    static final MethodDescriptor<JsonNode, JsonNode> CALL = MethodDescriptor.<JsonNode, JsonNode>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Call"))
            .setRequestMarshaller(MARSHALLER)
            .setResponseMarshaller(MARSHALLER)
            .build();

    static final MethodDescriptor<JsonNode, JsonNode> STREAM = MethodDescriptor.<JsonNode, JsonNode>newBuilder()
            .setType(MethodDescriptor.MethodType.SERVER_STREAMING)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "Stream"))
            .setRequestMarshaller(MARSHALLER)
            .setResponseMarshaller(MARSHALLER)
            .build();

    static final MethodDescriptor<JsonNode, JsonNode> END = MethodDescriptor.<JsonNode, JsonNode>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "End"))
            .setRequestMarshaller(MARSHALLER)
            .setResponseMarshaller(MARSHALLER)
            .build();

    static final String TYPE = "t";
    static final String BODY = "m";
    static final String HEARTBEAT_TYPE = "hb";
    static final String MESSAGE_TYPE = "msg";
    static final String END_TYPE = "end";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    static ObjectNode request(String op, JsonNode args) {
        ObjectNode request = NODES.objectNode();
        request.put("op", op);
        request.set("args", args == null ? NullNode.instance : args);
        return request;
    }

    static ObjectNode envelope(String type, JsonNode body) {
        ObjectNode envelope = NODES.objectNode();
        envelope.put(TYPE, type);
        if (body != null) {
            envelope.set(BODY, body);
        }
        return envelope;
    }

    static byte[] secretBytes(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("a shared secret is required (the same secret, at least "
                    + Secrets.MIN_LENGTH + " characters, on the coordinator and on every worker)");
        }
        int length = secret.codePointCount(0, secret.length());
        if (length < Secrets.MIN_LENGTH) {
            throw new IllegalArgumentException("the shared secret must have at least " + Secrets.MIN_LENGTH
                    + " characters, this one has " + length);
        }
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    /** Cuts an error message to what a status description should carry. */
    static String shorten(String message) {
        return message.length() <= MAX_ERROR_CHARS ? message : message.substring(0, MAX_ERROR_CHARS) + "…";
    }

    /** "2s", "1.5s", "3m", "250ms": how timeouts are named in messages. */
    static String describe(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }

    /** Jackson JSON as a gRPC marshaller. */
    private static final class JsonMarshaller implements MethodDescriptor.Marshaller<JsonNode> {
        @Override
        public InputStream stream(JsonNode value) {
            try {
                return new ByteArrayInputStream(JSON.writeValueAsBytes(value == null ? NullNode.instance : value));
            } catch (IOException e) {
                throw Status.INTERNAL
                        .withDescription("cannot encode a message as JSON: " + e.getMessage())
                        .withCause(e)
                        .asRuntimeException();
            }
        }

        @Override
        public JsonNode parse(InputStream stream) {
            try (stream) {
                JsonNode node = JSON.readTree(stream);
                return node == null || node.isMissingNode() ? NullNode.instance : node;
            } catch (IOException e) {
                throw Status.INTERNAL
                        .withDescription("received a message that is not JSON: " + e.getMessage())
                        .withCause(e)
                        .asRuntimeException();
            }
        }
    }
}
