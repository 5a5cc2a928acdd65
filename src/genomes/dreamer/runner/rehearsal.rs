//! The rehearsal brain's answers to the dreamer's requests, from their data alone:
//! - consolidation in the real `OBSERVATIONS:`/`REFLECTION:`/`PRIORITY:` format, in four
//!   layouts in turn (exact, markdown bullets, emoji tags, lowercase with a missing
//!   section) to exercise the tolerant reader;
//! - pruning with the pruned file (GRN past the age limit and repeated YLW/GRN lines go,
//!   and the oldest GRN line of a file holding more than [`GRN_KEPT`], as a model asked to
//!   keep the file lean would: so a fast demo's deep sleeps prune, and Restore can be
//!   tried; it also drops the oldest RED line, which the runner must put back);
//! - priorities with numbered lines.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};

use super::tasks::{Consolidate, Priorities, Prune};
use crate::memory::observations::{ObsItem, Priority, parse_item};
use crate::runner::activity::clip;

pub(super) fn consolidate(task: &Consolidate) -> String {
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

/// GRN lines a pruned file keeps at most before its oldest goes.
const GRN_KEPT: usize = 4;

pub(super) fn prune(task: &Prune) -> String {
    let file = task.observations.as_str();
    let keep_from = task.keep_from();
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
                    Priority::Grn => keep[i] = !repeated && at.is_none_or(|t| t >= keep_from),
                }
            }
        }
    }
    if let Some(i) = oldest_red {
        keep[i] = false;
    }
    let green: Vec<usize> = (0..lines.len())
        .filter(|&i| {
            keep[i]
                && matches!(parse_item(lines[i]), Some(ObsItem::Observation(o)) if o.priority == Priority::Grn)
        })
        .collect();
    if green.len() > GRN_KEPT
        && let Some(&oldest) = green.first()
    {
        keep[oldest] = false;
    }
    let mut out: Vec<&str> = lines
        .iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(*l))
        .collect();
    out.dedup_by(|a, b| a.trim().is_empty() && b.trim().is_empty());
    out.join("\n")
}

pub(super) fn priorities(task: &Priorities) -> String {
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
    use crate::llm::{ContentBlock, Response};
    use crate::memory::time::parse_time;
    use crate::runner::activity::Activity;
    use crate::runner::brain::rehearsal::Rehearsal;
    use crate::runner::brain::task::Task;
    use chrono::TimeDelta;

    fn text_of(r: &Response) -> &str {
        let ContentBlock::Text { text } = &r.content[0] else {
            panic!("text expected")
        };
        text
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
            let task = Task::genome(Consolidate {
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
        let task = Task::genome(Prune {
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
        let task = Task::genome(Priorities {
            dream_priorities: vec![d.priority.clone()],
        });
        let answer = Rehearsal::new().answer(&task);
        let items = deep_sleep::parse_priorities(text_of(&answer), &[]).unwrap();
        assert_eq!(items[0], "Fix the parser.");
        assert_eq!(items.len(), 4);
    }

    /// A file of fresh GRN lines, more than a pruned file keeps: the oldest goes.
    #[test]
    fn a_file_rich_in_green_loses_its_oldest_green_line() {
        let greens: String = (0..6).map(|m| format!("GRN 11:0{m} note {m}\n")).collect();
        let file = format!(
            "# Observations\n\n## 2026-03-03\n\nRED 11:00 kept\nRED 11:01 also kept\n{greens}"
        );
        let task = Prune {
            observations: file.clone(),
            now: "2026-03-03T11:30:00Z".parse().unwrap(),
            grn_max_age_h: 48.0,
            speed: 60.0,
        };
        let answer = prune(&task);
        assert!(!answer.contains("GRN 11:00 note 0"), "{answer}");
        assert!(answer.contains("GRN 11:01 note 1"), "{answer}");
        let applied = deep_sleep::apply_prune(&file, &answer).unwrap();
        assert_eq!(applied.red_restored, 1, "the oldest RED is put back");
    }

    /// `--speed 60`: 48 creature hours are 48 minutes of the wall clock, the clock the
    /// observation lines are stamped with.
    #[test]
    fn pruning_ages_green_lines_on_the_creatures_clock() {
        let file = "# Observations\n\n## 2026-03-03\n\nGRN 11:00 an hour old\nGRN 11:20 forty minutes old\nRED 11:30 kept\n";
        let now = parse_time("2026-03-03T12:00:00Z").unwrap();
        let prune = |speed: f64| {
            let task = Task::genome(Prune {
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
            Prune {
                observations: String::new(),
                now,
                grn_max_age_h: 48.0,
                speed: 60.0,
            }
            .grn_cutoff()
        );
    }
}
