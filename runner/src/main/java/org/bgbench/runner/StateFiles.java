package org.bgbench.runner;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.bgbench.loader.LoadException;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;

/**
 * Where BG keeps the expected states runs left (dissertation 5.2): after a run with writes the store no longer holds the
 * generated graph, so the next run must start from the state the last one ended with. Each state is saved under a
 * fresh token, {@code <dir>/<token>.state}, and the store records that token as its state mark
 * ({@code state:<token>}, see {@link org.bgbench.store.StateMark}): the store, not the spelling of a command's settings,
 * says which file describes it. The directory is {@code bg-data/state} or {@code -Dbg.state.dir}.
 */
public final class StateFiles {
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private final Path dir;

    public StateFiles(Path dir) {
        this.dir = dir;
    }

    public static StateFiles defaultLocation() {
        return new StateFiles(Path.of(System.getProperty("bg.state.dir", "bg-data/state")));
    }

    /** A fresh token, unique across stores, hosts and runs. */
    public static String newToken() {
        return UUID.randomUUID().toString();
    }

    public Path dir() {
        return dir;
    }

    /** The file of the state saved under {@code token}. A token BG did not make (a hand-edited mark) is refused. */
    public Path fileFor(String token) {
        if (token == null || !TOKEN.matcher(token).matches()) {
            throw new LoadException("the store's state mark names '" + token + "', which is not a "
                    + "token BG writes; reload the store (bg load --replace) or repair it with bg verify --repair");
        }
        return dir.resolve(token + ".state");
    }

    /** The state saved under {@code token}, or empty when this directory has no file for it. */
    public Optional<GraphState> read(String token, SocialGraph graph) {
        Path file = fileFor(token);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            return Optional.of(GraphState.readFrom(graph, in));
        } catch (IOException e) {
            throw new LoadException("cannot read BG's saved state " + file + " (" + e.getMessage()
                    + "); reload the store (bg load --replace) or repair it with bg verify --repair");
        }
    }

    /** Saves {@code state} under {@code token}, on disk (synced) before this returns, so the store's mark may name it. */
    public void save(String token, GraphState state) throws IOException {
        Path file = fileFor(token);
        Files.createDirectories(dir);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream raw = Channels.newOutputStream(ch);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw));
            state.writeTo(out);
            out.flush();
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Deletes the state saved under {@code token}, if this directory has it. */
    public void delete(String token) throws IOException {
        Files.deleteIfExists(fileFor(token));
    }
}
