#!/usr/bin/env python3
"""How much a still process's memory costs to touch again on this machine.

    python3 benches/cold_memory.py [--mib 40] [--sleeps 0,5,60]

Touches every page of --mib MiB, then, after each sleep, every page again, and prints
the time of each pass. On an ordinary machine every pass takes about the same; on a
virtual machine whose host reclaims a guest's idle memory, a pass after a sleep is many
times slower (12 microseconds a page were measured here after 60 s). That is why an idle
observatory's work is counted in pages touched, not only in instructions: a minute's tick
that looked at every creature of 1000 took 100 ms on such a machine, 1.4 ms warm.
"""
import argparse
import time

PAGE = 4096


def touch(buf):
    t0 = time.perf_counter()
    total = 0
    for i in range(0, len(buf), PAGE):
        total += buf[i]
    return (time.perf_counter() - t0) * 1000, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=40)
    ap.add_argument("--sleeps", default="0,5,60")
    args = ap.parse_args()
    buf = bytearray(args.mib << 20)
    for i in range(0, len(buf), PAGE):
        buf[i] = 1
    pages = len(buf) // PAGE
    for s in (float(x) for x in args.sleeps.split(",")):
        time.sleep(s)
        ms, _ = touch(buf)
        print(f"after {s:g} s still: {pages} pages touched in {ms:.1f} ms ({1000 * ms / pages:.2f} us a page)")


if __name__ == "__main__":
    main()
