//! The flight recorder's time index over a large generated life: one pass over the
//! events log (wakes, sleeps, dreams, a checkpoint every 4,096 events). Budget (issue 21):
//! a 1 GiB life indexed in under 1 s and under 64 MiB.
//!
//! - `recorder/index/N MiB`: [`TimeIndex::build`] over an events log of N MiB (256; 1024
//!   too with `DREAMWATCH_BENCH_1G=1`), the page cache warm.
//! - `recorder/index with its conversation/N + N MiB`: the same with a conversation of N
//!   MiB beside it (the index keeps a line start of it every 4,096 lines).
//! - `recorder/cut/N MiB`: where the log stood at a time in the middle of the life
//!   ([`cut::offset_at`], a search by halves).
//!
//! - `recorder/cursor/N MiB`: the observatory's time cursor moved one dream (back, then
//!   on) on that life: the past resolved and built, prepared and drawn on a TestBackend
//!   (budget: 50 ms p99). Its p50 and p99 over 100 moves are printed too. In the
//!   observatory the build is a job off the UI thread; the harness performs it in place,
//!   so a move here is the whole of it: the cursor placed by the index, the past
//!   resolved, written out, opened and its views prepared (the job's work), taken in,
//!   prepared and drawn.
//!
//! Run: `cargo bench --bench recorder`. The index's own size is printed once per life.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a bench may stop at the first failure

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{TimeDelta, TimeZone, Utc};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

use dreamwatch::memory::time::format_time;
use dreamwatch::recorder::cut;
use dreamwatch::recorder::index::TimeIndex;
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

/// Writes a life of about `mib` MiB to `root/.sys/events.jsonl`: wakes of 40 tool calls
/// and thoughts, each followed by a sleep and a dream.
fn life(root: &Path, mib: u64) -> chrono::DateTime<Utc> {
    std::fs::create_dir_all(root.join(".sys")).unwrap();
    let file = std::fs::File::create(root.join(".sys/events.jsonl")).unwrap();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut t = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let mut written = 0u64;
    let mut wake = 0u64;
    while written < mib << 20 {
        wake += 1;
        let mut line = |s: String| {
            written += s.len() as u64 + 1;
            writeln!(out, "{s}").unwrap();
        };
        t += TimeDelta::seconds(1);
        line(format!(
            r#"{{"t":"{}","type":"creature.wake","reason":"timer","source":"timer"}}"#,
            format_time(t)
        ));
        for i in 0..40 {
            t += TimeDelta::seconds(2);
            line(format!(
                r#"{{"t":"{}","type":"creature.tool_call","tool":"bash","ok":true,"ms":12,"input":"grep -rn 'pattern {i}' workspace/ | head -n 20","output":"{}"}}"#,
                format_time(t),
                "workspace/notes.md:12: a line of what the command printed ".repeat(3)
            ));
        }
        t += TimeDelta::seconds(1);
        line(format!(
            r#"{{"t":"{}","type":"creature.sleep","seconds":300,"actions":40,"text":"Resting."}}"#,
            format_time(t)
        ));
        line(format!(
            r#"{{"t":"{}","type":"creature.dream","observations":3,"priority":"wake {wake}"}}"#,
            format_time(t)
        ));
    }
    out.flush().unwrap();
    t
}

/// Writes about `mib` MiB of conversation to `root/.self/conversation.jsonl`: the
/// assistant's thoughts and the tools' answers in turn.
fn conversation(root: &Path, mib: u64) {
    std::fs::create_dir_all(root.join(".self")).unwrap();
    let file = std::fs::File::create(root.join(".self/conversation.jsonl")).unwrap();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut t = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let mut written = 0u64;
    while written < mib << 20 {
        t += TimeDelta::seconds(2);
        let line = format!(
            r#"{{"t":"{}","role":"assistant","content":"{}"}}"#,
            format_time(t),
            "I looked at the notes again and the pattern holds; next I check the log. ".repeat(3)
        );
        written += line.len() as u64 + 1;
        writeln!(out, "{line}").unwrap();
    }
    out.flush().unwrap();
}

fn sizes() -> Vec<u64> {
    let mut sizes = vec![256];
    if std::env::var_os("DREAMWATCH_BENCH_1G").is_some() {
        sizes.push(1024);
    }
    sizes
}

fn index(c: &mut Criterion) {
    let mut group = c.benchmark_group("recorder");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for mib in sizes() {
        let tmp = tempfile::tempdir().unwrap();
        let end = life(tmp.path(), mib);
        let built = TimeIndex::build(tmp.path()).unwrap();
        let marks =
            built.wakes.len() + built.sleeps.len() + built.dreams.len() + built.checkpoints.len();
        eprintln!(
            "recorder/index/{mib} MiB: {} events, {} wakes, {} dreams; the index holds {marks} marks, {} KiB",
            built.events,
            built.wakes.len(),
            built.dreams.len(),
            marks * std::mem::size_of::<dreamwatch::recorder::index::Mark>() / 1024
        );
        group.bench_with_input(
            BenchmarkId::new("index", format!("{mib} MiB")),
            &mib,
            |b, _| b.iter(|| TimeIndex::build(tmp.path()).unwrap()),
        );
        let start = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let middle = start + (end - start) / 2;
        let events = tmp.path().join(".sys/events.jsonl");
        group.bench_with_input(
            BenchmarkId::new("cut", format!("{mib} MiB")),
            &mib,
            |b, _| b.iter(|| cut::offset_at(&events, middle).unwrap()),
        );
        // The same life with a conversation as large again: the index also keeps a line
        // start of it every 4,096 lines (for the past's Recall).
        conversation(tmp.path(), mib);
        group.bench_with_input(
            BenchmarkId::new("index with its conversation", format!("{mib} + {mib} MiB")),
            &mib,
            |b, _| b.iter(|| TimeIndex::build(tmp.path()).unwrap()),
        );
    }
    group.finish();
}

/// The time cursor moved on a life of each size: press, prepare, draw.
fn cursor(c: &mut Criterion) {
    dreamwatch::app::genomes::install();
    let mut group = c.benchmark_group("recorder");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(20));
    for mib in sizes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("life");
        let end = life(&root, mib);
        std::fs::create_dir_all(root.join(".self")).unwrap();
        let (theme, _) = Theme::load("dark", None, false);
        let mut screen =
            Headless::open(&[root], Settings::with_theme(theme), end, 160, 48).unwrap();
        screen.press("t").unwrap();
        screen.press("{").unwrap();
        let mut back = true;
        let mut step = |screen: &mut Headless| {
            screen.press(if back { "{" } else { "}" }).unwrap();
            back = !back;
            screen.render().unwrap();
        };
        let mut took: Vec<Duration> = (0..100)
            .map(|_| {
                let start = Instant::now();
                step(&mut screen);
                start.elapsed()
            })
            .collect();
        took.sort();
        eprintln!(
            "recorder/cursor/{mib} MiB: a move p50 {:?}, p99 {:?}",
            took[49], took[98]
        );
        group.bench_with_input(
            BenchmarkId::new("cursor", format!("{mib} MiB")),
            &mib,
            |b, _| b.iter(|| step(&mut screen)),
        );
    }
    group.finish();
}

criterion_group!(benches, index, cursor);
criterion_main!(benches);
