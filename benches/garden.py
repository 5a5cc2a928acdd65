#!/usr/bin/env python3
"""A large garden: peak memory, time to the first frame, and CPU while nothing changes,
for the observatory on N creatures (default 200 of 1 MiB each), against the same build on
one of those creatures in the same run (the idle figure should not grow with the garden).

    cargo build --release
    python3 benches/garden.py [--creatures 200] [--size 1M] [--idle 20] [--runs 2]

The garden is made once under --dir (one creature from gen_creature.py, copied; names c1,
c2, ..., c200). dreamwatch runs in a pseudo-terminal (200x60) with an empty home (no user
config); start is the time to the end of its first frame; idle CPU is the process's
utime+stime over --idle seconds with nothing changing on disk, as a share of one core;
memory is VmHWM (peak resident set, file pages included). Budgets (DESIGN.md section 6):
< 150 MiB, startup < 1 s, idle < 0.5 % of a core.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import FRAME_END, read_until, spawn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def make_garden(root, creatures, size):
    garden = os.path.join(root, f"garden-{creatures}-{size}")
    if os.path.isdir(garden) and len(os.listdir(garden)) == creatures:
        return garden
    shutil.rmtree(garden, ignore_errors=True)
    os.makedirs(garden)
    first = os.path.join(garden, "c1")
    subprocess.run(
        [sys.executable, os.path.join(HERE, "gen_creature.py"), first, "--size", size],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    for i in range(2, creatures + 1):
        shutil.copytree(first, os.path.join(garden, f"c{i}"), symlinks=True)
    return garden


def drain(fd, seconds):
    """Reads whatever the program draws for `seconds` (a tick redraws the clock)."""
    deadline = time.perf_counter() + seconds
    import select

    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def measure(binary, path, idle, env):
    t0 = time.perf_counter()
    pid, fd = spawn([binary, path], env, cols=200, rows=60)
    try:
        read_until(fd, FRAME_END, 120)
        start = time.perf_counter() - t0
        drain(fd, 2)  # let background counting settle
        c0, w0 = cpu_seconds(pid), time.perf_counter()
        drain(fd, idle)
        c1, w1 = cpu_seconds(pid), time.perf_counter()
        hwm = status_kib(pid, "VmHWM")
    finally:
        os.kill(pid, 15)
        os.waitpid(pid, 0)
        os.close(fd)
    return {
        "start_s": round(start, 3),
        "idle_cpu_pct": round(100 * (c1 - c0) / (w1 - w0), 3),
        "peak_rss_mib": round(hwm / 1024, 1),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bin", default="target/release/dreamwatch")
    p.add_argument("--creatures", type=int, default=200)
    p.add_argument("--size", default="1M")
    p.add_argument("--idle", type=float, default=20.0)
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "dreamwatch-bench"))
    args = p.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    garden = make_garden(args.dir, args.creatures, args.size)
    home = tempfile.mkdtemp(prefix="dreamwatch-bench-home-")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"), TERM="xterm-256color")
    env.pop("NO_COLOR", None)

    results = {"garden": [], "one": []}
    for _ in range(args.runs):
        results["garden"].append(measure(args.bin, garden, args.idle, env))
        results["one"].append(measure(args.bin, os.path.join(garden, "c1"), args.idle, env))
    shutil.rmtree(home, ignore_errors=True)

    def best(rows, key):
        return min(r[key] for r in rows)

    summary = {
        "creatures": args.creatures,
        "size": args.size,
        "garden": {k: best(results["garden"], k) for k in results["garden"][0]},
        "one_creature": {k: best(results["one"], k) for k in results["one"][0]},
        "runs": results,
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
