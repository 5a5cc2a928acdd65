//! Performing the jobs actions ask for: commands to runners (in-process channel or control
//! socket) and to the OpenSeed orchestrator, appends to MESSAGES.md, searches. Outcomes come back as notices for the status
//! line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use tokio::sync::mpsc;

mod background;
mod genome_files;
mod mail;
mod openseed;
pub mod recorder;
mod remote;

use super::clipboard;

use crate::remote::Remote;
use crate::search::{SearchHandle, spawn_search};
use crate::ui::state::search;

use crate::control::{Answer, ControlCommand, ControlSender, send_command};
use crate::memory::dream_diff;
use crate::memory::messages;
use crate::memory::status::Status;
use crate::memory::write::{self, SeedPaths};
use crate::openseed::Attachment;
use crate::ui::input::action::Action;
use crate::ui::input::keymap::Keymap;
use crate::ui::prepare::inert;
use crate::ui::state::App;
use crate::ui::state::creature::{RunnerLink, ignores_messages_file};
use crate::ui::state::openseed::name_of;
use crate::ui::update::{EditAnswer, HandBack, Job, OpenSeedAction, OpenSeedDone, Recorded};

pub use crate::ui::update::Outcome;

pub struct Jobs {
    hosted: HashMap<PathBuf, ControlSender>,
    /// The attached OpenSeed orchestrator, if any.
    pub openseed: Option<Attachment>,
    /// Gardens on other machines: their connections.
    pub remotes: Vec<Remote>,
    outcomes: mpsc::UnboundedSender<Outcome>,
    /// The search under way, if any (dropping it cancels it).
    search: Option<SearchHandle>,
    /// The `[notify]` hook's runs.
    hooks: super::notify::Hooks,
}

fn describe(command: &ControlCommand) -> &'static str {
    match command {
        ControlCommand::Pause => "pause",
        ControlCommand::Resume => "resume",
        ControlCommand::ForceSleep => "sleep now",
        ControlCommand::Wake => "wake up",
        ControlCommand::Message { .. } => "read a message",
        ControlCommand::Speed { .. } => "live at the demo's new speed",
        ControlCommand::Proposal => "show its proposal",
        ControlCommand::ApplyProposal => "apply its dream",
        ControlCommand::RejectProposal => "reject its dream",
        ControlCommand::ReplaceProposal { .. } => "hold the edited dream",
    }
}

/// What the status line says once a command has reached the runner. A paused creature
/// keeps a sleep or wake request until it is resumed, and the operator is told so (with
/// the key that resumes it, when one is bound).
fn accepted(name: &str, command: &ControlCommand, paused: bool, keymap: &Keymap) -> String {
    match command {
        ControlCommand::ForceSleep | ControlCommand::Wake if paused => {
            let key = keymap
                .first(Action::PauseResume)
                .map(|k| format!(" ({k})"))
                .unwrap_or_default();
            format!(
                "{name} is paused: it will {} once resumed{key}",
                describe(command)
            )
        }
        _ => format!("asked {name} to {}", describe(command)),
    }
}

/// What the status line says once the runner has said what became of a command.
fn answered(name: &str, command: &ControlCommand, answer: Answer, keymap: &Keymap) -> Outcome {
    let text = match answer {
        Answer::Dreaming => format!("{name} is dreaming"),
        Answer::DreamsNext => format!("{name} will dream once its current step is over"),
        Answer::AlreadyDreaming => format!("{name} is already dreaming"),
        Answer::AlreadyAsleep { until } => {
            let wake = keymap.first(Action::Wake).map_or_else(
                || "wake it first".to_string(),
                |k| format!("{k} wakes it first"),
            );
            format!(
                "{name} is already asleep until {}: {wake}",
                until.format("%H:%M")
            )
        }
        Answer::AlreadyAwake => format!("{name} is already awake"),
        Answer::Paused => accepted(name, command, true, keymap),
        Answer::Stopped => {
            return (
                format!("{name}'s runner is stopping: cannot {}", describe(command)),
                true,
            )
                .into();
        }
        Answer::NoProposal => {
            return (format!("{name} has no dream waiting for review"), true).into();
        }
        Answer::Proposal { .. } => format!("{name} has a dream waiting for review"),
        Answer::Applied => format!("{name}'s dream is applied: it wakes with it"),
        Answer::Rejected => format!("{name}'s dream is rejected: nothing of it was written"),
        Answer::Replaced => format!("{name}'s edited dream is held for review"),
        Answer::Refused { why } => {
            return (format!("{name}: cannot {}: {why}", describe(command)), true).into();
        }
    };
    (text, false).into()
}

/// `outcome`, of `command` sent to `creature`'s runner; an edited dream's says whether the
/// runner holds it now (`held`): until it does, the edit stays the operator's draft.
fn about_edit(
    mut outcome: Outcome,
    creature: &Path,
    command: &ControlCommand,
    held: bool,
) -> Outcome {
    if let ControlCommand::ReplaceProposal { text } = command {
        outcome.dream_edit = Some(EditAnswer {
            creature: creature.to_path_buf(),
            text: text.clone(),
            held,
        });
    }
    outcome
}

impl Jobs {
    pub fn new(
        hosted: HashMap<PathBuf, ControlSender>,
        outcomes: mpsc::UnboundedSender<Outcome>,
    ) -> Self {
        Self {
            hosted,
            openseed: None,
            remotes: Vec::new(),
            outcomes,
            search: None,
            hooks: super::notify::Hooks::default(),
        }
    }

    /// Starts the `[notify]` hook for each notice, in the background.
    pub fn notify(&mut self, runs: Vec<crate::ui::notify::HookRun>) {
        for run in runs {
            self.hooks.start(run, &self.outcomes);
        }
    }

    pub fn perform(&mut self, app: &mut App, job: Job) {
        match job {
            Job::Control { creature, command } => self.control(app, &creature, command),
            Job::AppendMessage { creature, text } => self.message(app, &creature, text),
            Job::Search {
                creature,
                query,
                garden,
                regex,
            } => self.start_search(app, &creature, query, garden, regex),
            Job::OpenSeed { creature, action } => self.openseed(app, &creature, action),
            Job::Restore { creature, line } => restore(app, &creature, &line, Utc::now()),
            Job::Remote { creature, ask } => self.remote(app, &creature, ask),
            Job::RemoteWindows { root } => {
                if let Some(remote) = self.remotes.iter().find(|r| r.root == root) {
                    // Never answered.
                    drop(remote.ask(crate::remote::Ask::Windows));
                }
            }
            Job::Background { line, dir, what } => {
                let tx = self.outcomes.clone();
                tokio::spawn(async move {
                    let _ = tx.send(background::run(&line, &dir, &what).await);
                });
            }
            Job::Blame { ask, history } => {
                let tx = self.outcomes.clone();
                tokio::task::spawn_blocking(move || {
                    let answer = recorder::blame(&ask, history, Utc::now());
                    let _ = tx.send(recorder::outcome(Recorded::Blame(ask, answer)));
                });
            }
            Job::Compare { ask, history } => {
                let tx = self.outcomes.clone();
                tokio::task::spawn_blocking(move || {
                    let answer = recorder::compare(&ask, history, Utc::now());
                    let _ = tx.send(recorder::outcome(Recorded::Compare(ask, answer)));
                });
            }
            Job::GenomeFiles { creature } => {
                let tx = self.outcomes.clone();
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(genome_files::read(creature));
                });
            }
            Job::IndexLife { creature } => {
                let tx = self.outcomes.clone();
                tokio::task::spawn_blocking(move || {
                    let done = crate::ui::time::IndexDone::build(creature);
                    let _ = tx.send(Outcome {
                        time_index: Some(done),
                        ..Outcome::from((String::new(), false))
                    });
                });
            }
            Job::BuildPast(ask) => {
                let tx = self.outcomes.clone();
                tokio::task::spawn_blocking(move || {
                    let done = (*ask).build();
                    let _ = tx.send(recorder::outcome(Recorded::Past(done)));
                });
            }
            Job::Clipboard(text) => {
                let tmux = std::env::var_os("TMUX").is_some();
                let (said, error) = clipboard::copy(&mut std::io::stdout(), &text, tmux);
                app.set_notice(said, error);
            }
            // The event loop runs these itself (it has the terminal); elsewhere there is
            // no terminal to hand over.
            Job::Foreground(fg) => app.on_handed_back(
                &fg,
                HandBack::NotRun("no terminal to hand over here".into()),
            ),
            Job::EditDream { name, .. } => app.set_notice(
                format!("cannot edit {name}'s dream: no terminal to hand over here"),
                true,
            ),
            Job::Suspend => app.set_notice("no terminal to suspend here", true),
            Job::Mail(ask) => self.mail(app, ask),
        }
    }

    /// Asks the orchestrator in the background; the outcome says what became of it.
    fn openseed(&mut self, app: &mut App, creature: &Path, action: OpenSeedAction) {
        let name = app
            .creatures
            .get(creature)
            .map_or_else(|| creature.display().to_string(), |u| u.name.clone());
        let api_name = name_of(creature).unwrap_or_default().to_owned();
        let Some((client, refresher)) = self
            .openseed
            .as_ref()
            .and_then(|a| Some((a.client()?, a.refresher())))
        else {
            app.set_notice(
                format!("the OpenSeed orchestrator cannot be reached now: {name} was not asked"),
                true,
            );
            return;
        };
        let name = openseed::about(&action, &name);
        let (doing, done) = openseed_texts(&action, &name);
        app.set_notice(doing, false);
        app.openseed_sent(creature, &action);
        let tx = self.outcomes.clone();
        let creature = creature.to_path_buf();
        tokio::spawn(async move {
            let result = openseed::ask(&client, &api_name, &action).await;
            // The orchestrator tells nothing of a stop or a start on its stream.
            refresher.refresh();
            let outcome = match result {
                Ok(fetched) => Outcome {
                    openseed: Some(OpenSeedDone {
                        creature,
                        action,
                        ok: true,
                        answer: None,
                        fetched,
                    }),
                    ..Outcome::from((done, false))
                },
                Err(e) => {
                    let whole = e.whole();
                    // The Ranger's window says every refusal whole.
                    let keep =
                        whole != e.to_string() || matches!(action, OpenSeedAction::Ranger { .. });
                    Outcome {
                        text: format!("cannot {} {name}: {e}", action.verb()),
                        error: true,
                        undelivered: action
                            .message()
                            .map(|text| (creature.clone(), text.to_owned())),
                        dream_edit: None,
                        openseed: Some(OpenSeedDone {
                            creature,
                            action,
                            ok: false,
                            answer: keep.then_some(whole),
                            fetched: None,
                        }),
                        recorded: None,
                        time_index: None,
                        mail: None,
                    }
                }
            };
            let _ = tx.send(outcome);
        });
    }

    fn control(&mut self, app: &mut App, creature: &Path, command: ControlCommand) {
        let name = app
            .creatures
            .get(creature)
            .map_or_else(|| creature.display().to_string(), |u| u.name.clone());
        let what = describe(&command);
        let via = app.creatures.get(creature).map(|u| u.link);
        let paused = app
            .creatures
            .get(creature)
            .is_some_and(|u| u.summary.status == Status::Paused);
        let done = accepted(&name, &command, paused, &app.keymap);
        let tell = {
            let (name, command, keymap) = (name.clone(), command.clone(), app.keymap.clone());
            let creature = creature.to_path_buf();
            move |answer: Option<Answer>| {
                answer.map(|a| {
                    let held = a == Answer::Replaced;
                    about_edit(
                        answered(&name, &command, a, &keymap),
                        &creature,
                        &command,
                        held,
                    )
                })
            }
        };
        match via {
            Some(RunnerLink::Hosted) => {
                let outcomes = self.outcomes.clone();
                let sent = self.hosted.get(creature).is_some_and(|tx| {
                    tx.send(command.clone(), move |answer| {
                        if let Some(outcome) = tell(answer) {
                            let _ = outcomes.send(outcome);
                        }
                    })
                    .is_ok()
                });
                if sent {
                    app.set_notice(done, false);
                } else {
                    let stopped = format!("{name}'s runner has stopped: cannot {what}");
                    app.on_outcome(about_edit(
                        (stopped, true).into(),
                        creature,
                        &command,
                        false,
                    ));
                }
            }
            Some(RunnerLink::Socket) => {
                app.set_notice(format!("asking {name} to {what}…"), false);
                let dir = creature.to_path_buf();
                let tx = self.outcomes.clone();
                tokio::spawn(async move {
                    let outcome = match send_command(&dir, &command).await {
                        Ok(answer) => {
                            let held = answer == Some(Answer::Replaced);
                            let said = tell(answer).unwrap_or_else(|| (done, false).into());
                            about_edit(said, &dir, &command, held)
                        }
                        Err(e) => about_edit(
                            (format!("{name}: cannot {what}: {e}"), true).into(),
                            &dir,
                            &command,
                            false,
                        ),
                    };
                    // The loop may have ended; nobody to tell then.
                    let _ = tx.send(outcome);
                });
            }
            Some(RunnerLink::None) | None => {}
        }
    }

    fn start_search(
        &mut self,
        app: &mut App,
        creature: &Path,
        query: String,
        garden: bool,
        regex: bool,
    ) {
        let (request, owners) = if garden {
            search::request(app.garden.creatures().values(), query, regex)
        } else {
            match app.garden.creature(creature) {
                Some(model) => search::request([model], query, regex),
                None => return,
            }
        };
        app.search.owners = owners;
        self.search = Some(spawn_search(request));
    }

    /// A search is under way: the loop polls it.
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Waits for the search under way to end, then copies its hits (a headless screen,
    /// which has no loop to poll it).
    pub fn finish_search(&mut self, app: &mut App) {
        if let Some(handle) = self.search.as_mut() {
            handle.wait();
        }
        self.poll_search(app);
    }

    /// Copies new hits into the state; the first hit is shown as soon as it is found.
    pub fn poll_search(&mut self, app: &mut App) {
        let Some(handle) = self.search.as_ref() else {
            return;
        };
        if !app.search.running {
            // The search was abandoned (another creature was selected).
            self.search = None;
            return;
        }
        let progress = handle.poll();
        let have = app.search.hits.len();
        let hits = handle.hits(have..progress.hits_stored);
        let errors = if progress.done {
            handle.errors()
        } else {
            Vec::new()
        };
        app.on_search_progress(hits, progress.hits_so_far, progress.done, errors);
        if progress.done {
            self.search = None;
        }
    }

    /// A message for the creature. A runner (hosted, or over its socket) takes it: it
    /// appends it to MESSAGES.md itself and shows it to the creature at once, so appending
    /// here too would write it twice. Otherwise, or when the runner cannot be reached, it
    /// is appended here as a new dated section.
    fn message(&mut self, app: &mut App, creature: &Path, text: String) {
        let control = app.creatures.get(creature).map(|u| u.link);
        if control == Some(RunnerLink::Socket) {
            app.set_notice("sending the message to the runner…", false);
            let dir = creature.to_path_buf();
            let tx = self.outcomes.clone();
            tokio::spawn(async move {
                let command = ControlCommand::Message { text: text.clone() };
                let outcome = match send_command(&dir, &command).await {
                    Ok(_) => Outcome::from((
                        "message sent to the runner, which appends it to MESSAGES.md".to_string(),
                        false,
                    )),
                    Err(e) => match messages::append(&dir, &text, Utc::now()) {
                        Ok(path) => Outcome::from((
                            format!(
                                "the runner did not answer ({e}): message appended to {}",
                                path.display()
                            ),
                            false,
                        )),
                        Err(write) => Outcome {
                            text: format!("message not saved: {e}; {write}"),
                            error: true,
                            undelivered: Some((dir.clone(), text.clone())),
                            dream_edit: None,
                            openseed: None,
                            recorded: None,
                            time_index: None,
                            mail: None,
                        },
                    },
                };
                let _ = tx.send(outcome);
            });
            return;
        }
        let sent = control == Some(RunnerLink::Hosted)
            && self.hosted.get(creature).is_some_and(|tx| {
                tx.send(ControlCommand::Message { text: text.clone() }, |_| {})
                    .is_ok()
            });
        if sent {
            app.set_notice(
                "message sent to the runner, which appends it to MESSAGES.md",
                false,
            );
            return;
        }
        match messages::append(creature, &text, Utc::now()) {
            Ok(path) => {
                let mut notice = format!("message appended to {}", path.display());
                if ignores_messages_file(creature) {
                    notice.push_str(
                        " (OpenSeed creatures since mid-February 2026 do not read it: their orchestrator delivers messages)",
                    );
                }
                app.set_notice(notice, false);
            }
            Err(e) => app.set_notice(format!("message not saved: {e}"), true),
        }
    }
}

/// Appends a pruned line back under today's date, marked as restored, in one write.
fn restore(app: &mut App, creature: &Path, line: &str, now: DateTime<Utc>) {
    let restored = dream_diff::restored_line(line, &now.format("%H:%M").to_string());
    let paths = SeedPaths::new(creature);
    let date = now.format("%Y-%m-%d").to_string();
    match write::append_observations(&paths, &date, std::slice::from_ref(&restored)) {
        Ok(_) => app.set_notice(format!("restored: {}", inert(&restored)), false),
        Err(e) => app.set_notice(format!("not restored: observations.md: {e}"), true),
    }
}

/// What the status line says while an orchestrator's action is under way, and once done.
fn openseed_texts(action: &OpenSeedAction, name: &str) -> (String, String) {
    if let Some(texts) = openseed::texts(action, name) {
        return texts;
    }
    match action {
        OpenSeedAction::Wake => (
            format!("waking {name}…"),
            format!("asked the orchestrator to wake {name}"),
        ),
        OpenSeedAction::Message(_) => (
            format!("sending the message to {name} through the orchestrator…"),
            format!(
                "message delivered to {name} through the OpenSeed orchestrator (it wakes {name})"
            ),
        ),
        OpenSeedAction::Stop => (
            format!("stopping {name}'s container…"),
            format!("{name}'s container stopped"),
        ),
        _ => (
            format!("starting {name}'s container…"),
            format!("{name}'s container started"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use crate::memory::cycle::Cycle;

    #[test]
    fn a_paused_creature_is_said_to_keep_sleep_and_wake_until_resumed() {
        let keymap = Keymap::default();
        assert_eq!(
            accepted("sprout", &ControlCommand::ForceSleep, false, &keymap),
            "asked sprout to sleep now"
        );
        assert_eq!(
            accepted("sprout", &ControlCommand::ForceSleep, true, &keymap),
            "sprout is paused: it will sleep now once resumed (p)"
        );
        assert_eq!(
            accepted("sprout", &ControlCommand::Wake, true, &keymap),
            "sprout is paused: it will wake up once resumed (p)"
        );
        assert_eq!(
            accepted("sprout", &ControlCommand::Resume, true, &keymap),
            "asked sprout to resume"
        );
    }

    /// The key that resumes is the one bound now, or none is named.
    #[test]
    fn the_resume_key_named_is_the_bound_one() {
        let mut keymap = Keymap::default();
        let rebind = |name: &str| {
            std::collections::BTreeMap::from([(
                "pause_resume".to_string(),
                crate::ui::input::keymap::KeyNames::Many(
                    [name]
                        .iter()
                        .filter(|n| !n.is_empty())
                        .map(|n| n.to_string())
                        .collect(),
                ),
            )])
        };
        assert!(keymap.patch(&rebind("f6")).is_empty());
        assert_eq!(
            accepted("sprout", &ControlCommand::Wake, true, &keymap),
            "sprout is paused: it will wake up once resumed (F6)"
        );
        assert!(keymap.patch(&rebind("")).is_empty());
        assert_eq!(
            accepted("sprout", &ControlCommand::Wake, true, &keymap),
            "sprout is paused: it will wake up once resumed"
        );
    }

    use chrono::TimeZone;

    use super::*;
    use crate::ui::headless::Headless;
    use crate::ui::state::Settings;
    use crate::ui::theme::Theme;

    /// Two minimal creatures, `hosted` and `watched`, the first hosted.
    fn setup() -> (tempfile::TempDir, Headless, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let hosted = dir.path().join("hosted");
        let watched = dir.path().join("watched");
        for c in [&hosted, &watched] {
            std::fs::create_dir_all(c.join(".self")).unwrap();
        }
        let screen = Headless::open_hosting(
            &[dir.path().to_path_buf()],
            BTreeMap::from([(hosted.clone(), Cycle::default())]),
            Settings::with_theme(Theme::default()),
            Utc.with_ymd_and_hms(2026, 11, 22, 18, 0, 0).unwrap(),
            80,
            24,
        )
        .unwrap();
        (dir, screen, hosted, watched)
    }

    #[test]
    fn hosted_creatures_get_commands_and_messages_through_their_runner() {
        let (_dir, mut screen, hosted, _) = setup();
        let (tx, mut rx) = ControlSender::channel();
        let (outcomes, mut told) = mpsc::unbounded_channel();
        let mut jobs = Jobs::new(HashMap::from([(hosted.clone(), tx)]), outcomes);
        jobs.perform(
            &mut screen.app,
            Job::Control {
                creature: hosted.clone(),
                command: ControlCommand::ForceSleep,
            },
        );
        let request = rx.try_recv().unwrap();
        assert_eq!(request.command, ControlCommand::ForceSleep);
        // The runner's answer becomes the status line.
        let until = Utc.with_ymd_and_hms(2026, 11, 22, 12, 4, 0).unwrap();
        (request.answer)(Some(Answer::AlreadyAsleep { until }));
        assert_eq!(
            told.try_recv().unwrap(),
            Outcome::from((
                "hosted is already asleep until 12:04: w wakes it first".to_string(),
                false
            ))
        );
        jobs.perform(
            &mut screen.app,
            Job::AppendMessage {
                creature: hosted.clone(),
                text: "hello".into(),
            },
        );
        assert_eq!(
            rx.try_recv().ok().map(|r| r.command),
            Some(ControlCommand::Message {
                text: "hello".into()
            })
        );
        // The runner appends it: not written here as well.
        assert!(!messages::path(&hosted).exists());

        // A runner that has gone: the command fails plainly, the message is kept on disk.
        drop(rx);
        jobs.perform(
            &mut screen.app,
            Job::Control {
                creature: hosted.clone(),
                command: ControlCommand::Wake,
            },
        );
        assert!(screen.app.notice.as_ref().is_some_and(|n| n.error));
        jobs.perform(
            &mut screen.app,
            Job::AppendMessage {
                creature: hosted.clone(),
                text: "still there?".into(),
            },
        );
        let text = std::fs::read_to_string(messages::path(&hosted)).unwrap();
        assert!(text.contains("still there?"));
    }

    #[test]
    fn watched_creatures_get_messages_appended_here() {
        let (_dir, mut screen, _, watched) = setup();
        let (outcomes, _) = mpsc::unbounded_channel();
        let mut jobs = Jobs::new(HashMap::new(), outcomes);
        jobs.perform(
            &mut screen.app,
            Job::AppendMessage {
                creature: watched.clone(),
                text: "hi there".into(),
            },
        );
        let text = std::fs::read_to_string(messages::path(&watched)).unwrap();
        assert!(text.ends_with("\n\nhi there\n"), "{text}");
        let notice = screen.app.notice.clone().unwrap();
        assert!(!notice.error && notice.text.contains("MESSAGES.md"));
    }
}
