//! Feeding the notifications: the creatures looked at after each wake of the loop (what
//! its files, its runner and its orchestrator say), the notices queued for the loop to
//! tell, each also kept in the status log; and the toggle. A wake that brought only
//! changes of files looks at the creatures whose files changed; any other (the clock, a
//! key, a runner, an orchestrator, a far garden) at every creature.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::App;
use super::creature::CreatureUi;
use super::health::Health;
use crate::memory::status::Status;
use crate::openseed::{BudgetLevel, CreatureInfo};
use crate::ui::notify::need::{Fact, Seen};
use crate::ui::notify::{HookRun, Notifier};
use crate::ui::prepare::inert;

/// Which creatures the next [`App::scan_needs`] looks at.
#[derive(Debug, PartialEq)]
pub enum Looks {
    All,
    These(BTreeSet<PathBuf>),
}

impl Looks {
    /// The creature at `path` is looked at too.
    pub fn add(&mut self, path: &Path) {
        if let Self::These(paths) = self {
            paths.insert(path.to_path_buf());
        }
    }
}

impl App {
    /// Every creature is looked at after this wake.
    pub fn look_at_all(&mut self) {
        self.looks = Looks::All;
    }

    /// Notifications as `[notify]` and the terminal say (the observatory's start).
    pub fn set_notifier(&mut self, notifier: Notifier) {
        self.notify = notifier;
    }

    /// Looks at the creatures ([`Looks`]) for what needs a person; what is to be told is
    /// queued ([`App::take_notifications`]).
    pub fn scan_needs(&mut self) {
        let now = self.now;
        let looks = std::mem::replace(&mut self.looks, Looks::These(BTreeSet::new()));
        let looked = |path: &PathBuf, ui: &CreatureUi| Fact::Looked {
            path: path.clone(),
            name: ui.name.clone(),
            now,
            seen: self.seen(path, ui),
        };
        let facts: Vec<Fact> = match looks {
            Looks::All => self
                .notify
                .known()
                .filter(|p| !self.creatures.contains_key(p))
                .map(|p| Fact::Gone {
                    path: p.to_path_buf(),
                })
                .chain(self.creatures.iter().map(|(path, ui)| looked(path, ui)))
                .collect(),
            Looks::These(paths) => paths
                .iter()
                .filter_map(|path| self.creatures.get(path).map(|ui| looked(path, ui)))
                .collect(),
        };
        for fact in facts {
            let (notices, said) = self.notify.handle(fact);
            for notice in &notices {
                self.popups
                    .log
                    .push(now, &format!("notify: {}", notice.text), false);
                self.dirty = true;
            }
            if let Some(text) = said {
                self.set_notice(text, false);
            }
        }
    }

    /// What one look at the creature at `path` finds.
    fn seen(&self, path: &Path, ui: &CreatureUi) -> Seen {
        let model = self.garden.creature(path);
        let failing = (ui.health == Health::Failing).then(|| {
            ui.host
                .as_ref()
                .and_then(|h| h.last_error.clone())
                .or_else(|| {
                    model
                        .and_then(|m| m.events().last_error.as_ref())
                        .and_then(|e| e.str("error"))
                        .map(inert)
                })
                .unwrap_or_else(|| "its orchestrator says it is in error".into())
        });
        let (to_creator, last_to_creator) = model.map_or((0, None), |m| {
            let (count, newest) = m.events().mail().to_creator();
            (count, newest.map(|mail| inert(&mail.text)))
        });
        let orchestrator = self.orchestrator_of(path).filter(|o| o.up());
        let sources = 1
            + u8::from(orchestrator.is_some_and(|o| o.creature(path).is_some()))
            + u8::from(orchestrator.is_some_and(|o| o.budget(path).is_some()));
        Seen {
            failing,
            awake: ui.summary.status == Status::Awake,
            last_activity: ui.summary.last_activity,
            review: ui.review.is_some(),
            budget: ui.held.clone().or_else(|| self.budget_word(path)),
            to_creator,
            last_to_creator,
            sources,
        }
    }

    /// What its orchestrator says of a creature past its daily budget.
    fn budget_word(&self, path: &Path) -> Option<String> {
        let o = self.orchestrator_of(path)?;
        if o.creature(path)
            .is_some_and(CreatureInfo::paused_for_budget)
        {
            return Some("its orchestrator paused it for its daily budget".into());
        }
        o.budget(path)
            .filter(|b| b.level() == BudgetLevel::Past)
            .map(|b| {
                format!(
                    "${:.2} spent today, its cap is ${:.2}",
                    b.daily_spent_usd, b.daily_cap_usd
                )
            })
    }

    /// The terminal's sequences and the hook's runs still to be done.
    pub fn take_notifications(&mut self) -> (Vec<Vec<u8>>, Vec<HookRun>) {
        (self.notify.take_terminal(), self.notify.take_runs())
    }

    /// Notifications on or off (they are still decided while off, so that turning them
    /// on again tells only what begins after).
    pub(in crate::ui) fn toggle_notify(&mut self) {
        self.notify.enabled = !self.notify.enabled;
        let text = if self.notify.enabled {
            format!("notifications on: told to {}", self.notify.describe())
        } else {
            "notifications off: what needs you is still in the status log (L)".to_string()
        };
        self.set_notice(text, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::headless::Headless;
    use crate::ui::state::Settings;

    #[test]
    fn a_change_of_files_is_looked_at_alone_and_a_tick_at_what_the_clock_changes() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["moss", "sprout"] {
            std::fs::create_dir_all(dir.path().join(name).join(".self")).unwrap();
        }
        let now = chrono::Utc::now();
        let (theme, _) = crate::ui::theme::Theme::load("dark", None, false);
        let settings = Settings::with_theme(theme);
        let mut screen =
            Headless::open(&[dir.path().to_path_buf()], settings, now, 100, 30).unwrap();
        assert_eq!(screen.app.looks, Looks::All, "every creature at the start");
        screen.app.scan_needs();
        assert_eq!(screen.app.looks, Looks::These(BTreeSet::new()));
        let sprout = screen
            .app
            .creatures
            .keys()
            .find(|p| p.ends_with("sprout"))
            .cloned()
            .unwrap();
        std::fs::write(sprout.join(".self/observations.md"), "RED 10:00 hot\n").unwrap();
        let t = crate::memory::time::format_time(now);
        let line = format!("{{\"t\":\"{t}\",\"role\":\"user\",\"content\":\"hi\"}}\n");
        std::fs::write(sprout.join(".self/conversation.jsonl"), line).unwrap();
        screen.refresh();
        assert_eq!(
            screen.app.looks,
            Looks::These(BTreeSet::from([sprout.clone()]))
        );
        screen.app.scan_needs();
        screen.tick(now + chrono::Duration::seconds(5));
        assert_eq!(
            screen.app.looks,
            Looks::These(BTreeSet::from([sprout])),
            "the clock moved: the awake creature, not the one at rest"
        );
        // The loop's wakes for the tick and for the watched history's looks (one after
        // every change of a watched creature's memory) add nothing to that.
        for wake in [
            crate::ui::runtime::event_loop::Wake::Tick,
            crate::ui::runtime::event_loop::Wake::Looks,
        ] {
            screen.app.scan_needs();
            crate::ui::runtime::event_loop::handle(&mut screen.app, wake).unwrap();
            assert_eq!(screen.app.looks, Looks::These(BTreeSet::new()));
        }
    }
}
