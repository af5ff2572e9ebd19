package org.bgbench.measurement.resource;

import java.util.concurrent.CompletableFuture;

/**
 * Keeps the latest reading of one store host without ever blocking its caller: each {@link #latestAndAsk()} returns
 * the newest reading that has arrived — or {@link NodeReading#none} while the last request failed, so the interval is
 * a gap — and sends the next request (unless one is still out, so a slow host never gets a pile of them). Called once per sampling second, so each second's figures come from the answer to the previous
 * second's request: they lag by up to a second, and are computed over the times the answers arrived.
 */
final class StoreHostPoller {
    private final NodeExporterClient client;
    private volatile NodeReading latest;
    private volatile String lastError;
    private CompletableFuture<?> inFlight;

    StoreHostPoller(NodeExporterClient client) {
        this.client = client;
        this.latest = NodeReading.none(client.address(), NodeReading.STORE);
    }

    String name() {
        return client.address();
    }

    /** Why the last request failed, or null when it did not. */
    String lastError() {
        return lastError;
    }

    synchronized NodeReading latestAndAsk() {
        NodeReading r = lastError != null ? NodeReading.none(client.address(), NodeReading.STORE) : latest;
        if (inFlight == null || inFlight.isDone()) {
            inFlight = client.fetch().whenComplete((reading, failure) -> {
                if (reading != null) {
                    latest = reading;
                    lastError = null;
                } else {
                    lastError = NodeExporterClient.describe(failure);
                }
            });
        }
        return r;
    }

    void close() {
        client.close();
    }
}
