//! What the time cursor's actions do: enter and leave it, step, jump, play; and what the
//! index built in the background and the clock's ticks (a play) bring.

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::build::{PastAsk, PastDone};
use super::cursor::{self, Step};
use super::{Cursor, IndexDone, Indexed};
use crate::memory::layout::FileKind;
use crate::recorder::At;
use crate::recorder::index::TimeIndex;
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::state::creature::RunnerLink;
use crate::ui::state::{App, FrameClock};
use crate::ui::update::Job;

/// A play skips a silence longer than this (the creature was stopped) to its next event.
const STOP: TimeDelta = TimeDelta::minutes(30);

impl App {
    /// Performs a time cursor's action.
    pub(in crate::ui) fn time_action(&mut self, action: Action) -> Vec<Job> {
        match action {
            Action::TimeCursor if self.in_past() => self.leave_past(),
            Action::TimeCursor => return self.enter_past(),
            Action::TimeNow => self.leave_past(),
            Action::PastEventBack => self.step_cursor(Step::Event, false),
            Action::PastEventForward => self.step_cursor(Step::Event, true),
            Action::PastWakeBack => self.step_cursor(Step::Wake, false),
            Action::PastWakeForward => self.step_cursor(Step::Wake, true),
            Action::PastDreamBack => self.step_cursor(Step::Dream, false),
            Action::PastDreamForward => self.step_cursor(Step::Dream, true),
            Action::PastRedBack => self.step_cursor(Step::Red, false),
            Action::PastRedForward => self.step_cursor(Step::Red, true),
            Action::PastJump => {
                self.time.jump.clear();
                self.mode = Mode::Jump;
            }
            Action::JumpTo => self.submit_jump(),
            Action::PastPlay => self.toggle_play(),
            Action::PastSpeed => {
                if let Some(c) = self.time.cursor.as_mut() {
                    c.speed = cursor::faster(c.speed);
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// The selected creature is shown as it was (or its life is being indexed for it).
    pub fn in_past(&self) -> bool {
        self.time.cursor_of(self.selected.as_deref()).is_some()
    }

    /// The time the shown creature is at: the cursor's in the past (which stands still),
    /// else the clock.
    pub fn shown_clock(&self) -> FrameClock<'_> {
        self.time
            .past_of(self.selected.as_deref())
            .and_then(|p| p.past.t)
            .map_or_else(|| self.clock(), FrameClock::fixed)
    }

    fn enter_past(&mut self) -> Vec<Job> {
        let Some(path) = self.selected.clone() else {
            return Vec::new();
        };
        let Some(ui) = self.creatures.get(&path) else {
            return Vec::new();
        };
        if ui.without_files {
            let name = ui.name.clone();
            self.set_notice(
                format!("{name}'s files are not here: no past to show"),
                true,
            );
            return Vec::new();
        }
        self.time.cursor = Some(Cursor {
            creature: path.clone(),
            pos: None,
            past: None,
            building: None,
            newest: 0,
            play: None,
            speed: 1,
        });
        let grown = std::fs::metadata(FileKind::Events.resolve(&path)).map_or(0, |m| m.len());
        match self.time.index(&path) {
            Some(Indexed::Ready(index)) => {
                let stale = index.bytes < grown;
                self.cursor_start();
                if stale {
                    return vec![Job::IndexLife { creature: path }];
                }
                Vec::new()
            }
            Some(Indexed::Building) => Vec::new(),
            Some(Indexed::Failed(_)) | None => {
                self.time.set_index(path.clone(), Indexed::Building);
                vec![Job::IndexLife { creature: path }]
            }
        }
    }

    /// Leaves the time cursor: the creature is shown as it is now.
    pub(in crate::ui) fn leave_past(&mut self) {
        self.time.cursor = None;
        if self.mode == Mode::Jump {
            self.mode = Mode::Normal;
        }
    }

    /// A creature's time index is built (or failed): kept, and the cursor waiting for it
    /// goes to its start.
    pub fn on_time_index(&mut self, done: IndexDone) {
        let waiting = self
            .time
            .cursor
            .as_ref()
            .is_some_and(|c| c.creature == done.creature && c.pos.is_none());
        match done.index {
            Ok(index) => {
                self.time.set_index(done.creature, Indexed::Ready(index));
                if waiting {
                    self.cursor_start();
                }
            }
            Err(e) => {
                self.set_notice(format!("cannot index the life: {e}"), true);
                if waiting {
                    self.time.cursor = None;
                }
                self.time.set_index(done.creature, Indexed::Failed(e));
            }
        }
        self.dirty = true;
    }

    fn ready_index(&self, creature: &Path) -> Option<Arc<TimeIndex>> {
        match self.time.index(creature)? {
            Indexed::Ready(index) => Some(index.clone()),
            Indexed::Building | Indexed::Failed(_) => None,
        }
    }

    /// Where the cursor starts: the last dream, else the last wake, else now.
    fn cursor_start(&mut self) {
        let Some(c) = self.time.cursor.as_ref() else {
            return;
        };
        let Some(index) = self.ready_index(&c.creature) else {
            return;
        };
        let at = match (index.dreams.len(), index.wakes.len()) {
            (0, 0) => At::Time(self.now()),
            (0, w) => At::Wake(w as u64),
            (d, _) => At::Dream(d as u64),
        };
        self.move_cursor(at);
    }

    /// Moves the cursor to `at`: it stands there at once (as the index places it), and
    /// the creature then is built off the UI thread, unless a build is under way (the
    /// newest move is built once it is over). The last past built is drawn meanwhile.
    pub(in crate::ui) fn move_cursor(&mut self, at: At) {
        let Some(path) = self.time.cursor.as_ref().map(|c| c.creature.clone()) else {
            return;
        };
        let Some(index) = self.ready_index(&path) else {
            return;
        };
        let pos = cursor::estimate(&index, &FileKind::Events.resolve(&path), at);
        let seq = self.time.next_move();
        let Some(c) = self.time.cursor.as_mut() else {
            return;
        };
        c.pos = Some(pos);
        c.newest = seq;
        if c.building.is_none() {
            self.build_past(seq, at);
        }
        self.dirty = true;
    }

    /// Asks for move `seq`'s past, at `at`, to be built.
    fn build_past(&mut self, seq: u64, at: At) {
        let now = self.now();
        let Some(path) = self.time.cursor.as_ref().map(|c| c.creature.clone()) else {
            return;
        };
        let (Some(index), Some(live)) = (self.ready_index(&path), self.creatures.get(&path)) else {
            return;
        };
        let watched = live.link != RunnerLink::Hosted && self.remote_of(&path).is_none();
        let ask = PastAsk {
            watched,
            creature: path,
            seq,
            at,
            index,
            history: self.history().cloned(),
            now,
            theme: self.theme.clone(),
            cycle: live.cycle,
            name: live.name.clone(),
            link: live.link,
        };
        if let Some(c) = self.time.cursor.as_mut() {
            c.building = Some(seq);
        }
        self.time.ask(Job::BuildPast(Box::new(ask)));
    }

    /// A move's past is built (or failed): shown if it is the newest move's, else the
    /// newest is built now. An answer for a cursor since left is dropped.
    pub(in crate::ui) fn on_past_built(&mut self, done: PastDone) {
        let Some(c) = self
            .time
            .cursor
            .as_mut()
            .filter(|c| c.creature == done.creature && c.building == Some(done.seq))
        else {
            return;
        };
        c.building = None;
        self.dirty = true;
        if c.newest != done.seq {
            let (seq, at) = (c.newest, c.pos.map_or(done.at, |p| p.at));
            self.build_past(seq, at);
            return;
        }
        match done.past.map(|b| b.take()) {
            Ok(Some(past)) => {
                c.pos = Some(past.pos);
                c.past = Some(past);
            }
            Ok(None) => {}
            Err(e) => {
                // The cursor goes back to the past drawn.
                c.pos = c.past.as_ref().map(|p| p.pos);
                let name = self
                    .creatures
                    .get(&done.creature)
                    .map_or_else(String::new, |u| u.name.clone());
                self.set_notice(format!("cannot show {name} at {}: {e}", done.at), true);
            }
        }
    }

    /// The jobs the time cursor asked for where none could be returned (a play's tick,
    /// an answer taken in): the runtime performs them.
    pub fn take_time_jobs(&mut self) -> Vec<Job> {
        self.time.take_jobs()
    }

    fn step_cursor(&mut self, step: Step, forward: bool) {
        let Some((path, pos)) = self
            .time
            .cursor
            .as_ref()
            .and_then(|c| Some((c.creature.clone(), c.pos?)))
        else {
            return;
        };
        let Some(index) = self.ready_index(&path) else {
            return;
        };
        let events = FileKind::Events.resolve(&path);
        match cursor::step(&index, &events, &pos, step, forward) {
            Some(at) => self.move_cursor(at),
            None => {
                let way = if forward { "after" } else { "before" };
                self.set_notice(format!("no {} {way} this moment", step.noun()), false);
            }
        }
    }

    fn submit_jump(&mut self) {
        self.mode = Mode::Normal;
        let text = std::mem::take(&mut self.time.jump);
        if text.trim().is_empty() {
            return;
        }
        match cursor::parse_jump(&text) {
            Ok(at) => self.move_cursor(at),
            Err(e) => self.set_notice(e, true),
        }
    }

    /// Typing in the jump prompt.
    pub(in crate::ui) fn edit_jump(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.time.jump.push(c);
            }
            KeyCode::Backspace => {
                self.time.jump.pop();
            }
            _ => return,
        }
        self.dirty = true;
    }

    fn toggle_play(&mut self) {
        let Some(c) = self.time.cursor.as_mut() else {
            return;
        };
        c.play = match (c.play, c.pos.and_then(|p| p.t)) {
            (Some(_), _) | (None, None) => None,
            // The clock's next tick starts it.
            (None, Some(t)) => Some((t, None)),
        };
    }

    /// The clock ticked: a play moves the cursor on by the time passed times its speed,
    /// to the last event by then (a stop of the creature skipped).
    pub(in crate::ui) fn play_tick(&mut self, now: DateTime<Utc>) {
        let Some(c) = self.time.cursor.as_mut() else {
            return;
        };
        let (Some((t, since)), Some(pos)) = (c.play, c.pos) else {
            return;
        };
        let Some(since) = since else {
            c.play = Some((t, Some(now)));
            return;
        };
        let speed = i32::try_from(c.speed).unwrap_or(1);
        let mut t = t + (now - since) * speed;
        let path = c.creature.clone();
        let Some(index) = self.ready_index(&path) else {
            return;
        };
        let events = FileKind::Events.resolve(&path);
        let Some(next) = cursor::next_event(&events, pos.offset, index.bytes) else {
            if let Some(c) = self.time.cursor.as_mut() {
                c.play = None;
            }
            self.set_notice("the end of the life as indexed: played to now", false);
            return;
        };
        if next - t > STOP {
            t = next;
        }
        if let Some(c) = self.time.cursor.as_mut() {
            c.play = Some((t, Some(now)));
        }
        if next <= t {
            self.move_cursor(At::Time(t));
        }
    }
}
