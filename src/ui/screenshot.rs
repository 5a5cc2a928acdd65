//! `dreamwatch screenshot`: the observatory on the OpenSeed fixture creatures, the clock
//! stopped, drawn to SVG (and PNG when `rsvg-convert` is installed) in `--out`.
//!
//! The fixtures are every `*/creature` directory in [`ScreenshotOptions::fixtures`] (the
//! command line says where they are); the pictures of the evennia views are of those in
//! [`ScreenshotOptions::evennia_fixtures`], of the emergence views of those in
//! [`ScreenshotOptions::emergence_fixtures`].

mod changed;
mod review;
mod talk;

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
enum Input {
    Key(&'static str),
    Text(&'static str),
}

use Input::{Key, Text};

/// Which creatures a picture shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Garden {
    /// The OpenSeed fixtures.
    OpenSeed,
    /// The evennia fixtures.
    Evennia,
    /// The emergence fixtures.
    Emergence,
}

/// One picture: a file name, a theme (else the default), the garden, the input before
/// it, and its width when it needs more than the one asked for (the relations graph).
struct Shot {
    name: &'static str,
    theme: Option<&'static str>,
    garden: Garden,
    input: &'static [Input],
    min_width: u16,
}

const SHOTS: &[Shot] = &[
    Shot {
        name: "observations",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[],
        min_width: 0,
    },
    Shot {
        name: "dreams",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[Key("2"), Key("j"), Key("j"), Key("j"), Key("j"), Key("j")],
        min_width: 0,
    },
    Shot {
        name: "recall",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[
            // wren: the garden is sorted by name (finch, moss, wren).
            Key("h"),
            Key("j"),
            Key("j"),
            Key("4"),
            Key("/"),
            Text("weekly_mean"),
            Key("enter"),
            Key("n"),
            Key("n"),
        ],
        min_width: 0,
    },
    Shot {
        name: "events",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[Key("6")],
        min_width: 0,
    },
    Shot {
        name: "diary",
        theme: None,
        garden: Garden::OpenSeed,
        // moss: the creature whose model wrote its diary itself.
        input: &[Key("h"), Key("j"), Key("3")],
        min_width: 0,
    },
    Shot {
        name: "help",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[Key("?")],
        min_width: 0,
    },
    Shot {
        name: "message",
        theme: None,
        garden: Garden::OpenSeed,
        input: &[
            Key("m"),
            Text("Please write the weekly summary to workspace/weekly.md first."),
            Key("enter"),
            Text("Then fix weekly_mean."),
        ],
        min_width: 0,
    },
    Shot {
        name: "light",
        theme: Some("light"),
        garden: Garden::OpenSeed,
        input: &[],
        min_width: 0,
    },
    Shot {
        name: "high-contrast",
        theme: Some("high-contrast"),
        garden: Garden::OpenSeed,
        input: &[Key("2")],
        min_width: 0,
    },
    Shot {
        name: "evennia-journal",
        theme: None,
        garden: Garden::Evennia,
        input: &[Key("1"), Key("pagedown"), Key("pagedown")],
        min_width: 0,
    },
    Shot {
        name: "evennia-entities",
        theme: None,
        garden: Garden::Evennia,
        input: &[Key("2"), Key("j"), Key("j")],
        min_width: 0,
    },
    Shot {
        name: "evennia-memory",
        theme: None,
        garden: Garden::Evennia,
        input: &[
            Key("3"),
            Key("/"),
            Text("north wing"),
            Key("enter"),
            Key("n"),
        ],
        min_width: 0,
    },
    // wren: the garden is sorted by name (ivy, wren); `]` selects the next.
    Shot {
        name: "emergence-soul",
        theme: None,
        garden: Garden::Emergence,
        input: &[Key("]"), Key("1")],
        min_width: 0,
    },
    Shot {
        name: "emergence-memory",
        theme: None,
        garden: Garden::Emergence,
        input: &[Key("]"), Key("2"), Key("pagedown")],
        min_width: 0,
    },
    Shot {
        name: "emergence-diary",
        theme: None,
        garden: Garden::Emergence,
        input: &[Key("]"), Key("3")],
        min_width: 0,
    },
    Shot {
        name: "emergence-plans",
        theme: None,
        garden: Garden::Emergence,
        input: &[Key("]"), Key("5")],
        min_width: 0,
    },
    Shot {
        name: "emergence-relations",
        theme: None,
        garden: Garden::Emergence,
        input: &[Key("]"), Key("7")],
        min_width: 160,
    },
];

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

/// The creatures of each garden drawn: the OpenSeed fixtures, and those of the evennia
/// and emergence views (none drawn when there are none).
pub struct Gardens<'a> {
    pub openseed: &'a [PathBuf],
    pub evennia: &'a [PathBuf],
    pub emergence: &'a [PathBuf],
}

/// Renders every screenshot of the gardens; returns the files written.
pub fn render_all(
    gardens: &Gardens,
    default_theme: &str,
    out: &Path,
    width: u16,
    height: u16,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut written = Vec::new();
    for shot in SHOTS {
        let creatures = match shot.garden {
            Garden::OpenSeed => gardens.openseed,
            Garden::Evennia => gardens.evennia,
            Garden::Emergence => gardens.emergence,
        };
        if creatures.is_empty() {
            continue;
        }
        let now = clock_after(creatures);
        let (theme, warnings) = Theme::load(shot.theme.unwrap_or(default_theme), None, false);
        if let Some(w) = warnings.first() {
            anyhow::bail!("{w}");
        }
        let options = svg_options(&theme);
        let width = width.max(shot.min_width);
        let mut screen = Headless::open(creatures, Settings::with_theme(theme), now, width, height)
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
    // What a dream changed, seen by the watched history, on the first fixture.
    if let Some(creature) = gardens.openseed.first() {
        let now = clock_after(std::slice::from_ref(creature));
        let (theme, _) = Theme::load(default_theme, None, false);
        let options = svg_options(&theme);
        let (mut screen, _tmp) = changed::screen(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("dream-changes.svg"))?);
        // A dream held for review, its popup open.
        let (theme, _) = Theme::load(default_theme, None, false);
        let (mut screen, _tmp) = review::screen(creature, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("review.svg"))?);
    }
    // The garden talking: who wrote to whom, from the emergence creatures' dialogues.
    if !gardens.emergence.is_empty() {
        let now = clock_after(gardens.emergence);
        let (theme, _) = Theme::load(default_theme, None, false);
        let options = svg_options(&theme);
        let (mut screen, _tmp) = talk::screen(gardens.emergence, theme, now, width, height)?;
        written.push(save(&mut screen, &options, &out.join("garden-talk.svg"))?);
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
    /// The directory of `*/creature` evennia fixtures drawn in the evennia views'
    /// pictures (none drawn when it has none).
    pub evennia_fixtures: PathBuf,
    /// The same for the emergence views.
    pub emergence_fixtures: PathBuf,
}

pub fn run(args: &ScreenshotOptions) -> anyhow::Result<()> {
    let mut creatures = fixture_creatures(&args.fixtures).with_context(|| {
        "give --fixtures (or DREAMWATCH_FIXTURES) a directory of */creature fixtures, such as \
         the repository's tests/fixtures/openseed"
    })?;
    // The pictures of the dreamer's views are of the creatures of the default genome (the
    // fixtures of OpenSeed's other genomes sit beside them).
    let default = crate::memory::genome::Registry::installed().default_genome();
    creatures.retain(|c| Creature::open(c).genome() == default);
    let evennia = fixture_creatures(&args.evennia_fixtures).unwrap_or_default();
    let emergence = fixture_creatures(&args.emergence_fixtures).unwrap_or_default();
    let theme = args.theme.as_deref().unwrap_or(DEFAULT_THEME);
    let gardens = Gardens {
        openseed: &creatures,
        evennia: &evennia,
        emergence: &emergence,
    };
    let written = render_all(&gardens, theme, &args.out, args.width, args.height)?;
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
