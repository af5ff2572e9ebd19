package org.bgbench.store;

import java.util.Optional;

/**
 * What kind of store a binding is, so the engine asks the store instead of testing its name.
 *
 * @param inProcess       the store runs inside BG's process (its CPU is BG's; see {@link DataStore#inProcess()})
 * @param forgetsOnClose  its contents are gone when BG closes it (the memory store): every command loads it anew
 * @param onePerWorker    each worker of a coordinator has a store of its own (in BG's process, or a file on the
 *                        worker's host), so every worker creates, loads and restores its own rather than sharing one
 * @param embeddedSetting the boolean setting that makes the binding start a throwaway server of its own
 *                        ({@code --embedded}), or null when it has none
 */
public record StoreTraits(boolean inProcess, boolean forgetsOnClose, boolean onePerWorker, String embeddedSetting) {
    /** A store reached over the network, shared by all workers, with no embedded mode. */
    public static final StoreTraits SERVER = new StoreTraits(false, false, false, null);

    /** The setting {@code --embedded} turns on, if the store has an embedded mode. */
    public Optional<String> embedded() {
        return Optional.ofNullable(embeddedSetting);
    }

    /** The same traits with an embedded mode switched on by {@code setting}. */
    public StoreTraits withEmbedded(String setting) {
        return new StoreTraits(inProcess, forgetsOnClose, onePerWorker, setting);
    }
}
