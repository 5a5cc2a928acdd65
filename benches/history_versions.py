#!/usr/bin/env python3
"""The CPU a change of a small memory file costs the observatory as the watched history's
versions of it pile up (one version a change, within a sixteenth of `history_mib`: a
2.5 KiB file keeps about 1,600), by blocks of changes; with `--vs`, another build by turns.

    cargo build --release
    python3 benches/history_versions.py [--changes 1500] [--block 250] [--vs OTHER_BINARY]

Each run is a fresh home and a fresh creature whose `observations.md` (about 2.5 KiB) is
rewritten with a new last line at each change; the clock waits for the frame that shows
it, then 10 ms. CPU is the observatory's utime+stime from /proc over each block.
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


def run(binary, changes, block):
    tmp = tempfile.mkdtemp(prefix="dreamwatch-versions-")
    try:
        creature = os.path.join(tmp, "creature")
        os.makedirs(os.path.join(creature, ".self"))
        with open(os.path.join(creature, "BIRTH.json"), "w") as f:
            json.dump({"name": "versions", "model": "bench"}, f)
        obs = os.path.join(creature, ".self", "observations.md")
        base = "# Observations\n\n## 2026-11-22\n\n" + "".join(
            f"GRN 10:{i % 60:02d} an older observation number {i}\n" for i in range(40)
        )
        with open(obs, "w") as f:
            f.write(base)
        pid, fd = spawn([binary, creature], home_env(tmp))
        read_until(fd, FRAME_END, 10)
        drain(fd, quiet=1.0)
        blocks = []
        c0 = cpu_seconds(pid)
        for i in range(changes):
            with open(obs, "w") as f:
                f.write(base + f"YLW 17:{i % 60:02d} the newest observation {i}\n")
            read_until(fd, FRAME_END, 5)
            drain(fd, quiet=0.005)
            time.sleep(0.01)
            if (i + 1) % block == 0:
                c1 = cpu_seconds(pid)
                blocks.append(round(1000 * (c1 - c0) / block, 2))
                c0 = c1
        os.kill(pid, 15)
        os.waitpid(pid, 0)
        return blocks
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--vs", default=None, help="another build, run by turns")
    ap.add_argument("--changes", type=int, default=1500)
    ap.add_argument("--block", type=int, default=250)
    args = ap.parse_args()
    out = {"changes": args.changes, "block": args.block}
    for name, binary in builds(args.bin, args.vs):
        out[name] = {"cpu_ms_per_change_by_block": run(binary, args.changes, args.block)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
