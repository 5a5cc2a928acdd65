#!/usr/bin/env bash
# A full disk under the real runner, on a small tmpfs: root only (it mounts one), so not
# run by CI; the injected equivalent is tests/runner/disk_full.rs.
#
#   sudo bash tests/disk_full.sh [target/debug/dreamwatch] [--genome dreamer|evennia|emergence]
#
# The creature lives on a 2 MiB tmpfs (rehearsal brain, --speed 1000). After a second the
# disk is filled to the last byte; three seconds later the filler is removed; two seconds
# after that the runner gets SIGTERM. Printed: the runner's error lines while full (one
# "disk full" line expected, not one per write), whether it said it had room again, and
# the consolidations it reported against those on disk.
set -euo pipefail
bin=${1:-target/debug/dreamwatch}
shift || true
genome_args=("$@")
[ "$(id -u)" = 0 ] || { echo "root only: it mounts a tmpfs"; exit 2; }
bin=$(realpath "$bin")
work=$(mktemp -d)
mnt=$work/disk
log=$work/run.log
mkdir -p "$mnt"
mount -t tmpfs -o size=2m tmpfs "$mnt"
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin" run "$mnt/c" --provider rehearsal --headless --speed 1000 "${genome_args[@]}" \
  </dev/null >"$log" 2>&1 &
pid=$!
sleep 1
dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null || true
full_at=$(wc -l <"$log")
sleep 3
room_at=$(wc -l <"$log")
rm -f "$mnt/filler"
sleep 2
kill -TERM "$pid"
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "the runner ignored SIGTERM"; kill -KILL "$pid"; fi
wait "$pid" || true

while_full=$(sed -n "$((full_at + 1)),${room_at}p" "$log")
echo "error lines while full: $(grep -c 'error' <<<"$while_full" || true)"
echo "  of which 'short write' or 'No space left': $(grep -Ec 'short write|No space left' <<<"$while_full" || true)"
echo "  of which 'disk full': $(grep -c 'disk full' <<<"$while_full" || true)"
echo "said it had room again: $(grep -c 'room again' "$log" || true)"
echo "closing line: $(grep 'stopped after' "$log" || echo none)"
count() { grep -Ec "$1" "$2" 2>/dev/null || true; }
dreams=$(count '"reflection"' "$mnt/c/.self/dreams.jsonl")
events=$(count '"type":"creature.dream"' "$mnt/c/.sys/events.jsonl")
rests=$(count '"phase":"resting"' "$mnt/c/.sys/mode.jsonl")
echo "on disk: ${dreams:-0} dream line(s) (the dreamer's), ${events:-0} creature.dream event(s)" \
  "(the dreamer's and emergence's), ${rests:-0} resting phase(s) (evennia's)"
