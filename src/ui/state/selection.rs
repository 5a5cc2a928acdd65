//! What is "selected" in the main pane, for the keys that open, view or copy it: the file
//! the view shows, the line of the file where the selected entry is (when known), and
//! its text as shown (inert).
//!
//! Views that scroll a document select the entry on the top row of the main pane (a
//! search hit is scrolled there); total recall selects the marked search hit, else the
//! entry on the top row; the events view its top row; the dreams view the dream selected
//! in its list; the entities and relations views the selected row's file.

use std::path::PathBuf;

use ratatui::text::Line;

use super::App;
use super::creature::CreatureUi;
use crate::memory::creature::Creature;
use crate::memory::layout::FileKind;
use crate::ui::doc::DocLine;
use crate::ui::doc::scroll::{self, Anchor, Viewport};
use crate::ui::focus::MainView;
use crate::ui::prepare::items::ItemDoc;

/// The selected file, line and text of the main pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub file: PathBuf,
    /// 1-based line in `file`, when the entry's line is known.
    pub line: Option<usize>,
    /// The entry as shown (inert), when it has text.
    pub text: Option<String>,
}

/// The file a view shows.
pub fn file_of(view: MainView) -> FileKind {
    match view {
        MainView::Observations => FileKind::Observations,
        MainView::Dreams => FileKind::Dreams,
        MainView::Diary => FileKind::Diary,
        MainView::Recall => FileKind::Conversation,
        MainView::Live | MainView::Events | MainView::Talk => FileKind::Events,
        // A genome's own view: the file it says.
        MainView::Own(view) => view.file,
    }
}

/// A line's text as shown, without its leading and trailing blanks.
pub(crate) fn text_of(line: &Line<'_>) -> String {
    line.spans
        .iter()
        .map(|s| s.content.as_ref())
        .collect::<String>()
        .trim()
        .to_string()
}

/// The document line on the top row.
pub(crate) fn top_line(lines: &[DocLine], anchor: Anchor, vp: Viewport) -> Option<usize> {
    (!lines.is_empty()).then(|| scroll::top(lines, anchor, vp))
}

/// The top row's item of an item document: its file, line and text.
pub fn item_doc(
    doc: &ItemDoc,
    anchor: Anchor,
    vp: Viewport,
    model: &Creature,
) -> Option<Selection> {
    let top = top_line(&doc.lines, anchor, vp)?;
    let item = doc.items.iter().rev().find(|i| i.at <= top)?;
    Some(Selection {
        file: model.path_of(item.file),
        line: item
            .lines
            .first()
            .and_then(|l| usize::try_from(*l).ok())
            .map(|l| l + 1),
        text: doc.lines.get(top).map(|l| text_of(&l.line)),
    })
}

impl App {
    /// What the main pane selects for the selected creature (`None`: no creature).
    pub fn selection(&mut self) -> Option<Selection> {
        self.prepare_observations();
        let ui = self.selected_ui()?;
        let model = self.selected_model()?;
        let view = self.shown_view();
        let vp = self.areas().main_viewport();
        let file = model.path_of(file_of(view));
        let found = match view {
            MainView::Own(own) => ui.own.as_ref().and_then(|o| o.selection(own, vp, model)),
            MainView::Talk => top_line(&self.talk.doc, self.talk.anchor, vp).map(|top| Selection {
                file: file.clone(),
                line: None,
                text: self.talk.doc.get(top).map(|l| text_of(&l.line)),
            }),
            _ => shared_selection(ui, view, vp, file.clone()),
        };
        Some(found.unwrap_or(Selection {
            file,
            line: None,
            text: None,
        }))
    }
}

/// The selection of the shared views (and the cycle's: observations, dreams, diary).
fn shared_selection(
    ui: &CreatureUi,
    view: MainView,
    vp: Viewport,
    file: PathBuf,
) -> Option<Selection> {
    let (line, text) = match view {
        MainView::Observations => ui.obs.selection(vp)?,
        MainView::Diary => (None, ui.diary.selection(vp)),
        MainView::Recall => {
            let entry = ui.recall.mark.unwrap_or(ui.recall.top.0);
            let text = ui.recall.entry(entry).map(|lines| {
                lines
                    .iter()
                    .map(|l| text_of(&l.line))
                    .collect::<Vec<_>>()
                    .join("\n")
            });
            (usize::try_from(entry).ok().map(|l| l + 1), text)
        }
        MainView::Events => {
            let (line, row) = ui.events.rows().first()?;
            (
                usize::try_from(*line).ok().map(|l| l + 1),
                Some(text_of(row)),
            )
        }
        MainView::Dreams => {
            let dream = ui.dreams.get(ui.dreams.selected()?)?;
            (None, Some(dream.priority.clone()))
        }
        _ => return None,
    };
    Some(Selection { file, line, text })
}
