//! The offline rehearsal brain: a deterministic stand-in for a model, clearly labelled as
//! such, that walks a creature through every path of the cycle without a key or network.
//!
//! It answers every request from its [`Task`]'s data, never from the prompt's text:
//! - creature turns with the genome's own script ([`TurnScript`]), or else the shared
//!   one: a scripted session of harmless commands in the creature's own directory (`ls`,
//!   `cat PURPOSE.md`, notes in `workspace/`), one command that fails, reading
//!   `MESSAGES.md` when the creator wrote, then a nap or a sleep. Every seventh session is
//!   a marathon of commands that ignores the fatigue warning, so the runner forces
//!   consolidation at the limit. A creator who writes [`STUBBORN`] has it retry the
//!   session's failing command turn after turn (a loop, for the guardrails to catch);
//! - compactions with a summary of how many messages went;
//! - a genome's own requests with the answer the genome gives ([`GenomeTask::rehearse`]).

use std::sync::Mutex;

use serde_json::json;

use super::rehearsal_garden;
use super::script::{ScriptedTurns, TurnScript};
use super::task::{self, Task};
use super::{Brain, BrainKind};
use crate::llm::{ContentBlock, LlmFuture, Request, Response, StopReason};
use crate::runner::mail::SEND_MESSAGE;

pub const LABEL: &str = "rehearsal (offline demo brain)";
/// What BIRTH.json records as the model.
pub const MODEL: &str = crate::memory::identity::REHEARSAL_MODEL;

/// Sessions between marathons (the first is session 3).
const MARATHON_EVERY: u64 = 7;
/// Bash calls per marathon turn.
const MARATHON_BATCH: usize = 8;
/// A marathon gives up after this many turns if the runner never forces sleep.
const MARATHON_TURNS: u64 = 40;

#[derive(Default)]
pub struct Rehearsal {
    /// The shared script.
    script: Mutex<Script>,
    /// The genomes' own scripts, by [`TurnScript::name`], made at their first turn.
    genomes: Mutex<Vec<(&'static str, Box<dyn ScriptedTurns>)>>,
}

#[derive(Debug, Default)]
struct Script {
    session: u64,
    step: u64,
    calls: u64,
    creator: Option<String>,
    /// The creator asked for [`STUBBORN`]: this session retries its failing command.
    stubborn: bool,
}

/// What a creator writes to have the rehearsal retry a failing command, again and again.
pub const STUBBORN: &str = "retry until it works";

impl Rehearsal {
    pub fn new() -> Self {
        Self::default()
    }

    /// The answer to a request made for `task`: the task alone decides it.
    pub fn answer(&self, task: &Task) -> Response {
        let text = |t: String| Response {
            content: vec![ContentBlock::Text { text: t }],
            stop_reason: StopReason::EndTurn,
            usage: None,
        };
        match task {
            Task::Turn(turn) => match turn.script {
                Some(script) => self.genome_turn(script, turn),
                None => {
                    let mut script = self.script.lock().unwrap_or_else(|e| e.into_inner());
                    script.turn(turn)
                }
            },
            Task::Compact(c) => text(compaction_summary(c)),
            Task::Genome(g) => text(g.rehearse()),
        }
    }

    /// A turn of the genome's own script (made at its first turn).
    fn genome_turn(&self, script: TurnScript, turn: &task::Turn) -> Response {
        let mut genomes = self.genomes.lock().unwrap_or_else(|e| e.into_inner());
        let at = match genomes.iter().position(|(name, _)| *name == script.name) {
            Some(at) => at,
            None => {
                genomes.push((script.name, (script.new)()));
                genomes.len() - 1
            }
        };
        genomes[at].1.turn(turn)
    }
}

/// The summary of a compaction: how many messages went, and what the scripts did.
fn compaction_summary(t: &task::Compact) -> String {
    format!(
        "You worked through {} messages: you kept your journal, noted what wren and your \
         creator did, recalled memories and read long files. Pending: answer wren.",
        t.messages
    )
}

impl std::fmt::Debug for Rehearsal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rehearsal").finish_non_exhaustive()
    }
}

impl Brain for Rehearsal {
    fn kind(&self) -> BrainKind {
        BrainKind::Rehearsal
    }

    fn label(&self) -> String {
        LABEL.into()
    }

    fn priced_as(&self) -> String {
        crate::memory::usage::REHEARSAL.into()
    }

    fn think<'a>(&'a self, task: &'a Task, _request: &'a Request) -> LlmFuture<'a> {
        let response = self.answer(task);
        Box::pin(async move { Ok(response) })
    }
}

/// The creator's words, headings left out, on one line.
fn creator_words(messages: &[String]) -> Option<String> {
    let words: Vec<&str> = messages
        .iter()
        .flat_map(|m| m.lines())
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    Some(words.join(" ")).filter(|s| !s.is_empty())
}

/// Text safe inside single quotes in a shell command, on one line.
fn shell_safe(s: &str, max: usize) -> String {
    s.chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|c| c.is_alphanumeric() || " .,:;!?-_/()".contains(*c))
        .take(max)
        .collect()
}

impl Script {
    fn turn(&mut self, turn: &task::Turn) -> Response {
        if turn.woke || self.session == 0 {
            self.session += 1;
            self.step = 0;
            self.stubborn = false;
        }
        if let Some(words) = creator_words(&turn.creator_messages) {
            self.stubborn |= words.contains(STUBBORN);
            self.creator = Some(words);
        }
        self.step += 1;
        let (text, mut calls) = if self.session % MARATHON_EVERY == 3 {
            self.marathon()
        } else {
            self.work()
        };
        let said = rehearsal_garden::message(turn, self.session, self.step);
        calls.extend(said.iter().map(|(_, input)| (SEND_MESSAGE, input.clone())));
        let mut content = Vec::new();
        if let Some(t) = text {
            content.push(ContentBlock::Text { text: t });
        }
        for (name, input) in calls {
            self.calls += 1;
            content.push(ContentBlock::ToolUse {
                id: format!("toolu_rehearsal_{:05}", self.calls),
                name: name.into(),
                input,
            });
        }
        Response {
            content,
            stop_reason: StopReason::ToolUse,
            usage: None,
        }
    }

    fn work(&mut self) -> (Option<String>, Vec<(&'static str, serde_json::Value)>) {
        let s = self.session;
        let bash = |c: String| vec![("bash", json!({ "command": c }))];
        match self.step {
            1 => (
                Some(format!(
                    "Rehearsal brain, session {s}: awake. Looking around."
                )),
                bash("ls -a".into()),
            ),
            2 => (None, bash("cat PURPOSE.md".into())),
            3 => match self.creator.take() {
                Some(words) => (
                    Some(format!(
                        "My creator wrote: \"{}\". Reading MESSAGES.md and noting it.",
                        shell_safe(&words, 80)
                    )),
                    bash(format!(
                        "tail -n 5 MESSAGES.md && mkdir -p workspace && echo 'creator asked: {}' >> workspace/notes.md",
                        shell_safe(&words, 80)
                    )),
                ),
                None => (
                    Some("Writing a note about this session.".into()),
                    bash(format!(
                        "mkdir -p workspace && echo 'session {s}: {}' >> workspace/notes.md && wc -l workspace/notes.md",
                        NOTES[(s as usize) % NOTES.len()]
                    )),
                ),
            },
            4 => (
                Some("Checking something that may not be there.".into()),
                bash(FAILING[(s as usize) % FAILING.len()].into()),
            ),
            n if self.stubborn && n <= MARATHON_TURNS => (
                Some("It failed. Trying again: it must work this time.".into()),
                bash(FAILING[(s as usize) % FAILING.len()].into()),
            ),
            _ => {
                let secs = if s % 3 == 2 { 10 } else { 300 };
                (
                    Some(if secs < 30 {
                        "A short nap before going on.".into()
                    } else {
                        "Done for now. Resting so this can settle into memory.".into()
                    }),
                    vec![("set_sleep", json!({ "seconds": secs }))],
                )
            }
        }
    }

    fn marathon(&mut self) -> (Option<String>, Vec<(&'static str, serde_json::Value)>) {
        if self.step > MARATHON_TURNS {
            return (
                Some("That was a long stretch. Resting.".into()),
                vec![("set_sleep", json!({ "seconds": 300 }))],
            );
        }
        let text = (self.step == 1).then(|| {
            format!(
                "Rehearsal brain, session {}: a long stretch of work. I'll keep going until I drop.",
                self.session
            )
        });
        let calls = (0..MARATHON_BATCH)
            .map(|i| {
                let cmd = MARATHON[(self.step as usize * MARATHON_BATCH + i) % MARATHON.len()];
                ("bash", json!({ "command": cmd }))
            })
            .collect();
        (text, calls)
    }
}

const NOTES: [&str; 4] = [
    "the directory is small and tidy",
    "notes.md keeps growing one line a session",
    "naps are short pauses, sleeps consolidate",
    "MESSAGES.md is where my creator writes",
];

const FAILING: [&str; 4] = [
    "cat workspace/forecast.json",
    "ls workspace/archive",
    "grep -q 'weekly summary' workspace/notes.md",
    "test -s workspace/summary.md",
];

const MARATHON: [&str; 10] = [
    "wc -l workspace/notes.md",
    "ls workspace",
    "date -u +%H:%M:%S",
    "head -n 1 PURPOSE.md",
    "test -d workspace",
    "du -sk workspace",
    "printf 'tick\\n'",
    "tail -n 1 workspace/notes.md",
    "ls -a .self",
    "echo still going",
];

#[cfg(test)]
mod tests {
    use super::*;
    /// The first turn after a wake, with the creator's messages.
    fn woke(creator: &[&str]) -> Task {
        Task::Turn(task::Turn {
            woke: true,
            creator_messages: creator.iter().map(|m| m.to_string()).collect(),
            ..task::Turn::default()
        })
    }

    /// A turn after tool results: nothing new.
    fn results() -> Task {
        Task::Turn(task::Turn::default())
    }

    fn tools_of(r: &Response) -> Vec<String> {
        r.content
            .iter()
            .filter_map(|b| match b {
                ContentBlock::ToolUse { name, input, .. } => Some(format!("{name} {}", input)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_work_session_ends_in_sleep_and_reads_the_creator() {
        let brain = Rehearsal::new();
        let mut r = brain.answer(&woke(&["be brief"]));
        assert!(tools_of(&r)[0].contains("ls -a"));
        let mut all = Vec::new();
        for _ in 0..6 {
            all.extend(tools_of(&r));
            if all.last().is_some_and(|t| t.starts_with("set_sleep")) {
                break;
            }
            r = brain.answer(&results());
        }
        assert!(all.iter().any(|t| t.contains("cat PURPOSE.md")));
        assert!(
            all.iter()
                .any(|t| t.contains("forecast.json") || t.contains("archive"))
        );
        assert!(all.last().unwrap().starts_with("set_sleep"));
        // The creator's message in a wake-up is read from MESSAGES.md.
        let r = brain.answer(&woke(&["## Today\nwrite a\nsummary\n"]));
        assert!(tools_of(&r)[0].contains("ls -a"));
        brain.answer(&results());
        let r = brain.answer(&results());
        assert!(
            tools_of(&r)[0].contains("tail -n 5 MESSAGES.md"),
            "{:?}",
            tools_of(&r)
        );
        assert!(tools_of(&r)[0].contains("creator asked: write a summary"));
    }

    #[test]
    fn the_third_session_is_a_marathon() {
        let brain = Rehearsal::new();
        for _ in 0..3 {
            brain.answer(&woke(&[]));
        }
        let r = brain.answer(&results());
        assert_eq!(tools_of(&r).len(), MARATHON_BATCH);
        assert!(tools_of(&r).iter().all(|t| t.starts_with("bash")));
    }

    #[test]
    fn labelled_as_rehearsal() {
        assert!(Rehearsal::new().label().contains("rehearsal"));
        assert_eq!(Rehearsal::new().kind(), BrainKind::Rehearsal);
    }
}
