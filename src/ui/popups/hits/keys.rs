//! Search hits: stepping through them (`n`/`N`), the list of them (its overlay), and
//! showing one in its creature's view.

use crate::search::{Hit, SearchSource};
use crate::ui::doc::scroll::Step;
use crate::ui::focus::{MainView, Mode, Pane};
use crate::ui::genome::HitShown;
use crate::ui::layout::{self, Areas};
use crate::ui::state::App;

impl App {
    /// Shows the next (or previous) hit, wrapping around.
    pub(crate) fn goto_hit(&mut self, forward: bool) {
        if let Some(i) = self.search.step(forward) {
            self.show_hit(i);
        }
    }

    /// Opens the list of hits, the hit shown selected; closes it when open (as `?` does
    /// help).
    pub(crate) fn toggle_hit_list(&mut self) {
        if self.mode == Mode::Hits {
            self.mode = Mode::Normal;
            return;
        }
        if self.search.hits.is_empty() {
            return;
        }
        let height = self.hit_list_height();
        let list = &mut self.search.list;
        list.top = 0;
        list.select(self.search.current.unwrap_or(0), height);
        self.mode = Mode::Hits;
    }

    /// Moves the list's selection (its keys: j/k, PgUp/PgDn, g/G).
    pub(crate) fn move_in_hit_list(&mut self, step: Step) {
        let height = self.hit_list_height();
        self.search.list.step(step, height);
    }

    /// Closes the list and shows the hit selected in it.
    pub(crate) fn jump_to_listed_hit(&mut self) {
        self.mode = Mode::Normal;
        self.show_hit(self.search.list.selected);
    }

    /// New hits' rows for the list: the creature's name leads each row of a garden search.
    pub(crate) fn list_hits(&mut self, hits: &[Hit]) {
        let names: Vec<Option<String>> = hits
            .iter()
            .map(|hit| {
                self.search
                    .garden
                    .then(|| self.search.owner(hit))
                    .flatten()
                    .and_then(|path| self.creatures.get(path))
                    .map(|ui| ui.name.clone())
            })
            .collect();
        let width = self
            .search
            .list
            .widen(names.iter().flatten().map(String::as_str));
        let rows: Vec<_> = hits
            .iter()
            .zip(names)
            .map(|(hit, name)| {
                let row =
                    crate::ui::popups::hits::prepare::row(hit, name.as_deref(), width, &self.theme);
                (name, row)
            })
            .collect();
        let height = self.hit_list_height();
        self.search.list.extend(rows, height);
    }

    fn hit_list_height(&self) -> usize {
        usize::from(layout::hit_list_viewport(self.area).height)
    }

    /// Shows hit `i` of the search in its creature's view (`n`/`N` and the list's Enter).
    fn show_hit(&mut self, i: usize) {
        let Some(hit) = self.search.hits.get(i).cloned() else {
            return;
        };
        self.search.current = Some(i);
        let Some(path) = self.search.owner(&hit).cloned() else {
            return;
        };
        // A hit is a line of the files as they are now (it may not be there then): the
        // time cursor over its creature is left, and the operator told so.
        if self
            .time
            .cursor
            .as_ref()
            .is_some_and(|c| c.creature == path)
        {
            self.leave_past();
            self.set_notice(
                "back to now: a search reads the files as they are now",
                false,
            );
        }
        // A garden search's hit in another creature selects it (the search goes on).
        if self.selected.as_ref() != Some(&path) && self.creatures.contains_key(&path) {
            self.selected = Some(path.clone());
        }
        let (Some(ui), Some(model)) = (self.creatures.get_mut(&path), self.garden.creature(&path))
        else {
            return;
        };
        self.pane = Pane::Main;
        match hit.source {
            SearchSource::Conversation if model.conversation().counting() => {
                self.set_notice(
                    "the log is still being counted: its hits open once the count is done",
                    false,
                );
            }
            SearchSource::Conversation => {
                self.view = MainView::Recall;
                let vp = Areas::compute(self.area, MainView::Recall).main_viewport();
                ui.recall
                    .jump(model.conversation(), &self.theme, vp, hit.line);
            }
            SearchSource::Observations => {
                self.view = MainView::Observations;
                let file_line = hit.line as usize + 1;
                ui.obs.ensure(model, &self.theme);
                if let Err(why) = ui.obs.show_line(file_line) {
                    self.set_notice(why, false);
                }
            }
            SearchSource::Dreams => {
                self.view = MainView::Dreams;
                ui.dreams.select(hit.line as usize, model);
            }
            SearchSource::Diary => {
                self.view = MainView::Diary;
                let width = Areas::compute(self.area, MainView::Diary).main_view.width;
                ui.diary
                    .show_line(model, &self.theme, width, hit.line as usize);
            }
            // A file of the creature's genome: its views show it.
            source => {
                let shown = ui
                    .own
                    .as_mut()
                    .and_then(|own| own.show_hit(model, source, hit.line, &self.theme));
                let missing = match shown {
                    Some(HitShown { view, missing }) => {
                        self.view = view;
                        missing
                    }
                    None => {
                        self.view = MainView::Recall;
                        Some("that line is about something its creature's views do not show")
                    }
                };
                if let Some(missing) = missing {
                    self.set_notice(missing, false);
                }
            }
        }
    }
}
