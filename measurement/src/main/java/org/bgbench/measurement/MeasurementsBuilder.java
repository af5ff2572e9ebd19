package org.bgbench.measurement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.bgbench.measurement.resource.NodeExporterClient;
import org.bgbench.measurement.resource.ResourceMonitor;

/** The settings of a {@link Measurements}: threads, β, the sampling period, stripes, and what resources to read. */
public final class MeasurementsBuilder {
    int threads = 1;
    long betaNanos = 100_000_000L;
    long periodNanos = 1_000_000_000L;
    int stripes = defaultStripes(Runtime.getRuntime().availableProcessors());
    Collection<Long> storePids = List.of();
    Supplier<? extends Collection<Long>> storePidFinder;
    List<String> storeHosts = List.of();
    boolean bgCpuIncludesStore;
    ResourceMonitor monitor;
    final List<Consumer<SecondSample>> listeners = new ArrayList<>();

    MeasurementsBuilder() {}

    /** Emulator threads of the run (reported, not enforced). */
    public MeasurementsBuilder threads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1");
        }
        this.threads = threads;
        return this;
    }

    /** The SLA's β; default 100 ms. */
    public MeasurementsBuilder beta(Duration beta) {
        if (beta.isNegative()) {
            throw new IllegalArgumentException("negative beta");
        }
        this.betaNanos = beta.toNanos();
        return this;
    }

    /** Length of a sampling interval; default 1 s. */
    public MeasurementsBuilder samplePeriod(Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("sample period must be positive");
        }
        this.periodNanos = period.toNanos();
        return this;
    }

    /** Stripe count, rounded up to a power of two; default {@link #defaultStripes(int)} of the processors. */
    public MeasurementsBuilder stripes(int stripes) {
        if (stripes < 1 || stripes > 1024) {
            throw new IllegalArgumentException("stripes must be 1..1024");
        }
        this.stripes = ceilPowerOfTwo(stripes);
        return this;
    }

    /** Local pids of the store; each counts with all its descendants. */
    public MeasurementsBuilder storePids(Collection<Long> pids) {
        this.storePids = List.copyOf(pids);
        return this;
    }

    /**
     * Finds the store server's pids again when one of {@link #storePids} exits during the run (a server that was
     * restarted), so its new processes count from then on; asked on a thread of its own, at most once a second.
     */
    public MeasurementsBuilder storePidFinder(Supplier<? extends Collection<Long>> finder) {
        this.storePidFinder = finder;
        return this;
    }

    /**
     * Store hosts whose Prometheus node exporters are read each second ({@code HOST} or {@code HOST:PORT}, see
     * {@link NodeExporterClient#address(String)}).
     */
    public MeasurementsBuilder storeHosts(List<String> hosts) {
        this.storeHosts = List.copyOf(hosts);
        return this;
    }

    /**
     * Whether the store runs inside BG's process (sqlite, memory): BG's CPU then includes the store's work, and the
     * result gives no warning that BG's own CPU was saturated.
     */
    public MeasurementsBuilder bgCpuIncludesStore(boolean inProcess) {
        this.bgCpuIncludesStore = inProcess;
        return this;
    }

    /** A resource monitor to use instead of one for {@link #storePids} and {@link #storeHosts}. */
    public MeasurementsBuilder resourceMonitor(ResourceMonitor monitor) {
        this.monitor = monitor;
        return this;
    }

    /** Receives every sample, warm-up ones flagged, on the sampling thread; keep it short. */
    public MeasurementsBuilder listener(Consumer<SecondSample> listener) {
        listeners.add(listener);
        return this;
    }

    public Measurements build() {
        return new Measurements(this);
    }

    /**
     * Twice the processors, as a power of two, at most 32: virtual threads run on about one carrier per
     * processor, so two carriers rarely land on the same stripe, while memory stays bounded on large machines.
     */
    public static int defaultStripes(int processors) {
        return Math.min(32, ceilPowerOfTwo(2 * Math.max(1, processors)));
    }

    private static int ceilPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
