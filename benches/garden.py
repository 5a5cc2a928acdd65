#!/usr/bin/env python3
"""A large garden: peak memory, time to the first frame, and CPU while nothing changes,
for the observatory on N creatures (default 200 of 1 MiB each), against the same build on
one of those creatures in the same run (the idle figure should not grow with the garden).

    cargo build --release
    python3 benches/garden.py [--creatures 200] [--size 1M] [--idle 20] [--runs 2]

The garden is made once under --dir (one creature from gen_creature.py, copied; names c1,
c2, ..., c200). dreamwatch runs in a tmux pane (200x60, tmux_pane.py) with an empty home (no user config;
the watched history under it is kept from run to run, so runs after the first are warm);
first frame is the time until the garden list is on screen, all rows until its title says
`Garden · N` and nothing says `loading`; idle CPU is the process's
utime+stime over --idle seconds with nothing changing on disk, as a share of one core;
memory is VmHWM (peak resident set, file pages included). Budgets (DESIGN.md section 6,
issue 24): < 150 MiB, first frame <= 300 ms, every row within 1 s, idle < 0.5 % of a core.
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
from tmux_pane import Pane, cpu_seconds, status_kib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


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


def measure(binary, path, rows, idle, env):
    pane = Pane([binary, path], env, cols=200, rows=60)
    try:
        first = pane.wait(lambda s: "Garden" in s or "fatigue" in s, 120)
        every = pane.wait(lambda s: rows is None or (f"Garden · {rows} " in s and "loading" not in s), 120)
        time.sleep(2)  # let background counting settle
        c0, w0 = cpu_seconds(pane.pid), time.perf_counter()
        time.sleep(idle)
        c1, w1 = cpu_seconds(pane.pid), time.perf_counter()
        hwm = status_kib(pane.pid, "VmHWM")
    finally:
        pane.close()
    return {
        "first_frame_s": round(first, 3),
        "all_rows_s": round(every, 3),
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
    for var in ("NO_COLOR", "TMUX", "XDG_STATE_HOME"):
        env.pop(var, None)

    binary = os.path.abspath(args.bin)
    results = {"garden": [], "one": []}
    for _ in range(args.runs):
        results["garden"].append(measure(binary, garden, args.creatures, args.idle, env))
        results["one"].append(measure(binary, os.path.join(garden, "c1"), None, args.idle, env))
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
