package org.bgbench.runner;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.model.state.GraphState;
import org.bgbench.store.StoreSettings;

/**
 * Where BG keeps the expected state a store was left in (dissertation 5.2): after a run with writes the store no longer holds
 * the generated graph, so the next run must start from the state the last one ended with. The file is named after the
 * store and its settings (passwords excluded); {@code bg load} deletes it, since a fresh load is the generated state.
 */
public final class StateFiles {
    private final Path dir;

    public StateFiles(Path dir) {
        this.dir = dir;
    }

    public static StateFiles defaultLocation() {
        return new StateFiles(Path.of(System.getProperty("bg.state.dir", "bg-data/state")));
    }

    public Path fileFor(String store, StoreSettings settings) {
        Map<String, String> identity = new TreeMap<>(settings.asMap());
        identity.keySet().removeIf(k -> k.contains("password") || k.contains("passwd") || k.endsWith(".pool"));
        String text = store + identity;
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return dir.resolve(store + "-" + HexFormat.of().formatHex(h, 0, 8) + ".state");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The saved state for this graph, or the generated one when there is none. */
    public GraphState load(Path file, SocialGraph graph) {
        if (!Files.exists(file)) {
            return new GraphState(graph);
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            return GraphState.readFrom(graph, in);
        } catch (IOException e) {
            throw new org.bgbench.loader.LoadException("cannot read BG's saved state " + file + " (" + e.getMessage()
                    + "); the store may not hold the generated graph any more: reload it with bg load --replace");
        }
    }

    public void save(Path file, GraphState state) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
            state.writeTo(out);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }
}
