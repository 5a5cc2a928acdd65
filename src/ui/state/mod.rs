//! The observatory's state: every creature's model and prepared text, focus, mode, the
//! prompts. Drawing reads it and nothing else; [`crate::ui::update`] changes it.

pub mod confirm;
pub mod creature;
pub mod failure;
mod frame_clock;
pub mod garden;
pub mod health;
mod kept;
pub mod notify;
pub mod openseed;
pub mod remote;
pub mod search;
pub mod selection;
pub mod spend;
pub mod watched;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use ratatui::layout::Rect;

use crate::control::HostStatus;
use crate::memory::creature::{Change, Creature};
use crate::memory::creature_map::{CreatureMap, Reached};
use crate::memory::cycle::Cycle;
use crate::memory::layout::FileKind;
use crate::memory::status::Status;
use crate::ui::doc::DocLine;
use crate::ui::focus::{MainView, Mode, Pane};
use crate::ui::genome::Gardens;
use crate::ui::input::action::Action;
use crate::ui::input::hints::HintContext;
use crate::ui::input::keymap::Keymap;
use crate::ui::layout::Areas;
use crate::ui::popups::Popups;
use crate::ui::prepare;
use crate::ui::theme::Theme;
use crate::ui::views::talk::TalkView;
use crate::watch::{LiveChange, LiveGarden};
use creature::{CreatureUi, RunnerLink};
use frame_clock::ShownUntil;
pub use frame_clock::{FrameClock, Steps};
use garden::{GardenView, KeptOrder};
use health::Attention;
use kept::{Kept, KeptByReads};
use openseed::OpenSeedUi;
use remote::RemoteUi;
use search::SearchState;
use watched::Watched;

use crate::history::History;
use crate::llm::prices::Prices;

/// A line for the status bar. It stays until replaced, or until a key is pressed after
/// it has been on screen (a burst of keys does not wipe a notice nobody saw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    /// It has been drawn.
    pub shown: bool,
    /// It only says how far the garden's loading is: replaced as loading goes on, not
    /// kept in the status log, and gone when loading ends.
    pub progress: bool,
}

/// Settings fixed at startup.
#[derive(Debug, Clone)]
pub struct Settings {
    pub keymap: Keymap,
    pub theme: Theme,
    /// The cycle constants of watched creatures (hosted ones live by their runner's).
    pub cycle: Cycle,
    /// Refuse every action that writes or acts (`--read-only`, `read_only = true`).
    pub read_only: bool,
    /// Ring the terminal bell when something asks for attention (`bell = true`).
    pub bell: bool,
    /// The watched history's store; `None` keeps none.
    pub history: Option<History>,
    /// What model calls cost (the built-in table with the config's `[prices]` over it).
    pub prices: Prices,
    /// Draw in ASCII (the locale is not UTF-8).
    pub ascii: bool,
    /// The demo's speed (`dreamwatch demo --speed`), which its keys change; `None`
    /// outside a demo.
    pub demo_speed: Option<u32>,
    /// `[notify]`: the terminal observatory tells what needs a person so (a screen
    /// without a terminal tells nothing).
    pub notify: crate::ui::notify::config::NotifyConfig,
}

pub struct App {
    pub(in crate::ui) garden: LiveGarden,
    pub creatures: CreatureMap<CreatureUi>,
    pub selected: Option<PathBuf>,
    /// The creature whose observations are prepared (the one shown last): the others'
    /// are let go of ([`ObservationsView::release`](crate::ui::views::observations::ObservationsView::release)).
    obs_prepared: Option<PathBuf>,
    /// The far creature whose conversation's window was last asked for first.
    pub(in crate::ui) wanted: Option<PathBuf>,
    pub(in crate::ui) pane: Pane,
    /// The view asked for last; the selected creature shows it, or the view in the same
    /// tab when its genome has no such view ([`App::shown_view`]).
    pub view: MainView,
    pub mode: Mode,
    pub keymap: Keymap,
    pub theme: Theme,
    /// The cycle constants of watched creatures.
    pub(in crate::ui) cycle: Cycle,
    /// Actions that write or act are refused ([`crate::ui::input::action::Needs::acts`]).
    pub(in crate::ui) read_only: bool,
    /// Ring the terminal bell for attention marks ([`Settings::bell`]).
    pub(in crate::ui) bell: bool,
    bell_due: bool,
    /// The time, as the last wake read it. A frame reads it through [`App::clock`].
    now: DateTime<Utc>,
    /// Until when the last frame's texts made of the clock read the same.
    shown_until: ShownUntil,
    /// The terminal's size.
    pub(in crate::ui) area: Rect,
    pub notice: Option<Notice>,
    /// The popups' state (help, status log, detail, review, message box).
    pub popups: Popups,
    pub search: SearchState,
    /// The garden's filter and sort.
    pub(in crate::ui) garden_view: GardenView,
    /// The garden list's order while nothing it is made from changes.
    kept_order: KeptOrder,
    /// The names more than one creature carries, while the garden is the same.
    kept_shared_names: KeptByReads<(), Arc<BTreeSet<String>>>,
    /// The garden's columns of figures, while the garden is the same.
    kept_columns: Kept<u64, Arc<[&'static crate::ui::genome::GardenColumn]>>,
    /// What the garden cost today, while the garden and the day are the same.
    kept_cost: KeptByReads<chrono::NaiveDate, Option<crate::llm::prices::Cost>>,
    /// The creatures not at rest when last told ([`App::settle_reached`]).
    clock_bound: BTreeSet<PathBuf>,
    pub quit: bool,
    /// The question asked by an action that is done when its key is pressed again.
    pub(in crate::ui) confirm: Option<confirm::Confirm>,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// The first frame is out: first looks wait for it ([`App::looks_due`]).
    drawn_once: bool,
    /// Creatures hosted in-process, with their runner's cycle constants.
    hosted: BTreeMap<PathBuf, Cycle>,
    /// The attached OpenSeed orchestrator, if any.
    pub openseed: Option<OpenSeedUi>,
    /// Gardens on other machines, by the mirror directory their copies sit in.
    pub(in crate::ui) remotes: BTreeMap<PathBuf, RemoteUi>,
    /// The watched history of creatures that keep no record of their dreams.
    watched: Option<Watched>,
    /// What the genomes keep of the whole garden, for their views.
    pub(in crate::ui) gardens: Gardens,
    /// The garden's conversation, for the talk view and the garden list.
    pub(in crate::ui) talk: TalkView,
    /// What model calls cost.
    pub(in crate::ui) prices: Prices,
    /// Draw in ASCII (the locale is not UTF-8).
    pub(in crate::ui) ascii: bool,
    /// The demo's speed, while the observatory shows a demo ([`Settings::demo_speed`]).
    pub demo_speed: Option<u32>,
    /// The time cursor: the selected creature as it was.
    pub(in crate::ui) time: crate::ui::time::TimeTravel,
    /// Notifications when a creature needs a person (`[notify]`).
    pub(in crate::ui) notify: crate::ui::notify::Notifier,
    /// The creatures the next look for what needs a person looks at.
    pub(in crate::ui) looks: notify::Looks,
}

impl App {
    pub fn new(
        garden: LiveGarden,
        settings: Settings,
        hosted: BTreeMap<PathBuf, Cycle>,
        now: DateTime<Utc>,
        area: Rect,
    ) -> Self {
        let mut app = Self {
            garden,
            creatures: CreatureMap::new(),
            selected: None,
            pane: Pane::Main,
            view: MainView::Observations,
            obs_prepared: None,
            wanted: None,
            mode: Mode::Normal,
            keymap: settings.keymap,
            theme: settings.theme,
            cycle: settings.cycle,
            read_only: settings.read_only,
            bell: settings.bell,
            bell_due: false,
            now,
            shown_until: ShownUntil::default(),
            area,
            notice: None,
            popups: Popups::default(),
            search: SearchState::default(),
            garden_view: GardenView::default(),
            kept_order: KeptOrder::default(),
            kept_shared_names: KeptByReads::default(),
            kept_cost: KeptByReads::default(),
            kept_columns: Kept::default(),
            clock_bound: BTreeSet::new(),
            quit: false,
            confirm: None,
            dirty: true,
            drawn_once: false,
            hosted,
            openseed: None,
            remotes: BTreeMap::new(),
            gardens: Gardens::default(),
            talk: TalkView::default(),
            watched: settings.history.map(Watched::new),
            prices: settings.prices,
            ascii: settings.ascii,
            demo_speed: settings.demo_speed,
            time: Default::default(),
            notify: crate::ui::notify::Notifier::silent(),
            looks: notify::Looks::All,
        };
        let paths: Vec<PathBuf> = app.garden.creatures().keys().cloned().collect();
        for path in paths {
            app.add(&path);
        }
        app.prepare_gardens(None);
        app.talk.refresh(app.garden.creatures().values());
        // The top of the list as it is shown (by name), not the first directory found.
        if let Some(first) = app.garden_order().first() {
            app.selected = Some(first.clone());
        }
        app.set_loading(app.garden.loading());
        app
    }

    fn add(&mut self, path: &Path) {
        let Some(model) = self.garden.creature(path) else {
            return;
        };
        let (cycle, link) = match self.hosted.get(path) {
            Some(cycle) => (*cycle, RunnerLink::Hosted),
            None => (self.cycle, RunnerLink::None),
        };
        let mut ui = CreatureUi::new(model, &self.theme, self.now, cycle, link);
        let far = self.remote_of(path).map(|r| r.host.clone());
        if let Some(host) = &far {
            ui.mark_remote(host.clone(), model);
        }
        self.creatures.insert(path.to_path_buf(), ui);
        if self.selected.is_none() {
            self.selected = Some(path.to_path_buf());
        }
        // A far creature's copy lives as long as this observatory: no history is kept of it.
        // After the first frame (the store's records of a creature watched for months are
        // megabytes to read), after every row while the garden loads, and after it behind
        // those left then.
        let watched = link != RunnerLink::Hosted && far.is_none();
        let wait = !self.drawn_once || self.garden.loading().is_some();
        match self.watched.as_mut() {
            Some(w) if watched && (wait || w.has_deferred()) => w.defer(path),
            Some(_) if watched => self.first_look(path),
            _ => {}
        }
    }

    /// The watched history's first look at the creature at `path`: what changed while
    /// nothing watched recorded, and its dreams told where the store keeps it all.
    fn first_look(&mut self, path: &Path) {
        let (Some(w), Some(ui)) = (self.watched.as_mut(), self.creatures.get_mut(path)) else {
            return;
        };
        let loaded = w.load(path);
        // What it records now is in the store too: read with the rest when shown.
        let seen = w.look(path, None, self.now);
        let since = loaded.since.unwrap_or(self.now);
        ui.dreams
            .defer_watched(w.store().clone(), path.to_path_buf(), since);
        if let Some(text) = loaded.dropped.or(seen.notice) {
            self.set_notice(text, true);
        }
    }

    /// Whether looks left for later are due: at what changed, once the frame showing it
    /// is out; first looks, once the first frame is out and every row is in.
    pub fn looks_due(&self) -> bool {
        self.drawn_once
            && self.watched.as_ref().is_some_and(|w| {
                w.has_changed() || (self.garden.loading().is_none() && w.has_deferred())
            })
    }

    /// Takes the looks at what changed, then up to `count` of the first looks left for
    /// later.
    pub fn take_looks(&mut self, count: usize) {
        self.take_looks_at_changes();
        let paths = self
            .watched
            .as_mut()
            .map(|w| w.take_deferred(count))
            .unwrap_or_default();
        for path in paths {
            self.first_look(&path);
            self.dirty = true;
        }
    }

    /// Takes the looks at what changed (also as the observatory ends: what it showed
    /// changing is recorded).
    pub fn take_looks_at_changes(&mut self) {
        let waiting = self
            .watched
            .as_mut()
            .map(Watched::take_changed)
            .unwrap_or_default();
        for (path, kinds) in waiting {
            self.look_at_changes(&path, &kinds);
        }
    }

    /// The watched history's look at the recorded files of `kinds` that changed in the
    /// creature at `path`: what they changed, added to its dreams view.
    fn look_at_changes(&mut self, path: &Path, kinds: &[FileKind]) {
        // What a look finds is on screen only in the shown creature's Dreams view (a
        // frame more at every append, in a garden of a thousand, cost as much as the
        // append's own).
        let shown = self.selected.as_deref() == Some(path) && self.shown_view() == MainView::Dreams;
        // Its dreams view's state alone: nothing made of the whole garden reads it.
        let (Some(w), Some(ui), Some(model)) = (
            self.watched.as_mut(),
            self.creatures.get_mut_uncounted(path),
            self.garden.creature(path),
        ) else {
            return;
        };
        let seen = w.look(path, Some(kinds), self.now);
        self.dirty |= shown && !seen.records.is_empty();
        ui.dreams.add_watched(model, seen.records, None);
        if let Some(text) = seen.notice {
            self.set_notice(text, true);
        }
    }

    /// What the genomes keep of the whole garden again, from every creature: all of it,
    /// or what reads the files of `changed` kinds.
    fn prepare_gardens(&mut self, changed: Option<&[FileKind]>) {
        let creatures: Vec<&Creature> = self.garden.creatures().values().collect();
        self.gardens.prepare(&creatures, changed);
    }

    /// Applies a batch of model changes: creatures added, removed or changed.
    pub fn on_changes(&mut self, changes: Vec<LiveChange>) {
        let comings_and_goings = changes
            .iter()
            .any(|c| matches!(c, LiveChange::Added(_) | LiveChange::Removed(_)));
        let all = changes.iter().any(|c| match c {
            LiveChange::Added(_) | LiveChange::Removed(_) => true,
            LiveChange::Changed(_, changes) => changes.contains(&Change::Identity),
        });
        let kinds: Vec<FileKind> = changes
            .iter()
            .flat_map(|c| match c {
                LiveChange::Changed(_, changes) => changes.as_slice(),
                _ => &[],
            })
            .filter_map(|c| match c {
                Change::Genome(kind) | Change::Reset(kind) => Some(*kind),
                _ => None,
            })
            .collect();
        if all {
            self.prepare_gardens(None);
        } else if !kinds.is_empty() {
            self.prepare_gardens(Some(&kinds));
        }
        let talk = changes.iter().any(|c| match c {
            LiveChange::Added(_) | LiveChange::Removed(_) => true,
            LiveChange::Changed(_, changes) => changes
                .iter()
                .any(|c| matches!(c, Change::Events { .. } | Change::Reset(FileKind::Events))),
        });
        if talk && self.talk.refresh(self.garden.creatures().values()) {
            self.dirty = true;
        }
        for change in changes {
            match change {
                LiveChange::Added(path) => {
                    self.looks.add(&path);
                    self.add(&path);
                }
                LiveChange::Removed(path) => {
                    self.looks = notify::Looks::All;
                    if let Some(w) = self.watched.as_mut() {
                        w.forget(&path);
                    }
                    let before = self.garden_order();
                    let index = before.iter().position(|p| *p == path);
                    let Some(ui) = self.creatures.remove(&path) else {
                        continue;
                    };
                    if self.selected.as_ref() == Some(&path) {
                        // The creature that took its place in the list, else the one above.
                        let order = self.garden_order();
                        let next = index.unwrap_or(0).min(order.len().saturating_sub(1));
                        self.selected = order
                            .get(next)
                            .or_else(|| self.creatures.keys().next())
                            .cloned();
                    }
                    let text = if self.popups.message.to() == Some(path.as_path()) {
                        let close = self.keymap.mention(Action::Cancel, ", {} closes the box");
                        format!(
                            "{} is gone (its directory was removed): the message cannot be sent{close}",
                            ui.name
                        )
                    } else {
                        format!("{} is gone: its directory was removed", ui.name)
                    };
                    self.set_notice(text, self.popups.message.to() == Some(path.as_path()));
                }
                LiveChange::Changed(path, changes) => {
                    self.looks.add(&path);
                    // Its first look comes before the look at what changed.
                    if self.watched.as_mut().is_some_and(|w| w.undefer(&path)) {
                        self.first_look(&path);
                    }
                    let (Some(ui), Some(model)) =
                        (self.creatures.get_mut(&path), self.garden.creature(&path))
                    else {
                        continue;
                    };
                    let was_held = ui.review.is_some();
                    let attention = ui.apply(model, &changes, &self.theme, self.now);
                    if let Some(w) = self
                        .watched
                        .as_mut()
                        .filter(|_| ui.link != RunnerLink::Hosted && ui.remote_host.is_none())
                    {
                        w.queue(&path, &changes);
                    }
                    self.call_attention(&path, attention);
                    self.follow_reviews(&path, &changes, was_held);
                }
            }
            self.dirty = true;
        }
        // A creature the orchestrator runs: its files came (one row) or went (its row
        // from the orchestrator alone).
        if comings_and_goings {
            self.sync_api_only();
        }
    }

    /// The hosting runner reported a new status (its text made inert here, once).
    pub fn on_host_status(&mut self, path: &Path, mut status: HostStatus) {
        status.brain = prepare::inert(&status.brain);
        status.last_error = status.last_error.as_deref().map(prepare::inert);
        let (Some(ui), Some(model)) = (self.creatures.get_mut(path), self.garden.creature(path))
        else {
            return;
        };
        if ui.host.as_ref() != Some(&status) {
            let new_error = status.last_error.is_some()
                && ui
                    .host
                    .as_ref()
                    .is_none_or(|h| h.last_error != status.last_error);
            ui.host = Some(status);
            ui.refresh_summary(model, self.now);
            self.dirty = true;
            self.call_attention(path, new_error.then_some(Attention::Error));
        }
    }

    /// Marks a creature that is not selected with what arrived on it (the weightiest
    /// kept), and rings the terminal bell when asked to (`bell = true`).
    fn call_attention(&mut self, path: &Path, attention: Option<Attention>) {
        if attention.is_none() || self.selected.as_deref() == Some(path) {
            return;
        }
        if let Some(ui) = self.creatures.get_mut(path) {
            ui.attention = ui.attention.max(attention);
            self.bell_due |= self.bell;
        }
    }

    /// Whether the terminal bell is due (once per batch of news); the loop rings it.
    pub fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.bell_due)
    }

    /// The clock a frame reads: each read notes until when what is made of it reads the
    /// same ([`App::shown_until`]).
    pub fn clock(&self) -> FrameClock<'_> {
        FrameClock::live(self.now, &self.shown_until)
    }

    /// The time, for what changes the state (`&mut`: a frame, which has the state only to
    /// read, reads the clock through [`App::clock`], which notes what it read).
    pub(in crate::ui) fn now(&mut self) -> DateTime<Utc> {
        self.now
    }

    /// The clock moves on to `now` without a tick: a wake reads it, so that what it
    /// changes and the frame after it are of their time.
    pub(in crate::ui) fn set_now(&mut self, now: DateTime<Utc>) {
        self.now = now;
    }

    /// Until when the last frame reads the same of the clock (`None`: whatever the time).
    pub fn shown_until(&self) -> Option<DateTime<Utc>> {
        self.shown_until.get()
    }

    /// A frame begins: nothing of the clock read yet.
    pub(in crate::ui) fn begin_frame(&self) {
        self.shown_until.begin();
    }

    /// The clock moved on: statuses and "ago" times may read differently. Only the
    /// creatures the clock may still change are refreshed (and looked at for what needs a
    /// person): an idle garden's tick touches no creature at rest (on a machine that lets
    /// a still process's memory go cold, a look at all of 1000 took 100 ms), and the
    /// screen is drawn again only if something of it changed.
    pub fn tick(&mut self, now: DateTime<Utc>) {
        self.now = now;
        self.play_tick(now);
        self.settle_reached();
        let due = std::mem::take(&mut self.clock_bound);
        let refreshed = !due.is_empty();
        let theme = &self.theme;
        for path in due {
            self.looks.add(&path);
            let (Some(ui), Some(model)) =
                (self.creatures.get_mut(&path), self.garden.creature(&path))
            else {
                continue;
            };
            ui.refresh_clock(model, now);
            if let Some(own) = ui.own.as_mut() {
                own.tick(model, now, theme);
            }
            if !ui.at_rest(model, now) {
                self.clock_bound.insert(path);
            }
        }
        // The tick's own reach is no news.
        self.creatures.take_reached();
        // Drawn again only when the tick changed a creature, a play moves on, or a text
        // the last frame made of the clock reads differently by now.
        let shown_changed = self.shown_until.get().is_some_and(|t| t <= now);
        self.dirty |= refreshed || self.time.playing() || shown_changed;
    }

    /// Tells, of every creature reached since the last time (changed, or lent mutably),
    /// whether it is at rest ([`CreatureUi::at_rest`]): while its memory is still warm,
    /// before each frame and each tick.
    pub fn settle_reached(&mut self) {
        let now = self.now;
        // The garden's order looks at the creatures reached before they are let go.
        self.garden_view
            .note_reached(&self.creatures, &self.kept_order);
        self.kept_shared_names
            .note_reached(&(), &self.creatures, name_read);
        self.note_reached_costs();
        let reached: Vec<PathBuf> = match self.creatures.take_reached() {
            Reached::Paths(paths) => paths.into_iter().collect(),
            Reached::All => {
                self.clock_bound.clear();
                self.creatures.keys().cloned().collect()
            }
        };
        for path in reached {
            // Gone, or without a model: nothing for the clock to refresh.
            let bound = match (self.creatures.get(&path), self.garden.creature(&path)) {
                (Some(ui), Some(model)) => !ui.at_rest(model, now),
                _ => false,
            };
            if bound {
                self.clock_bound.insert(path);
            } else {
                self.clock_bound.remove(&path);
            }
        }
    }

    /// The creatures the clock may still change: those not at rest when last told and
    /// those reached since.
    pub fn clock_bound(&self) -> Vec<&CreatureUi> {
        match self.creatures.reached() {
            Reached::Paths(reached) => self
                .clock_bound
                .iter()
                .chain(reached.iter().filter(|p| !self.clock_bound.contains(*p)))
                .filter_map(|p| self.creatures.get(p))
                .collect(),
            Reached::All => self.creatures.values().collect(),
        }
    }

    /// The creatures this process hosts.
    pub fn hosted_paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.hosted.keys()
    }

    /// The selected creature's views: as it was while the time cursor is on, else now.
    pub fn selected_ui(&self) -> Option<&CreatureUi> {
        if let Some(past) = self.time.past_of(self.selected.as_deref()) {
            return Some(&past.ui);
        }
        self.creatures.get(self.selected.as_ref()?)
    }

    /// The selected creature's model: as it was while the time cursor is on, else now.
    pub fn selected_model(&self) -> Option<&Creature> {
        if let Some(past) = self.time.past_of(self.selected.as_deref()) {
            return Some(&past.model);
        }
        self.garden.creature(self.selected.as_ref()?)
    }

    /// The watched history's store, if one is kept.
    pub(in crate::ui) fn history(&self) -> Option<&History> {
        self.watched.as_ref().map(Watched::store)
    }

    /// The creatures the garden list shows, in its order (filtered and sorted).
    pub fn garden_order(&self) -> Arc<[PathBuf]> {
        self.garden_view.kept_order(
            &self.creatures,
            |path, ui| self.cost_today(path, ui),
            &self.kept_order,
        )
    }

    /// The names more than one creature carries (BIRTH.json names need not be unique):
    /// the garden's rows of those add their directory's name.
    pub fn shared_names(&self) -> Arc<BTreeSet<String>> {
        self.kept_shared_names
            .get_or((), &self.creatures, name_read, || {
                let mut seen = BTreeMap::<&str, usize>::new();
                for ui in self.creatures.values() {
                    *seen.entry(ui.name.as_str()).or_default() += 1;
                }
                let shared = seen.into_iter().filter(|(_, n)| *n > 1);
                Arc::new(shared.map(|(name, _)| name.to_string()).collect())
            })
    }

    /// The garden's columns of figures as `find` finds them, kept while the garden is the
    /// same.
    pub fn garden_columns(
        &self,
        find: impl FnOnce() -> Arc<[&'static crate::ui::genome::GardenColumn]>,
    ) -> Arc<[&'static crate::ui::genome::GardenColumn]> {
        self.kept_columns.get_or(self.creatures.version(), find)
    }

    /// The index of the selected creature in the garden list (none when a filter hides it).
    pub fn selected_index(&self) -> Option<usize> {
        let sel = self.selected.as_ref()?;
        self.garden_order().iter().position(|p| p == sel)
    }

    /// The views the selected creature offers (a dreamer's when none is selected).
    pub fn views(&self) -> &'static [MainView] {
        let mut views = self
            .selected_ui()
            .map_or_else(crate::ui::genome::default_views, CreatureUi::views);
        if self
            .selected
            .as_deref()
            .is_some_and(|p| self.openseed_route(p))
        {
            views = crate::ui::genome::with_live(views);
        }
        if self.selected.is_some() && self.talk.offered(self.hosted.len()) {
            views = crate::ui::genome::with_talk(views);
        }
        views
    }

    /// The view shown in the main pane: the one asked for, within the selected
    /// creature's views.
    pub fn shown_view(&self) -> MainView {
        crate::ui::genome::within(self.view, self.views())
    }

    /// Where everything is on screen now.
    pub fn areas(&self) -> Areas {
        let areas = Areas::compute(self.area, self.shown_view());
        if self.pane == Pane::Side {
            areas.side_over_main()
        } else {
            areas
        }
    }

    /// What the key hints depend on.
    pub fn hint_context(&self) -> HintContext {
        let ui = self.selected_ui();
        let openseed = self
            .selected
            .as_deref()
            .is_some_and(|p| self.openseed_route(p));
        HintContext {
            mode: self.mode,
            pane: self.pane,
            view: self.shown_view(),
            views: self.views(),
            creature: ui.is_some(),
            control: ui.is_some_and(|u| u.link != RunnerLink::None)
                || openseed
                || self.selected_remote().is_some(),
            runner: ui.is_some_and(|u| u.link != RunnerLink::None),
            pruned: ui.is_some_and(|u| u.dreams.has_pruned()),
            openseed,
            own_tabs: ui.is_some_and(|u| !u.without_files && u.genome.spec().is_none()),
            review: ui.is_some_and(|u| u.review.is_some()),
            hits: !self.search.hits.is_empty(),
            filtered: self.garden_view.filters(),
            read_only: self.read_only,
            paused: ui.is_some_and(|u| u.status() == Status::Paused),
            to_all: self.popups.message.all().is_some(),
            garden_search: self.search.garden,
            past: self.in_past(),
        }
    }

    /// The help overlay's lines: every action, those that do nothing for the selected
    /// creature now dimmed.
    pub fn help_document(&self) -> Vec<DocLine> {
        let ctx = HintContext {
            mode: Mode::Normal,
            ..self.hint_context()
        };
        crate::ui::popups::help::prepare::document(&self.keymap, &ctx, &self.theme)
    }

    /// Gets text ready for the next frame: the diary at the main pane's width, the recall
    /// window around its position, the selected entity's profile.
    pub fn prepare(&mut self) {
        self.settle_reached();
        if self.mode == Mode::Compare {
            let width = crate::ui::layout::compare_viewport(self.area).width;
            self.popups.compare.prepare(&self.theme, width);
        }
        let areas = self.areas();
        let view = self.shown_view();
        let Some(path) = self.selected.clone() else {
            return;
        };
        self.prepare_observations();
        if view == MainView::Live {
            let theme = self.theme.clone();
            if let Some(openseed) = self.orchestrator_of_mut(&path) {
                let events = openseed::name_of(&path).and_then(|n| openseed.events.get(n));
                openseed.live.prepare(events, &theme);
            }
        }
        let Some((ui, model)) = shown(&mut self.time, &mut self.creatures, &self.garden, &path)
        else {
            return;
        };
        match view {
            MainView::Talk => self.talk.prepare(model.name(), &self.theme),
            // Prepared as the files change (`CreatureUi::apply`), but for what is
            // prepared only while shown.
            MainView::Own(view) => {
                if let Some(own) = ui.own.as_mut() {
                    own.before_draw(model, view, &self.theme);
                }
            }
            MainView::Diary => ui.diary.prepare(model, &self.theme, areas.main_view.width),
            MainView::Recall => {
                ui.recall
                    .prepare(model.conversation(), &self.theme, areas.main_viewport())
            }
            MainView::Events => {
                ui.events
                    .prepare(model.events(), &self.theme, areas.main_viewport())
            }
            MainView::Observations | MainView::Dreams | MainView::Live => {}
        }
        self.read_shown_changes();
    }

    /// The watched history's record of what the shown creature's files changed, read
    /// when its Dreams view is shown (not at start): before a frame, and before a key
    /// reads what a dream changed (keys between two frames may have shown the view).
    pub(in crate::ui) fn read_shown_changes(&mut self) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        if self.shown_view() != MainView::Dreams {
            return;
        }
        let Some((ui, model)) = shown(&mut self.time, &mut self.creatures, &self.garden, &path)
        else {
            return;
        };
        if let Some(text) = ui.dreams.read_watched(model) {
            self.set_notice(text, true);
        }
    }

    /// New hits from the search under way; the first hit is shown as soon as it is found.
    pub fn on_search_progress(
        &mut self,
        hits: Vec<crate::search::Hit>,
        count: usize,
        done: bool,
        errors: Vec<String>,
    ) {
        self.list_hits(&hits);
        self.search.hits.extend(hits);
        self.search.count = count;
        self.search.running = !done;
        self.dirty = true;
        if self.search.current.is_none() && !self.search.hits.is_empty() {
            self.apply(Action::NextHit);
        }
        if !errors.is_empty() {
            self.set_notice(format!("search: {}", errors.join("; ")), true);
        }
    }

    /// Quit, or, while creatures are hosted here (their runners end with the observatory),
    /// ask first: the same key again quits, any other action keeps them running.
    pub(crate) fn quit_or_ask(&mut self) {
        if self.hosted.is_empty()
            || confirm::ask_or_answer(&mut self.confirm, confirm::Confirm::Quit)
        {
            self.quit = true;
            return;
        }
        let names: Vec<String> = self
            .hosted
            .keys()
            .filter_map(|p| self.creatures.get(p).map(|c| c.name.clone()))
            .collect();
        let again = self.keymap.mention(
            Action::Quit,
            "{} again stops hosting them and quits; any other key keeps them running",
        );
        let live = if names.len() == 1 { "lives" } else { "live" };
        self.set_notice(format!("{} {live} here: {again}", names.join(", ")), false);
    }

    /// Any action but the one that answers it takes a pending question back.
    pub(crate) fn forget_question(&mut self, action: Action) {
        if self.confirm.as_ref().is_some_and(|c| c.action() != action) {
            self.confirm = None;
        }
    }

    pub fn set_notice(&mut self, text: impl Into<String>, error: bool) {
        let text = text.into();
        self.popups.log.push(self.now, &text, error);
        self.notice = Some(Notice {
            text,
            error,
            shown: false,
            progress: false,
        });
        self.dirty = true;
    }

    /// How far the garden's loading is (`None`: done). Said only while no other notice
    /// is up, so a warning from the start stays; not kept in the status log.
    pub fn set_loading(&mut self, progress: Option<(usize, usize)>) {
        let ours = self.notice.as_ref().is_none_or(|n| n.progress);
        if !ours {
            return;
        }
        self.notice = progress.map(|(open, found)| Notice {
            text: format!("loading {open}/{found}"),
            error: false,
            shown: false,
            progress: true,
        });
        self.dirty = true;
    }

    /// A key was pressed: a notice already on screen has been read.
    pub fn dismiss_notice(&mut self) {
        if self.notice.as_ref().is_some_and(|n| n.shown) {
            self.notice = None;
            self.dirty = true;
        }
    }

    /// The shown creature's observations prepared when its Observations view is shown
    /// (and those of the creature shown before let go of): before a frame, and before
    /// a key reads or moves the view's lines (keys between two frames may have chosen
    /// another creature).
    pub(in crate::ui) fn prepare_observations(&mut self) {
        let Some(path) = self.selected.clone() else {
            return;
        };
        if self.obs_prepared.as_ref() != Some(&path) {
            if let Some(ui) = self
                .obs_prepared
                .take()
                .and_then(|p| self.creatures.get_mut_uncounted(&p))
            {
                ui.obs.release();
            }
            self.obs_prepared = Some(path.clone());
        }
        if self.shown_view() == MainView::Observations
            && let Some((ui, model)) =
                shown(&mut self.time, &mut self.creatures, &self.garden, &path)
        {
            ui.obs.ensure(model, &self.theme);
        }
    }

    /// A frame with everything up to now is on screen.
    pub fn drawn(&mut self) {
        self.dirty = false;
        self.drawn_once = true;
        if let Some(notice) = &mut self.notice {
            notice.shown = true;
        }
    }
}

/// The views' state and the model of the creature at `path` as the main pane shows it:
/// as it was while the time cursor is over its life, else now. Only the views' own state
/// may be changed through it (not counted as a change of the garden).
pub(in crate::ui) fn shown<'a>(
    time: &'a mut crate::ui::time::TimeTravel,
    creatures: &'a mut CreatureMap<CreatureUi>,
    garden: &'a LiveGarden,
    path: &Path,
) -> Option<(&'a mut CreatureUi, &'a Creature)> {
    if let Some(past) = time.past_of_mut(Some(path)) {
        return Some((&mut past.ui, &past.model));
    }
    // The views' own state: no change to the garden's figures.
    Some((creatures.get_mut_uncounted(path)?, garden.creature(path)?))
}

/// What [`App::shared_names`] reads of a creature: its name.
fn name_read(ui: &CreatureUi) -> u64 {
    kept::fingerprint(&ui.name)
}
