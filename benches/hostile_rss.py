#!/usr/bin/env python3
"""Peak memory of `dreamwatch inspect --json` on creatures made of many short lines: what
a hostile (or broken) creature can write to blow the observatory's memory up.

    python3 benches/hostile_rss.py [--bin PATH] [--dir /tmp/dreamwatch-hostile]

Cases (each a creature of its own):
  bad-dreams     5,000,000 one-byte bad lines in .self/dreams.jsonl (10 MB)
  bad-events     5,000,000 one-byte bad lines in .sys/events.jsonl (10 MB)
  empty-dreams   60 MB of `{}` lines in .self/dreams.jsonl (20,000,000 valid dreams)
  observations   16 MB of short tag lines in .self/observations.md
  iterations     5,000,000 `{}` lines in .sys/iterations.jsonl (15 MB)
  creator-log    5,000,000 `{}` lines in .self/creator-log.jsonl (15 MB)

Peak RSS is `/usr/bin/time -f %M` (KiB, the kernel's maximum resident set). Run by hand;
it is not part of the test suite.
"""
import argparse
import os
import subprocess
import sys

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/dreamwatch"))
    ap.add_argument("--dir", default="/tmp/dreamwatch-hostile")
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} missing: cargo build --release first (or give --bin)")
    cases = make(args.dir)
    print(f"{'case':<14} {'file MB':>8} {'peak RSS MiB':>13}")
    for name, creature in cases.items():
        size = sum(
            os.path.getsize(os.path.join(d, f))
            for d, _, files in os.walk(creature)
            for f in files
        )
        print(f"{name:<14} {size / 1e6:>8.1f} {peak_kib(args.bin, creature) / 1024:>13.1f}")


if __name__ == "__main__":
    main()
