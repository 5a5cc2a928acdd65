//! `dreamwatch screenshot`: the observatory on the OpenSeed fixture creatures, the clock
//! stopped, drawn to SVG (and PNG when `rsvg-convert` is installed) in `--out`.
//!
//! The fixtures are every `*/creature` directory in [`ScreenshotOptions::fixtures`] and
//! [`ScreenshotOptions::more_fixtures`] (the command line says where they are); each
//! genome's pictures ([`crate::ui::genome::GenomeViews::pictures`]) are of the fixture
//! creatures of that genome.

mod alive;
pub mod changed;
mod recorder;
mod review;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::Context as _;
use chrono::{DateTime, Duration, Timelike, Utc};

use super::headless::Headless;
use super::state::Settings;
use super::theme::{DEFAULT_THEME, Theme};
use crate::memory::creature::Creature;
use crate::text::svg::{SvgOptions, buffer_to_svg};

/// The clock of the screenshots: five minutes after the last thing any of the creatures
/// did, on the minute, so that the same fixtures always give the same pictures.
pub fn clock_after(creatures: &[PathBuf]) -> DateTime<Utc> {
    let last = creatures
        .iter()
        .filter_map(|p| Creature::open(p).last_activity())
        .max()
        .unwrap_or_default();
    let later = last + Duration::minutes(5);
    later
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .unwrap_or(later)
}

/// An input before a picture is taken: a key by its config name, or text typed.
#[derive(Debug)]
pub enum Input {
    Key(&'static str),
    Text(&'static str),
}

use Input::{Key, Text};

/// One picture of a genome's views, on the fixtures of its creatures: a file name, a
/// theme (else the default), the input before it, and its width when it needs more than
/// the one asked for (the relations graph).
#[derive(Debug)]
pub struct Shot {
    pub name: &'static str,
    pub theme: Option<&'static str>,
    pub input: &'static [Input],
    pub min_width: u16,
}

/// A picture of a garden staged from a genome's fixtures (copies in a temporary
/// directory, which must outlive the screen): its file name, and how it is staged from
/// the creatures, in a theme, at a time, in a size.
#[derive(Debug)]
pub struct Staged {
    pub name: &'static str,
    pub stage: StageFn,
}

/// Stages a picture: the observatory on copies of `creatures`.
pub type StageFn = fn(
    creatures: &[PathBuf],
    theme: Theme,
    now: DateTime<Utc>,
    width: u16,
    height: u16,
) -> anyhow::Result<(Headless, tempfile::TempDir)>;

/// The pictures a genome offers of its views (`dreamwatch screenshot`).
#[derive(Debug)]
pub struct Pictures {
    pub shots: &'static [Shot],
    pub staged: &'static [Staged],
}

impl Pictures {
    pub const NONE: Pictures = Pictures {
        shots: &[],
        staged: &[],
    };
}

/// The fixture creatures, sorted.
pub fn fixture_creatures(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading fixtures in {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path().join("creature"))
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    if found.is_empty() {
        anyhow::bail!("no */creature directories in {}", dir.display());
    }
    Ok(found)
}

/// The SVG look of a theme: its base colours behind and in front of the text.
fn svg_options(theme: &Theme) -> SvgOptions {
    let rgb = |c: Option<ratatui::style::Color>, fallback: [u8; 3]| match c {
        Some(ratatui::style::Color::Rgb(r, g, b)) => [r, g, b],
        _ => fallback,
    };
    let defaults = SvgOptions::default();
    SvgOptions {
        foreground: rgb(theme.base.fg, [0xc9, 0xd1, 0xd9]),
        background: rgb(theme.base.bg, [0x0d, 0x11, 0x17]),
        ..defaults
    }
}

/// Renders every genome's pictures, each on the `creatures` of that genome (none where it
/// has none), and what a dream changed and a dream held for review on the first creature of
/// the default genome; returns the files written.
pub fn render_all(
    creatures: &[PathBuf],
    default_theme: &str,
    out: &Path,
    width: u16,
    height: u16,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let genomes: Vec<String> = creatures
        .iter()
        .map(|c| Creature::open(c).genome().name().to_string())
        .collect();
    let of = |genome: &str| -> Vec<PathBuf> {
        creatures
            .iter()
            .zip(&genomes)
            .filter(|(_, g)| *g == genome)
            .map(|(c, _)| c.clone())
            .collect()
    };
    let mut written = Vec::new();
    let default_genome = crate::ui::genome::installed().first().map(|g| g.genome);
    for g in crate::ui::genome::installed() {
        let creatures = of(g.genome);
        if creatures.is_empty() {
            continue;
        }
        let now = clock_after(&creatures);
        // The default genome's views show its creatures alive: one awake, one dreaming.
        let (creatures, _alive) = if Some(g.genome) == default_genome {
            let (copies, tmp) = alive::stage(&creatures, now)?;
            (copies, Some(tmp))
        } else {
            (creatures, None)
        };
        for shot in g.pictures.shots {
            let (theme, warnings) = Theme::load(shot.theme.unwrap_or(default_theme), None, false);
            if let Some(w) = warnings.first() {
                anyhow::bail!("{w}");
            }
            let options = svg_options(&theme);
            let width = width.max(shot.min_width);
            let mut screen =
                Headless::open(&creatures, Settings::with_theme(theme), now, width, height)
                    .map_err(anyhow::Error::msg)?;
            for input in shot.input {
                match input {
                    Key(name) => {
                        screen.press(name).map_err(anyhow::Error::msg)?;
                    }
                    Text(text) => {
                        screen.type_text(text);
                    }
                }
            }
            written.push(save(
                &mut screen,
                &options,
                &out.join(format!("{}.svg", shot.name)),
            )?);
        }
        for staged in g.pictures.staged {
            let (theme, _) = Theme::load(default_theme, None, false);
            let options = svg_options(&theme);
            let (mut screen, _tmp) = (staged.stage)(&creatures, theme, now, width, height)?;
            written.push(save(
                &mut screen,
                &options,
                &out.join(format!("{}.svg", staged.name)),
            )?);
        }
    }
    // What a dream changed, seen by the watched history, on the first fixture.
    let default = crate::ui::genome::installed().first().map(|g| of(g.genome));
    if let Some(creature) = default.as_deref().and_then(<[PathBuf]>::first) {
        let now = clock_after(std::slice::from_ref(creature));
        let (theme, _) = Theme::load(default_theme, None, false);
        let options = svg_options(&theme);
        let (mut screen, _tmp) = changed::screen(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("dream-changes.svg"))?);
        // A dream held for review, its popup open.
        let (theme, _) = Theme::load(default_theme, None, false);
        let (mut screen, _tmp) = review::screen(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("review.svg"))?);
        // The flight recorder: a line's blame, and two memories compared.
        let (theme, _) = Theme::load(default_theme, None, false);
        let (mut screen, _tmp) = recorder::blame(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("blame.svg"))?);
        let (theme, _) = Theme::load(default_theme, None, false);
        let (mut screen, _tmp) = recorder::compare(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("compare.svg"))?);
        // A past moment: the time cursor three dreams back, the dreams so far.
        let (theme, _) = Theme::load(default_theme, None, false);
        let settings = Settings::with_theme(theme);
        let mut screen =
            Headless::open(std::slice::from_ref(creature), settings, now, width, height)
                .map_err(anyhow::Error::msg)?;
        for key in ["t", "{", "{", "{", "2"] {
            screen.press(key).map_err(anyhow::Error::msg)?;
        }
        written.push(save(&mut screen, &options, &out.join("past.svg"))?);
    }
    Ok(written)
}

/// Renders `screen` and writes it to `path` as SVG.
fn save(screen: &mut Headless, options: &SvgOptions, path: &Path) -> anyhow::Result<PathBuf> {
    let svg = buffer_to_svg(screen.render().map_err(anyhow::Error::msg)?, options);
    std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
    Ok(path.to_path_buf())
}

/// Converts an SVG to PNG with rsvg-convert; `None` when it is not installed.
fn to_png(svg: &Path) -> Option<Result<PathBuf, String>> {
    let png = svg.with_extension("png");
    let status = Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png)
        .arg(svg)
        .status();
    match status {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(e.to_string())),
        Ok(s) if s.success() => Some(Ok(png)),
        Ok(s) => Some(Err(format!("rsvg-convert failed ({s})"))),
    }
}

/// What `dreamwatch screenshot` was asked for.
#[derive(Debug, Clone)]
pub struct ScreenshotOptions {
    /// Output directory.
    pub out: PathBuf,
    pub width: u16,
    pub height: u16,
    /// The theme of the pictures that name none (else the default theme).
    pub theme: Option<String>,
    /// The directory of `*/creature` fixtures drawn.
    pub fixtures: PathBuf,
    /// More directories of them (a genome's pictures are left out where none has one of
    /// its creatures).
    pub more_fixtures: Vec<PathBuf>,
}

pub fn run(args: &ScreenshotOptions) -> anyhow::Result<()> {
    let mut creatures = fixture_creatures(&args.fixtures).with_context(|| {
        "give --fixtures (or DREAMWATCH_FIXTURES) a directory of */creature fixtures, such as \
         the repository's tests/fixtures/openseed"
    })?;
    for dir in &args.more_fixtures {
        creatures.extend(fixture_creatures(dir).unwrap_or_default());
    }
    let theme = args.theme.as_deref().unwrap_or(DEFAULT_THEME);
    let written = render_all(&creatures, theme, &args.out, args.width, args.height)?;
    let mut png_note = None;
    for svg in &written {
        println!("{}", svg.display());
        match to_png(svg) {
            Some(Ok(png)) => println!("{}", png.display()),
            Some(Err(e)) => png_note = Some(format!("PNG not written: {e}")),
            None => png_note = Some("PNG not written: rsvg-convert is not installed".into()),
        }
    }
    if let Some(note) = png_note {
        eprintln!("{note}");
    }
    Ok(())
}
