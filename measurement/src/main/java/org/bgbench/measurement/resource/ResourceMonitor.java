package org.bgbench.measurement.resource;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Samples CPU use of BG's own JVM, of the store's local processes (each given pid with all its descendants: a
 * PostgreSQL postmaster's backends are separate child processes) and of the whole machine. Linux gives all three
 * through /proc; elsewhere only the JVM's own CPU is known and the rest reads as unknown. Snapshots are cheap for the
 * JVM and the machine; with store pids every snapshot scans /proc/[pid]/stat of all processes (a few ms per second).
 * Thread-safe.
 *
 * <p>A store server that is restarted during a run gets new processes: when a root of the store's trees has exited,
 * the monitor asks the store for its server's pids again (on a thread of its own, at most once a second, so a store
 * that does not answer never holds a snapshot up) and counts the new trees from then on, their CPU added to what the
 * old ones had used.
 *
 * <p>It also reads nodes ({@link NodeUse}): BG's own machine from /proc ({@link ProcNode}), and each store host from
 * its Prometheus node exporter ({@link StoreHostPoller}, without ever waiting for one). {@link #close()} ends the
 * store hosts' HTTP clients.
 */
public final class ResourceMonitor implements AutoCloseable {
    private static final long NANOS_PER_TICK = 1_000_000_000L / ProcFs.TICKS_PER_SECOND;

    private final ProcFs proc;
    private final boolean linux;
    /** Whether the store's processes are watched at all (it had local pids when the monitor was made). */
    private final boolean watchStore;
    /** The live roots of the store's trees; a root that exited is dropped, one the finder names is added. */
    private volatile List<Long> storePids;
    /** Finds the store server's pids again after a root exited (a restarted server); null: never looked for. */
    private final Supplier<? extends Collection<Long>> finder;

    private final AtomicBoolean finding = new AtomicBoolean();
    /** What the finder answered last, not yet taken by a reading; null when nothing is waiting. */
    private volatile List<Long> found;
    /** Roots that exited and were not replaced yet, and when the finder was last asked (0: never). */
    private int missingRoots;

    private long askedNanos;
    private volatile boolean closed;
    /** Each live root's tree's ticks at the last reading, and the ticks of the roots that exited since the start. */
    private final Map<Long, Long> rootTicks = new HashMap<>();

    private long exitedTicks;
    private final com.sun.management.OperatingSystemMXBean os;
    private final ProcNode bgNode;
    private final List<StoreHostPoller> hosts;
    /** How often a reading of the store's processes is taken again when a child was reaped during it. */
    static final int READ_ATTEMPTS = 4;
    /** The store's processes that had children in the tree at the last reading, and that reading's ticks. */
    private Set<Long> parents = Set.of();

    private long lastStoreTicks;
    /** Readings of the store that came out below the last one even so, and were held at it (tests). */
    private long heldReadings;

    ResourceMonitor(Path procRoot, Collection<Long> storePids) {
        this(procRoot, storePids, List.of());
    }

    ResourceMonitor(Path procRoot, Collection<Long> storePids, List<String> storeHosts) {
        this(procRoot, storePids, storeHosts, null);
    }

    ResourceMonitor(
            Path procRoot,
            Collection<Long> storePids,
            List<String> storeHosts,
            Supplier<? extends Collection<Long>> finder) {
        this.finder = finder;
        this.watchStore = !storePids.isEmpty();
        this.proc = new ProcFs(procRoot);
        this.bgNode = new ProcNode(procRoot);
        this.hosts = storeHosts.stream()
                .map(h -> new StoreHostPoller(new NodeExporterClient(h)))
                .toList();
        // The first requests go out now, so the first sampled second already has a reading to start from.
        hosts.forEach(StoreHostPoller::latestAndAsk);
        this.linux = proc.available();
        this.storePids = List.copyOf(storePids);
        OperatingSystemMXBean bean = ManagementFactory.getOperatingSystemMXBean();
        this.os = bean instanceof com.sun.management.OperatingSystemMXBean sun ? sun : null;
    }

    /** A monitor for this JVM, the machine, and the process trees rooted at {@code storePids} (may be empty). */
    public static ResourceMonitor create(Collection<Long> storePids) {
        return new ResourceMonitor(Path.of("/proc"), storePids);
    }

    /**
     * A monitor as {@link #create(Collection)} that also reads each store host's node exporter ({@code HOST:PORT},
     * see {@link NodeExporterClient#address(String)}).
     */
    public static ResourceMonitor create(Collection<Long> storePids, List<String> storeHosts) {
        return new ResourceMonitor(Path.of("/proc"), storePids, storeHosts);
    }

    /**
     * A monitor as {@link #create(Collection, List)} that asks {@code finder} for the store server's pids again when
     * one of {@code storePids} exits during the run (a server restarted), and counts the new processes from then on.
     */
    public static ResourceMonitor create(
            Collection<Long> storePids, List<String> storeHosts, Supplier<? extends Collection<Long>> finder) {
        return new ResourceMonitor(Path.of("/proc"), storePids, storeHosts, finder);
    }

    /** The store hosts' node exporters, as {@code HOST:PORT}. */
    public List<String> storeHosts() {
        return hosts.stream().map(StoreHostPoller::name).toList();
    }

    /** The pids whose process trees count as the store now (a restarted server's new ones once found). */
    public List<Long> storePids() {
        return storePids;
    }

    /** Whether /proc is readable, so store and machine CPU are known. */
    public boolean procAvailable() {
        return linux;
    }

    /** The given pid and all its live descendants; empty when the pid does not exist or /proc is unavailable. */
    public Set<Long> processTree(long pid) {
        return linux ? ProcFs.tree(List.of(pid), proc.processes()) : Set.of();
    }

    public ResourceSnapshot snapshot() {
        long now = System.nanoTime();
        long bg = bgCpuNanos();
        long store = -1;
        int storeProcesses = 0;
        if (linux && watchStore) {
            long[] ticksAndProcesses = storeTicks();
            store = ticksAndProcesses[0] * NANOS_PER_TICK;
            storeProcesses = (int) ticksAndProcesses[1];
        }
        ProcFs.MachineStat machine = linux ? proc.machine() : null;
        List<NodeReading> nodes = new ArrayList<>(1 + hosts.size());
        nodes.add(bgReading());
        for (StoreHostPoller h : hosts) {
            nodes.add(h.latestAndAsk());
        }
        return machine == null
                ? ResourceSnapshot.builder()
                        .nanoTime(now)
                        .bgCpuNanos(bg)
                        .storeCpuNanos(store)
                        .storeProcesses(storeProcesses)
                        .machineBusyTicks(-1)
                        .machineIowaitTicks(-1)
                        .machineTotalTicks(-1)
                        .machineCpus(Runtime.getRuntime().availableProcessors())
                        .nodes(nodes)
                        .build()
                : ResourceSnapshot.builder()
                        .nanoTime(now)
                        .bgCpuNanos(bg)
                        .storeCpuNanos(store)
                        .storeProcesses(storeProcesses)
                        .machineBusyTicks(machine.busyTicks())
                        .machineIowaitTicks(machine.iowaitTicks())
                        .machineTotalTicks(machine.totalTicks())
                        .machineCpus(machine.cpus())
                        .nodes(nodes)
                        .build();
    }

    /**
     * The store trees' CPU ticks and processes. A reading is not atomic: a child reaped after its parent's stat was read
     * and before its own is counted nowhere (its ticks left the child and reached the parent's cutime in between), and
     * one read before the parent's is counted twice. A server's backends all closing at the end of a run did that to
     * the run's last reading, which then held less CPU than its first (the run reported its store at 0.00 cores). So
     * the parents' reaped-children ticks are read before and after the processes: when they changed meanwhile, the
     * reading is taken again (up to {@link #READ_ATTEMPTS} times), and the total never goes below the last one (a
     * reading that still raced loses at most what ran since that one, for one second).
     */
    private synchronized long[] storeTicks() {
        adoptFound();
        List<Long> storePids = this.storePids;
        List<ProcFs.ProcessStat> all = List.of();
        Set<Long> tree = Set.of();
        for (int attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
            Map<Long, Long> before = childTicksOf(parents);
            all = proc.processes();
            tree = ProcFs.tree(storePids, all);
            Map<Long, ProcFs.ProcessStat> byPid = new HashMap<>();
            Set<Long> nowParents = new HashSet<>();
            for (ProcFs.ProcessStat p : all) {
                if (tree.contains(p.pid())) {
                    byPid.put(p.pid(), p);
                    if (tree.contains(p.ppid())) {
                        nowParents.add(p.ppid());
                    }
                }
            }
            for (Long root : storePids) {
                if (tree.contains(root)) {
                    nowParents.add(root);
                }
            }
            boolean steady = true;
            for (Map.Entry<Long, Long> e : before.entrySet()) {
                ProcFs.ProcessStat p = byPid.get(e.getKey());
                steady &= p == null || p.childTicks() == e.getValue();
            }
            Map<Long, Long> after = childTicksOf(nowParents);
            for (Map.Entry<Long, Long> e : after.entrySet()) {
                steady &= byPid.get(e.getKey()).childTicks() == e.getValue();
            }
            parents = nowParents;
            if (steady) {
                break;
            }
        }
        // Each root's tree on its own, so a root that exits takes its last reading along and the others go on.
        long read = 0;
        List<Long> alive = new ArrayList<>(storePids.size());
        for (Long root : storePids) {
            Long last = rootTicks.get(root);
            if (!tree.contains(root)) {
                exitedTicks += last == null ? 0 : last;
                rootTicks.remove(root);
                missingRoots++;
                continue;
            }
            alive.add(root);
            long t = ProcFs.treeTicks(ProcFs.tree(List.of(root), all), all);
            if (last != null && t < last) {
                heldReadings++;
                t = last;
            }
            rootTicks.put(root, t);
            read += t;
        }
        if (alive.size() < storePids.size()) {
            this.storePids = List.copyOf(alive);
        }
        if (missingRoots > 0) {
            askFinder();
        }
        long ticks = Math.max(exitedTicks + read, lastStoreTicks);
        lastStoreTicks = ticks;
        return new long[] {ticks, tree.size()};
    }

    /** Adds the live pids the finder answered that are not roots yet: a restarted server's new processes. */
    private void adoptFound() {
        List<Long> answer = found;
        if (answer == null) {
            return;
        }
        found = null;
        List<Long> roots = new ArrayList<>(storePids);
        for (Long pid : answer) {
            if (!roots.contains(pid) && proc.process(pid) != null) {
                roots.add(pid);
                missingRoots = Math.max(0, missingRoots - 1);
            }
        }
        storePids = List.copyOf(roots);
    }

    /** Asks the finder for the store's pids on a thread of its own, unless it is asked already or was within 1 s. */
    private void askFinder() {
        long now = System.nanoTime();
        boolean recently = askedNanos != 0 && now - askedNanos < 1_000_000_000L;
        if (finder == null || closed || recently || !finding.compareAndSet(false, true)) {
            return;
        }
        askedNanos = now;
        Thread.ofPlatform().daemon().name("bg-store-pids").start(() -> {
            try {
                found = List.copyOf(finder.get());
            } catch (RuntimeException e) {
                // The store does not answer yet (still restarting): asked again a second later.
            } finally {
                finding.set(false);
            }
        });
    }

    synchronized long heldReadings() {
        return heldReadings;
    }

    /** The reaped-children ticks of those of {@code pids} that still exist. */
    private Map<Long, Long> childTicksOf(Set<Long> pids) {
        Map<Long, Long> ticks = new HashMap<>();
        for (Long pid : pids) {
            ProcFs.ProcessStat p = proc.process(pid);
            if (p != null) {
                ticks.put(pid, p.childTicks());
            }
        }
        return ticks;
    }

    private NodeReading bgReading() {
        NodeReading r = null;
        if (linux) {
            try {
                r = bgNode.read();
            } catch (RuntimeException e) {
                // a /proc file in an unexpected form: the figures of this second stay unknown
            }
        }
        return r != null ? r : NodeReading.none(bgNode.name(), NodeReading.BG);
    }

    @Override
    public void close() {
        closed = true;
        hosts.forEach(StoreHostPoller::close);
    }

    private long bgCpuNanos() {
        if (os != null) {
            long cpu = os.getProcessCpuTime();
            if (cpu >= 0) {
                return cpu;
            }
        }
        if (linux) {
            ProcFs.ProcessStat self = proc.process(ProcessHandle.current().pid());
            if (self != null) {
                return self.cpuTicks() * NANOS_PER_TICK;
            }
        }
        return -1;
    }

    /**
     * The CPU used between two snapshots. A counter that went backwards (a store process left the tree without being
     * reaped inside it) counts as 0 for that interval.
     */
    public static ResourceUse between(ResourceSnapshot from, ResourceSnapshot to) {
        double seconds = (to.nanoTime() - from.nanoTime()) / 1e9;
        double bgCpu = from.bgCpuNanos() >= 0 && to.bgCpuNanos() >= 0
                ? Math.max(0, to.bgCpuNanos() - from.bgCpuNanos()) / 1e9
                : Double.NaN;
        double storeCpu = from.storeCpuNanos() >= 0 && to.storeCpuNanos() >= 0
                ? Math.max(0, to.storeCpuNanos() - from.storeCpuNanos()) / 1e9
                : Double.NaN;
        double machine = Double.NaN;
        double iowait = Double.NaN;
        long total = to.machineTotalTicks() - from.machineTotalTicks();
        if (from.machineTotalTicks() >= 0 && to.machineTotalTicks() >= 0 && total > 0) {
            // Ratios of ticks, so the result does not depend on the tick rate.
            machine = (double) Math.max(0, to.machineBusyTicks() - from.machineBusyTicks()) / total * to.machineCpus();
            iowait = (double) Math.max(0, to.machineIowaitTicks() - from.machineIowaitTicks())
                    / total
                    * to.machineCpus();
        }
        List<NodeUse> nodes = new ArrayList<>(to.nodes().size());
        for (int i = 0; i < to.nodes().size(); i++) {
            NodeReading b = to.nodes().get(i);
            NodeReading a = i < from.nodes().size() ? from.nodes().get(i) : null;
            nodes.add(NodeUse.between(a, b, b.name(), b.role()));
        }
        return new ResourceUse(
                seconds,
                new ResourceUse.Cores(perSecond(bgCpu, seconds), perSecond(storeCpu, seconds), machine, iowait),
                to.machineCpus(),
                new ResourceUse.CpuSeconds(bgCpu, storeCpu),
                nodes);
    }

    private static double perSecond(double cpuSeconds, double seconds) {
        return seconds > 0 ? cpuSeconds / seconds : Double.NaN;
    }
}
