//! One observatory frame at 200x60 with 20 creatures (the OpenSeed fixtures, ten copies
//! each), drawn on a TestBackend: layout, wrapping and drawing, no terminal IO.
//! Budget (DESIGN.md section 6): 2 ms.
//!
//! Fixtures: `tests/fixtures/openseed`, else `$DREAMWATCH_FIXTURES`, else
//! `../shared/fixtures/openseed`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A garden of 20 creatures.
fn garden() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = fixture_creatures(&fixtures()).expect("fixtures");
    for i in 0..20 {
        let src = &sources[i % sources.len()];
        copy_dir(src, &dir.path().join(format!("creature-{i:02}")));
    }
    dir
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

criterion_group!(benches, frame);
criterion_main!(benches);
