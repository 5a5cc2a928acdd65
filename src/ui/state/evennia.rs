//! What the observatory keeps for an evennia creature: its figures, the journal and memory
//! documents, the entity list and the selected entity's profile, and where each is
//! scrolled.

use crate::memory::creature::Creature;
use crate::memory::layout::FileKind;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::Anchor;
use crate::ui::prepare::entities::{self, EntityRow};
use crate::ui::prepare::evennia::{EvenniaSummary, ItemDoc};
use crate::ui::prepare::{journal, memory};
use crate::ui::theme::Theme;

#[derive(Debug)]
pub struct EvenniaUi {
    pub summary: EvenniaSummary,
    pub journal: ItemDoc,
    pub journal_anchor: Anchor,
    pub memory: ItemDoc,
    pub memory_anchor: Anchor,
    pub entities: Vec<EntityRow>,
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
        for kind in [
            crate::genomes::evennia::memory::JOURNAL,
            crate::genomes::evennia::memory::SEMANTIC,
            crate::genomes::evennia::memory::ENTITIES,
        ] {
            ui.apply(c, kind, theme);
        }
        ui.prepare_profile(c, theme);
        ui
    }

    /// A file of the genome changed: prepares again what shows it.
    pub fn apply(&mut self, c: &Creature, kind: FileKind, theme: &Theme) {
        let m = crate::genomes::evennia::memory::of(c);
        self.summary = EvenniaSummary::of(m);
        match kind {
            crate::genomes::evennia::memory::JOURNAL
            | crate::genomes::evennia::memory::REFLECTIONS => {
                let new = journal::prepare(m, theme);
                self.journal_anchor = keep_place(self.journal_anchor, &self.journal, &new);
                self.journal = new;
            }
            crate::genomes::evennia::memory::SEMANTIC => {
                let new = memory::prepare(m, theme);
                self.memory_anchor = keep_place(self.memory_anchor, &self.memory, &new);
                self.memory = new;
            }
            crate::genomes::evennia::memory::ENTITIES
            | crate::genomes::evennia::memory::WORKING_MEMORY => {
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
        let m = crate::genomes::evennia::memory::of(c);
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
}

/// Newest first, new items arrive at the top: a reader scrolled down stays on what they
/// read (the emergence views' memory and diary too).
pub fn keep_place(anchor: Anchor, old: &ItemDoc, new: &ItemDoc) -> Anchor {
    match anchor {
        Anchor::Line(top) if top > 0 && new.lines.len() > old.lines.len() => {
            Anchor::Line(top + new.lines.len() - old.lines.len())
        }
        other => other,
    }
}
