#!/usr/bin/env python3
"""A garden watched for a long time: what the watched history it kept costs a new
observatory, in CPU over its first seconds and in peak memory.

    cargo build --release
    python3 benches/history_garden.py [--kib 300] [--seconds 4] [--runs 3] [--vs OTHER_BINARY]

The garden is benches/garden.py's (200 creatures of 1 MiB under --dir, made if missing).
A home is made beside it whose watched history holds, for every creature, a record of
changes of --kib KiB (lines as the observatory writes them: observations seen added, an
hour apart), as a garden watched for months has. dreamwatch runs on the garden in a
pseudo-terminal (120x36) with that home for --seconds, nothing changing on disk; then its
CPU time (utime+stime) and its peak resident set (VmHWM) are read from /proc. With `--vs`
another binary runs by turns with --bin. Medians of --runs.
"""
import argparse
import hashlib
import json
import os
import select
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from garden import make_garden  # noqa: E402
from latency import spawn  # noqa: E402


def record_line(i):
    """One change as the watched history records it: observations seen added."""
    t = f"2026-03-{1 + i // 24 % 28:02d}T{i % 24:02d}:00:00.000Z"
    added = [{"text": f"GRN {i % 24:02d}:00 a fact seen at look {i}, line {k}", "under": t[:10]}
             for k in range(4)]
    return json.dumps({"t": t, "file": "observations.md",
                       "changes": {"kind": "observations", "added": added}}) + "\n"


def make_home(garden, kib):
    home = os.path.join(os.path.dirname(garden), f"home-history-{kib}K")
    store = os.path.join(home, ".local/state/dreamwatch/history")
    if os.path.isdir(store):
        return home
    lines, i = [], 0
    while sum(map(len, lines)) < kib * 1024:
        lines.append(record_line(i))
        i += 1
    text = "".join(lines)
    for name in sorted(os.listdir(garden)):
        path = os.path.join(garden, name)
        # The store's folder of a creature: the first 8 bytes of the SHA-256 of its path.
        folder = os.path.join(store, hashlib.sha256(path.encode()).hexdigest()[:16])
        os.makedirs(folder)
        with open(os.path.join(folder, "changes.jsonl"), "w") as f:
            f.write(text)
        with open(os.path.join(folder, "state.json"), "w") as f:
            json.dump({"path": path, "first": "2026-03-01T00:00:00.000Z", "seen": {}}, f)
    return home


def run(binary, garden, env, seconds):
    pid, fd = spawn([binary, garden], env)
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                os.read(fd, 1 << 16)
            except OSError:
                break
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/status") as f:
        hwm = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    os.kill(pid, 15)
    os.waitpid(pid, 0)
    return cpu, hwm / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--vs", default=None)
    ap.add_argument("--kib", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "dreamwatch-bench"))
    args = ap.parse_args()
    garden = make_garden(args.dir, 200, "1M")
    home = make_home(garden, args.kib)
    binaries = [args.bin] + ([args.vs] if args.vs else [])
    runs = {b: [] for b in binaries}
    for _ in range(args.runs):
        for b in binaries:
            # A copy of the home each run: what a run writes is not the next run's.
            with tempfile.TemporaryDirectory(prefix="dreamwatch-history-home-") as tmp:
                copy = os.path.join(tmp, "home")
                shutil.copytree(home, copy)
                env = dict(os.environ, HOME=copy, XDG_CONFIG_HOME=os.path.join(copy, ".config"),
                           XDG_STATE_HOME=os.path.join(copy, ".local/state"),
                           XDG_CACHE_HOME=os.path.join(copy, ".cache"), TERM="xterm-256color")
                runs[b].append(run(os.path.abspath(b), garden, env, args.seconds))
    result = {"creatures": 200, "record_kib_each": args.kib, "seconds": args.seconds}
    for b, rs in runs.items():
        result["dreamwatch" if b == args.bin else f"vs {b}"] = {
            "cpu_s": round(statistics.median(r[0] for r in rs), 2),
            "peak_rss_mib": round(statistics.median(r[1] for r in rs), 1),
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
