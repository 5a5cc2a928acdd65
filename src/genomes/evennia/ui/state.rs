//! What the observatory keeps for an evennia creature, a component: its figures, the
//! journal and memory documents, the entity list and the selected entity's profile, where
//! each is scrolled, and how the keys, the wheel and search hits move them.

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::text::Span;

use super::figures::{self, EvenniaSummary};
use super::{ENTITIES, JOURNAL, MEMORY, entities, journal, semantic};
use crate::genomes::evennia::memory::{self, EvenniaMemory};
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
pub struct EvenniaUi {
    pub summary: EvenniaSummary,
    pub journal: ItemDoc,
    pub journal_anchor: Anchor,
    pub memory: ItemDoc,
    pub memory_anchor: Anchor,
    pub entities: Vec<entities::EntityRow>,
    /// The selected entity's id (as in the file); `None`: the first.
    pub entity: Option<String>,
    /// The selected entity's profile, and whose it is (`None`: to prepare again).
    pub profile: Vec<DocLine>,
    profile_of: Option<String>,
    pub profile_anchor: Anchor,
}

impl EvenniaUi {
    pub fn new(c: &Creature, theme: &Theme) -> Self {
        // Newest first: the top is where new items arrive.
        let mut ui = Self {
            summary: EvenniaSummary::default(),
            journal: ItemDoc::default(),
            journal_anchor: Anchor::Line(0),
            memory: ItemDoc::default(),
            memory_anchor: Anchor::Line(0),
            entities: Vec::new(),
            entity: None,
            profile: Vec::new(),
            profile_of: None,
            profile_anchor: Anchor::Line(0),
        };
        for kind in [memory::JOURNAL, memory::SEMANTIC, memory::ENTITIES] {
            ui.apply(c, kind, theme);
        }
        ui.prepare_profile(c, theme);
        ui
    }

    /// A file of the genome changed: prepares again what shows it.
    pub fn apply(&mut self, c: &Creature, kind: FileKind, theme: &Theme) {
        let m = memory::of(c);
        self.summary = EvenniaSummary::of(m);
        match kind {
            memory::JOURNAL | memory::REFLECTIONS => {
                let new = journal::prepare(m, theme);
                self.journal_anchor = keep_place(self.journal_anchor, &self.journal, &new);
                self.journal = new;
            }
            memory::SEMANTIC => {
                let new = semantic::prepare(m, theme);
                self.memory_anchor = keep_place(self.memory_anchor, &self.memory, &new);
                self.memory = new;
            }
            memory::ENTITIES | memory::WORKING_MEMORY => {
                self.entities = entities::rows(m, theme);
                self.profile_of = None;
            }
            _ => {}
        }
    }

    /// The index of the selected entity in the list.
    pub fn selected_entity(&self) -> Option<usize> {
        match &self.entity {
            Some(id) => self.entities.iter().position(|r| r.id == *id).or(Some(0)),
            None => Some(0),
        }
        .filter(|_| !self.entities.is_empty())
    }

    /// Selects the entity at `index` of the list; its profile shows from the top.
    pub fn select_entity(&mut self, index: usize) {
        if let Some(row) = self.entities.get(index) {
            if self.entity.as_ref() != Some(&row.id) {
                self.profile_anchor = Anchor::Line(0);
            }
            self.entity = Some(row.id.clone());
        }
    }

    /// Prepares the selected entity's profile unless it is ready.
    pub fn prepare_profile(&mut self, c: &Creature, theme: &Theme) {
        let id = self
            .selected_entity()
            .and_then(|i| self.entities.get(i))
            .map(|r| r.id.clone());
        if id.is_some() && id == self.profile_of {
            return;
        }
        let m = memory::of(c);
        self.profile = id
            .as_deref()
            .and_then(|id| m.entities.get(id))
            .map(|e| {
                let talk = m.working.as_ref().and_then(|w| w.get(&e.id));
                entities::profile(e, talk, theme)
            })
            .unwrap_or_default();
        self.profile_of = id;
    }

    /// The document of the journal or the memory view, and where it is scrolled.
    fn item_doc(&self, view: &OwnView) -> Option<(&ItemDoc, Anchor)> {
        if *view == JOURNAL {
            Some((&self.journal, self.journal_anchor))
        } else if *view == MEMORY {
            Some((&self.memory, self.memory_anchor))
        } else {
            None
        }
    }

    /// Shows the entity folded from `line` of the entities file; whether it is listed.
    fn show_entity(&mut self, m: &EvenniaMemory, line: u64) -> bool {
        let id = m
            .entities
            .all()
            .find(|entity| entity.has_line(line))
            .map(|entity| entity.id.clone());
        let index = id.and_then(|id| self.entities.iter().position(|r| r.id == id));
        if let Some(i) = index {
            self.select_entity(i);
        }
        index.is_some()
    }
}

impl GenomeUi for EvenniaUi {
    fn prepare(&mut self, c: &Creature, _now: DateTime<Utc>, theme: &Theme) {
        *self = Self::new(c, theme);
    }

    fn changed(
        &mut self,
        c: &Creature,
        kinds: &[FileKind],
        _events: bool,
        _now: DateTime<Utc>,
        theme: &Theme,
    ) -> bool {
        let mut side = false;
        for kind in kinds.iter().filter(|k| memory::FILES.contains(k)) {
            self.apply(c, *kind, theme);
            side |= matches!(*kind, memory::OPERATING_MODE | memory::WORKING_MEMORY);
        }
        side
    }

    fn doc(&self, view: &OwnView) -> &[DocLine] {
        match self.item_doc(view) {
            Some((doc, _)) => &doc.lines,
            None => &self.profile,
        }
    }

    fn anchor(&self, view: &OwnView) -> Anchor {
        self.item_doc(view)
            .map_or(self.profile_anchor, |(_, anchor)| anchor)
    }

    fn anchor_mut(&mut self, view: &OwnView) -> Option<&mut Anchor> {
        if *view == JOURNAL {
            Some(&mut self.journal_anchor)
        } else if *view == MEMORY {
            Some(&mut self.memory_anchor)
        } else {
            Some(&mut self.profile_anchor)
        }
    }

    fn before_draw(&mut self, c: &Creature, view: &OwnView, theme: &Theme) {
        if *view == ENTITIES {
            self.prepare_profile(c, theme);
        }
    }

    fn draw(&self, frame: &mut Frame, view: &OwnView, cx: &ViewCx) {
        if *view == JOURNAL {
            journal::draw(frame, cx.areas, self, cx.theme);
        } else if *view == ENTITIES {
            entities::draw(frame, cx.areas, self, cx.theme);
        } else {
            crate::ui::draw::doc::render(
                frame,
                cx.areas.main_view,
                &self.memory.lines,
                self.memory_anchor,
                view.empty,
                cx.theme,
            );
        }
    }

    fn status(&self, view: &OwnView, vp: Viewport, theme: &Theme) -> Vec<Span<'static>> {
        let s = &self.summary;
        let position = |lines: &[DocLine], anchor| {
            if lines.is_empty() {
                String::new()
            } else {
                let top = scroll::top(lines, anchor, vp);
                format!(" {}/{} ·", top + 1, lines.len())
            }
        };
        let text = if *view == JOURNAL {
            format!(
                "{} {} entries · {} pruned ",
                position(&self.journal.lines, self.journal_anchor),
                s.entries,
                s.pruned
            )
        } else if *view == MEMORY {
            format!(
                "{} {} memories · {} links · {} orphaned ",
                position(&self.memory.lines, self.memory_anchor),
                s.memories,
                s.links,
                s.orphans
            )
        } else {
            let states: Vec<String> = s
                .by_state
                .iter()
                .rev()
                .filter(|(_, n)| **n > 0)
                .map(|(state, n)| format!("{n} {}", state.as_str()))
                .collect();
            let states = if states.is_empty() {
                String::new()
            } else {
                format!(" · {}", states.join(" · "))
            };
            format!(" {} entities{states} ", s.entities)
        };
        vec![Span::styled(text, theme.muted)]
    }

    fn scroll(&mut self, view: &OwnView, vp: Viewport, step: Step) {
        if *view == ENTITIES {
            // The selection moves along the list, as in the dreams list.
            if let Some(at) = self.selected_entity() {
                let n = self.entities.len();
                self.select_entity(scroll::list_step(at, n, vp, step));
            }
        } else if let Some((doc, anchor)) = self.item_doc(view) {
            let new = scroll::scroll(&doc.lines, anchor, vp, step);
            if let Some(anchor) = self.anchor_mut(view) {
                *anchor = new;
            }
        }
    }

    fn scroll_detail(&mut self, view: &OwnView, vp: Viewport, step: Step) -> bool {
        if *view != ENTITIES {
            return false;
        }
        self.profile_anchor = scroll::scroll(&self.profile, self.profile_anchor, vp, step);
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
        _theme: &Theme,
    ) -> Option<HitShown> {
        let (view, found) = match source {
            SearchSource::Semantic => {
                let at = self.memory.find(memory::SEMANTIC, line);
                if let Some(at) = at {
                    self.memory_anchor = Anchor::Line(at);
                }
                (MainView::Own(&MEMORY), at.is_some())
            }
            SearchSource::Entities => (
                MainView::Own(&ENTITIES),
                self.show_entity(memory::of(c), line),
            ),
            SearchSource::Journal | SearchSource::Reflections => {
                let file = if source == SearchSource::Journal {
                    memory::JOURNAL
                } else {
                    memory::REFLECTIONS
                };
                let at = self.journal.find(file, line);
                if let Some(at) = at {
                    self.journal_anchor = Anchor::Line(at);
                }
                (MainView::Own(&JOURNAL), at.is_some())
            }
            _ => return None,
        };
        Some(HitShown {
            view,
            missing: (!found).then_some(
                "that line is about something not shown: pruned, forgotten, or older than what is shown",
            ),
        })
    }

    fn header(&self, s: &Summary, now: FrameClock, theme: &Theme) -> Vec<Part> {
        figures::header(&self.summary, s, now, theme)
    }

    fn mode(&self) -> Option<&str> {
        Some(&self.summary.mode)
    }

    fn garden(&self, cx: &GardenCx) -> Vec<Part> {
        figures::garden(&self.summary, cx)
    }
}
