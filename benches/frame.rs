//! One observatory frame at 200x60 with 20 creatures (the OpenSeed fixtures, ten copies
//! each), drawn on a TestBackend: layout, wrapping and drawing, no terminal IO.
//! Budget (DESIGN.md section 6): 2 ms. And the clock's tick over a garden of 1000 (the
//! fixtures' files hard-linked) and its frame, all active lately and all at rest: what
//! an observatory does once a minute with nothing else to do (issue 24: idle < 0.5 % of
//! a core, so well under 50 ms in any 10 s), and a line appended to one of them. And the Observations view's document of a
//! file of 20,000 observations when one more is appended: made again whole, or the new
//! line added to it.
//!
//! Fixtures: `tests/fixtures/openseed`, else `$DREAMWATCH_FIXTURES`, else
//! `../shared/fixtures/openseed`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::path::{Path, PathBuf};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::screenshot::{clock_after, fixture_creatures};
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

fn fixtures() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = vec![manifest.join("tests/fixtures/openseed")];
    candidates.extend(std::env::var_os("DREAMWATCH_FIXTURES").map(PathBuf::from));
    candidates.push(manifest.join("../shared/fixtures/openseed"));
    candidates.push(manifest.join("../../shared/fixtures/openseed"));
    candidates
        .into_iter()
        .find(|d| fixture_creatures(d).is_ok())
        .expect("OpenSeed fixtures (tests/fixtures/openseed or $DREAMWATCH_FIXTURES)")
}

/// Makes `to` as `from` is, each file put there by `put` (copied, or hard-linked for a
/// large garden without its size on disk).
fn tree(from: &Path, to: &Path, put: fn(&Path, &Path)) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            tree(&entry.path(), &target, put);
        } else {
            put(&entry.path(), &target);
        }
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to).expect("copy");
}

fn link(from: &Path, to: &Path) {
    std::fs::hard_link(from, to).expect("link");
}

/// A garden of `n` creatures, the fixtures in turn, their files copied or linked.
fn garden_of(n: usize, put: fn(&Path, &Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = fixture_creatures(&fixtures()).expect("fixtures");
    for i in 0..n {
        let src = &sources[i % sources.len()];
        tree(src, &dir.path().join(format!("creature-{i:04}")), put);
    }
    dir
}

/// A garden of 20 creatures.
fn garden() -> tempfile::TempDir {
    garden_of(20, copy)
}

fn frame(c: &mut Criterion) {
    let dir = garden();
    let (theme, _) = Theme::load("dark", None, false);
    let creatures = fixture_creatures(&fixtures()).expect("fixtures");
    let mut screen = Headless::open(
        &[dir.path().to_path_buf()],
        Settings::with_theme(theme),
        clock_after(&creatures),
        200,
        60,
    )
    .expect("screen");
    assert_eq!(screen.app.creatures.len(), 20);
    let mut group = c.benchmark_group("frame 200x60, 20 creatures");
    for (view, key) in [
        ("observations", "1"),
        ("dreams", "2"),
        ("diary", "3"),
        ("recall", "4"),
    ] {
        screen.press(key).expect("key");
        group.bench_function(view, |b| {
            b.iter(|| {
                // A change somewhere marks the whole screen for drawing, as the loop does.
                screen.app.dirty = true;
                screen.render().map(|buf| buf.area.width).expect("frame")
            });
        });
    }
    screen.press("1").expect("key");
    group.bench_function("observations, scrolling", |b| {
        let mut down = true;
        b.iter(|| {
            screen.press(if down { "j" } else { "k" }).expect("key");
            down = !down;
            screen.render().map(|buf| buf.area.width).expect("frame")
        });
    });
    group.finish();
}

/// The clock's tick (every creature's status and figures again) and the frame after it;
/// a line appended to one creature and the frame after it.
fn minute(c: &mut Criterion) {
    let dir = garden_of(1000, link);
    let (theme, _) = Theme::load("dark", None, false);
    let creatures = fixture_creatures(&fixtures()).expect("fixtures");
    let now = clock_after(&creatures);
    let mut screen = Headless::open(
        &[dir.path().to_path_buf()],
        Settings::with_theme(theme),
        now,
        200,
        60,
    )
    .expect("screen");
    assert_eq!(screen.app.creatures.len(), 1000);
    let mut group = c.benchmark_group("garden of 1000");
    // Every creature active within the sparklines' two hours: each is refreshed.
    let mut minutes = 0;
    // A line appended to one creature's observations (a copy of its own among the
    // links), the watcher's report of it, and the frame after it: the garden's part of
    // what an append costs.
    let own = dir.path().join("creature-own");
    tree(&creatures[0], &own, copy);
    screen.refresh();
    let observations = own.join(".self/observations.md");
    let mut lines = 0;
    group.bench_function("a line appended to one creature and its frame", |b| {
        b.iter(|| {
            lines += 1;
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&observations)
                .expect("observations");
            std::io::Write::write_all(&mut file, format!("GRN 10:00 line {lines}\n").as_bytes())
                .expect("append");
            screen.changed(vec![observations.clone()]);
            screen.render().map(|buf| buf.area.width).expect("frame")
        });
    });
    group.bench_function("a minute's tick and its frame, all active lately", |b| {
        b.iter(|| {
            minutes += 1;
            screen.tick(now + chrono::Duration::minutes(minutes % 60));
            screen.render().map(|buf| buf.area.width).expect("frame")
        });
    });
    // A day later every creature is at rest: the tick leaves them alone.
    let later = now + chrono::Duration::days(1);
    group.bench_function("a minute's tick and its frame, all at rest", |b| {
        b.iter(|| {
            minutes += 1;
            screen.tick(later + chrono::Duration::minutes(minutes % 60));
            screen.render().map(|buf| buf.area.width).expect("frame")
        });
    });
    group.finish();
}

/// An observation appended to a file of 20,000: the view's document made again, or the
/// line added to the document of the others.
fn appended(c: &mut Criterion) {
    use dreamwatch::memory::observations::Observations;
    use dreamwatch::ui::views::observations::prepare::{
        Newest, PriorityFilter, append, document, prepare_items,
    };
    let mut text = String::from("# Observations\n\n## 2026-11-22\n\n");
    for i in 0..20_001 {
        text.push_str(&format!(
            "GRN 10:{:02} an older observation number {i}\n",
            i % 60
        ));
    }
    let items = prepare_items(&Observations::parse(&text).items, &Theme::default());
    let filter = PriorityFilter::default();
    let last = items.len() - 1;
    let mut group = c.benchmark_group("observations view, 20,000 lines, one appended");
    group.bench_function("the document made again", |b| {
        b.iter_batched(
            || (),
            // Handed back: dropped outside the time measured.
            |()| document(&items, &filter, true, None),
            BatchSize::LargeInput,
        );
    });
    let before = document(&items[..last], &filter, true, None);
    let newest = Newest::of(&items[..last], &filter);
    group.bench_function("the line added", |b| {
        b.iter_batched(
            || (before.clone(), newest),
            |(mut doc, mut newest)| {
                append(&mut doc, &mut newest, &items, last, &filter, true);
                // Handed back: dropped outside the time measured.
                doc
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

criterion_group!(benches, frame, minute, appended);
criterion_main!(benches);
