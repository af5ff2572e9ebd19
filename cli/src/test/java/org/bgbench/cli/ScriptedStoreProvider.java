package org.bgbench.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.bgbench.model.generator.SocialGraph;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSession;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.StoreTraits;
import org.bgbench.store.memory.MemoryStoreProvider;

/**
 * A test store ({@code --store scripted}, test class path only): the memory store whose every action takes a scripted
 * time. Request sets are counted from the store's opening (each is one experiment: its member 0 opening a session
 * starts the next), and a set whose index lies in
 * {@code scripted.slow-sets} (FROM-TO) takes {@code scripted.slow-ms} per action instead of {@code scripted.base-ms}.
 * A session's actions end on a schedule (its first action's start plus the scripted times so far), so no set takes less
 * than its scripted time; a loaded machine (BG's own work slower than the schedule, late wake-ups) can only add to it.
 */
public final class ScriptedStoreProvider implements StoreProvider {
    private final MemoryStoreProvider memory = new MemoryStoreProvider();

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public String description() {
        return "test store: the memory store with scripted action times";
    }

    @Override
    public List<StoreSetting> settings() {
        List<StoreSetting> s = new ArrayList<>(memory.settings());
        s.add(new StoreSetting("scripted.base-ms", "1", "time of one action, ms"));
        s.add(new StoreSetting("scripted.slow-ms", "1", "time of one action in a slow set, ms"));
        s.add(new StoreSetting("scripted.slow-sets", "", "FROM-TO: indexes of the slow sets"));
        s.add(new StoreSetting(
                "scripted.per-call",
                "false",
                "true: every action takes its time from its own start "
                        + "(the open model, whose threads wait between arrivals), not on its session's schedule"));
        return s;
    }

    @Override
    public OptionalLong heapBytes(SocialGraph graph) {
        return memory.heapBytes(graph);
    }

    @Override
    public StoreTraits traits() {
        return memory.traits();
    }

    @Override
    public DataStore open(StoreSettings settings) {
        DataStore store = memory.open(settings);
        long base = (long) (Double.parseDouble(settings.get("scripted.base-ms")) * 1_000_000);
        long slow = (long) (Double.parseDouble(settings.get("scripted.slow-ms")) * 1_000_000);
        String range = settings.get("scripted.slow-sets");
        boolean perCall = Boolean.parseBoolean(settings.get("scripted.per-call"));
        long from = range.isBlank() ? -1 : Long.parseLong(range.split("-")[0]);
        long to = range.isBlank() ? -1 : Long.parseLong(range.split("-")[1]);
        AtomicLong sets = new AtomicLong();
        return (DataStore) Proxy.newProxyInstance(
                DataStore.class.getClassLoader(), new Class<?>[] {DataStore.class}, (proxy, method, args) -> {
                    Object r = invoke(store, method, args);
                    if (!method.getName().equals("openSession")
                            && !method.getName().equals("openConsistentSession")) {
                        return r;
                    }
                    // Each request set is one experiment whose first emulated member opens a session first: that
                    // starts the next set. BG's own reads (its check of a loaded graph) run on other threads.
                    boolean member = Thread.currentThread().getName().startsWith("bg-member-");
                    if (Thread.currentThread().getName().equals("bg-member-0")) {
                        sets.incrementAndGet();
                    }
                    StoreSession s = (StoreSession) r;
                    // Each session paces its actions against a schedule, so a late wake-up or BG's own time between
                    // two actions is caught up by the next: a set takes its scripted time, not that plus the lateness.
                    long[] due = {0};
                    return Proxy.newProxyInstance(
                            StoreSession.class.getClassLoader(), new Class<?>[] {StoreSession.class}, (p, m, a) -> {
                                if (member && isAction(m)) {
                                    long set = sets.get() - 1;
                                    long now = System.nanoTime();
                                    due[0] = (due[0] == 0 || perCall ? now : due[0])
                                            + (set >= from && set <= to ? slow : base);
                                    pauseUntil(due[0]);
                                }
                                return invoke(s, m, a);
                            });
                });
    }

    private static boolean isAction(Method m) {
        return m.getDeclaringClass() == StoreSession.class && !m.getName().equals("close") && !m.isDefault();
    }

    /** Parks until {@code due} on the nanoTime clock (parkNanos may return early). */
    private static void pauseUntil(long due) {
        for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
