//! Dreams, prepared: their text made inert once, for the timeline, list and detail pane.

use chrono::{DateTime, Utc};

use crate::memory::dream_log::DreamRow;
use crate::memory::dreams::Dream;
use crate::memory::json::LineError;
use crate::text::sanitize::sanitize;
use crate::ui::prepare::inert;

/// A dream as the list and the strip show it.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedDream {
    pub t: Option<DateTime<Utc>>,
    pub deep: bool,
    pub actions: u64,
    pub observations: u64,
    /// One line, inert.
    pub priority: String,
}

/// The dream shown in the detail pane, read back from disk.
#[derive(Debug, Clone, PartialEq)]
pub struct DreamDetail {
    /// Which dream (an index into the prepared dreams).
    pub index: usize,
    /// One line, inert.
    pub priority: String,
    /// The reflection's lines, inert (or why it could not be read).
    pub reflection: Vec<String>,
}

pub fn prepare(row: &DreamRow) -> PreparedDream {
    PreparedDream {
        t: row.t,
        deep: row.deep,
        actions: row.actions,
        observations: row.observations,
        priority: inert(row.priority.trim()),
    }
}

/// Dream `index` in full, or why it could not be read.
pub fn detail(index: usize, dream: Result<Dream, LineError>) -> DreamDetail {
    match dream {
        Ok(d) => DreamDetail {
            index,
            priority: inert(d.priority.trim()),
            reflection: sanitize(d.reflection.trim())
                .lines()
                .map(str::to_string)
                .collect(),
        },
        Err(e) => DreamDetail {
            index,
            priority: String::new(),
            reflection: vec![inert(&format!("(the reflection could not be read: {e})"))],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_inert_and_split() {
        let d = Dream::parse(
            br#"{"t":"2026-11-22T17:32:34Z","actions":5,"reflection":"a\u001b[31m\nWhen I wake: b","priority":"p\nq","deep":true}"#,
        )
        .unwrap();
        let p = detail(3, Ok(d));
        assert_eq!(p.reflection, ["a^[[31m", "When I wake: b"]);
        assert_eq!(p.priority, "p^Jq");
        assert_eq!(p.index, 3);
        let e = detail(0, Err(LineError::Missing("t")));
        assert_eq!(
            e.reflection,
            ["(the reflection could not be read: missing \"t\")"]
        );
    }
}
