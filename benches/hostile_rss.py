#!/usr/bin/env python3
"""Peak memory of dreamwatch on creatures with large files: what a hostile (or broken)
creature can write to blow the observatory's memory up, and large files of valid records.

    cargo build --release
    python3 benches/hostile_rss.py [--bin PATH] [--dir /tmp/dreamwatch-hostile] [--no-observatory]

Cases (each a creature of its own):
  bad-dreams     5,000,000 one-byte bad lines in .self/dreams.jsonl (10 MB)
  bad-events     5,000,000 one-byte bad lines in .sys/events.jsonl (10 MB)
  empty-dreams   60 MB of `{}` lines in .self/dreams.jsonl (20,000,000 valid dreams)
  observations   16 MB of short tag lines in .self/observations.md
  iterations     5,000,000 `{}` lines in .sys/iterations.jsonl (15 MB)
  creator-log    5,000,000 `{}` lines in .self/creator-log.jsonl (15 MB)
  dreams-large   64 MB of real-sized dreams (about 1.5 KB reflections: 42,000 dreams)
  events-large   64 MB of tool-call events with 1 KB outputs (about 55,000 events)
  obs-large      15 MB of real-sized tag lines in .self/observations.md (about 250,000);
                 whole files larger than 16 MiB are refused, not read
  small          the same creature with none of these files large: what a creature costs

Peak RSS of `inspect --json` is `/usr/bin/time -f %M` (KiB, the kernel's maximum resident
set); the observatory's is VmHWM once its first frame is drawn and two more seconds have
passed (200x60 pseudo-terminal, empty home). Run by hand; it is not part of the test suite.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from garden import drain, status_kib  # noqa: E402
from latency import FRAME_END, read_until, spawn  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def write_lines(path, line, count):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    chunk = line * 100_000
    with open(path, "wb") as f:
        for _ in range(count // 100_000):
            f.write(chunk)
        f.write(line * (count % 100_000))


def make(base):
    cases = {}
    c = os.path.join(base, "bad-dreams")
    write_lines(os.path.join(c, ".self/dreams.jsonl"), b"x\n", 5_000_000)
    cases["bad-dreams"] = c
    c = os.path.join(base, "bad-events")
    os.makedirs(os.path.join(c, ".self"), exist_ok=True)
    write_lines(os.path.join(c, ".sys/events.jsonl"), b"x\n", 5_000_000)
    cases["bad-events"] = c
    c = os.path.join(base, "empty-dreams")
    write_lines(os.path.join(c, ".self/dreams.jsonl"), b"{}\n", 20_000_000)
    cases["empty-dreams"] = c
    c = os.path.join(base, "observations")
    line = b"RED 10:00 x\n"
    write_lines(os.path.join(c, ".self/observations.md"), line, (16 << 20) // len(line))
    cases["observations"] = c
    c = os.path.join(base, "iterations")
    os.makedirs(os.path.join(c, ".self"), exist_ok=True)
    write_lines(os.path.join(c, ".sys/iterations.jsonl"), b"{}\n", 5_000_000)
    cases["iterations"] = c
    c = os.path.join(base, "creator-log")
    write_lines(os.path.join(c, ".self/creator-log.jsonl"), b"{}\n", 5_000_000)
    cases["creator-log"] = c

    words = "the garden keeps its notes short and checks the logs before acting again ".split()
    reflection = " ".join(words[i % len(words)] for i in range(220))
    dream = json.dumps({
        "t": "2026-03-01T10:00:00Z", "actions": 12, "reflection": reflection,
        "priority": "keep the notes short and check the logs first", "observations": 4,
        "deep": False,
    }).encode() + b"\n"
    c = os.path.join(base, "dreams-large")
    write_lines(os.path.join(c, ".self/dreams.jsonl"), dream, (64 << 20) // len(dream))
    cases["dreams-large"] = c
    output = json.dumps({"stdout": " ".join(words) * 13, "stderr": ""})
    event = json.dumps({
        "t": "2026-03-01T10:00:00Z", "type": "creature.tool_call", "tool": "bash",
        "input": {"command": "ls -la workspace"}, "ok": True, "output": output, "ms": 12,
    }).encode() + b"\n"
    c = os.path.join(base, "events-large")
    os.makedirs(os.path.join(c, ".self"), exist_ok=True)
    write_lines(os.path.join(c, ".sys/events.jsonl"), event, (64 << 20) // len(event))
    cases["events-large"] = c
    c = os.path.join(base, "obs-large")
    line = b"YLW 10:00 the test suite passes again after the fix to the parser\n"
    write_lines(os.path.join(c, ".self/observations.md"), line, (15 << 20) // len(line))
    cases["obs-large"] = c
    c = os.path.join(base, "small")
    os.makedirs(os.path.join(c, ".self"), exist_ok=True)
    with open(os.path.join(c, ".self/observations.md"), "wb") as f:
        f.write(b"# Observations\n\n## 2026-03-01\n\n" + line * 20)
    with open(os.path.join(c, ".self/dreams.jsonl"), "wb") as f:
        f.write(dream * 10)
    cases["small"] = c
    return cases


def peak_kib(binary, creature):
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M", binary, "inspect", "--json", creature],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if p.returncode != 0:
        raise SystemExit(f"inspect failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return int(p.stderr.decode().strip().splitlines()[-1])


def observatory_kib(binary, creature, env):
    """VmHWM of the observatory on `creature` once its first frame is drawn, plus 2 s."""
    pid, fd = spawn([binary, creature], env, cols=200, rows=60)
    try:
        read_until(fd, FRAME_END, 120)
        drain(fd, 2)
        return status_kib(pid, "VmHWM")
    finally:
        os.kill(pid, 15)
        os.waitpid(pid, 0)
        os.close(fd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/dreamwatch"))
    ap.add_argument("--dir", default="/tmp/dreamwatch-hostile")
    ap.add_argument("--no-observatory", action="store_true", help="measure inspect only")
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} missing: cargo build --release first (or give --bin)")
    cases = make(args.dir)
    home = tempfile.mkdtemp(prefix="dreamwatch-hostile-home-")
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"), TERM="xterm-256color")
    print(f"{'case':<14} {'file MB':>8} {'inspect MiB':>12} {'observatory MiB':>16}")
    for name, creature in cases.items():
        size = sum(
            os.path.getsize(os.path.join(d, f))
            for d, _, files in os.walk(creature)
            for f in files
        )
        inspect = peak_kib(args.bin, creature) / 1024
        observatory = "" if args.no_observatory else f"{observatory_kib(args.bin, creature, env) / 1024:.1f}"
        print(f"{name:<14} {size / 1e6:>8.1f} {inspect:>12.1f} {observatory:>16}")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
