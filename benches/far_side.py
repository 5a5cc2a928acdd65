#!/usr/bin/env python3
"""A far side's first snapshot: what `dreamwatch inspect --follow --wire GARDEN` (the
process an observatory starts on each machine it watches over ssh) costs until it says
`ready`, with nothing kept from an earlier run (an empty cache directory each run).
GARDEN is a garden of creatures or one creature.

    cargo build --release
    python3 benches/fleet.py --runs 1 --appends 0 --idle 0   # makes the fleet's gardens once
    python3 benches/far_side.py /tmp/dreamwatch-bench/fleet-5x200-256K/h2 [--runs 4] [--vs OTHER_BINARY]

Per run: the wall time to `ready`, the process's user and system CPU then (from /proc),
and the wire lines and bytes sent up to it. With `--vs` the two binaries run by turns
(this one first), so both meet the machine in the same state.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def one_run(binary, garden):
    with tempfile.TemporaryDirectory(prefix="dreamwatch-far-") as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache, HOME=cache)
        t0 = time.perf_counter()
        proc = subprocess.Popen([binary, "inspect", "--follow", "--wire", garden],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        lines = size = 0
        result = None
        try:
            for line in proc.stdout:
                lines += 1
                size += len(line)
                if line.startswith(b'{"t":"ready"'):
                    wall = time.perf_counter() - t0
                    user, system = cpu_of(proc.pid)
                    result = {"ready_s": round(wall, 3), "user_s": user, "sys_s": system,
                              "lines": lines, "bytes": size}
                    break
        finally:
            proc.kill()
            proc.wait()
        if result is None:
            raise SystemExit(f"{binary} ended before it was ready")
        return result


def summary(runs):
    return {key: [r[key] for r in runs] for key in runs[0]} | {
        "ready_median_s": round(statistics.median(r["ready_s"] for r in runs), 3),
        "cpu_median_s": round(statistics.median(r["user_s"] + r["sys_s"] for r in runs), 3),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("garden", help="a garden of creatures, or one creature")
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--vs", default=None, help="another binary, run by turns with --bin")
    ap.add_argument("--runs", type=int, default=4)
    args = ap.parse_args()
    binaries = [os.path.abspath(args.bin)] + ([os.path.abspath(args.vs)] if args.vs else [])
    runs = {b: [] for b in binaries}
    for _ in range(args.runs):
        for b in binaries:
            runs[b].append(one_run(b, os.path.abspath(args.garden)))
    print(json.dumps({"garden": args.garden, **{b: summary(r) for b, r in runs.items()}}, indent=2))


if __name__ == "__main__":
    sys.exit(main())
