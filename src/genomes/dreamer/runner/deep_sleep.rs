//! Deep sleep: pruning `observations.md` (the model decides, the code guarantees that every
//! RED line survives), rewriting `priorities.md`, and the diary entry.

use chrono::{DateTime, Utc};

use crate::llm::{Message, Request};
use crate::memory::documents::strip_list_marker;
use crate::memory::dreams::Dream;
use crate::memory::observations::{ObsItem, Observation, Priority, parse_item};
use crate::memory::time::format_time;

use crate::runner::activity::clip;

pub const PRUNE_PREFIX: &str = "You are the reflector, pruning the observations file";
pub const PRIORITIES_PREFIX: &str = "You are choosing the priorities of an autonomous creature";

/// The pruning request. `cutoff` is the first minute a GRN line may be stamped with and
/// stay (lines are stamped to the minute; at a high `--speed` the age limit is less
/// than a minute of the wall clock, so it is said as a stamp, not only in hours).
pub fn prune_request(
    observations: &str,
    now: DateTime<Utc>,
    grn_max_age_h: f64,
    cutoff: DateTime<Utc>,
) -> Request {
    let keep_from = cutoff.format("%Y-%m-%d %H:%M");
    let system = format!(
        "{PRUNE_PREFIX} of an autonomous creature during deep sleep.\n\n\
         Rules:\n\
         - NEVER remove RED lines.\n\
         - Remove GRN lines older than {grn_max_age_h} hours: those stamped before {keep_from} (a line's stamp is its date header and its HH:MM).\n\
         - Remove YLW lines superseded by newer observations (a problem later solved, a state later changed).\n\
         - Keep the \"# Observations\" title and the \"## YYYY-MM-DD\" date headers.\n\
         - Do not add, merge or reword lines.\n\
         Output the pruned file content only, nothing else.\n\n\
         Current time: {}",
        format_time(now)
    );
    Request {
        system,
        messages: vec![Message::user_text(observations)],
        tools: Vec::new(),
        max_tokens: 8_192,
    }
}

/// A pruned observations file, and what pruning did.
#[derive(Debug, Clone, PartialEq)]
pub struct Pruned {
    pub text: String,
    pub lines_before: usize,
    pub lines_after: usize,
    /// RED lines the model dropped and the code put back.
    pub red_restored: usize,
}

/// Checks the pruner's answer and puts back any RED line it dropped, under its date.
/// An answer that is not an observations file at all is refused (the file stays as it was).
pub fn apply_prune(original: &str, answer: &str) -> Result<Pruned, String> {
    let answer = strip_fence(answer);
    let all: Vec<&str> = answer.lines().collect();
    let structural = |l: &str| {
        matches!(
            parse_item(l),
            Some(ObsItem::Title | ObsItem::Header { .. } | ObsItem::Observation(_))
        )
    };
    let (Some(first), Some(last)) = (
        all.iter().position(|l| structural(l)),
        all.iter().rposition(|l| structural(l)),
    ) else {
        return Err("the pruning answer is not an observations file".into());
    };
    // The model's preamble and sign-off are not observations.
    let mut lines: Vec<String> = all[first..=last].iter().map(|l| l.to_string()).collect();
    if !lines
        .iter()
        .any(|l| matches!(parse_item(l), Some(ObsItem::Title)))
    {
        lines.splice(0..0, ["# Observations".to_string(), String::new()]);
    }
    let kept: Vec<Observation> = lines
        .iter()
        .filter_map(|l| match parse_item(l) {
            Some(ObsItem::Observation(o)) => Some(o),
            _ => None,
        })
        .collect();
    let mut red_restored = 0;
    for (date, line, o) in red_lines(original) {
        let present = kept
            .iter()
            .any(|k| k.priority == Priority::Red && k.time == o.time && k.text == o.text);
        if !present {
            insert_under(&mut lines, date.as_deref(), line);
            red_restored += 1;
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(Pruned {
        lines_before: count_observations(original),
        lines_after: count_observations(&text),
        red_restored,
        text,
    })
}

fn count_observations(text: &str) -> usize {
    text.lines()
        .filter(|l| matches!(parse_item(l), Some(ObsItem::Observation(_))))
        .count()
}

/// Distinct RED lines with the date header they sit under.
fn red_lines(text: &str) -> Vec<(Option<String>, String, Observation)> {
    let mut out: Vec<(Option<String>, String, Observation)> = Vec::new();
    let mut date = None;
    for line in text.lines() {
        match parse_item(line) {
            Some(ObsItem::Header { date: d, .. }) => date = Some(d),
            Some(ObsItem::Observation(o))
                if o.priority == Priority::Red
                    && !out
                        .iter()
                        .any(|(_, _, x)| x.time == o.time && x.text == o.text) =>
            {
                out.push((date.clone(), line.trim().to_string(), o));
            }
            _ => {}
        }
    }
    out
}

/// Inserts `line` at the end of the `## date` section, creating the section in date order
/// when it is missing (after the title when the line had no date).
fn insert_under(lines: &mut Vec<String>, date: Option<&str>, line: String) {
    let headers: Vec<(usize, String)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match parse_item(l) {
            Some(ObsItem::Header { date, .. }) => Some((i, date)),
            _ => None,
        })
        .collect();
    let Some(date) = date else {
        let at = lines
            .iter()
            .position(|l| matches!(parse_item(l), Some(ObsItem::Title)))
            .map_or(0, |i| i + 1);
        lines.insert(at, line);
        return;
    };
    if let Some(k) = headers.iter().rposition(|(_, d)| d == date) {
        let end = headers.get(k + 1).map_or(lines.len(), |(i, _)| *i);
        let mut at = end;
        while at > headers[k].0 + 1 && lines[at - 1].trim().is_empty() {
            at -= 1;
        }
        lines.insert(at, line);
        return;
    }
    let section = [format!("## {date}"), String::new(), line, String::new()];
    match headers.iter().find(|(_, d)| d.as_str() > date) {
        Some((i, _)) => {
            lines.splice(*i..*i, section);
        }
        None => {
            if lines.last().is_some_and(|l| !l.trim().is_empty()) {
                lines.push(String::new());
            }
            lines.extend(section.into_iter().take(3));
        }
    }
}

/// Removes a surrounding ``` fence, which models like to add.
fn strip_fence(answer: &str) -> &str {
    let t = answer.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    body.trim_end()
        .strip_suffix("```")
        .unwrap_or(body)
        .trim_end()
}

pub struct PrioritiesInput<'a> {
    pub purpose: &'a str,
    pub dreams: &'a [Dream],
    pub current: &'a [String],
    pub observations: &'a [String],
}

pub fn priorities_request(input: &PrioritiesInput<'_>) -> Request {
    let system = format!(
        "{PRIORITIES_PREFIX} during deep sleep. From its recent dreams and observations, \
         write its top 3 to 5 priorities as single-sentence action items, most important first. \
         One per line, each starting with \"- \". No headers, no preamble."
    );
    let mut user = format!("Purpose: {}\n\nRecent dreams:\n", input.purpose.trim());
    for d in input.dreams {
        user.push_str(&format!("{}\n", dream_line(d)));
    }
    user.push_str("\nCurrent priorities:\n");
    if input.current.is_empty() {
        user.push_str("none yet\n");
    }
    for p in input.current {
        user.push_str(&format!("- {p}\n"));
    }
    user.push_str("\nObservations:\n");
    user.push_str(&input.observations.join("\n"));
    Request {
        system,
        messages: vec![Message::user_text(user)],
        tools: Vec::new(),
        max_tokens: 512,
    }
}

/// `[YYYY-MM-DDTHH:MM] reflection | Priority: p`, as OpenSeed's diary lists dreams.
pub fn dream_line(d: &Dream) -> String {
    let t =
        d.t.map(|t| t.format("%Y-%m-%dT%H:%M").to_string())
            .unwrap_or_else(|| "?".into());
    format!(
        "[{t}] {} | Priority: {}",
        d.reflection.trim().replace('\n', " "),
        d.priority.trim()
    )
}

/// Reads 3 to 5 priorities from the model's answer; too few are topped up from `fallback`
/// (the dream's priority, the previous list). No item at all is an error.
pub fn parse_priorities(answer: &str, fallback: &[String]) -> Result<Vec<String>, String> {
    let candidates: Vec<&str> = strip_fence(answer)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.ends_with(':'))
        .collect();
    let marked: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|l| strip_list_marker(l).len() != l.len())
        .collect();
    let chosen = if marked.is_empty() {
        candidates
    } else {
        marked
    };
    let mut items: Vec<String> = Vec::new();
    for l in chosen {
        add_priority(&mut items, l);
    }
    if items.is_empty() {
        return Err("the priorities answer holds no priority".into());
    }
    for f in fallback {
        if items.len() >= 3 {
            break;
        }
        add_priority(&mut items, f);
    }
    Ok(items)
}

fn add_priority(items: &mut Vec<String>, line: &str) {
    let s = clip(strip_list_marker(line).trim_matches(['*', '_', ' ']), 200);
    if !s.is_empty() && !items.iter().any(|i| i.eq_ignore_ascii_case(&s)) && items.len() < 5 {
        items.push(s);
    }
}

/// The diary entry's body: the dreams since the last deep sleep, what pruning did, and the
/// new priorities.
pub fn diary_body(dreams: &[Dream], pruned: Option<&Pruned>, priorities: &[String]) -> String {
    let mut out = String::from("Dreams since the last deep sleep:\n");
    for d in dreams {
        out.push_str(&format!("- {}\n", dream_line(d)));
    }
    out.push('\n');
    match pruned {
        Some(p) => {
            out.push_str(&format!(
                "Observations pruned: {} lines -> {}.",
                p.lines_before, p.lines_after
            ));
            if p.red_restored > 0 {
                out.push_str(&format!(
                    " {} RED line(s) the pruner dropped were put back.",
                    p.red_restored
                ));
            }
            out.push('\n');
        }
        None => out.push_str("Observations were not pruned this time.\n"),
    }
    if !priorities.is_empty() {
        out.push_str("\nPriorities now:\n");
        for p in priorities {
            out.push_str(&format!("- {p}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::observations::Observations;

    const ORIGINAL: &str = "# Observations\n\n## 2026-03-01\n\nRED 09:00 never paste raw rows\nGRN 09:01 clock is UTC\nYLW 09:02 test fails\n\n## 2026-03-03\n\nRED 10:00 WORKFLOW: check MESSAGES.md\nYLW 10:01 test passes now\n";

    #[test]
    fn a_faithful_prune_is_kept_as_is() {
        let answer = "# Observations\n\n## 2026-03-01\n\nRED 09:00 never paste raw rows\n\n## 2026-03-03\n\nRED 10:00 WORKFLOW: check MESSAGES.md\nYLW 10:01 test passes now\n";
        let p = apply_prune(ORIGINAL, answer).unwrap();
        assert_eq!(p.text, answer);
        assert_eq!((p.lines_before, p.lines_after, p.red_restored), (5, 3, 0));
    }

    #[test]
    fn dropped_red_lines_come_back_under_their_date() {
        let answer = "```markdown\n## 2026-03-03\n\nYLW 10:01 test passes now\n```";
        let p = apply_prune(ORIGINAL, answer).unwrap();
        assert_eq!(p.red_restored, 2);
        assert_eq!(
            p.text,
            "# Observations\n\n## 2026-03-01\n\nRED 09:00 never paste raw rows\n\n## 2026-03-03\n\nYLW 10:01 test passes now\nRED 10:00 WORKFLOW: check MESSAGES.md\n"
        );
        let reds = Observations::parse(&p.text).counts().red;
        assert_eq!(reds, 2);
    }

    #[test]
    fn reformatted_red_lines_count_as_kept() {
        let answer = "# Observations\n## 2026-03-01\n- RED 09:00 never paste raw rows\n## 2026-03-03\n  RED 10:00 WORKFLOW: check MESSAGES.md\n";
        assert_eq!(apply_prune(ORIGINAL, answer).unwrap().red_restored, 0);
    }

    #[test]
    fn red_lines_before_any_header_go_after_the_title() {
        let p = apply_prune(
            "RED 08:00 early\n## 2026-03-01\nGRN 09:00 x\n",
            "# Observations\n## 2026-03-01\n",
        )
        .unwrap();
        assert_eq!(p.text, "# Observations\nRED 08:00 early\n## 2026-03-01\n");
    }

    #[test]
    fn a_missing_header_is_created_in_date_order() {
        let original = "## 2026-03-02\nRED 09:00 b\n";
        let answer =
            "# Observations\n\n## 2026-03-01\n\nGRN 09:00 a\n\n## 2026-03-05\n\nGRN 09:00 c\n";
        let p = apply_prune(original, answer).unwrap();
        assert_eq!(
            p.text,
            "# Observations\n\n## 2026-03-01\n\nGRN 09:00 a\n\n## 2026-03-02\n\nRED 09:00 b\n\n## 2026-03-05\n\nGRN 09:00 c\n"
        );
    }

    #[test]
    fn prose_answers_are_refused_and_prose_around_the_file_dropped() {
        assert!(apply_prune(ORIGINAL, "I cannot help with that.").is_err());
        assert!(apply_prune(ORIGINAL, "").is_err());
        assert!(apply_prune("", "Nothing to prune.").is_err());
        let p = apply_prune(
            "## 2026-03-01\nGRN 09:00 x\n",
            "Here is the pruned file:\n\n# Observations\n\n## 2026-03-01\n\nnote kept\nGRN 09:00 x\n\nHope this helps!",
        )
        .unwrap();
        assert_eq!(
            p.text,
            "# Observations\n\n## 2026-03-01\n\nnote kept\nGRN 09:00 x\n"
        );
    }

    #[test]
    fn priorities_parse_and_top_up() {
        let fb = vec!["from the dream".to_string(), "old one".to_string()];
        assert_eq!(
            parse_priorities(
                "Here are they:\n1. a\n2. **b**\n3) c\n4. d\n5. e\n6. f\n",
                &fb
            )
            .unwrap(),
            vec!["a", "b", "c", "d", "e"]
        );
        assert_eq!(
            parse_priorities("- only one\n", &fb).unwrap(),
            vec!["only one", "from the dream", "old one"]
        );
        assert_eq!(
            parse_priorities("just a line", &[]).unwrap(),
            vec!["just a line"]
        );
        assert!(parse_priorities("## Priorities\n", &fb).is_err());
    }

    #[test]
    fn diary_lists_dreams_and_pruning() {
        let d = Dream::parse(
            br#"{"t":"2026-03-01T10:05:00Z","reflection":"r\nmore","priority":"p","deep":false}"#,
        )
        .unwrap();
        let pruned = Pruned {
            text: String::new(),
            lines_before: 9,
            lines_after: 5,
            red_restored: 1,
        };
        let body = diary_body(&[d], Some(&pruned), &["a".into()]);
        assert!(body.contains("- [2026-03-01T10:05] r more | Priority: p"));
        assert!(body.contains("9 lines -> 5. 1 RED line(s)"));
        assert!(body.ends_with("Priorities now:\n- a\n"));
    }

    #[test]
    fn requests_carry_the_rules() {
        let now = DateTime::parse_from_rfc3339("2026-03-03T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let r = prune_request(ORIGINAL, now, 48.0, now - chrono::TimeDelta::hours(48));
        assert!(r.system.starts_with(PRUNE_PREFIX));
        assert!(
            r.system
                .contains("older than 48 hours: those stamped before 2026-03-01 12:00")
        );
        assert!(r.system.contains("Current time: 2026-03-03T12:00:00.000Z"));
        let r = priorities_request(&PrioritiesInput {
            purpose: "grow",
            dreams: &[],
            current: &[],
            observations: &[],
        });
        assert!(r.system.starts_with(PRIORITIES_PREFIX));
    }
}
