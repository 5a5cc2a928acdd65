//! Shared by the observatory's tests: the OpenSeed fixture creatures (copied to a temp
//! dir, so that tests may write), the stopped clock, and a headless screen on them.

use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use dreamwatch::ui::headless::Headless;
use dreamwatch::ui::state::Settings;
use dreamwatch::ui::theme::Theme;

pub const FIXTURES: [&str; 2] = ["early-pip", "head-ember"];

/// The tests' stopped clock: shortly after the fixtures' lives ended.
pub fn clock() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 17, 50, 0).unwrap()
}

/// The fixture directory: `tests/fixtures/openseed` when the repository has it, else
/// `$DREAMWATCH_FIXTURES`, else the shared copy next to the checkout.
pub fn fixtures_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut candidates = vec![manifest.join("tests/fixtures/openseed")];
    if let Some(dir) = std::env::var_os("DREAMWATCH_FIXTURES") {
        candidates.push(PathBuf::from(dir));
    }
    candidates.push(manifest.join("../shared/fixtures/openseed"));
    candidates.push(manifest.join("../../shared/fixtures/openseed"));
    candidates
        .into_iter()
        .find(|d| FIXTURES.iter().all(|f| d.join(f).join("creature").is_dir()))
        .expect("the OpenSeed fixtures (tests/fixtures/openseed or $DREAMWATCH_FIXTURES)")
}

/// A garden in a temp dir holding copies of both fixture creatures, as `pip` and `ember`.
pub struct Garden {
    pub dir: tempfile::TempDir,
}

impl Default for Garden {
    fn default() -> Self {
        Self::new()
    }
}

impl Garden {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let src = fixtures_dir();
        for (fixture, name) in FIXTURES.iter().zip(["pip", "ember"]) {
            copy_dir(&src.join(fixture).join("creature"), &dir.path().join(name));
        }
        Self { dir }
    }

    pub fn creature(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A headless screen on the whole garden, default keys, the given theme.
    pub fn screen(&self, theme: &str, width: u16, height: u16) -> Headless {
        self.screen_at(theme, width, height, clock())
    }

    /// [`Garden::screen`] with the clock stopped at `now`.
    pub fn screen_at(&self, theme: &str, width: u16, height: u16, now: DateTime<Utc>) -> Headless {
        let (theme, warnings) = Theme::load(theme, None, false);
        assert!(warnings.is_empty(), "{warnings:?}");
        Headless::open(
            &[self.dir.path().to_path_buf()],
            Settings::with_theme(theme),
            now,
            width,
            height,
        )
        .expect("headless screen")
    }
}

/// The evennia fixture creature (`tests/fixtures/evennia/sable/creature`).
pub fn evennia_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/evennia/sable/creature")
}

impl Garden {
    /// A garden of the evennia fixture, `sable`, beside the dreamer `pip`.
    pub fn with_evennia() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        copy_dir(
            &fixtures_dir().join(FIXTURES[0]).join("creature"),
            &dir.path().join("pip"),
        );
        copy_dir(&evennia_fixture(), &dir.path().join("sable"));
        Self { dir }
    }
}

/// The emergence fixture garden (`tests/fixtures/emergence`).
pub fn emergence_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/emergence")
}

/// The clock of the emergence views' tests: in the afternoon of the fixtures' last day.
pub fn emergence_clock() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 24, 17, 0, 0).unwrap()
}

impl Garden {
    /// The emergence fixtures `wren` and `ivy`, beside the evennia creature `sable` (whom
    /// they both know).
    pub fn with_emergence() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["wren", "ivy"] {
            copy_dir(
                &emergence_fixtures().join(name).join("creature"),
                &dir.path().join(name),
            );
        }
        copy_dir(&evennia_fixture(), &dir.path().join("sable"));
        Self { dir }
    }
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}

/// Insta settings that hide the temp dir's path.
pub fn filters(garden: &Garden) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let path = garden.dir.path().display().to_string();
    settings.add_filter(&regex_escape(&path), "[GARDEN]");
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings
}

fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Appends `text` to a file, as another process would.
pub fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .expect("open for append");
    f.write_all(text.as_bytes()).expect("append");
}
