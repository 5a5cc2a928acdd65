//! The OpenSeed menu's actions (its web dashboard's): open and close the menu; spawn a
//! creature and set a daily cap through a form (what the form offers read from the
//! orchestrator first); restart, rebuild, remount or archive the creature the menu is
//! for, asked first (each destroys or costs). A far creature's lifecycle goes through
//! its connection; spawning and the global cap are the orchestrator's attached here.

use std::path::{Path, PathBuf};

use super::{Fetched, Job, OpenSeedAction};
use crate::openseed::{ApiStatus, Lifecycle, SpawnRequest};
use crate::ui::focus::Mode;
use crate::ui::input::action::Action;
use crate::ui::popups::openseed_form::{DEFAULT, FormFor, OpenSeedForm};
use crate::ui::popups::openseed_menu::for_a_creature;
use crate::ui::state::App;
use crate::ui::state::confirm::{Confirm, ask_or_answer};

impl App {
    pub(super) fn openseed_menu_action(&mut self, action: Action) -> Vec<Job> {
        match action {
            Action::OpenSeedMenu => self.toggle_openseed_menu(),
            Action::OpenSeedClose => self.mode = Mode::Normal,
            Action::OpenSeedCancel => {
                self.mode = self.mode_after_form();
                self.popups.openseed_form = None;
                self.set_notice("cancelled: nothing was sent", false);
            }
            Action::OpenSeedSubmit => return self.submit_openseed_form(),
            Action::OpenSeedMail | Action::OpenSeedNarration => return self.mail_action(action),
            item => return self.openseed_item(item),
        }
        Vec::new()
    }

    fn toggle_openseed_menu(&mut self) {
        if self.mode == Mode::OpenSeedMenu {
            self.mode = Mode::Normal;
            return;
        }
        let creature = self.selected_openseed();
        if creature.is_none()
            && let Some(local) = self.selected_own_tabs()
        {
            let attached = self.openseed.is_some();
            self.popups.openseed_menu.open_for_files(local, attached);
            self.mode = Mode::OpenSeedMenu;
            return;
        }
        if creature.is_none() && self.openseed.is_none() {
            self.set_notice(
                "no OpenSeed orchestrator is attached (--openseed, or [openseed] in the config file)",
                true,
            );
            return;
        }
        self.popups.openseed_menu.open(creature);
        self.mode = Mode::OpenSeedMenu;
    }

    /// An item of the menu, for the creature it was opened for or for the garden.
    fn openseed_item(&mut self, action: Action) -> Vec<Job> {
        let creature = self
            .popups
            .openseed_menu
            .creature()
            .map(|(p, n)| (p.to_path_buf(), n.to_owned()));
        if !for_a_creature(action) {
            self.mode = Mode::Normal;
            if self.openseed.is_none() {
                self.set_notice(
                    "spawning and the global cap need an OpenSeed orchestrator attached here (a far one's are not offered)",
                    true,
                );
                return Vec::new();
            }
            let ask = match action {
                Action::OpenSeedSpawn => OpenSeedAction::SpawnChoices,
                _ => OpenSeedAction::ReadCap { global: true },
            };
            return self.openseed_job(PathBuf::new(), ask);
        }
        let Some((path, name)) = creature else {
            self.set_notice(
                "select one of the orchestrator's creatures first: this acts on one",
                true,
            );
            return Vec::new();
        };
        if action == Action::OpenSeedBudget {
            self.mode = Mode::Normal;
            if self.remote_of(&path).is_some() {
                self.set_notice(
                    format!("{name} is on another machine: its budget is set there"),
                    true,
                );
                return Vec::new();
            }
            return self.openseed_job(path, OpenSeedAction::ReadCap { global: false });
        }
        let what = match action {
            Action::OpenSeedRestart => Lifecycle::Restart,
            Action::OpenSeedRebuild => Lifecycle::Rebuild,
            Action::OpenSeedRemount => Lifecycle::Remount,
            _ => Lifecycle::Archive,
        };
        self.openseed_lifecycle(path, &name, action, what)
    }

    /// A restart, rebuild, remount or archive, once asked twice.
    fn openseed_lifecycle(
        &mut self,
        path: PathBuf,
        name: &str,
        action: Action,
        what: Lifecycle,
    ) -> Vec<Job> {
        if self.openseed_busy(&path, name) {
            self.mode = Mode::Normal;
            return Vec::new();
        }
        let stopped = self
            .orchestrator_of(&path)
            .and_then(|o| o.creature(&path))
            .is_some_and(|c| c.status == ApiStatus::Stopped);
        if stopped && what != Lifecycle::Archive {
            self.mode = Mode::Normal;
            let start = self.keymap.mention(Action::PauseResume, ": {} starts it");
            self.set_notice(
                format!(
                    "{name}'s container is stopped, there is nothing to {}{start}",
                    what.verb()
                ),
                true,
            );
            return Vec::new();
        }
        if ask_or_answer(&mut self.confirm, Confirm::OpenSeed(path.clone(), action)) {
            self.mode = Mode::Normal;
            return self.openseed_job(path, OpenSeedAction::Lifecycle(what));
        }
        let again = self.keymap.mention(
            action,
            &format!(
                "{{}} again {}s it, any other key leaves it as it is",
                what.verb()
            ),
        );
        self.set_notice(
            format!("{} {name}? {}. {again}", what.verb(), consequence(what)),
            false,
        );
        Vec::new()
    }

    /// Enter in the form: sends it when it holds what the orchestrator takes, else says
    /// what is wrong in the form.
    fn submit_openseed_form(&mut self) -> Vec<Job> {
        let Some(form) = self.popups.openseed_form.as_mut() else {
            self.mode = Mode::Normal;
            return Vec::new();
        };
        let asked = match &form.what {
            FormFor::Mail | FormFor::Narrator => return self.submit_mail_form(),
            FormFor::Spawn => {
                spawn_request(form).map(|r| (PathBuf::new(), OpenSeedAction::Spawn(Box::new(r))))
            }
            FormFor::Cap(of) => dollars(form.value("daily cap (USD)")).map(|cents| {
                let path = of.as_ref().map(|(p, _)| p.clone()).unwrap_or_default();
                let set = OpenSeedAction::SetCap {
                    global: of.is_none(),
                    cents,
                    action: form.value("at the cap").to_owned(),
                };
                (path, set)
            }),
        };
        match asked {
            Ok((path, action)) => {
                self.popups.openseed_form = None;
                self.mode = Mode::Normal;
                self.openseed_job(path, action)
            }
            Err(problem) => {
                form.problem = Some(problem);
                Vec::new()
            }
        }
    }

    /// What the orchestrator read for a form: the form, open (unless the operator is
    /// busy elsewhere by now).
    pub(super) fn on_openseed_fetched(
        &mut self,
        creature: &Path,
        action: &OpenSeedAction,
        fetched: Fetched,
    ) {
        let form = match (action, fetched) {
            (OpenSeedAction::SpawnChoices, Fetched::SpawnChoices { genomes, models }) => {
                OpenSeedForm::spawn(&genomes, &models)
            }
            (OpenSeedAction::ReadCap { global }, Fetched::Cap { cents, action, .. }) => {
                let of = (!global).then(|| {
                    let name = self
                        .creatures
                        .get(creature)
                        .map_or_else(|| creature.display().to_string(), |u| u.name.clone());
                    (creature.to_path_buf(), name)
                });
                OpenSeedForm::cap(of, cents, &action)
            }
            _ => return,
        };
        if self.mode == Mode::Normal {
            self.popups.openseed_form = Some(form);
            self.mode = Mode::OpenSeedForm;
        }
    }
}

/// What a lifecycle action does, as the question says it.
fn consequence(what: Lifecycle) -> &'static str {
    match what {
        Lifecycle::Restart => "This restarts its Docker container (what it installed is kept)",
        Lifecycle::Rebuild => {
            "This builds its image again and makes a fresh container: what it installed in the old one is lost"
        }
        Lifecycle::Remount => {
            "This commits its container to its image and makes the container again (new mounts; running processes stop)"
        }
        Lifecycle::Archive => {
            "This stops it, removes its container and image, and moves its files to OpenSeed's archive: it leaves the garden"
        }
    }
}

/// The spawn the form asks for, or what is wrong with it (the orchestrator's own rules,
/// `index.ts:965`, said before asking).
fn spawn_request(form: &OpenSeedForm) -> Result<SpawnRequest, String> {
    let name = form.value("name");
    let good = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !good {
        return Err(
            "the name: lowercase letters, digits and hyphens, not starting with a hyphen".into(),
        );
    }
    let chosen = |label| Some(form.value(label)).filter(|v| *v != DEFAULT && !v.is_empty());
    let purpose = form.value("purpose");
    Ok(SpawnRequest {
        name: name.to_owned(),
        genome: chosen("genome").map(str::to_owned),
        purpose: (!purpose.is_empty()).then(|| purpose.to_owned()),
        model: chosen("model").map(str::to_owned),
    })
}

/// Dollars as typed (`5`, `5.50`, `$5`) in cents, or what is wrong with them.
fn dollars(text: &str) -> Result<u64, String> {
    let text = text.trim().trim_start_matches('$').trim();
    match text.parse::<f64>() {
        Ok(usd) if usd.is_finite() && (0.0..=1_000_000.0).contains(&usd) => {
            Ok(crate::openseed::lifecycle::cents(usd))
        }
        _ => Err(format!(
            "the daily cap: an amount of dollars such as 5 or 2.50, not {text:?}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_as_typed() {
        assert_eq!(dollars("5"), Ok(500));
        assert_eq!(dollars(" $2.50 "), Ok(250));
        assert_eq!(dollars("0"), Ok(0));
        assert!(dollars("-1").is_err());
        assert!(dollars("five").is_err());
    }
}
