//! The offline rehearsal brain: a deterministic stand-in for a model, clearly labelled as
//! such, that walks a creature through every path of the cycle without a key or network.
//!
//! It answers every request from its [`Task`]'s data, never from the prompt's text:
//! - creature turns with a scripted session: harmless commands in the creature's own
//!   directory (`ls`, `cat PURPOSE.md`, notes in `workspace/`), one command that fails,
//!   reading `MESSAGES.md` when the creator wrote, then a nap or a sleep. Every seventh
//!   session is a marathon of commands that ignores the fatigue warning, so the runner
//!   forces consolidation at the limit;
//! - consolidation prompts in the real `OBSERVATIONS:`/`REFLECTION:`/`PRIORITY:` format,
//!   in four layouts in turn (exact, markdown bullets, emoji tags, lowercase with a
//!   missing section) to exercise the tolerant reader;
//! - pruning prompts with the pruned file (GRN past the age limit and repeated YLW/GRN
//!   lines go; it also drops the oldest RED line, which the runner must put back);
//! - priorities prompts with numbered lines.

use std::sync::Mutex;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use serde_json::json;

use super::rehearsal_emergence::{self, EmergenceScript};
use super::rehearsal_evennia::{self, EvenniaScript};
use super::rehearsal_garden;
use super::task::{self, Task};
use super::{Brain, BrainKind};
use crate::llm::{ContentBlock, LlmFuture, Request, Response, StopReason};
use crate::memory::observations::{ObsItem, Priority, parse_item};
use crate::runner::activity::clip;
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

#[derive(Debug, Default)]
pub struct Rehearsal {
    script: Mutex<Script>,
    evennia: Mutex<EvenniaScript>,
    emergence: Mutex<EmergenceScript>,
}

#[derive(Debug, Default)]
struct Script {
    session: u64,
    step: u64,
    calls: u64,
    creator: Option<String>,
}

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
            Task::Turn(turn) if turn.tools.iter().any(|t| t == "add_journal_entry") => {
                let mut script = self.evennia.lock().unwrap_or_else(|e| e.into_inner());
                let (say, calls) = script.turn(turn);
                scripted(say, calls, || script.call_id())
            }
            Task::Turn(turn) if turn.tools.iter().any(|t| t == "add_soul_entry") => {
                let mut script = self.emergence.lock().unwrap_or_else(|e| e.into_inner());
                let (say, calls) = script.turn(turn);
                scripted(say, calls, || script.call_id())
            }
            Task::Turn(turn) => {
                let mut script = self.script.lock().unwrap_or_else(|e| e.into_inner());
                script.turn(turn)
            }
            Task::Consolidate(c) => text(consolidate(c)),
            Task::Prune(p) => text(prune(p)),
            Task::Priorities(p) => text(priorities(p)),
            Task::Compact(c) => text(rehearsal_evennia::summary(c)),
            Task::ScoreImportance(s) => text(rehearsal_evennia::scores(s)),
            Task::ExtractFacts(f) => text(rehearsal_evennia::facts(f)),
            Task::ConsolidateEntity(e) => text(rehearsal_evennia::attributes(e)),
            Task::Reflect(r) => text(rehearsal_evennia::reflection(r)),
            Task::Summarize(s) => text(rehearsal_emergence::summary(s)),
        }
    }
}

/// A scripted turn: what the creature says, then its tool calls (ids from `call_id`).
fn scripted(
    say: Option<String>,
    calls: Vec<(String, serde_json::Value)>,
    mut call_id: impl FnMut() -> String,
) -> Response {
    let mut content: Vec<ContentBlock> = say
        .map(|t| ContentBlock::Text { text: t })
        .into_iter()
        .collect();
    for (name, input) in calls {
        content.push(ContentBlock::ToolUse {
            id: call_id(),
            name,
            input,
        });
    }
    let stop_reason = if content
        .iter()
        .any(|b| matches!(b, ContentBlock::ToolUse { .. }))
    {
        StopReason::ToolUse
    } else {
        StopReason::EndTurn
    };
    Response {
        content,
        stop_reason,
        usage: None,
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
        }
        if let Some(words) = creator_words(&turn.creator_messages) {
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

fn consolidate(task: &task::Consolidate) -> String {
    let hhmm = task.hhmm.as_str();
    let dream = task.dream_number;
    let total = task.activity.total;
    // (ok, command, summary) of the actions kept in detail.
    let acts: Vec<(bool, String, String)> = task
        .activity
        .actions
        .iter()
        .map(|a| {
            let cmd = a
                .command
                .as_deref()
                .map(|c| clip(c, 100))
                .unwrap_or_default();
            (a.ok, cmd.replace('\n', " "), a.summary.clone())
        })
        .collect();
    let failed: Vec<&(bool, String, String)> = acts.iter().filter(|a| !a.0).collect();
    let ok = acts.len() - failed.len();
    let creator: Vec<String> = task
        .activity
        .creator_messages
        .iter()
        .map(|m| m.trim().to_string())
        .collect();
    let mut obs: Vec<(Priority, String)> = Vec::new();
    for m in &creator {
        obs.push((
            Priority::Red,
            format!("Creator directive: {}", m.replace('\n', " ")),
        ));
    }
    if dream % 4 == 1 {
        obs.push((
            Priority::Red,
            "WORKFLOW: check MESSAGES.md after every wake".into(),
        ));
    }
    let mut seen = Vec::new();
    for (_, cmd, summary) in &failed {
        if seen.contains(&cmd) || seen.len() == 2 {
            continue;
        }
        seen.push(cmd);
        let why = if summary.is_empty() {
            "no output"
        } else {
            summary
        };
        obs.push((Priority::Ylw, format!("`{cmd}` fails: {why}")));
    }
    if let Some((_, cmd, _)) = acts.iter().find(|a| a.0) {
        obs.push((
            Priority::Grn,
            format!("{ok} commands went through, e.g. `{cmd}`"),
        ));
    }
    if total >= 60 {
        obs.push((
            Priority::Ylw,
            format!("Ran {total} commands in one stretch; fatigue forced a rest"),
        ));
    }
    let reflection = format!(
        "Dream {dream}: {total} actions, {} failed. {}",
        failed.len(),
        if failed.is_empty() {
            "A clean stretch; the notes grow steadily."
        } else {
            "Some commands keep failing because what they look for does not exist yet."
        }
    );
    let priority = PRIORITIES_LIST[(dream as usize) % PRIORITIES_LIST.len()];
    let tag = |p: Priority| p.tag();
    match dream % 4 {
        0 => {
            let lines: Vec<String> = obs
                .iter()
                .map(|(p, t)| format!("{} {hhmm} {t}", tag(*p)))
                .collect();
            format!(
                "OBSERVATIONS:\n{}\n\nREFLECTION:\n{reflection}\n\nPRIORITY:\n{priority}\n",
                lines.join("\n")
            )
        }
        1 => {
            let lines: Vec<String> = obs
                .iter()
                .map(|(p, t)| format!("- {} {hhmm} {t}", tag(*p)))
                .collect();
            format!(
                "Here is what I took from this stretch.\n\n## Observations\n{}\n\n## Reflection\n{reflection}\n\n## Priority\n- {priority}\n",
                lines.join("\n")
            )
        }
        2 => {
            let emoji = |p: Priority| match p {
                Priority::Red => "🔴",
                Priority::Ylw => "🟡",
                Priority::Grn => "🟢",
            };
            let lines: Vec<String> = obs
                .iter()
                .map(|(p, t)| format!("{} {t}", emoji(*p)))
                .collect();
            format!(
                "**Observations:**\n{}\n\n**Reflection:** {reflection}\n\n**Priority:** {priority}\n",
                lines.join("\n")
            )
        }
        _ => {
            let lines: Vec<String> = obs
                .iter()
                .map(|(p, t)| format!("{} {hhmm} {t}", tag(*p).to_ascii_lowercase()))
                .collect();
            format!(
                "observations:\n{}\n\nreflection:\n{reflection}\nWhen I wake: {priority}\n",
                lines.join("\n")
            )
        }
    }
}

const PRIORITIES_LIST: [&str; 4] = [
    "Write a weekly summary to workspace/summary.md.",
    "Stop retrying the commands that keep failing.",
    "Check MESSAGES.md and act on it.",
    "Keep workspace/notes.md short and current.",
];

fn prune(task: &task::Prune) -> String {
    let file = task.observations.as_str();
    let cutoff = task.grn_cutoff();
    let lines: Vec<&str> = file.lines().collect();
    let mut date: Option<NaiveDate> = None;
    let mut keep = vec![true; lines.len()];
    let mut oldest_red = None;
    for (i, line) in lines.iter().enumerate() {
        match parse_item(line) {
            None => {}
            Some(ObsItem::Title) => {}
            Some(ObsItem::Header { date: d, .. }) => {
                date = NaiveDate::parse_from_str(d.get(..10).unwrap_or(""), "%Y-%m-%d").ok();
            }
            Some(ObsItem::Prose(_)) => keep[i] = false,
            Some(ObsItem::Observation(o)) => {
                let at: Option<DateTime<Utc>> = date
                    .zip(
                        o.time
                            .as_deref()
                            .and_then(|t| NaiveTime::parse_from_str(t, "%H:%M").ok()),
                    )
                    .map(|(d, t)| d.and_time(t).and_utc());
                let repeated = lines[i + 1..].iter().any(|later| {
                    matches!(parse_item(later), Some(ObsItem::Observation(l)) if l.priority == o.priority && l.text == o.text)
                });
                match o.priority {
                    Priority::Red => {
                        oldest_red.get_or_insert(i);
                    }
                    Priority::Ylw => keep[i] = !repeated,
                    Priority::Grn => keep[i] = !repeated && at.is_none_or(|t| t >= cutoff),
                }
            }
        }
    }
    if let Some(i) = oldest_red {
        keep[i] = false;
    }
    let mut out: Vec<&str> = lines
        .iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(*l))
        .collect();
    out.dedup_by(|a, b| a.trim().is_empty() && b.trim().is_empty());
    out.join("\n")
}

fn priorities(task: &task::Priorities) -> String {
    let mut items: Vec<String> = Vec::new();
    for p in &task.dream_priorities {
        let p = p.trim().to_string();
        if !p.is_empty() && !items.contains(&p) {
            items.push(p);
        }
    }
    items.reverse();
    for p in PRIORITIES_LIST {
        if items.len() >= 4 {
            break;
        }
        if !items.iter().any(|i| i == p) {
            items.push(p.to_string());
        }
    }
    items
        .iter()
        .take(4)
        .enumerate()
        .map(|(i, p)| format!("{}. {p}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::genomes::dreamer::runner::consolidation;
    use crate::genomes::dreamer::runner::deep_sleep;
    use crate::memory::time::parse_time;
    use crate::runner::activity::Activity;
    use chrono::TimeDelta;

    fn text_of(r: &Response) -> &str {
        let ContentBlock::Text { text } = &r.content[0] else {
            panic!("text expected")
        };
        text
    }

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
    fn consolidation_answers_parse_in_every_layout() {
        let mut a = Activity::default();
        for (ok, cmd) in [(true, "ls"), (false, "cat workspace/forecast.json")] {
            a.push_action(crate::memory::iterations::IterationAction {
                tool: "bash".into(),
                ok,
                summary: if ok {
                    "a".into()
                } else {
                    "Error: exit code 1".into()
                },
                ms: 1,
                command: Some(cmd.into()),
            });
        }
        a.creator_messages.push("be brief".into());
        for n in 1..=4 {
            let task = Task::Consolidate(task::Consolidate {
                hhmm: "11:22".into(),
                dream_number: n,
                activity: a.clone(),
            });
            let answer = Rehearsal::new().answer(&task);
            let c = consolidation::parse(text_of(&answer), "11:22").unwrap();
            assert!(
                c.observations
                    .contains(&"RED 11:22 Creator directive: be brief".to_string()),
                "layout {n}: {:?}",
                c.observations
            );
            assert!(
                c.observations
                    .iter()
                    .any(|o| o.starts_with("YLW 11:22 `cat workspace/forecast.json` fails")),
                "layout {n}"
            );
            assert!(
                c.reflection
                    .starts_with(&format!("Dream {n}: 2 actions, 1 failed.")),
                "layout {n}: {}",
                c.reflection
            );
            assert_eq!(c.priority, PRIORITIES_LIST[n as usize % 4], "layout {n}");
        }
    }

    #[test]
    fn pruning_drops_old_green_repeats_and_the_oldest_red() {
        let file = "# Observations\n\n## 2026-03-01\n\nRED 09:00 first red\nGRN 09:00 old green\nYLW 09:00 repeated\n\n## 2026-03-03\n\nRED 10:00 second red\nYLW 10:00 repeated\nGRN 11:00 fresh green\nsome prose\n";
        let now = parse_time("2026-03-03T12:00:00Z").unwrap();
        let task = Task::Prune(task::Prune {
            observations: file.into(),
            now,
            grn_max_age_h: 48.0,
            speed: 1.0,
        });
        let answer = Rehearsal::new().answer(&task);
        let text = text_of(&answer);
        assert_eq!(
            text,
            "# Observations\n\n## 2026-03-01\n\n## 2026-03-03\n\nRED 10:00 second red\nYLW 10:00 repeated\nGRN 11:00 fresh green"
        );
        let applied = deep_sleep::apply_prune(file, text).unwrap();
        assert_eq!(applied.red_restored, 1, "the runner puts the red line back");
    }

    #[test]
    fn priorities_come_from_recent_dreams() {
        let d = crate::memory::dreams::Dream::parse(
            br#"{"t":"2026-03-01T10:00:00Z","reflection":"r","priority":"Fix the parser."}"#,
        )
        .unwrap();
        let task = Task::Priorities(task::Priorities {
            dream_priorities: vec![d.priority.clone()],
        });
        let answer = Rehearsal::new().answer(&task);
        let items = deep_sleep::parse_priorities(text_of(&answer), &[]).unwrap();
        assert_eq!(items[0], "Fix the parser.");
        assert_eq!(items.len(), 4);
    }

    #[test]
    fn labelled_as_rehearsal() {
        assert!(Rehearsal::new().label().contains("rehearsal"));
        assert_eq!(Rehearsal::new().kind(), BrainKind::Rehearsal);
    }

    /// `--speed 60`: 48 creature hours are 48 minutes of the wall clock, the clock the
    /// observation lines are stamped with.
    #[test]
    fn pruning_ages_green_lines_on_the_creatures_clock() {
        let file = "# Observations\n\n## 2026-03-03\n\nGRN 11:00 an hour old\nGRN 11:20 forty minutes old\nRED 11:30 kept\n";
        let now = parse_time("2026-03-03T12:00:00Z").unwrap();
        let prune = |speed: f64| {
            let task = Task::Prune(task::Prune {
                observations: file.into(),
                now,
                grn_max_age_h: 48.0,
                speed,
            });
            text_of(&Rehearsal::new().answer(&task)).to_string()
        };
        let fast = prune(60.0);
        assert!(!fast.contains("an hour old"), "{fast}");
        assert!(fast.contains("forty minutes old"), "{fast}");
        let real = prune(1.0);
        assert!(real.contains("an hour old") && real.contains("forty minutes old"));
        assert_eq!(
            now - TimeDelta::minutes(48),
            task::Prune {
                observations: String::new(),
                now,
                grn_max_age_h: 48.0,
                speed: 60.0,
            }
            .grn_cutoff()
        );
    }
}
