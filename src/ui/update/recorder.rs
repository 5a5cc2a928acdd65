//! `b` and `C`: the blame popup and the compare view asked for, and their answers taken
//! in. The work itself is a job ([`Job::Blame`], [`Job::Compare`]), off the UI thread.

use super::{Job, Recorded};
use crate::memory::moments::is_document;
use crate::recorder::At;
use crate::ui::focus::{MainView, Mode, Pane};
use crate::ui::popups::blame::BlameAsk;
use crate::ui::popups::compare::CompareAsk;
use crate::ui::prepare::inert;
use crate::ui::state::App;

/// Whether blame reads `file` (a path in a creature's directory): a memory document or
/// an op log of `.self/`, or the purpose.
fn blameable(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or_default();
    file == "PURPOSE.md"
        || file
            .strip_prefix(".self/")
            .is_some_and(|_| is_document(name) || name.ends_with(".jsonl"))
}

impl App {
    /// Blames what is selected (the main pane's entry, or the side panel's top line when
    /// it is focused), as of `at` (`None`: now): opens the popup, which says "blaming…"
    /// until the answer comes. The time cursor passes its moment.
    pub fn open_blame(&mut self, at: Option<At>) -> Vec<Job> {
        let (Some(path), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        let name = ui.name.clone();
        let ask = if self.pane == Pane::Side {
            let text = self
                .areas()
                .side_viewport()
                .and_then(|vp| ui.side.selection(vp))
                .filter(|t| !t.is_empty());
            if text.is_none() {
                self.set_notice("nothing selected to blame in the side panel", true);
                return Vec::new();
            }
            BlameAsk {
                creature: path,
                name,
                file: None,
                line: None,
                text,
                at,
            }
        } else {
            let Some(sel) = self.selection() else {
                return Vec::new();
            };
            let file = sel
                .file
                .strip_prefix(&path)
                .unwrap_or(&sel.file)
                .to_string_lossy()
                .into_owned();
            if !blameable(&file) || self.shown_view() == MainView::Dreams {
                let view = self.shown_view().title();
                self.set_notice(
                    format!(
                        "blame is for a line of a memory file: the {view} view shows {}, not one",
                        inert(&file)
                    ),
                    true,
                );
                return Vec::new();
            }
            BlameAsk {
                creature: path,
                name,
                file: Some(file),
                line: sel.line,
                text: sel.text,
                at,
            }
        };
        self.popups.blame.open(ask.clone(), &self.theme);
        self.mode = Mode::Blame;
        vec![Job::Blame {
            ask,
            history: self.history_store(),
        }]
    }

    /// `C`: the list of the garden's other creatures to compare the selected one with.
    pub(super) fn pick_compared(&mut self) {
        let Some(selected) = self.selected.clone() else {
            return;
        };
        let choices = self
            .garden_order()
            .iter()
            .filter(|p| **p != selected && !self.without_files(p))
            .filter_map(|p| {
                let name = self.creatures.get(p)?.name.clone();
                Some((p.clone(), name))
            })
            .collect();
        self.popups.compare.pick(choices);
        self.mode = Mode::ComparePick;
    }

    /// Enter in the list: compares the selected creature with the one picked.
    pub(super) fn compare_with(&mut self) -> Vec<Job> {
        let (Some(a), Some(ui)) = (self.selected.clone(), self.selected_ui()) else {
            return Vec::new();
        };
        let Some((b, b_name)) = self.popups.compare.chosen().cloned() else {
            return Vec::new();
        };
        let mut a_name = ui.name.clone();
        let mut b_name = b_name;
        // Two of one name (a copy): their directories tell them apart.
        if a_name == b_name {
            let dir = |p: &std::path::Path| {
                p.file_name()
                    .map_or_else(String::new, |n| inert(&n.to_string_lossy()))
            };
            (a_name, b_name) = (dir(&a), dir(&b));
        }
        let ask = CompareAsk {
            a,
            b,
            a_name,
            b_name,
        };
        self.popups.compare.open(ask.clone());
        self.mode = Mode::Compare;
        vec![Job::Compare {
            ask,
            history: self.history_store(),
        }]
    }

    /// A blame or a comparison came back: the popup that asked shows it.
    pub(super) fn on_recorded(&mut self, recorded: Recorded) {
        self.dirty = true;
        match recorded {
            Recorded::Blame(ask, answer) => self.popups.blame.answered(&ask, answer, &self.theme),
            Recorded::Compare(ask, answer) => self.popups.compare.answered(&ask, answer),
            Recorded::Past(done) => self.on_past_built(done),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::blameable;

    #[test]
    fn blame_reads_memory_files_only() {
        assert!(blameable(".self/observations.md"));
        assert!(blameable(".self/semantic.jsonl"));
        assert!(blameable("PURPOSE.md"));
        assert!(!blameable(".sys/events.jsonl"));
        assert!(!blameable(".self/.observations.md.tmp"));
    }
}
