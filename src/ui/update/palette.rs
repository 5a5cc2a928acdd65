//! The `:` palette's part in the state: what it lists when it opens (the selected
//! creature's views, the garden's creatures, every action of the keymap that the normal
//! screen or the garden list takes, the config's commands included), and running the
//! entry chosen as if its key were pressed.

use std::path::PathBuf;

use super::Job;
use crate::ui::focus::{Mode, Pane};
use crate::ui::input::action::Action;
use crate::ui::input::hints::{self, HintContext, why_not};
use crate::ui::popups::palette::{Entry, Target};
use crate::ui::state::App;

impl App {
    /// Opens the palette on everything it can run now.
    pub(super) fn open_palette(&mut self) {
        let entries = self.palette_entries();
        self.popups.palette.open(entries);
        self.mode = Mode::Palette;
    }

    /// Views first, then creatures, then actions in help order.
    fn palette_entries(&self) -> Vec<Entry> {
        let normal = HintContext {
            mode: Mode::Normal,
            ..self.hint_context()
        };
        let garden = HintContext {
            pane: Pane::Garden,
            ..normal
        };
        let views = self.views().iter().map(|&view| Entry {
            target: Target::View(view),
            name: view.title().to_string(),
            about: "view of the selected creature".into(),
            key: self.keymap.label(Action::show(view)),
            enabled: true,
        });
        let creatures = self.garden_creatures().map(|(path, name)| Entry {
            about: format!("creature ({})", path.display()),
            target: Target::Creature(path),
            name,
            key: String::new(),
            enabled: true,
        });
        let on_garden = hints::actions(&self.keymap, &garden);
        let actions = hints::actions(&self.keymap, &normal)
            .into_iter()
            .zip(on_garden)
            .filter(|(info, _)| runs_from_palette(info.action))
            .map(|(info, in_garden)| Entry {
                target: Target::Action(info.action),
                enabled: info.enabled || in_garden.enabled,
                name: info.hint,
                about: info.description,
                key: info.keys,
            });
        views.chain(creatures).chain(actions).collect()
    }

    /// Every creature of the garden (a filter hiding some or not), by name.
    fn garden_creatures(&self) -> impl Iterator<Item = (PathBuf, String)> + '_ {
        self.creatures
            .iter()
            .map(|(path, ui)| (path.clone(), ui.name.clone()))
    }

    /// Runs the selected entry; with none (nothing matches) the palette stays open.
    pub(super) fn run_palette(&mut self) -> Vec<Job> {
        let Some(entry) = self.popups.palette.selected().cloned() else {
            self.set_notice(
                "nothing matches what was typed: Esc closes the palette",
                false,
            );
            return Vec::new();
        };
        self.mode = Mode::Normal;
        match entry.target {
            Target::View(view) => self.apply(Action::show(view)),
            Target::Creature(path) => {
                if !self.garden_order().contains(&path) {
                    self.garden_view.filter.clear();
                    self.set_notice("the garden's filter was cleared to show it", false);
                }
                self.select(path);
                Vec::new()
            }
            Target::Action(action) => self.press(action),
        }
    }

    /// What pressing `action`'s key on the normal screen does: refused in words where
    /// it does nothing here, else done.
    fn press(&mut self, action: Action) -> Vec<Job> {
        if let Some(why) = why_not(action, &self.hint_context()) {
            let hint = action.spec().hint;
            self.set_notice(format!("{hint} does nothing here: {why}"), false);
            return Vec::new();
        }
        self.apply(action)
    }
}

/// An action the palette lists: one of the normal screen or the garden list (not the
/// palette itself), and not a view's (views are listed by their titles).
fn runs_from_palette(action: Action) -> bool {
    let modes = action.modes();
    (modes.contains(&Mode::Normal) || modes.contains(&Mode::Garden))
        && action != Action::Palette
        && !action.shows_a_view()
}
