package org.bgbench.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.OptionSpec;

/** The sections of a command's help, in the order they are printed, and which options each holds. */
enum HelpSection {
    EXPERIMENT("The experiment"),
    STORE("The store"),
    WORKERS("Workers and security"),
    SERVING("Serving and security"),
    OPEN_MODEL("The open model"),
    OUTPUT("Output"),
    HELP("Help"),
    /** An option no section names yet (the help test refuses it). */
    OTHER("Other options");

    private final String heading;

    HelpSection(String heading) {
        this.heading = heading;
    }

    private static final Map<String, HelpSection> BY_NAME = new HashMap<>();
    /** Options whose name means something else in one command: "command option". */
    private static final Map<String, HelpSection> BY_COMMAND = new HashMap<>();

    static {
        put(
                EXPERIMENT,
                "--workload",
                "--threads",
                "--duration",
                "--operations",
                "--warmup",
                "--beta",
                "--sla",
                "--target",
                "--delta",
                "--search",
                "--climbing-factor",
                "--max-threads",
                "--reset",
                "--no-confirm",
                "--rate-delta",
                "--no-rate",
                "--rate-max-threads",
                "--pi",
                "--m",
                "--deltas",
                "--skip",
                "--mix-tolerance",
                "--probe",
                "--method",
                "--inflation",
                "--network-mbps",
                "--plan",
                "--mode",
                "--write-fraction",
                "--members",
                "--theta",
                "--rates",
                "--requests",
                "--seed",
                "--fragments",
                "--writes",
                "--limit",
                "--repair",
                "--nodes",
                "--add",
                "--added-nodes",
                "--settled",
                "--request-set",
                "--repeats",
                "--read-pct",
                "--threads-per-node",
                "--warmup-sets",
                "--baseline",
                "--after",
                "--window",
                "--margin",
                "--max-points",
                "--interpolation",
                "--previous",
                "--scale",
                "--resume");
        put(STORE, "--store", "--embedded", "-p", "-P", "--load", "--replace", "--restore-image", "--store-host");
        put(
                WORKERS,
                "--workers",
                "--secret",
                "--secret-file",
                "--tls",
                "--tls-ca",
                "--tls-pin",
                "--worker-rates",
                "--calibrate",
                "--keep-going",
                "--listen",
                "--tls-cert",
                "--tls-key",
                "--dir",
                "--allow-store-code");
        put(SERVING, "--token", "--allow-host", "--allow-external");
        put(
                OPEN_MODEL,
                "--arrivals",
                "--arrival-process",
                "--max-lag",
                "--max-late-pct",
                "--model",
                "--in-flight",
                "--rate-unit",
                "--max-rate");
        put(OUTPUT, "--out", "--quiet", "--json", "--overwrite", "--metrics", "--runs");
        put(HELP, "--help", "--version");
        // dzipf's --workers is a number of workers to model, not addresses; the deck listens for browsers.
        BY_COMMAND.put("dzipf --workers", EXPERIMENT);
        BY_COMMAND.put("deck --listen", SERVING);
    }

    private static void put(HelpSection section, String... names) {
        for (String n : List.of(names)) {
            BY_NAME.put(n, section);
        }
    }

    /** The section of {@code option} in the help of the command named {@code command}. */
    static HelpSection of(String command, OptionSpec option) {
        String name = option.longestName();
        HelpSection s = BY_COMMAND.get(command + " " + name);
        return s != null ? s : BY_NAME.getOrDefault(name, OTHER);
    }

    String heading() {
        return heading;
    }
}
