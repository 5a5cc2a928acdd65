//! Where an append-only log stood at a time: the offset after its last line written at
//! or before it. Logs are written in time order, so a large one is searched by halves
//! (a few reads of a 1 GiB log), a small one read through.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use chrono::{DateTime, Utc};

use super::index::line_time;

/// A log up to this size is read through.
const LINEAR: u64 = 4 << 20;
/// What one probe of the search reads.
const PROBE: usize = 64 << 10;

/// The offset of `path` after its last line with a time at or before `t` (and the lines
/// without a time among them); its length when every line is.
pub fn offset_at(path: &Path, t: DateTime<Utc>) -> io::Result<u64> {
    let len = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let (mut lo, mut hi) = (0u64, len);
    if len > LINEAR {
        let mut file = crate::tail::open_regular(path)?;
        while hi - lo > LINEAR {
            let mid = lo + (hi - lo) / 2;
            match first_timed_line(&mut file, mid, hi)? {
                Some((_, end, lt)) if lt <= t => lo = end.max(lo),
                Some((start, _, _)) => hi = start.max(lo),
                None => hi = mid,
            }
        }
    }
    linear(path, lo, hi, t)
}

/// The first whole line beginning after `from` (and before `hi`) with a time: its start,
/// end and time.
fn first_timed_line(
    file: &mut std::fs::File,
    from: u64,
    hi: u64,
) -> io::Result<Option<(u64, u64, DateTime<Utc>)>> {
    let mut at = from;
    let mut buf = vec![0u8; PROBE];
    let mut skip_partial = true;
    while at < hi {
        file.seek(SeekFrom::Start(at))?;
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(None);
        }
        let mut from_i = 0usize;
        if skip_partial {
            match memchr::memchr(b'\n', &buf[..n]) {
                Some(i) => from_i = i + 1,
                None => {
                    at += n as u64;
                    continue;
                }
            }
            skip_partial = false;
        }
        let mut i = from_i;
        while let Some(nl) = memchr::memchr(b'\n', &buf[i..n]) {
            let line = &buf[i..i + nl];
            let start = at + i as u64;
            if let Some(t) = line_time(line) {
                return Ok(Some((start, start + nl as u64 + 1, t)));
            }
            i += nl + 1;
        }
        if i == from_i && from_i == 0 {
            // A line longer than a probe: skip it whole.
            skip_partial = true;
            at += n as u64;
        } else {
            at += i as u64;
        }
    }
    Ok(None)
}

/// Reads `path` from `lo` to `hi` (at most [`LINEAR`] bytes once searched) for the end of
/// the last line at or before `t`.
fn linear(path: &Path, lo: u64, hi: u64, t: DateTime<Utc>) -> io::Result<u64> {
    let mut file = crate::tail::open_regular(path)?;
    file.seek(SeekFrom::Start(lo))?;
    let mut bytes = Vec::new();
    file.take(hi - lo).read_to_end(&mut bytes)?;
    let mut cut = lo;
    let mut start = 0usize;
    while start < bytes.len() {
        let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        if line_time(&bytes[start..end]).is_some_and(|lt| lt > t) {
            break;
        }
        cut = lo + end as u64;
        start = end;
    }
    Ok(cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::time::{format_time, parse_time};

    fn log(n: i64) -> String {
        let t0 = parse_time("2026-03-01T00:00:00Z").unwrap();
        (0..n)
            .map(|i| {
                let t = t0 + chrono::TimeDelta::seconds(i);
                format!(
                    "{{\"t\":\"{}\",\"i\":{i},\"pad\":\"{}\"}}\n",
                    format_time(t),
                    "x".repeat(200)
                )
            })
            .collect()
    }

    #[test]
    fn a_log_is_cut_after_its_last_line_by_then() {
        let tmp = tempfile::tempdir().unwrap();
        for n in [10, 40_000] {
            let text = log(n);
            let path = tmp.path().join(format!("l{n}.jsonl"));
            std::fs::write(&path, &text).unwrap();
            let t0 = parse_time("2026-03-01T00:00:00Z").unwrap();
            for k in [0, 1, n / 3, n - 1] {
                let at = offset_at(&path, t0 + chrono::TimeDelta::seconds(k)).unwrap();
                let lines = text[..at as usize].lines().count() as i64;
                assert_eq!(lines, k + 1, "n {n} k {k}");
            }
            let before = offset_at(&path, t0 - chrono::TimeDelta::seconds(1)).unwrap();
            assert_eq!(before, 0);
        }
    }
}
