#!/usr/bin/env python3
"""The shares of a JFR recording's jdk.ExecutionSample events (docs/benchmarks.md, "JFR profiles
before and after"): by the package group of the top frame (self time), by the innermost dev.jarvis
frame on the stack (the protocol work that called into Jackson or the JDK counts as protocol work),
and the top methods by self samples.

    jarvis-benchmarks/jfr-shares.py FILE.jfr [TOP_N]

JFR samples Java code only: the JIT compiler, GC and kernel time (thread wake-ups) are not in it.
"""
import json, subprocess, sys, collections
f = sys.argv[1]; topn = int(sys.argv[2]) if len(sys.argv) > 2 else 10
raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", "200", "--events", "jdk.ExecutionSample", f],
                     check=True, capture_output=True, text=True).stdout
events = json.loads(raw)["recording"]["events"]

def name(fr):
    m = fr["method"]; t = m["type"]["name"].replace("/", ".")
    return t + "." + m["name"]

def group(cls):
    if cls.startswith("dev.jarvis.model"): return "protocol: generated model"
    if cls.startswith("dev.jarvis.core.validation") : return "protocol: schema validation"
    if cls.startswith("dev.jarvis.core.canonical") or cls.startswith("dev.jarvis.core.hash") or cls.startswith("dev.jarvis.core.chain"): return "protocol: canonical JSON, hash, chain"
    if cls.startswith("dev.jarvis.host.internal.InMemory") : return "protocol: store"
    if cls.startswith("dev.jarvis.host") : return "protocol: host kit, rules, binding"
    if cls.startswith("dev.jarvis."): return "protocol: core (headers, exchange, other)"
    if cls.startswith("io.undertow") or cls.startswith("org.xnio") or cls.startswith("org.jboss"): return "runtime: Undertow/XNIO"
    if cls.startswith("com.fasterxml.jackson"): return "runtime: Jackson"
    if cls.startswith("jdk.jfr") : return "runtime: JFR"
    return "runtime: JDK"

total = len(events)
self_group = collections.Counter(); self_method = collections.Counter()
inclusive_protocol = 0; protocol_threads = 0
caller_group = collections.Counter()
threads = collections.Counter()
for e in events:
    frames = (e["values"].get("stackTrace") or {}).get("frames") or []
    th = (e["values"].get("sampledThread") or {}).get("javaName") or "?"
    threads[th.rstrip("0123456789 -")] += 1
    if not frames:
        self_group["runtime: JDK"] += 1; continue
    top = name(frames[0])
    self_method[top] += 1
    g = group(top)
    self_group[g] += 1
    # inclusive: the innermost dev.jarvis frame owns the sample (Jackson/JDK work called by protocol code)
    owner = next((name(fr) for fr in frames if name(fr).startswith("dev.jarvis.")), None)
    if owner:
        inclusive_protocol += 1
        caller_group[group(owner) if not g.startswith("protocol") else g] += 1
    else:
        caller_group[g] += 1
print(f"samples: {total}")
print("threads:", ", ".join(f"{t} {n}" for t, n in threads.most_common(6)))
print("\n| group (self time, top frame) | samples | share |\n|---|---|---|")
for g, n in sorted(self_group.items()):
    print(f"| {g} | {n} | {100*n/total:.1f} % |")
ps = sum(n for g, n in self_group.items() if g.startswith("protocol"))
print(f"| **protocol work, self** | {ps} | **{100*ps/total:.1f} %** |")
print(f"| **runtime, self** | {total-ps} | **{100*(total-ps)/total:.1f} %** |")
print(f"\ninclusive (a dev.jarvis.* frame anywhere on the stack): protocol {inclusive_protocol} = {100*inclusive_protocol/total:.1f} %, runtime alone {total-inclusive_protocol} = {100*(total-inclusive_protocol)/total:.1f} %")
print("\n| by owner (innermost dev.jarvis frame, else top frame) | samples | share |\n|---|---|---|")
for g, n in sorted(caller_group.items()):
    print(f"| {g} | {n} | {100*n/total:.1f} % |")
print(f"\n| top {topn} methods (self) | samples | share |\n|---|---|---|")
for m, n in self_method.most_common(topn):
    print(f"| `{m}` | {n} | {100*n/total:.1f} % |")
