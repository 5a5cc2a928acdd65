//! Search throughput, for `benches/search.sh`.
//!
//! `search_bench search FILE QUERY [-i]` runs `spawn_search` over FILE to completion and
//! prints `hits=N bytes=B seconds=S mb_per_s=X` (MB = 10^6 bytes).
//! `search_bench generate FILE MIB` writes a conversation-like JSONL file of about MIB MiB
//! (deterministic) in which about 1 line in 200 mentions "lighthouse".
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use dreamwatch::search::{SearchRequest, SearchSource, spawn_search};

const USAGE: &str = "usage: search_bench search FILE QUERY [-i] | search_bench generate FILE MIB";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["search", file, query, rest @ ..] => search(file, query, rest == ["-i"]),
        ["generate", file, mib] => generate(file, mib.parse().context("MIB must be a number")?),
        _ => bail!(USAGE),
    }
}

fn search(file: &str, query: &str, ignore_case: bool) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut handle = spawn_search(SearchRequest {
        regex: false,
        query: query.to_owned(),
        case_sensitive: !ignore_case,
        files: vec![(SearchSource::Conversation, PathBuf::from(file))],
    });
    let progress = handle.wait();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(error) = handle.errors().first() {
        bail!("{error}");
    }
    println!(
        "hits={} bytes={} seconds={seconds:.3} mb_per_s={:.0}",
        progress.hits_so_far,
        progress.bytes_scanned,
        progress.bytes_scanned as f64 / seconds / 1e6
    );
    Ok(())
}

const WORDS: &[&str] = &[
    "the",
    "a",
    "and",
    "of",
    "to",
    "in",
    "I",
    "it",
    "that",
    "was",
    "memory",
    "dream",
    "sleep",
    "wake",
    "file",
    "tool",
    "read",
    "write",
    "observe",
    "garden",
    "creature",
    "think",
    "plan",
    "remember",
    "forget",
    "sea",
    "light",
    "night",
    "morning",
    "quiet",
    "strange",
    "note",
    "diary",
    "again",
    "should",
    "could",
    "because",
    "while",
    "error",
    "output",
    "result",
    "json",
    "line",
    "café",
    "naïve",
    "世界",
    "—",
    "\\n",
    "\\\"quoted\\\"",
    "{}",
    "[]",
    "42",
    "2025-06-01",
    "/home/creature/self",
    "cargo",
    "build",
    "test",
    "passed",
    "failed",
];
const ROLES: &[&str] = &["user", "assistant", "tool"];

/// A xorshift generator: fast, deterministic, good enough for filler text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn generate(file: &str, mib: u64) -> anyhow::Result<()> {
    let target = mib * 1024 * 1024;
    let mut out = BufWriter::with_capacity(1 << 20, File::create(file).context("create FILE")?);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut written = 0u64;
    let mut line = String::new();
    for n in 0u64.. {
        if written >= target {
            break;
        }
        line.clear();
        let role = ROLES[rng.below(ROLES.len())];
        line.push_str(&format!(
            "{{\"n\":{n},\"ts\":\"2025-06-01T12:{:02}:{:02}Z\",\"role\":\"{role}\",\"content\":\"",
            rng.below(60),
            rng.below(60)
        ));
        let words = 10 + rng.below(250);
        let mention = rng.below(200) == 0;
        let at = rng.below(words);
        for i in 0..words {
            if i > 0 {
                line.push(' ');
            }
            if mention && i == at {
                line.push_str(["lighthouse", "Lighthouse", "LIGHTHOUSE"][rng.below(3)]);
            } else {
                line.push_str(WORDS[rng.below(WORDS.len())]);
            }
        }
        line.push_str("\"}\n");
        out.write_all(line.as_bytes())?;
        written += line.len() as u64;
    }
    out.flush()?;
    Ok(())
}
