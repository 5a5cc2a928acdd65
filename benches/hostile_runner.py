#!/usr/bin/env python3
"""The headless runner on creatures with hostile files: FIFOs, /dev/zero, huge files and a
proposal that names files outside its genome's. For each case: does the runner stop by
itself or on SIGTERM (and how fast), its peak RSS, and whether anything was written where
it must not be.

    cargo build
    python3 benches/hostile_runner.py [--bin target/debug/dreamwatch] [--dir DIR] [--seconds 4]
                                      [--only NAME[,NAME...]]

Each case is a creature of its own, first born and lived for one dream by the runner,
then given its hostile file, then run again (`run --provider rehearsal --headless
--speed 1000 --max-dreams 1`, stdin from /dev/null) for at most --seconds, then sent
SIGTERM; a runner still there 3 s later is killed (SIGKILL) and reported as ignoring
SIGTERM.

Cases:
  fifo-KIND      a FIFO (no writer) in the place of dreams, conversation, events, memory,
                 dream-diffs, proposal or usage
  zero-proposal  .sys/proposal.json a symlink to /dev/zero
  zero-usage     .sys/usage.jsonl a symlink to /dev/zero
  big-proposal   a valid 200 MB .sys/proposal.json (one file's text is 200 MB)
  big-usage      .sys/usage.jsonl ending in a 200 MB line without its newline
  escape         a proposal (deadline passed: it applies itself at start) naming
                 ../PWN_rel.txt, an absolute path and BIRTH.json

Peak RSS is the kernel's maximum resident set of the child (`wait4`'s ru_maxrss, KiB).
Standard library only; run by hand as root or not (it needs no privilege).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIG = 200 * 1000 * 1000

FILES = {
    "dreams": ".self/dreams.jsonl",
    "conversation": ".self/conversation.jsonl",
    "events": ".sys/events.jsonl",
    "memory": ".self/memory.jsonl",
    "dream-diffs": ".sys/dream-diffs.jsonl",
    "proposal": ".sys/proposal.json",
    "usage": ".sys/usage.jsonl",
}


def runner(binary, creature):
    return [binary, "run", creature, "--provider", "rehearsal", "--headless",
            "--speed", "1000", "--max-dreams", "1"]


def replace(path):
    if os.path.lexists(path):
        os.remove(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)


def proposal_head(files):
    return {"created": "2026-03-01T10:00:00Z", "deadline": "2000-01-01T00:00:00Z",
            "started": "2026-03-01T10:00:00Z", "rest_s": 1.0, "files": files}


def make_case(name, creature, outside):
    if name.startswith("fifo-"):
        path = os.path.join(creature, FILES[name[5:]])
        replace(path)
        os.mkfifo(path)
    elif name.startswith("zero-"):
        path = os.path.join(creature, FILES[name[5:]])
        replace(path)
        os.symlink("/dev/zero", path)
    elif name == "big-proposal":
        path = os.path.join(creature, FILES["proposal"])
        replace(path)
        head = json.dumps(proposal_head([{"path": ".self/observations.md", "op": "append",
                                          "text": "@@@"}]))
        before, after = head.split("@@@")
        with open(path, "wb") as f:
            f.write(before.encode())
            chunk = b"x" * (1 << 20)
            for _ in range(BIG // len(chunk)):
                f.write(chunk)
            f.write(after.encode())
    elif name == "big-usage":
        path = os.path.join(creature, FILES["usage"])
        with open(path, "ab") as f:
            chunk = b"x" * (1 << 20)
            for _ in range(BIG // len(chunk)):
                f.write(chunk)
    elif name == "escape":
        path = os.path.join(creature, FILES["proposal"])
        replace(path)
        files = [
            {"path": "../PWN_rel.txt", "op": "append", "text": "pwned\n"},
            {"path": os.path.join(outside, "PWN_abs.txt"), "op": "replace", "text": "pwned\n"},
            {"path": "BIRTH.json", "op": "replace", "text": "{\"name\": \"pwned\"}\n"},
        ]
        with open(path, "w") as f:
            json.dump(proposal_head(files), f)
    else:
        raise SystemExit(f"unknown case {name}")


def run_case(binary, creature, seconds):
    """(peak RSS KiB, how it ended, seconds until it ended)."""
    child = subprocess.Popen(runner(binary, creature), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            return usage.ru_maxrss, f"exited by itself ({os.waitstatus_to_exitcode(status)})", \
                time.monotonic() - began
        time.sleep(0.02)
    child.send_signal(signal.SIGTERM)
    termed = time.monotonic()
    while time.monotonic() - termed < 3:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            return usage.ru_maxrss, f"stopped on SIGTERM in {time.monotonic() - termed:.2f} s", \
                time.monotonic() - began
        time.sleep(0.02)
    child.kill()
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_maxrss, "IGNORED SIGTERM (killed)", time.monotonic() - began


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/debug/dreamwatch"))
    ap.add_argument("--dir", default=None)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [f"fifo-{k}" for k in FILES] + ["zero-proposal", "zero-usage", "big-proposal",
                                             "big-usage", "escape"]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    base = args.dir or tempfile.mkdtemp(prefix="dreamwatch-hostile-runner-")
    os.makedirs(base, exist_ok=True)
    seed = os.path.join(base, "seed", "creature")
    if not os.path.exists(seed):
        os.makedirs(os.path.dirname(seed), exist_ok=True)
        subprocess.run(runner(args.bin, seed), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120,
                       check=True)
    print(f"{'case':<18} {'peak RSS':>10}  {'ended':<34} outside/BIRTH")
    for name in names:
        case = os.path.join(base, name)
        shutil.rmtree(case, ignore_errors=True)
        creature = os.path.join(case, "creature")
        outside = os.path.join(case, "outside")
        os.makedirs(outside)
        shutil.copytree(seed, creature, symlinks=True)
        for stale in (".sys/runner.lock", ".sys/control.sock"):
            p = os.path.join(creature, stale)
            if os.path.lexists(p):
                os.remove(p)
        make_case(name, creature, outside)
        rss, how, _ = run_case(args.bin, creature, args.seconds)
        written = []
        if os.path.exists(os.path.join(case, "PWN_rel.txt")):
            written.append("../PWN_rel.txt")
        if os.path.exists(os.path.join(outside, "PWN_abs.txt")):
            written.append("absolute path")
        with open(os.path.join(creature, "BIRTH.json"), "rb") as f:
            if b"pwned" in f.read():
                written.append("BIRTH.json replaced")
        print(f"{name:<18} {rss / 1024:>7.1f} MiB  {how:<34} {', '.join(written) or '-'}",
              flush=True)
        shutil.rmtree(case, ignore_errors=True)
    if not args.dir:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
