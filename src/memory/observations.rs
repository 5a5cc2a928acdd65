//! `.self/observations.md`: prioritised facts, grouped under date (or dream) headers.

use serde::Serialize;

/// RED (important), YLW (useful), GRN (minor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Red,
    Ylw,
    Grn,
}

impl Priority {
    pub fn tag(self) -> &'static str {
        match self {
            Priority::Red => "RED",
            Priority::Ylw => "YLW",
            Priority::Grn => "GRN",
        }
    }

    /// Reads a tag as written by creatures and models: `RED`, `red`, `YLW`, `YELLOW`, `GRN`, `GREEN`.
    pub fn from_tag(tag: &str) -> Option<Self> {
        match tag.to_ascii_uppercase().as_str() {
            "RED" => Some(Priority::Red),
            "YLW" | "YEL" | "YELLOW" => Some(Priority::Ylw),
            "GRN" | "GREEN" => Some(Priority::Grn),
            _ => None,
        }
    }
}

/// One line of the file, classified.
#[derive(Debug, Clone, PartialEq)]
pub enum ObsItem {
    /// `# Observations`
    Title,
    /// `## 2026-03-01` or the older `## 2026-02-12T17:32 (dream #1)`.
    Header {
        date: String,
        dream: Option<u32>,
    },
    Observation(Observation),
    /// Any other non-empty line: the model's prose, kept verbatim.
    Prose(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub priority: Priority,
    /// `HH:MM` when given (absent in the legacy `[!]`/`[.]` form).
    pub time: Option<String>,
    pub text: String,
    /// Written in the legacy `[!]`/`[.]` form.
    pub legacy: bool,
}

impl Observation {
    /// `WORKFLOW:` lines are RED by convention and shown marked.
    pub fn is_workflow(&self) -> bool {
        self.text.starts_with("WORKFLOW:")
    }

    /// `Creator directive` lines carry the creature's local time, not UTC.
    pub fn is_creator_directive(&self) -> bool {
        self.text.starts_with("Creator directive")
    }
}

/// The parsed file: items with their 1-based line numbers, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observations {
    pub items: Vec<(usize, ObsItem)>,
}

/// Lines per priority; `other` counts prose lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ObsCounts {
    pub red: usize,
    pub ylw: usize,
    pub grn: usize,
    pub other: usize,
}

impl Observations {
    pub fn parse(text: &str) -> Self {
        let items = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| parse_item(line).map(|item| (i + 1, item)))
            .collect();
        Self { items }
    }

    pub fn observations(&self) -> impl Iterator<Item = &Observation> {
        self.items.iter().filter_map(|(_, item)| match item {
            ObsItem::Observation(o) => Some(o),
            _ => None,
        })
    }

    pub fn counts(&self) -> ObsCounts {
        let mut c = ObsCounts::default();
        for (_, item) in &self.items {
            c.add(item);
        }
        c
    }
}

impl ObsCounts {
    /// Counts one item (headers and titles count nowhere).
    pub fn add(&mut self, item: &ObsItem) {
        match item {
            ObsItem::Observation(o) => match o.priority {
                Priority::Red => self.red += 1,
                Priority::Ylw => self.ylw += 1,
                Priority::Grn => self.grn += 1,
            },
            ObsItem::Prose(_) => self.other += 1,
            _ => {}
        }
    }
}

/// Classifies one line; `None` for blank lines.
pub fn parse_item(line: &str) -> Option<ObsItem> {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return None;
    }
    if let Some(rest) = trimmed.strip_prefix("## ") {
        return Some(parse_header(rest.trim()));
    }
    if trimmed.starts_with("# ") {
        return Some(ObsItem::Title);
    }
    Some(match parse_observation(trimmed) {
        Some(o) => ObsItem::Observation(o),
        None => ObsItem::Prose(line.to_string()),
    })
}

fn parse_header(rest: &str) -> ObsItem {
    let (date, dream) = match rest.split_once("(dream #") {
        Some((date, tail)) => (
            date.trim().to_string(),
            tail.trim_end_matches(')').trim().parse().ok(),
        ),
        None => (rest.to_string(), None),
    };
    ObsItem::Header { date, dream }
}

/// Parses `RED HH:MM text` (also `YLW`, `GRN`), `[!] text`, `[.] text`, behind leading
/// spaces and at most one list marker (`- `, `* `, `• `). A tag without its time, or in
/// another case, is prose.
pub fn parse_observation(line: &str) -> Option<Observation> {
    let mut s = line.trim_start();
    for marker in ["- ", "* ", "• "] {
        if let Some(rest) = s.strip_prefix(marker) {
            s = rest.trim_start();
            break;
        }
    }
    if let Some(rest) = s.strip_prefix("[!]") {
        return Some(legacy(Priority::Red, rest));
    }
    if let Some(rest) = s.strip_prefix("[.]") {
        return Some(legacy(Priority::Grn, rest));
    }
    let (tag, rest) = s.split_once(' ')?;
    let priority = match tag {
        "RED" => Priority::Red,
        "YLW" => Priority::Ylw,
        "GRN" => Priority::Grn,
        _ => return None,
    };
    // A tag line carries its time; without one it is the model's prose.
    let rest = rest.trim_start();
    let (time, text) = match rest.split_once(' ') {
        Some((hhmm, text)) if is_hhmm(hhmm) => (hhmm, text.trim()),
        _ if is_hhmm(rest) => (rest, ""),
        _ => return None,
    };
    Some(Observation {
        priority,
        time: Some(time.to_string()),
        text: text.to_string(),
        legacy: false,
    })
}

fn legacy(priority: Priority, rest: &str) -> Observation {
    Observation {
        priority,
        time: None,
        text: rest.trim().to_string(),
        legacy: true,
    }
}

fn is_hhmm(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 5
        && b[2] == b':'
        && b[..2].iter().all(u8::is_ascii_digit)
        && b[3..].iter().all(u8::is_ascii_digit)
}

/// Formats one observation line as the seed writes it: `RED HH:MM text`.
pub fn format_observation(priority: Priority, hhmm: &str, text: &str) -> String {
    format!("{} {} {}", priority.tag(), hhmm, text.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_lines_and_headers() {
        let doc = Observations::parse(
            "# Observations\n\n## 2026-03-01\n\nRED 10:00 never do x\nYLW 10:01 maybe y\nGRN 10:02 fine z\n",
        );
        assert_eq!(doc.items[0].1, ObsItem::Title);
        assert_eq!(
            doc.items[1].1,
            ObsItem::Header {
                date: "2026-03-01".into(),
                dream: None
            }
        );
        assert_eq!(
            doc.counts(),
            ObsCounts {
                red: 1,
                ylw: 1,
                grn: 1,
                other: 0
            }
        );
        let first = doc.observations().next().unwrap();
        assert_eq!(first.time.as_deref(), Some("10:00"));
        assert_eq!(first.text, "never do x");
    }

    #[test]
    fn legacy_lines_and_dream_headers() {
        let doc = Observations::parse("## 2026-02-12T17:32 (dream #1)\n[!] big\n[.] small\n");
        assert_eq!(
            doc.items[0].1,
            ObsItem::Header {
                date: "2026-02-12T17:32".into(),
                dream: Some(1)
            }
        );
        assert_eq!(
            doc.counts(),
            ObsCounts {
                red: 1,
                ylw: 0,
                grn: 1,
                other: 0
            }
        );
        assert!(doc.observations().all(|o| o.legacy));
    }

    #[test]
    fn tags_behind_list_markers_and_prose() {
        let doc = Observations::parse(
            "- RED 17:03 a\n  * YLW 17:04 b\n• GRN 17:05 c\nHere is what I learned:\n- - RED 1:00 double marker is prose\n",
        );
        assert_eq!(
            doc.counts(),
            ObsCounts {
                red: 1,
                ylw: 1,
                grn: 1,
                other: 2
            }
        );
    }

    #[test]
    fn workflow_and_directive_marks() {
        let o = parse_observation("RED 17:37 WORKFLOW: Check MESSAGES.md").unwrap();
        assert!(o.is_workflow());
        let d = parse_observation("RED 23:04 Creator directive: be brief").unwrap();
        assert!(d.is_creator_directive());
    }

    #[test]
    fn only_exact_tags_with_a_time_count() {
        assert_eq!(parse_observation("GRN 09:15").unwrap().text, "");
        for prose in [
            "red 10:00 x",
            "YELLOW: x",
            "REDACTED 10:00",
            "YLW weekly test written (no time given)",
        ] {
            assert!(parse_observation(prose).is_none(), "{prose}");
        }
    }
}
