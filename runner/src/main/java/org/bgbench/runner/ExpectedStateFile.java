package org.bgbench.runner;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import org.bgbench.measurement.RunEvidence;
import org.bgbench.model.GraphSpec;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.model.state.StateFormatException;

/**
 * BG's expected state at the end of a run, in the run's directory: {@value #GRAPH} (the graph) and {@value #STATE}, a
 * header naming the run ({@code BGRS}, the run's id) followed by the state as {@link GraphState#writeTo} writes it.
 * Files of older BGs have no header and are still read. Reading names the file and what is wrong with it (cut short,
 * empty, not a state file, another graph's, another run's) with the byte offset where reading stopped.
 */
final class ExpectedStateFile {
    static final String STATE = "expected.state";
    static final String GRAPH = "graph.json";
    private static final int MAGIC = 0x42475253; // "BGRS"
    private static final int OLD_FORMAT = 0x42475331; // "BGS1", "BGS2": GraphState's own header
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .addMixIn(GraphSpec.class, FlatGraphSpec.class)
            .addMixIn(GraphSpec.Builder.class, FlatGraphSpecBuilder.class);

    /** {@value #GRAPH} keeps the flat keys it always had: GraphSpec's parts unwrapped, read back through its builder. */
    @JsonDeserialize(builder = GraphSpec.Builder.class)
    private abstract static class FlatGraphSpec {
        @JsonUnwrapped
        abstract GraphSpec.Sizes sizes();

        @JsonUnwrapped
        abstract GraphSpec.Media media();

        @JsonUnwrapped
        abstract GraphSpec.Text text();
    }

    /** The builder's setters are named as the keys, without a prefix. */
    @JsonPOJOBuilder(withPrefix = "")
    private abstract static class FlatGraphSpecBuilder {}

    /** What was saved: the run's id, the files' checksums and the state's length. */
    record Saved(String stateSha256, long stateBytes, String graphSha256) {}

    /** A state in hand: the state, and the run its file names (null in a file of an older BG). */
    record Loaded(GraphState state, String runId) {}

    /** One piece of evidence that cannot be used: which file (its name in the run's directory), and why. */
    static final class BadEvidence extends IOException {
        private final String file;

        BadEvidence(String file, String message) {
            super(message);
            this.file = file;
        }

        String file() {
            return file;
        }
    }

    private ExpectedStateFile() {}

    /** Writes the graph and the state into {@code dir}, the state under a temporary name renamed when complete. */
    static Saved save(Path dir, GraphState state, String runId) throws IOException {
        Files.createDirectories(dir);
        Path graph = dir.resolve(GRAPH);
        JSON.writerWithDefaultPrettyPrinter()
                .writeValue(graph.toFile(), state.graph().spec());
        Path tmp = dir.resolve(STATE + ".tmp");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
                out.writeInt(MAGIC);
                out.writeUTF(runId == null ? "" : runId);
                state.writeTo(out);
            }
            Files.move(tmp, dir.resolve(STATE), StandardCopyOption.REPLACE_EXISTING);
        } finally {
            // on a full disk the partial file would keep the space the result needs
            Files.deleteIfExists(tmp);
        }
        Path file = dir.resolve(STATE);
        return new Saved(sha256(file), Files.size(file), sha256(graph));
    }

    /**
     * Reads the state in {@code dir}, checking it against what the result recorded ({@code recorded}, null when there
     * is no result to ask).
     *
     * @throws BadEvidence naming the file and what is wrong with it
     */
    static Loaded load(Path dir, RunEvidence recorded) throws BadEvidence {
        Path graphFile = dir.resolve(GRAPH);
        Path file = dir.resolve(STATE);
        GraphSpec spec;
        try {
            spec = JSON.readValue(graphFile.toFile(), GraphSpec.class);
        } catch (JsonProcessingException e) {
            throw new BadEvidence(
                    GRAPH,
                    graphFile + " cannot be read" + where(e) + ": "
                            + e.getOriginalMessage().lines().findFirst().orElse("not a graph description"));
        } catch (IOException | RuntimeException e) {
            throw new BadEvidence(GRAPH, graphFile + " cannot be read: " + e.getMessage());
        }
        String wrote = recorded != null && recorded.expectedStateBytes() >= 0
                ? String.format(Locale.ROOT, "; the run wrote %,d bytes", recorded.expectedStateBytes())
                : "";
        MessageDigest md = sha256();
        Counting counted;
        Loaded loaded;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            counted = new Counting(new DigestInputStream(raw, md));
            DataInputStream in = new DataInputStream(counted);
            String runId = null;
            InputStream state = counted;
            byte[] head = counted.readNBytes(4);
            if (head.length == 0) {
                throw new BadEvidence(STATE, file + " is empty (0 bytes)" + wrote);
            }
            int magic = head.length < 4 ? -1 : ByteBuffer.wrap(head).getInt();
            if (magic == MAGIC) {
                try {
                    runId = in.readUTF();
                } catch (EOFException e) {
                    throw new BadEvidence(
                            STATE,
                            String.format(
                                    Locale.ROOT,
                                    "%s ends at byte %,d inside its header " + "(the run's id)%s",
                                    file,
                                    counted.count,
                                    wrote));
                }
                runId = runId.isEmpty() ? null : runId;
            } else if ((magic & ~0xFF) == (OLD_FORMAT & ~0xFF) && (magic & 0xFF) >= '1' && (magic & 0xFF) <= '2') {
                state = new SequenceInputStream(new ByteArrayInputStream(head), counted);
            } else if (head.length < 4) {
                throw new BadEvidence(
                        STATE,
                        String.format(
                                Locale.ROOT, "%s ends at byte %,d inside its header%s", file, head.length, wrote));
            } else {
                throw new BadEvidence(
                        STATE,
                        String.format(
                                Locale.ROOT,
                                "%s is not a BG state file: it starts with " + "bytes %08x where BG writes %08x",
                                file,
                                magic,
                                MAGIC));
            }
            if (recorded != null
                    && recorded.runId() != null
                    && !recorded.runId().equals(runId)) {
                throw new BadEvidence(
                        STATE,
                        file
                                + (runId == null
                                        ? " names no run (a BG older than run ids wrote it)"
                                        : " was written by run " + runId)
                                + ", this result is run " + recorded.runId()
                                + ": it is not this run's expected state");
            }
            GraphState s;
            try {
                s = GraphState.readFrom(new SocialGraph(spec), new DataInputStream(state));
            } catch (StateFormatException e) {
                throw new BadEvidence(
                        STATE,
                        e.endedEarly()
                                ? String.format(
                                        Locale.ROOT,
                                        "%s ends at byte %,d inside %s%s",
                                        file,
                                        counted.count,
                                        e.where(),
                                        wrote)
                                : String.format(
                                        Locale.ROOT,
                                        "%s cannot be read at byte %,d, in %s: %s",
                                        file,
                                        counted.count,
                                        e.where(),
                                        e.what()));
            }
            long extra = counted.transferTo(OutputStream.nullOutputStream());
            if (extra > 0) {
                throw new BadEvidence(
                        STATE,
                        String.format(
                                Locale.ROOT,
                                "%s has %,d bytes after the end of the state, " + "at byte %,d%s",
                                file,
                                extra,
                                counted.count - extra,
                                wrote));
            }
            loaded = new Loaded(s, runId);
        } catch (BadEvidence e) {
            throw e;
        } catch (IOException e) {
            throw new BadEvidence(STATE, file + " cannot be read: " + e.getMessage());
        }
        if (recorded != null
                && recorded.expectedStateSha256() != null
                && !recorded.expectedStateSha256().equals(HexFormat.of().formatHex(md.digest()))) {
            throw new BadEvidence(
                    STATE,
                    String.format(
                            Locale.ROOT,
                            "%s does not match the checksum this result "
                                    + "recorded for it (%,d bytes now%s): it was changed after the run",
                            file,
                            counted.count,
                            wrote));
        }
        if (recorded != null
                && recorded.graphSha256() != null
                && !recorded.graphSha256().equals(sha256Quietly(graphFile))) {
            throw new BadEvidence(
                    GRAPH,
                    graphFile + " does not match the checksum this result recorded for it: it "
                            + "was changed after the run, or is another run's");
        }
        return loaded;
    }

    private static String where(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " at line " + e.getLocation().getLineNr() + ", column "
                        + e.getLocation().getColumnNr();
    }

    static String sha256(Path file) throws IOException {
        MessageDigest md = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static String sha256Quietly(Path file) {
        try {
            return sha256(file);
        } catch (IOException e) {
            return null;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    /** Counts the bytes read through it: where in the file reading stopped. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            count += k;
            return k;
        }
    }
}
