//! What the observatory keeps for an emergence creature: its figures, the soul, memory,
//! diary and plans documents, the relation list with the selected agent's history, and
//! where each is scrolled. The plans depend on the clock: they are prepared again when the
//! minute changes.

use chrono::{DateTime, Timelike, Utc};

use crate::memory::creature::Creature;
use crate::memory::layout::FileKind;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::prepare::emergence::EmergenceSummary;
use crate::ui::prepare::items::{ItemDoc, keep_place};
use crate::ui::prepare::relations::{self, RelationRow};
use crate::ui::prepare::{diary_log, long_term, plans, soul};
use crate::ui::theme::Theme;

#[derive(Debug)]
pub struct EmergenceUi {
    pub summary: EmergenceSummary,
    pub soul: ItemDoc,
    pub soul_anchor: Anchor,
    pub memory: ItemDoc,
    pub memory_anchor: Anchor,
    pub diary: ItemDoc,
    pub diary_anchor: Anchor,
    pub plans: ItemDoc,
    pub plans_anchor: Anchor,
    /// The minute the plans were prepared at.
    plans_at: Option<DateTime<Utc>>,
    pub relations: Vec<RelationRow>,
    /// The selected agent (as in the file); `None`: the first.
    pub agent: Option<String>,
    /// The selected agent's relationship and history, and whose it is (`None`: to
    /// prepare again).
    pub history: Vec<DocLine>,
    /// The dialogue rows in `history`: each one's line in `dialogues.jsonl`, its index.
    dialogue_rows: Vec<(u64, usize)>,
    history_of: Option<String>,
    pub history_anchor: Anchor,
}

impl EmergenceUi {
    pub fn new(c: &Creature, now: DateTime<Utc>, theme: &Theme) -> Self {
        let mut ui = Self {
            summary: EmergenceSummary::default(),
            soul: ItemDoc::default(),
            soul_anchor: Anchor::Line(0),
            memory: ItemDoc::default(),
            memory_anchor: Anchor::Line(0),
            diary: ItemDoc::default(),
            diary_anchor: Anchor::Line(0),
            plans: ItemDoc::default(),
            plans_anchor: Anchor::Line(0),
            plans_at: None,
            relations: Vec::new(),
            agent: None,
            history: Vec::new(),
            dialogue_rows: Vec::new(),
            history_of: None,
            history_anchor: Anchor::Line(0),
        };
        for kind in [
            crate::genomes::emergence::memory::SOUL,
            crate::genomes::emergence::memory::LONG_TERM,
            crate::genomes::emergence::memory::DIARY_LOG,
            crate::genomes::emergence::memory::RELATIONS,
        ] {
            ui.apply(c, kind, now, theme);
        }
        ui.tick(c, now, theme);
        ui.prepare_history(c, theme);
        ui
    }

    /// A file of the genome changed: prepares again what shows it.
    pub fn apply(&mut self, c: &Creature, kind: FileKind, now: DateTime<Utc>, theme: &Theme) {
        let m = crate::genomes::emergence::memory::of(c);
        self.summary = EmergenceSummary::of(m, now);
        match kind {
            crate::genomes::emergence::memory::SOUL => self.soul = soul::prepare(m, theme),
            crate::genomes::emergence::memory::LONG_TERM
            | crate::genomes::emergence::memory::SUMMARIES => {
                let new = long_term::prepare(m, theme);
                self.memory_anchor = keep_place(self.memory_anchor, &self.memory, &new);
                self.memory = new;
            }
            crate::genomes::emergence::memory::DIARY_LOG => {
                let new = diary_log::prepare(m, theme);
                self.diary_anchor = keep_place(self.diary_anchor, &self.diary, &new);
                self.diary = new;
            }
            crate::genomes::emergence::memory::TODOS
            | crate::genomes::emergence::memory::CALENDAR => {
                self.plans = plans::prepare(m, now, theme);
                self.plans_at = Some(now);
            }
            crate::genomes::emergence::memory::RELATIONS => {
                self.relations = relations::rows(m, theme);
                self.history_of = None;
            }
            crate::genomes::emergence::memory::DIALOGUES => self.history_of = None,
            _ => {}
        }
    }

    /// The clock moved on: the plans (due, overdue, the agenda) and the figures again when
    /// the minute changed.
    pub fn tick(&mut self, c: &Creature, now: DateTime<Utc>, theme: &Theme) {
        let minute = |t: DateTime<Utc>| t.with_second(0).and_then(|t| t.with_nanosecond(0));
        if self.plans_at.and_then(minute) == minute(now) {
            return;
        }
        self.summary = EmergenceSummary::of(crate::genomes::emergence::memory::of(c), now);
        self.plans = plans::prepare(crate::genomes::emergence::memory::of(c), now, theme);
        self.plans_at = Some(now);
    }

    /// The index of the selected agent in the list.
    pub fn selected_agent(&self) -> Option<usize> {
        match &self.agent {
            Some(a) => self
                .relations
                .iter()
                .position(|r| r.agent == *a)
                .or(Some(0)),
            None => Some(0),
        }
        .filter(|_| !self.relations.is_empty())
    }

    /// Selects the agent at `index` of the list; its history shows from the top.
    pub fn select_agent(&mut self, index: usize) {
        if let Some(row) = self.relations.get(index) {
            if self.agent.as_ref() != Some(&row.agent) {
                self.history_anchor = Anchor::Line(0);
            }
            self.agent = Some(row.agent.clone());
        }
    }

    /// The selected agent's name as in the file.
    pub fn selected_name(&self) -> Option<&str> {
        self.selected_agent()
            .and_then(|i| self.relations.get(i))
            .map(|r| r.agent.as_str())
    }

    /// Prepares the selected agent's history unless it is ready.
    pub fn prepare_history(&mut self, c: &Creature, theme: &Theme) {
        let agent = self.selected_name().map(str::to_string);
        if agent.is_some() && agent == self.history_of {
            return;
        }
        let m = crate::genomes::emergence::memory::of(c);
        self.history = agent
            .as_deref()
            .and_then(|a| m.relations.get(a))
            .map(|a| relations::history(a, theme))
            .unwrap_or_default();
        let (lines, rows) = agent
            .as_deref()
            .map(|a| relations::dialogue(&m.dialogues, a, theme))
            .unwrap_or_default();
        let at = self.history.len();
        self.dialogue_rows = rows.into_iter().map(|(line, i)| (line, at + i)).collect();
        self.history.extend(lines);
        self.history_of = agent;
    }

    /// Shows the dialogue line at `line` of `dialogues.jsonl` in the selected agent's
    /// history (the agent it was said with selected); whether it is there.
    pub fn show_dialogue(&mut self, c: &Creature, line: u64, theme: &Theme) -> bool {
        let with = crate::genomes::emergence::memory::of(c)
            .dialogues
            .all()
            .find(|s| s.line == line)
            .map(|s| s.with.clone());
        let Some(index) = with.and_then(|w| self.relations.iter().position(|r| r.agent == w))
        else {
            return false;
        };
        self.select_agent(index);
        self.prepare_history(c, theme);
        match self.dialogue_rows.iter().find(|(l, _)| *l == line) {
            Some((_, at)) => {
                self.history_anchor = Anchor::Line(*at);
                true
            }
            None => false,
        }
    }
}
