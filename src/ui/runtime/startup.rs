//! Starting the observatory: settings from the config file and the command line, the
//! roots to watch, the log file, and the garden, terminal and loop brought up together.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use chrono::Utc;
use tokio::sync::mpsc;

use crate::control::HostedCreature;
use crate::history::{self, History};
use crate::llm::prices::Prices;
use crate::memory::cycle::Cycle;
use crate::memory::garden::Root;
use crate::openseed::{AttachOptions, attach};
use crate::remote::place::{self, CopyDir};
use crate::remote::{Remote, Transport, connect};
use crate::ui::OpenSeedLink;
use crate::ui::config::{self, Config};
use crate::ui::input::keymap::Keymap;
use crate::ui::runtime;
use crate::ui::state::openseed::OpenSeedUi;
use crate::ui::state::remote::RemoteUi;
use crate::ui::state::{App, Settings};
use crate::ui::theme::{self, Theme};
use crate::watch::{LiveGarden, WatchOptions};

/// Keymap, theme and read-only from the config file and `theme` (asked for on the command line, it
/// wins), with the problems found on the way (shown in the status line, never fatal).
pub fn settings(theme: Option<&str>, config: &Config, cycle: Cycle) -> (Settings, Vec<String>) {
    let mut warnings = Vec::new();
    let name = theme
        .map(str::to_owned)
        .or_else(|| config.theme.clone())
        .unwrap_or_else(|| theme::DEFAULT_THEME.to_string());
    let themes_dir = config::config_dir().map(|d| d.join("themes"));
    let (theme, theme_warnings) =
        Theme::load(&name, themes_dir.as_deref(), theme::no_color_requested());
    warnings.extend(theme_warnings);
    let mut keymap = Keymap::default();
    warnings.extend(keymap.patch(&config.keys));
    warnings.extend(keymap.add_commands(&config.commands));
    (
        Settings {
            keymap,
            theme,
            cycle,
            read_only: config.read_only.unwrap_or(false),
            bell: config.bell.unwrap_or(false),
            history: match config.history_mib {
                Some(0) => None,
                mib => History::default_root().map(|root| {
                    History::new(root, mib.map_or(history::DEFAULT_LIMIT, |m| m << 20))
                }),
            },
            prices: Prices::builtin().with(&config.prices),
            ascii: crate::text::ascii::locale_wants_ascii(|name| std::env::var(name).ok()),
            demo_speed: None,
            notify: config.notify.clone(),
        },
        warnings,
    )
}

/// The roots to watch: the paths given (or OpenSeed's garden, when neither a path nor a
/// far garden is given), plus hosted creatures. With none of these, an orchestrator
/// attached by its URL (`orchestrator`) is enough: its creatures are shown from its API.
pub fn roots(
    paths: &[PathBuf],
    hosted: &[HostedCreature],
    remotes: bool,
    orchestrator: bool,
) -> anyhow::Result<Vec<Root>> {
    let given: Vec<PathBuf> = paths.to_vec();
    let mut roots = Vec::new();
    if given.is_empty() && hosted.is_empty() && !remotes {
        let default = crate::memory::garden::default_garden().filter(|p| p.is_dir());
        match default {
            // OpenSeed's garden, even while empty: creatures appear in it live.
            Some(p) => roots.push(Root::Garden(p)),
            None if orchestrator => {}
            None => anyhow::bail!(
                "no creatures to watch: give creature directories or gardens (see --help), or try `dreamwatch demo`"
            ),
        }
    }
    for path in &given {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        roots.push(Root::classify(&path)?);
    }
    for h in hosted {
        let dir = canonical(&h.dir);
        if !roots.iter().any(|r| r.path() == dir) {
            roots.push(Root::Creature(dir));
        }
    }
    Ok(roots)
}

/// A directory for each far garden's copy, under the cache directory's
/// `dreamwatch/remote/`: held by this process, at the same path at every run and kept for
/// the next (see [`place`]).
pub fn mirrors(remotes: &[Transport]) -> anyhow::Result<Vec<(Transport, CopyDir)>> {
    if remotes.is_empty() {
        return Ok(Vec::new());
    }
    let base = place::base();
    place::sweep(&base);
    remotes
        .iter()
        .map(|t| {
            let dir = CopyDir::create(&base, &t.label(), &t.describe()).with_context(|| {
                format!("creating a copy of {} in {}", t.describe(), base.display())
            })?;
            Ok((t.clone(), dir))
        })
        .collect()
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Creatures opened before the first frame; those past them are opened by the loop, a
/// batch per wake.
const OPEN_FIRST: usize = 16;

pub async fn observe(
    roots: Vec<Root>,
    opts: WatchOptions,
    settings: Settings,
    warnings: Vec<String>,
    hosted: Vec<HostedCreature>,
    openseed: Option<OpenSeedLink>,
    remotes: Vec<(Transport, PathBuf)>,
) -> anyhow::Result<()> {
    // The sort and filter this garden was left with last time.
    let kept_view = runtime::garden_memory::default_dir()
        .map(|dir| runtime::garden_memory::file_of(&dir, &roots));
    // Large logs' counts start after the first frame (the loop lets them go), or when
    // the observatory ends before it.
    let _background = crate::memory::background::hold();
    // A large garden's first frame shows its first creatures; the rest are read after it.
    let (garden, watch_rx) = LiveGarden::open_progressive(roots, opts, OPEN_FIRST);
    let (remote_tx, remote_rx) = mpsc::unbounded_channel();
    let connections: Vec<Remote> = remotes
        .into_iter()
        .map(|(t, root)| connect(t, root, remote_tx.clone()))
        .collect();
    let attached = openseed.map(|link| attach(link.target, link.tokens, AttachOptions::default()));
    let (host_tx, host_rx) = mpsc::unbounded_channel();
    let (outcome_tx, outcome_rx) = mpsc::unbounded_channel();
    let mut senders = HashMap::new();
    let mut hosted_dirs = BTreeMap::new();
    // The observatory opens on the first creature it hosts (the demo's dreamer).
    let first_hosted = hosted.first().map(|h| canonical(&h.dir));
    for h in hosted {
        let dir = canonical(&h.dir);
        hosted_dirs.insert(dir.clone(), h.cycle);
        senders.insert(dir.clone(), h.control);
        let tx = host_tx.clone();
        let mut status = h.status;
        tokio::spawn(async move {
            loop {
                let now = status.borrow_and_update().clone();
                if tx.send((dir.clone(), now)).is_err() || status.changed().await.is_err() {
                    break;
                }
            }
        });
    }
    let mut guard = runtime::terminal::Guard::enter()
        .context("dreamwatch needs a terminal (stdout is not one)")?;
    let size = guard.terminal.size()?;
    let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
    let notify = settings.notify.clone();
    let mut app = App::new(garden, settings, hosted_dirs, Utc::now(), area);
    app.set_notifier(crate::ui::notify::Notifier::new(&notify, |name| {
        std::env::var(name).ok()
    }));
    if let Some(first) = first_hosted.filter(|p| app.creatures.contains_key(p)) {
        app.selected = Some(first);
    }
    if let Some(file) = &kept_view {
        app.restore_garden_view(runtime::garden_memory::load(file));
    }
    if !warnings.is_empty() {
        for w in &warnings {
            tracing::warn!("{w}");
        }
        app.set_notice(warnings.join("; "), true);
    }
    let (attachment, openseed_rx) = match attached {
        Some((attachment, rx)) => {
            app.openseed = Some(OpenSeedUi::new(attachment.target().describe()));
            (Some(attachment), Some(rx))
        }
        None => (None, None),
    };
    for c in &connections {
        app.add_remote(
            c.root.clone(),
            RemoteUi::new(&c.transport.label(), &c.transport.describe()),
        );
    }
    let sources = runtime::event_loop::Sources {
        watch: watch_rx,
        hosts: host_rx,
        outcomes: outcome_rx,
        openseed: openseed_rx,
        remotes: remote_rx,
    };
    let mut effects = runtime::jobs::Jobs::new(senders, outcome_tx);
    effects.openseed = attachment;
    effects.remotes = connections;
    let ended = runtime::event_loop::run(&mut app, &mut guard.terminal, sources, effects).await;
    // The far sides' shared ssh connections end with the observatory.
    crate::remote::mux::stop_all();
    if let Some(file) = &kept_view
        && let Err(e) = runtime::garden_memory::save(file, &app.garden_view)
    {
        tracing::warn!(
            "keeping the garden's sort and filter in {}: {e}",
            file.display()
        );
    }
    ended
}
