//! Feeding the notifications: every creature looked at after each wake of the loop (what
//! its files, its runner and its orchestrator say), the notices queued for the loop to
//! tell, each also kept in the status log; and the toggle.

use std::path::Path;

use super::App;
use super::creature::CreatureUi;
use super::health::Health;
use crate::memory::status::Status;
use crate::openseed::{BudgetLevel, CreatureInfo};
use crate::ui::notify::need::{Fact, Seen};
use crate::ui::notify::{HookRun, Notifier};
use crate::ui::prepare::inert;

impl App {
    /// Notifications as `[notify]` and the terminal say (the observatory's start).
    pub fn set_notifier(&mut self, notifier: Notifier) {
        self.notify = notifier;
    }

    /// Looks at every creature for what needs a person; what is to be told is queued
    /// ([`App::take_notifications`]).
    pub fn scan_needs(&mut self) {
        let now = self.now;
        let mut facts: Vec<Fact> = self
            .notify
            .known()
            .filter(|p| !self.creatures.contains_key(p))
            .map(|p| Fact::Gone {
                path: p.to_path_buf(),
            })
            .collect();
        facts.extend(self.creatures.iter().map(|(path, ui)| Fact::Looked {
            path: path.clone(),
            name: ui.name.clone(),
            now,
            seen: self.seen(path, ui),
        }));
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
