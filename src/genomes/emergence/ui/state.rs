//! What the observatory keeps for an emergence creature, a component: its figures, the
//! soul, memory, diary and plans documents, the relation list with the selected agent's
//! history, where each is scrolled, and how the keys, the wheel and search hits move them.
//! The plans depend on the clock: they are prepared again when the minute changes.

use chrono::{DateTime, Timelike, Utc};
use ratatui::Frame;
use ratatui::text::Span;

use super::figures::{self, EmergenceSummary};
use super::graph::GardenGraph;
use super::relations::{self, RelationRow};
use super::{
    DIARY, LONG_TERM, PLANS, RELATIONS, SOUL, diary, long_term, plans, relations_draw, soul,
};
use crate::genomes::emergence::memory;
use crate::memory::creature::Creature;
use crate::memory::layout::FileKind;
use crate::memory::summary::Summary;
use crate::search::SearchSource;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Step, Viewport};
use crate::ui::draw::fmt::Part;
use crate::ui::focus::{MainView, OwnView};
use crate::ui::genome::{GardenCx, GenomeUi, HitShown, ViewCx};
use crate::ui::prepare::items::{ItemDoc, keep_place};
use crate::ui::state::FrameClock;
use crate::ui::state::selection::{Selection, item_doc};
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
            memory::SOUL,
            memory::LONG_TERM,
            memory::DIARY_LOG,
            memory::RELATIONS,
        ] {
            ui.apply(c, kind, now, theme);
        }
        ui.tick(c, now, theme);
        ui.prepare_history(c, theme);
        ui
    }

    /// A file of the genome changed: prepares again what shows it.
    pub fn apply(&mut self, c: &Creature, kind: FileKind, now: DateTime<Utc>, theme: &Theme) {
        let m = memory::of(c);
        self.summary = EmergenceSummary::of(m, now);
        match kind {
            memory::SOUL => self.soul = soul::prepare(m, theme),
            memory::LONG_TERM | memory::SUMMARIES => {
                let new = long_term::prepare(m, theme);
                self.memory_anchor = keep_place(self.memory_anchor, &self.memory, &new);
                self.memory = new;
            }
            memory::DIARY_LOG => {
                let new = diary::prepare(m, theme);
                self.diary_anchor = keep_place(self.diary_anchor, &self.diary, &new);
                self.diary = new;
            }
            memory::TODOS | memory::CALENDAR => {
                self.plans = plans::prepare(m, now, theme);
                self.plans_at = Some(now);
            }
            memory::RELATIONS => {
                self.relations = relations::rows(m, theme);
                self.history_of = None;
            }
            memory::DIALOGUES => self.history_of = None,
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
        self.summary = EmergenceSummary::of(memory::of(c), now);
        self.plans = plans::prepare(memory::of(c), now, theme);
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
        let m = memory::of(c);
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
        let with = memory::of(c)
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

impl EmergenceUi {
    /// The document of a view of documents, and where it is scrolled (the relations:
    /// none).
    fn item_doc(&self, view: &OwnView) -> Option<(&ItemDoc, Anchor)> {
        [
            (&SOUL, &self.soul, self.soul_anchor),
            (&LONG_TERM, &self.memory, self.memory_anchor),
            (&DIARY, &self.diary, self.diary_anchor),
            (&PLANS, &self.plans, self.plans_anchor),
        ]
        .into_iter()
        .find(|(v, _, _)| *v == view)
        .map(|(_, doc, anchor)| (doc, anchor))
    }

    /// Shows the item folded from `line` of `file` in its view; whether it is there.
    fn show_item(&mut self, view: &OwnView, file: FileKind, line: u64) -> bool {
        let at = self
            .item_doc(view)
            .and_then(|(doc, _)| doc.find(file, line));
        if let (Some(at), Some(anchor)) = (at, self.anchor_mut(view)) {
            *anchor = Anchor::Line(at);
        }
        at.is_some()
    }
}

impl GenomeUi for EmergenceUi {
    fn prepare(&mut self, c: &Creature, now: DateTime<Utc>, theme: &Theme) {
        *self = Self::new(c, now, theme);
    }

    fn changed(
        &mut self,
        c: &Creature,
        kinds: &[FileKind],
        _events: bool,
        now: DateTime<Utc>,
        theme: &Theme,
    ) -> bool {
        for kind in kinds.iter().filter(|k| memory::FILES.contains(k)) {
            self.apply(c, *kind, now, theme);
        }
        // The side panel shows what it showed.
        false
    }

    fn tick(&mut self, c: &Creature, now: DateTime<Utc>, theme: &Theme) {
        EmergenceUi::tick(self, c, now, theme);
    }

    fn ticks(&self) -> bool {
        true
    }

    fn doc(&self, view: &OwnView) -> &[DocLine] {
        match self.item_doc(view) {
            Some((doc, _)) => &doc.lines,
            None => &self.history,
        }
    }

    fn anchor(&self, view: &OwnView) -> Anchor {
        self.item_doc(view)
            .map_or(self.history_anchor, |(_, anchor)| anchor)
    }

    fn anchor_mut(&mut self, view: &OwnView) -> Option<&mut Anchor> {
        Some(if *view == SOUL {
            &mut self.soul_anchor
        } else if *view == LONG_TERM {
            &mut self.memory_anchor
        } else if *view == DIARY {
            &mut self.diary_anchor
        } else if *view == PLANS {
            &mut self.plans_anchor
        } else {
            &mut self.history_anchor
        })
    }

    fn before_draw(&mut self, c: &Creature, view: &OwnView, theme: &Theme) {
        if *view == RELATIONS {
            self.prepare_history(c, theme);
        }
    }

    fn draw(&self, frame: &mut Frame, view: &OwnView, cx: &ViewCx) {
        if *view == RELATIONS {
            let any: Option<&dyn std::any::Any> = cx.garden.map(|g| g as &dyn std::any::Any);
            let empty = GardenGraph::default();
            let graph = any
                .and_then(|g| g.downcast_ref::<GardenGraph>())
                .unwrap_or(&empty);
            relations_draw::render(frame, cx.areas, self, graph, cx.name, cx.theme);
        } else {
            crate::ui::draw::doc::render(
                frame,
                cx.areas.main_view,
                self.doc(view),
                self.anchor(view),
                view.empty,
                cx.theme,
            );
        }
    }

    fn status(&self, view: &OwnView, vp: Viewport, theme: &Theme) -> Vec<Span<'static>> {
        let s = &self.summary;
        let position = |(doc, anchor): (&ItemDoc, Anchor)| {
            if doc.lines.is_empty() {
                String::new()
            } else {
                let top = scroll::top(&doc.lines, anchor, vp);
                format!(" {}/{} ·", top + 1, doc.lines.len())
            }
        };
        let text = match self.item_doc(view) {
            Some(shown) if *view == SOUL => format!("{} {} entries ", position(shown), s.soul),
            Some(shown) if *view == LONG_TERM => format!(
                "{} {} memories · {} archived · {} summaries ",
                position(shown),
                s.memories,
                s.archived,
                s.summaries
            ),
            Some(shown) if *view == DIARY => format!("{} {} dates ", position(shown), s.diary),
            Some(shown) => format!(
                "{} {} open · {} overdue ",
                position(shown),
                s.open,
                s.overdue
            ),
            None => format!(" {} agents ", s.relations),
        };
        vec![Span::styled(text, theme.muted)]
    }

    fn scroll(&mut self, view: &OwnView, vp: Viewport, step: Step) {
        if let Some((doc, anchor)) = self.item_doc(view) {
            let new = scroll::scroll(&doc.lines, anchor, vp, step);
            if let Some(anchor) = self.anchor_mut(view) {
                *anchor = new;
            }
        } else if let Some(at) = self.selected_agent() {
            // The relation list: the selection moves.
            let n = self.relations.len();
            self.select_agent(scroll::list_step(at, n, vp, step));
        }
    }

    fn scroll_detail(&mut self, view: &OwnView, vp: Viewport, step: Step) -> bool {
        if *view != RELATIONS {
            return false;
        }
        self.history_anchor = scroll::scroll(&self.history, self.history_anchor, vp, step);
        true
    }

    fn selection(&self, view: &OwnView, vp: Viewport, c: &Creature) -> Option<Selection> {
        let (doc, anchor) = self.item_doc(view)?;
        item_doc(doc, anchor, vp, c)
    }

    fn show_hit(
        &mut self,
        c: &Creature,
        source: SearchSource,
        line: u64,
        theme: &Theme,
    ) -> Option<HitShown> {
        let (view, file) = match source {
            SearchSource::Dialogues => {
                let found = self.show_dialogue(c, line, theme);
                return Some(HitShown {
                    view: MainView::Own(&RELATIONS),
                    missing: (!found).then_some(
                        "that line was said with an agent the relations do not list, or is older than what is shown",
                    ),
                });
            }
            SearchSource::Soul => (&SOUL, memory::SOUL),
            SearchSource::DiaryLog => (&DIARY, memory::DIARY_LOG),
            SearchSource::LongTerm => (&LONG_TERM, memory::LONG_TERM),
            SearchSource::Summaries => (&LONG_TERM, memory::SUMMARIES),
            _ => return None,
        };
        let found = self.show_item(view, file, line);
        Some(HitShown {
            view: MainView::Own(view),
            missing: (!found).then_some(
                "that line is about something not shown: removed, replaced, or older than what is shown",
            ),
        })
    }

    fn header(&self, s: &Summary, now: FrameClock, theme: &Theme) -> Vec<Part> {
        figures::header(&self.summary, s, now, theme)
    }

    fn garden(&self, cx: &GardenCx) -> Vec<Part> {
        figures::garden(&self.summary, cx)
    }
}
