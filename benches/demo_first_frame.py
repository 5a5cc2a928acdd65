#!/usr/bin/env python3
"""Time from starting `dreamwatch demo` (a fresh garden of three rehearsal creatures,
created and hosted in one process) to its first complete frame, in a 120x36
pseudo-terminal (frames end with the synchronized-update mark).

    python3 benches/demo_first_frame.py target/release/dreamwatch [--runs 5]
"""
import argparse
import os
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import FRAME_END, read_until, spawn  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=f"{home}/config",
                       XDG_STATE_HOME=f"{home}/state", TERM="xterm-256color")
            env.pop("NO_COLOR", None)
            t0 = time.perf_counter()
            pid, _fd = spawn([args.binary, "demo", "--dir", f"{d}/demo"], env)
            read_until(_fd, FRAME_END, 60)
            times.append(time.perf_counter() - t0)
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
    ms = [round(t * 1000, 1) for t in times]
    print(f"demo first frame: median {statistics.median(ms)} ms, runs {ms}")


if __name__ == "__main__":
    main()
