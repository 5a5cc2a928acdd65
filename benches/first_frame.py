#!/usr/bin/env python3
"""Time to the first complete frame, and peak memory, opening a creature with a large
conversation log, against `less +G` on the same log in the same run.

    python3 benches/gen_creature.py /tmp/big/creature --size 1G
    cargo build --release
    python3 benches/first_frame.py /tmp/big/creature [--view 4] [--runs 3]
    python3 benches/first_frame.py /tmp/dreamwatch-bench/garden-200-1M --view "" --vs OTHER_BINARY
    python3 benches/first_frame.py /tmp/big/creature --view "" --home ~/dw-home   # its history

It runs in a fresh home (no config, no watched history: the first run writes the
history's first look, the others read it back) unless `--home` names one. A garden (no
conversation of its own) is timed without the peer. With `--vs` another
binary is timed by turns with `--bin`, in the same run.

dreamwatch runs in a pseudo-terminal (120x36); the clock stops at the end of its first
frame (frames are wrapped in synchronized updates). With `--view 4` the key 4 is sent once
the first frame is out, and the clock runs on to the end of the recall frame. `less +G`
stops when it has drawn the end of the file; so does `less -n +G` (no line numbers), timed
beside it; and `printf` of the frame's end marker, the harness's own floor
(`floor_printf_ms`). Memory is VmHWM from /proc (peak resident set,
file pages included). Budget: first frame <= 150 ms, < 64 MiB.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from latency import FRAME_END, read_until, spawn  # noqa: E402


def vm_hwm_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def run_dreamwatch(binary, creature, env, view):
    t0 = time.perf_counter()
    pid, fd = spawn([binary, creature], env)
    read_until(fd, FRAME_END, 120)
    first = time.perf_counter() - t0
    view_time = None
    if view:
        t1 = time.perf_counter()
        os.write(fd, view.encode())
        read_until(fd, FRAME_END, 120)
        view_time = time.perf_counter() - t1
    hwm = vm_hwm_kib(pid)
    os.kill(pid, 15)
    os.waitpid(pid, 0)
    return first, view_time, hwm


def run_less(log, env, flags):
    with open(log, "rb") as f:
        f.seek(-4096, os.SEEK_END)
        tail = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    marker = tail[-12:]
    t0 = time.perf_counter()
    pid, fd = spawn(["less", *flags, "+G", log], env)
    read_until(fd, marker[:6], 120)
    took = time.perf_counter() - t0
    hwm = vm_hwm_kib(pid)
    os.kill(pid, 15)
    os.waitpid(pid, 0)
    return took, hwm


def run_floor(env):
    """The harness's own floor: a process that writes the frame's end marker at once
    (spawn, pseudo-terminal, the read), timed as the others are."""
    t0 = time.perf_counter()
    pid, fd = spawn(["printf", FRAME_END.decode()], env)
    read_until(fd, FRAME_END, 120)
    took = time.perf_counter() - t0
    os.waitpid(pid, 0)
    return took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("creature", help="a creature, or a garden (timed without the peer)")
    ap.add_argument("--bin", default="target/release/dreamwatch")
    ap.add_argument("--view", default="4", help="key to press after the first frame ('' for none)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vs", default=None, help="another dreamwatch binary, timed by turns with --bin")
    ap.add_argument("--home", default=None,
                    help="the home to run in (its watched history read at start); a fresh one by default")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dreamwatch-first-frame-") as fresh:
        return measure(args, os.path.abspath(args.home or fresh))


def measure(args, home):
    # The observatory's config, state (the watched history) and cache in that home only.
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_STATE_HOME=os.path.join(home, ".local/state"),
               XDG_CACHE_HOME=os.path.join(home, ".cache"), TERM="xterm-256color", LESS="")
    log = os.path.join(args.creature, ".self", "conversation.jsonl")
    binaries = [args.bin] + ([args.vs] if args.vs else [])
    dw = {b: [] for b in binaries}
    for _ in range(args.runs):
        for b in binaries:
            dw[b].append(run_dreamwatch(os.path.abspath(b), args.creature, env, args.view))
    result = {}
    for b, runs in dw.items():
        key = "dreamwatch" if b == args.bin else f"vs {b}"
        result[key] = {
            "first_frame_ms": round(statistics.median(r[0] for r in runs) * 1000, 1),
            "view_frame_ms": round(statistics.median(r[1] for r in runs) * 1000, 1) if args.view else None,
            "peak_rss_mib": round(max(r[2] for r in runs) / 1024, 1),
        }
    if os.path.isfile(log):
        less = [run_less(log, env, []) for _ in range(args.runs)]
        less_n = [run_less(log, env, ["-n"]) for _ in range(args.runs)]
        result |= {
            "log_bytes": os.path.getsize(log),
            "less_+G_ms": round(statistics.median(r[0] for r in less) * 1000, 1),
            "less_peak_rss_mib": round(max(r[1] for r in less) / 1024, 1),
            "less_-n_+G_ms": round(statistics.median(r[0] for r in less_n) * 1000, 1),
            # What no program timed here can go below: half of `less +G` under it is out
            # of any program's reach in this harness.
            "floor_printf_ms": round(statistics.median(run_floor(env) for _ in range(args.runs)) * 1000, 1),
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
