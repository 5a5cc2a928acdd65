//! Consolidation: the request to the consolidating mind, and a tolerant reader of its answer.
//!
//! The answer should hold `OBSERVATIONS:` (lines `RED|YLW|GRN HH:MM fact`), `REFLECTION:`
//! and `PRIORITY:`. Real models add prose, bullets, markdown headings, emoji or lowercase
//! tags, inline section text (`Reflection: ...`), or forget a section. The reader accepts
//! all of that; its fallbacks:
//! - observations: every tagged line anywhere in the answer (a missing time becomes the
//!   dream's `HH:MM`); untagged lines are not observations;
//! - reflection: the `REFLECTION` section, else the untagged text outside any section,
//!   else `No reflection given.`;
//! - priority: the first line of `PRIORITY`, else a `When I wake:`/`Next:`/`Priority:` line
//!   of the reflection, else its first line (at most 200 characters), else
//!   `Continue where I left off.`
//!
//! An answer with neither observations nor any text is a failed consolidation.

use crate::llm::{Message, Request};
use crate::memory::dreams::Dream;
use crate::memory::observations::{Priority, format_observation, parse_observation};

use crate::runner::activity::{Activity, clip};

pub const SYSTEM_PREFIX: &str = "You are the consolidating mind of an autonomous creature";
pub const NO_REFLECTION: &str = "No reflection given.";
pub const DEFAULT_PRIORITY: &str = "Continue where I left off.";
const PRIORITY_CHARS: usize = 200;

/// What the consolidating mind needs besides the activity.
pub struct DreamInput<'a> {
    pub purpose: &'a str,
    /// The dream's time of day, `HH:MM` (UTC).
    pub hhmm: &'a str,
    pub dream_number: u64,
    pub previous: Option<&'a Dream>,
    pub recent_observations: &'a [String],
}

pub fn request(input: &DreamInput<'_>, activity: &Activity) -> Request {
    let hhmm = input.hhmm;
    let previous = match input.previous {
        Some(d) => format!("{} | Priority: {}", d.reflection.trim(), d.priority.trim()),
        None => "none".into(),
    };
    let recent = if input.recent_observations.is_empty() {
        "none yet".to_string()
    } else {
        input.recent_observations.join("\n")
    };
    let system = format!(
        "{SYSTEM_PREFIX}, processing a period of activity before sleep. Its purpose: {purpose}\n\n\
         Answer in exactly three sections.\n\n\
         OBSERVATIONS:\n\
         One line per fact, tagged by importance and stamped {hhmm}:\n\
         RED {hhmm} critical: commitments, bans, deadlines, creator directives, key wins\n\
         YLW {hhmm} important: project status, what failed and why, patterns learned\n\
         GRN {hhmm} informational: environment facts, tool outputs, minor details\n\
         RED lines survive every pruning. Be specific and concrete. Do not repeat current observations.\n\n\
         REFLECTION:\n\
         One short paragraph: did you make real progress or tread water? What failed, and why?\n\n\
         PRIORITY:\n\
         One line: the first thing to do on waking.\n\n\
         Previous dream: {previous}\n\n\
         Current observations (do not repeat):\n{recent}",
        purpose = input.purpose.trim(),
    );
    Request {
        system,
        messages: vec![Message::user_text(activity_text(
            input.dream_number,
            activity,
        ))],
        tools: Vec::new(),
        max_tokens: 2_048,
    }
}

fn activity_text(dream_number: u64, a: &Activity) -> String {
    let mut out = format!(
        "Here is my recent activity to consolidate (dream #{dream_number}).\n\n\
         Actions since the last dream: {} ({} failed)\n",
        a.total, a.failed
    );
    let omitted = a.total.saturating_sub(a.actions.len() as u64);
    if omitted > 0 {
        out.push_str(&format!("(the {omitted} earliest are omitted)\n"));
    }
    for act in &a.actions {
        let what = act
            .command
            .as_deref()
            .map(|c| clip(c, 100))
            .unwrap_or_default();
        out.push_str(&format!(
            "- {} {} `{}` -> {}\n",
            if act.ok { "ok" } else { "FAILED" },
            act.tool,
            what.replace('\n', " "),
            act.summary
        ));
    }
    if !a.creator_messages.is_empty() {
        out.push_str("\nMessages from my creator:\n");
        for m in &a.creator_messages {
            out.push_str(&format!("- {}\n", m.trim()));
        }
    }
    out.push_str("\nWhat I was thinking:\n");
    out.push_str(if a.monologue.trim().is_empty() {
        "(nothing recorded)"
    } else {
        a.monologue.trim()
    });
    out.push('\n');
    out
}

/// The consolidating mind's answer, ready to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Consolidation {
    /// Observation lines in the seed form `TAG HH:MM text`.
    pub observations: Vec<String>,
    pub reflection: String,
    pub priority: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Observations,
    Reflection,
    Priority,
    /// A section we do not use (`RULES:`, `WORKFLOWS:`, ...).
    Other,
}

pub fn parse(answer: &str, hhmm: &str) -> Result<Consolidation, String> {
    let mut observations = Vec::new();
    let mut reflection = String::new();
    let mut priority_lines: Vec<String> = Vec::new();
    let mut loose = String::new();
    let mut section: Option<Section> = None;
    for raw in answer.lines() {
        let line = raw.trim_end();
        if line.trim_start().starts_with("```") {
            continue;
        }
        if let Some(obs) = tagged_line(line, hhmm) {
            observations.push(obs);
            continue;
        }
        let (target, text) = match section_header(line) {
            Some((s, rest)) => {
                section = Some(s);
                (Some(s), rest)
            }
            None => (section, line),
        };
        match target {
            Some(Section::Reflection) => push_line(&mut reflection, text),
            Some(Section::Priority) => {
                let t = strip_label(strip_marker(text.trim()));
                if !t.is_empty() {
                    priority_lines.push(t.to_string());
                }
            }
            Some(Section::Observations) | Some(Section::Other) => {}
            None => push_line(&mut loose, text),
        }
    }
    let mut reflection = reflection.trim().to_string();
    if reflection.is_empty() {
        reflection = loose.trim().to_string();
    }
    if reflection.is_empty() && observations.is_empty() && priority_lines.is_empty() {
        return Err("the consolidating mind's answer holds nothing usable".into());
    }
    let priority = priority_lines
        .first()
        .map(|p| clip(p, PRIORITY_CHARS))
        .or_else(|| priority_in(&reflection))
        .or_else(|| {
            reflection
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map(|l| clip(l, PRIORITY_CHARS))
        })
        .unwrap_or_else(|| DEFAULT_PRIORITY.into());
    if reflection.is_empty() {
        reflection = NO_REFLECTION.into();
    }
    Ok(Consolidation {
        observations,
        reflection,
        priority,
    })
}

fn push_line(buf: &mut String, line: &str) {
    if buf.is_empty() && line.trim().is_empty() {
        return;
    }
    buf.push_str(line.trim_end());
    buf.push('\n');
}

/// A `When I wake: x` / `Next: x` / `Priority: x` line inside the reflection.
fn priority_in(reflection: &str) -> Option<String> {
    reflection.lines().find_map(|l| {
        let t = strip_marker(l.trim());
        let lower = t.to_ascii_lowercase();
        ["when i wake:", "next:", "priority:", "top priority:"]
            .iter()
            .find(|p| lower.starts_with(*p))
            .map(|p| clip(t[p.len()..].trim(), PRIORITY_CHARS))
            .filter(|s| !s.is_empty())
    })
}

fn strip_label(s: &str) -> &str {
    let lower = s.to_ascii_lowercase();
    for p in ["priority:", "top priority:"] {
        if lower.starts_with(p) {
            return s[p.len()..].trim();
        }
    }
    s
}

/// Recognises a section heading: `OBSERVATIONS:`, `## Reflection`, `**Priority:** text`,
/// `🌙 REFLECTION`, `1. Observations`. Returns the section and any text on the same line.
fn section_header(line: &str) -> Option<(Section, &str)> {
    let start = line.find(|c: char| c.is_ascii_alphabetic())?;
    let lead = &line[..start];
    // Only decoration may precede the word: markdown, numbering, emoji.
    if lead
        .chars()
        .any(|c| c.is_alphanumeric() && !c.is_ascii_digit())
    {
        return None;
    }
    let rest = &line[start..];
    let word_end = rest
        .find(|c: char| !(c.is_ascii_alphabetic() || c == ' '))
        .unwrap_or(rest.len());
    let word = rest[..word_end].trim().to_ascii_lowercase();
    let section = match word.as_str() {
        "observations" | "observation" | "facts" => Section::Observations,
        "reflection" | "reflections" => Section::Reflection,
        "priority" | "priorities" | "top priority" | "next priority" => Section::Priority,
        "rules" | "workflows" | "notes" => Section::Other,
        _ => return None,
    };
    let after = rest[word_end..].trim_start_matches(['*', '_', ' ']);
    let inline = match after.strip_prefix(':') {
        Some(t) => t.trim_start_matches(['*', '_']).trim(),
        None if after.is_empty() => "",
        // `Priority is to fix x` is prose, not a heading.
        None => return None,
    };
    Some((section, inline))
}

/// A tagged observation line in any of the shapes models write, in the seed form:
/// `RED 10:00 x`, `- red 10:00 x`, `**RED** 10:00 x`, `[RED] x`, `🔴 x`, `🔴 RED 10:00 x`,
/// legacy `[!] x` / `[.] x`. A lowercase or capitalised tag counts only before a time, so
/// `Red flags everywhere` stays prose.
fn tagged_line(line: &str, hhmm: &str) -> Option<String> {
    let s = strip_marker(line.trim());
    if s.starts_with("[!]") || s.starts_with("[.]") {
        let o = parse_observation(s)?;
        return render(o.priority, None, &o.text, hhmm);
    }
    let s = s.trim_start_matches(['*', '_', '[', ' ']);
    let (emoji, s) = strip_emoji(s);
    let (token, rest) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
    let tag = token.trim_end_matches(['*', '_', ']', ':']);
    let (priority, body) = match Priority::from_tag(tag) {
        Some(p)
            if tag.chars().all(|c| c.is_ascii_uppercase())
                || starts_with_time(rest.trim_start()) =>
        {
            (
                p,
                rest.trim_start_matches(['*', '_', ']', ':', '-', '–', ' ']),
            )
        }
        _ => (emoji?, s),
    };
    let body = body.trim();
    let (time, text) = if starts_with_time(body) {
        (Some(&body[..5]), &body[5..])
    } else {
        (None, body)
    };
    render(priority, time, text, hhmm)
}

fn strip_emoji(s: &str) -> (Option<Priority>, &str) {
    for (emoji, p) in [
        ("🔴", Priority::Red),
        ("🟥", Priority::Red),
        ("🟡", Priority::Ylw),
        ("🟨", Priority::Ylw),
        ("🟠", Priority::Ylw),
        ("🟢", Priority::Grn),
        ("🟩", Priority::Grn),
    ] {
        if let Some(rest) = s.strip_prefix(emoji) {
            return (Some(p), rest.trim_start_matches('\u{fe0f}').trim_start());
        }
    }
    (None, s)
}

/// `HH:MM` followed by the end or a space.
fn starts_with_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 5
        && b[2] == b':'
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[3..5].iter().all(u8::is_ascii_digit)
        && b.get(5).is_none_or(|c| c.is_ascii_whitespace())
}

fn render(p: Priority, time: Option<&str>, text: &str, hhmm: &str) -> Option<String> {
    let text = text.trim_start_matches(['-', '–', ':', ' ']).trim();
    if text.is_empty() {
        return None;
    }
    Some(format_observation(p, time.unwrap_or(hhmm), text))
}

/// Removes one list marker (`- `, `* `, `• `, `1. `, `1) `).
fn strip_marker(s: &str) -> &str {
    crate::memory::documents::strip_list_marker(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(answer: &str) -> Consolidation {
        parse(answer, "10:30").unwrap()
    }

    #[test]
    fn the_exact_format() {
        let c = ok(
            "OBSERVATIONS:\nRED 10:29 never paste raw rows\nYLW 10:29 test fails on nan\nGRN 10:30 clock is UTC\n\nREFLECTION:\nSome progress.\nStill stuck on nan.\n\nPRIORITY:\nFix weekly_mean.\n",
        );
        assert_eq!(
            c.observations,
            vec![
                "RED 10:29 never paste raw rows",
                "YLW 10:29 test fails on nan",
                "GRN 10:30 clock is UTC"
            ]
        );
        assert_eq!(c.reflection, "Some progress.\nStill stuck on nan.");
        assert_eq!(c.priority, "Fix weekly_mean.");
    }

    #[test]
    fn markdown_bullets_emoji_and_lowercase() {
        let c = ok(
            "Here is my consolidation.\n\n## Observations\n- red 10:01 a\n* 🟡 b has no time\n• **GRN** 10:02 c\n🟢 GRN 10:03 d\n[YLW] 10:04 e\n\n**Reflection:** Did fine.\n\n**Priority:** - ship it\n",
        );
        assert_eq!(
            c.observations,
            vec![
                "RED 10:01 a",
                "YLW 10:30 b has no time",
                "GRN 10:02 c",
                "GRN 10:03 d",
                "YLW 10:04 e"
            ]
        );
        assert_eq!(c.reflection, "Did fine.");
        assert_eq!(c.priority, "ship it");
    }

    #[test]
    fn missing_sections_fall_back() {
        // No PRIORITY: a `When I wake:` line of the reflection.
        let c = ok("OBSERVATIONS:\nGRN 10:00 x\nREFLECTION:\nQuiet.\nWhen I wake: fix the bug\n");
        assert_eq!(c.priority, "fix the bug");
        // No sections at all: tagged lines are observations, the rest is the reflection.
        let c = ok("I did a lot today.\nRED 10:00 key win\nMore prose.");
        assert_eq!(c.observations, vec!["RED 10:00 key win"]);
        assert_eq!(c.reflection, "I did a lot today.\nMore prose.");
        assert_eq!(c.priority, "I did a lot today.");
        // Only observations.
        let c = ok("OBSERVATIONS:\nYLW 10:00 y\n");
        assert_eq!(
            (c.reflection.as_str(), c.priority.as_str()),
            (NO_REFLECTION, DEFAULT_PRIORITY)
        );
    }

    #[test]
    fn rules_and_other_sections_are_ignored() {
        let c = ok(
            "OBSERVATIONS:\nnone worth noting\nREFLECTION:\nr\nPRIORITY:\np\nRULES:\n- NEVER: x\n",
        );
        assert!(c.observations.is_empty());
        assert_eq!((c.reflection.as_str(), c.priority.as_str()), ("r", "p"));
    }

    #[test]
    fn prose_that_starts_like_a_heading_is_prose() {
        let c = ok("REFLECTION:\nPriority is to rest.\nObservations show little.\n");
        assert_eq!(
            c.reflection,
            "Priority is to rest.\nObservations show little."
        );
        assert!(c.observations.is_empty());
    }

    #[test]
    fn legacy_markers_and_fences() {
        let c = ok("```\nOBSERVATIONS:\n[!] big\n[.] small\n```\n");
        assert_eq!(c.observations, vec!["RED 10:30 big", "GRN 10:30 small"]);
    }

    #[test]
    fn empty_answers_fail() {
        assert!(parse("", "10:00").is_err());
        assert!(parse("  \n```\n```\n", "10:00").is_err());
    }

    #[test]
    fn long_priorities_are_clipped() {
        let long = "x".repeat(500);
        let c = ok(&format!("REFLECTION:\n{long}\n"));
        assert_eq!(c.priority.chars().count(), 200);
    }

    #[test]
    fn request_carries_activity_and_time() {
        let mut a = Activity::default();
        a.push_action(crate::memory::iterations::IterationAction {
            tool: "bash".into(),
            ok: false,
            summary: "No such file".into(),
            ms: 3,
            command: Some("cat nope".into()),
        });
        a.creator_messages.push("be brief".into());
        let r = request(
            &DreamInput {
                purpose: "grow",
                hhmm: "10:30",
                dream_number: 3,
                previous: None,
                recent_observations: &[],
            },
            &a,
        );
        assert!(r.system.starts_with(SYSTEM_PREFIX));
        assert!(r.system.contains("RED 10:30"));
        assert!(r.tools.is_empty());
        let crate::llm::ContentBlock::Text { text } = &r.messages[0].content[0] else {
            panic!("text expected")
        };
        assert!(text.contains("FAILED bash `cat nope` -> No such file"));
        assert!(text.contains("- be brief"));
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_keeps_text(answer in "\\PC{0,300}") {
            if let Ok(c) = parse(&answer, "10:00") {
                proptest::prop_assert!(!c.reflection.is_empty());
                proptest::prop_assert!(!c.priority.trim().is_empty());
                for o in &c.observations {
                    proptest::prop_assert!(parse_observation(o).is_some());
                }
            }
        }
    }
}
