#!/usr/bin/env python3
"""Top frames of a JFR recording's CPU samples (jdk.ExecutionSample): self and total shares per method, and optionally
the collapsed stacks a flame-graph tool reads (one line per stack, frames root first, ';'-separated, then a count).
Usage: scripts/jfr-top.py RECORDING.jfr [--top N] [--threads SUBSTRING] [--collapsed OUT.txt]
Needs the JDK's jfr tool ($JAVA_HOME/bin/jfr)."""
import argparse, collections, json, os, subprocess, sys

p = argparse.ArgumentParser()
p.add_argument("recording")
p.add_argument("--top", type=int, default=25)
p.add_argument("--threads", default=None, help="only samples of threads whose name contains this")
p.add_argument("--collapsed", default=None)
a = p.parse_args()
jfr = os.path.join(os.environ.get("JAVA_HOME", "/usr"), "bin", "jfr")
out = subprocess.run([jfr, "print", "--json", "--stack-depth", "256", "--events", "jdk.ExecutionSample", a.recording],
                     check=True, capture_output=True, text=True).stdout
events = json.loads(out)["recording"]["events"]
self_count, total_count, stacks = collections.Counter(), collections.Counter(), collections.Counter()
n = 0
for e in events:
    v = e["values"]
    thread = (v.get("sampledThread") or {}).get("javaName") or ""
    if a.threads and a.threads not in thread:
        continue
    frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in (v.get("stackTrace") or {}).get("frames", [])]
    if not frames:
        continue
    n += 1
    self_count[frames[0]] += 1
    for f in set(frames):
        total_count[f] += 1
    stacks[";".join(reversed(frames))] += 1
if n == 0:
    sys.exit("no CPU samples" + (f" in threads named *{a.threads}*" if a.threads else ""))
print(f"{n} samples")
print(f"{'self %':>7} {'total %':>8}  method")
for m, c in self_count.most_common(a.top):
    print(f"{100 * c / n:7.1f} {100 * total_count[m] / n:8.1f}  {m}")
print()
print(f"{'total %':>8}  method (by total, frames below the emulator's loop)")
for m, c in total_count.most_common(a.top * 2)[: a.top]:
    print(f"{100 * c / n:8.1f}  {m}")
if a.collapsed:
    with open(a.collapsed, "w") as f:
        for s, c in stacks.most_common():
            f.write(f"{s} {c}\n")
