//! Asking the far side of a creature on another machine, through its connection: the
//! answer comes back as an outcome, phrased as a local runner's would be.

use std::path::Path;

use super::{Jobs, about_edit, accepted, answered, describe};
use crate::control::Answer;
use crate::openseed::first_line;
use crate::remote::{Answered, Ask};
use crate::ui::state::App;
use crate::ui::update::{OpenSeedDone, Outcome, RemoteAsk};

impl Jobs {
    pub(super) fn remote(&mut self, app: &mut App, creature: &Path, ask: RemoteAsk) {
        let Some(ui) = app.creatures.get(creature) else {
            return;
        };
        let name = ui.name.clone();
        let paused = ui.summary.status == crate::memory::status::Status::Paused;
        let remote = creature
            .parent()
            .and_then(|root| self.remotes.iter().find(|r| r.root == root));
        let (Some(remote), Some(id)) = (remote, creature.file_name().and_then(|n| n.to_str()))
        else {
            return;
        };
        let host = app
            .remote_of(creature)
            .map(|r| r.host.clone())
            .unwrap_or_default();
        let keymap = app.keymap.clone();
        let tx = self.outcomes.clone();
        let creature = creature.to_path_buf();
        match ask {
            // Never answered: the far side sends its window sooner, that is all.
            RemoteAsk::Want => {
                drop(remote.ask(Ask::Want { id: id.to_string() }));
            }
            RemoteAsk::Control(command) => {
                app.set_notice(format!("asking {name} to {}…", describe(&command)), false);
                let wire = serde_json::to_value(&command).unwrap_or_default();
                let rx = remote.ask(Ask::Control {
                    id: id.to_string(),
                    command: wire,
                });
                tokio::spawn(async move {
                    let mut held = false;
                    let outcome = match rx.await {
                        Ok(Answered { ok: true, answer, .. }) => {
                            match answer.and_then(|a| serde_json::from_value::<Answer>(a).ok()) {
                                Some(a) => {
                                    held = a == Answer::Replaced;
                                    answered(&name, &command, a, &keymap)
                                }
                                None => (accepted(&name, &command, paused, &keymap), false).into(),
                            }
                        }
                        Ok(Answered { text, .. }) => (
                            format!("{name}: cannot {}: {}", describe(&command), inert(&text)),
                            true,
                        )
                            .into(),
                        Err(_) => (
                            format!(
                                "{name}: the connection to {host} dropped before the runner answered: {} may or may not have been done",
                                describe(&command)
                            ),
                            true,
                        )
                            .into(),
                    };
                    let _ = tx.send(about_edit(outcome, &creature, &command, held));
                });
            }
            RemoteAsk::Message(text) => {
                app.set_notice(format!("sending the message to {name}…"), false);
                let rx = remote.ask(Ask::Message {
                    id: id.to_string(),
                    text: text.clone(),
                });
                tokio::spawn(async move {
                    let outcome = match rx.await {
                        Ok(Answered {
                            ok: true,
                            text: said,
                            ..
                        }) => Outcome::from((format!("{host}: {}", inert(&said)), false)),
                        Ok(Answered { text: said, .. }) => Outcome {
                            text: format!("message to {name} not sent: {}", inert(&said)),
                            error: true,
                            undelivered: Some((creature, text)),
                            dream_edit: None,
                            openseed: None,
                            recorded: None,
                            time_index: None,
                            mail: None,
                        },
                        Err(_) => Outcome {
                            text: format!(
                                "message to {name}: the connection to {host} dropped before it was answered"
                            ),
                            error: true,
                            undelivered: Some((creature, text)),
                            dream_edit: None,
                            openseed: None,
                            recorded: None,
                            time_index: None,
                            mail: None,
                        },
                    };
                    let _ = tx.send(outcome);
                });
            }
            RemoteAsk::OpenSeed(action) => {
                let (doing, done) = super::openseed_texts(&action, &name);
                app.set_notice(doing, false);
                app.openseed_sent(&creature, &action);
                let rx = remote.ask(Ask::OpenSeed {
                    name: id.to_string(),
                    action: action.verb().to_string(),
                    text: action.message().map(str::to_owned),
                });
                tokio::spawn(async move {
                    let undelivered = action.message().map(|t| (creature.clone(), t.to_owned()));
                    let verb = action.verb();
                    let (text, ok, answer) = match rx.await {
                        Ok(Answered { ok: true, .. }) => (format!("{host}: {done}"), true, None),
                        Ok(Answered { text: said, .. }) => {
                            let first = first_line(&said);
                            let answer = (first != said).then_some(said);
                            (
                                format!("cannot {verb} {name}: {}", inert(&first)),
                                false,
                                answer,
                            )
                        }
                        Err(_) => (
                            format!(
                                "{name}: the connection to {host} dropped before its orchestrator answered: {verb} may or may not have been done"
                            ),
                            false,
                            None,
                        ),
                    };
                    let outcome = Outcome {
                        text,
                        error: !ok,
                        undelivered: undelivered.filter(|_| !ok),
                        dream_edit: None,
                        openseed: Some(OpenSeedDone {
                            creature,
                            action,
                            ok,
                            answer,
                            fetched: None,
                        }),
                        recorded: None,
                        time_index: None,
                        mail: None,
                    };
                    let _ = tx.send(outcome);
                });
            }
        }
    }
}

fn inert(text: &str) -> String {
    crate::ui::prepare::inert(text)
}

#[cfg(test)]
mod tests {
    use crate::control::ControlCommand;

    /// A key's command reaches a far runner in the control protocol's form.
    #[test]
    fn commands_travel_in_the_control_protocols_form() {
        let wire = serde_json::to_value(ControlCommand::ForceSleep).unwrap();
        assert_eq!(wire, serde_json::json!({"cmd": "force_sleep"}));
    }
}
