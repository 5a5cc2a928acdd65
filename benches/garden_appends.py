#!/usr/bin/env python3
"""The CPU an append to one creature costs the observatory in a local garden of many
small creatures whose runners record their usage (`.sys/usage.jsonl`, three models
priced each), by turns with another build.

    cargo build --release
    python3 benches/garden_appends.py [--creatures 1000] [--appends 150] [--vs OTHER_BINARY]

The garden is made once under --dir; each run is a fresh home; the observatory runs in a
pseudo-terminal (200x60); a line is appended to the first creature's observations.md, the
clock waits for the frame that follows, then 20 ms. CPU is the observatory's
utime+stime from /proc over the appends.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import FRAME_END, builds, cpu_seconds, drain, home_env, read_until, spawn  # noqa: E402

MODELS = ["anthropic/claude-sonnet-4-5", "openai/gpt-5", "ollama/qwen3"]


def make_garden(root, creatures):
    garden = os.path.join(root, f"garden-usage-{creatures}")
    if os.path.isdir(os.path.join(garden, f"c{creatures}")):
        return garden
    shutil.rmtree(garden, ignore_errors=True)
    for i in range(1, creatures + 1):
        c = os.path.join(garden, f"c{i}")
        os.makedirs(os.path.join(c, ".self"))
        os.makedirs(os.path.join(c, ".sys"))
        with open(os.path.join(c, "BIRTH.json"), "w") as f:
            json.dump({"name": f"c{i}", "model": MODELS[0]}, f)
        with open(os.path.join(c, ".self", "observations.md"), "w") as f:
            f.write("# Observations\n\n## 2026-11-28\n\nGRN 10:00 hello\n")
        sums = {m: {"calls": 10 + i, "input": 1000 * i, "output": 100 * i} for m in MODELS}
        line = {"t": "2026-11-28T10:00:00.000Z", "call": "chat", "model": MODELS[0], "input": 10,
                "output": 1, "day": "2026-11-28", "totals": sums, "today": sums}
        with open(os.path.join(c, ".sys", "usage.jsonl"), "w") as f:
            f.write(json.dumps(line) + "\n")
    return garden


def run(binary, garden, appends):
    home = tempfile.mkdtemp(prefix="dreamwatch-bench-home-")
    try:
        pid, fd = spawn([binary, garden], home_env(home), cols=200, rows=60)
        read_until(fd, FRAME_END, 60)
        drain(fd, quiet=3.0)
        c0 = cpu_seconds(pid)
        with open(os.path.join(garden, "c1", ".self", "observations.md"), "a") as f:
            for i in range(appends):
                f.write(f"YLW 11:{i % 60:02d} appended line {i}\n")
                f.flush()
                read_until(fd, FRAME_END, 10)
                drain(fd, quiet=0.01)
                time.sleep(0.02)
        took = cpu_seconds(pid) - c0
        os.kill(pid, 15)
        os.waitpid(pid, 0)
        return round(1000 * took / appends, 2)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--vs", default=None, help="another build, run by turns")
    ap.add_argument("--creatures", type=int, default=1000)
    ap.add_argument("--appends", type=int, default=150)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "dreamwatch-bench"))
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    garden = make_garden(args.dir, args.creatures)
    turns = builds(args.bin, args.vs)
    out = {"creatures": args.creatures, "appends": args.appends}
    for name, _ in turns:
        out[name] = {"cpu_ms_per_append": []}
    for _ in range(args.runs):
        for name, binary in turns:
            out[name]["cpu_ms_per_append"].append(run(binary, garden, args.appends))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
