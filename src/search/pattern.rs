//! Regular-expression search over one reader, a line at a time (the `regex` crate: its
//! engines never backtrack, so a creature's text cannot make a search take exponential
//! time). Slower than the literal scan, which stays the default.

use std::io::{self, BufRead, BufReader, Read};

use regex::bytes::{Regex, RegexBuilder};

use super::scan::{AFTER, BEFORE, Found, Sink};

/// Bytes of a line searched: a longer line is searched in its first this many bytes only,
/// so that one huge line never takes much memory.
pub const MAX_LINE: usize = 1 << 20;

/// Compiles `query`; smart case as for literal text (a capital: case-sensitive).
pub fn compile(query: &str, case_sensitive: bool) -> Result<Regex, regex::Error> {
    RegexBuilder::new(query)
        .case_insensitive(!case_sensitive)
        .size_limit(1 << 20)
        .build()
}

/// Scans `reader` to its end (or until the sink says stop); each matching line is reported
/// once, at its first match.
pub fn scan(reader: impl Read, re: &Regex, sink: &mut impl Sink) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(64 << 10, reader);
    let mut line = Vec::new();
    let mut number = 0u64;
    let mut offset = 0u64;
    // Bytes read since the sink last heard: it is told about every 64 KiB, as by the scan.
    let mut unreported = 0u64;
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            sink.chunk_done(unreported);
            return Ok(());
        }
        let mut len = read as u64;
        if line.last() != Some(&b'\n') && read == MAX_LINE {
            // Skip the rest of a very long line.
            let mut rest = Vec::new();
            len += reader.read_until(b'\n', &mut rest)? as u64;
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        if let Some(m) = re.find(text) {
            if sink.wants_details() {
                let from = m.start().saturating_sub(BEFORE);
                let to = (m.end() + AFTER).min(text.len());
                sink.found(Found {
                    line: number,
                    offset: offset + m.start() as u64,
                    before: &text[from..m.start()],
                    matched: m.as_bytes(),
                    after: &text[m.end()..to],
                    at_line_start: from == 0,
                    at_line_end: to == text.len(),
                });
            } else {
                sink.counted();
            }
        }
        number += 1;
        offset += len;
        unreported += len;
        if unreported >= 64 << 10 {
            if !sink.chunk_done(unreported) {
                return Ok(());
            }
            unreported = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Lines(Vec<(u64, u64, String)>);

    impl Sink for Lines {
        fn wants_details(&self) -> bool {
            true
        }
        fn found(&mut self, f: Found<'_>) {
            let m = String::from_utf8_lossy(f.matched).into_owned();
            self.0.push((f.line, f.offset, m));
        }
        fn counted(&mut self) {}
        fn chunk_done(&mut self, _: u64) -> bool {
            true
        }
    }

    #[test]
    fn lines_match_once_with_smart_case() {
        let text = "a weekly_mean here\nnothing\nWEEKLY_MEAN and weekly_mean\n";
        let mut sink = Lines::default();
        let re = compile(r"weekly_\w+", false).unwrap();
        scan(text.as_bytes(), &re, &mut sink).unwrap();
        assert_eq!(
            sink.0,
            [(0, 2, "weekly_mean".into()), (2, 27, "WEEKLY_MEAN".into())]
        );
        let mut exact = Lines::default();
        let re = compile(r"WEEKLY_\w+", true).unwrap();
        scan(text.as_bytes(), &re, &mut exact).unwrap();
        assert_eq!(exact.0.len(), 1);
        assert!(compile("(unclosed", false).is_err());
    }
}
