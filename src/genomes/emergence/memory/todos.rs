//! `.self/todos.jsonl`: the creature's to-dos, added with a priority and an optional due
//! date, completed by its own tool call. Nothing reminds it: the views mark what is due.

use chrono::{DateTime, Days, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::lines::LineCounts;
use crate::memory::json::LineError;
use crate::memory::keyed::Keyed;
use crate::memory::lenient::{key, lenient_records, read, text};
use crate::memory::op_line::{OpLine, OpRecord};
use crate::memory::time::parse_time;

lenient_records! {
    /// `add`: a to-do.
    #[op = "add"]
    pub struct TodoAdd {
        id: String,
        title: String,
        description: String,
        priority: Priority,
        /// YYYY-MM-DD or a time, as the creature wrote it (written `null` when none).
        #[null]
        due: String,
    }

    /// `complete`: a to-do done.
    #[op = "complete"]
    pub struct TodoComplete {
        id: String,
    }
}

/// A priority as written: `high`, `medium`, `low` or any text, or a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Priority {
    Text(String),
    Number(serde_json::Number),
}

/// To-dos kept (the newest).
pub const KEPT_TODOS: usize = 10_000;

/// When a to-do is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// By the end of that day (UTC).
    Date(NaiveDate),
    At(DateTime<Utc>),
}

impl Due {
    fn parse(s: &str) -> Option<Self> {
        NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .map(Due::Date)
            .or_else(|| parse_time(s).map(Due::At))
    }

    /// The moment it is overdue from.
    pub fn deadline(self) -> DateTime<Utc> {
        match self {
            Due::At(t) => t,
            Due::Date(d) => d
                .checked_add_days(Days::new(1))
                .unwrap_or(d)
                .and_time(chrono::NaiveTime::MIN)
                .and_utc(),
        }
    }
}

/// A to-do as it stands now.
#[derive(Debug, Clone, PartialEq)]
pub struct Todo {
    pub id: String,
    pub t: Option<DateTime<Utc>>,
    pub title: String,
    pub description: Option<String>,
    /// As written (`high`, `medium`, `low`, or anything else, a number as its text).
    pub priority: Option<String>,
    pub due: Option<Due>,
    pub done: bool,
    /// When it was completed.
    pub done_at: Option<DateTime<Utc>>,
    pub line: u64,
}

impl Todo {
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Open, and past its due time at `now`.
    pub fn overdue(&self, now: DateTime<Utc>) -> bool {
        !self.is_done() && self.due.is_some_and(|d| now >= d.deadline())
    }
}

/// The to-dos folded.
#[derive(Debug, Clone)]
pub struct Todos {
    by_id: Keyed<Todo>,
    pub added: u64,
    pub completed: u64,
    /// Complete lines for ids not kept, or already done.
    pub completed_unknown: u64,
    pub counts: LineCounts,
}

impl Default for Todos {
    fn default() -> Self {
        Self {
            by_id: Keyed::new(KEPT_TODOS),
            added: 0,
            completed: 0,
            completed_unknown: 0,
            counts: LineCounts::default(),
        }
    }
}

impl Todos {
    /// Folds line `line_no` (0-based): `add`, `complete`; other ops pass through.
    pub fn push(&mut self, line_no: u64, bytes: &[u8]) -> Result<(), LineError> {
        self.counts.fold(bytes, |line| {
            match line.op.as_str() {
                TodoAdd::OP => {
                    let add: TodoAdd = read(&line.fields);
                    let id = key(add.id.clone(), "id")?;
                    self.added += 1;
                    let todo = todo(line, add, id.clone(), line_no);
                    if self.by_id.remove(&id).is_some_and(|old| old.is_done()) {
                        self.completed -= 1;
                    }
                    self.by_id.insert(id, todo);
                }
                TodoComplete::OP => match self
                    .by_id
                    .get_mut(&key(read::<TodoComplete>(&line.fields).id, "id")?)
                {
                    Some(todo) if !todo.is_done() => {
                        todo.done = true;
                        todo.done_at = line.t;
                        self.completed += 1;
                    }
                    _ => self.completed_unknown += 1,
                },
                _ => {}
            }
            Ok(())
        })
    }

    /// Every to-do kept, oldest first.
    pub fn all(&self) -> impl DoubleEndedIterator<Item = &Todo> + ExactSizeIterator {
        self.by_id.iter()
    }

    pub fn get(&self, id: &str) -> Option<&Todo> {
        self.by_id.get(id)
    }

    /// Open to-dos (of those kept).
    pub fn open(&self) -> u64 {
        self.by_id.iter().filter(|t| !t.is_done()).count() as u64
    }

    /// Done to-dos (of those kept).
    pub fn done(&self) -> u64 {
        self.by_id.iter().filter(|t| t.is_done()).count() as u64
    }

    /// Open to-dos past their due time at `now`.
    pub fn overdue(&self, now: DateTime<Utc>) -> u64 {
        self.by_id.iter().filter(|t| t.overdue(now)).count() as u64
    }
}

fn todo(line: &OpLine, add: TodoAdd, id: String, line_no: u64) -> Todo {
    let priority = match add.priority {
        Some(Priority::Text(s)) => text(Some(s)),
        Some(Priority::Number(n)) => Some(n.to_string()),
        None => None,
    };
    Todo {
        id,
        t: line.t,
        title: add.title.unwrap_or_default(),
        description: text(add.description),
        priority,
        due: text(add.due).and_then(|d| Due::parse(&d)),
        done: false,
        done_at: None,
        line: line_no,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        parse_time(s).unwrap()
    }

    #[test]
    fn open_done_and_overdue_at_the_edge() {
        let mut t = Todos::default();
        let lines = [
            r#"{"t":"2026-11-22T10:00:00Z","op":"add","id":"td1","title":"Answer Ada","priority":"high","due":"2026-11-22"}"#,
            r#"{"t":"2026-11-22T10:01:00Z","op":"add","id":"td2","title":"Read","priority":2,"due":"2026-11-22T12:00:00Z"}"#,
            r#"{"t":"2026-11-22T10:02:00Z","op":"add","id":"td3","title":"Walk","description":"to the well"}"#,
            r#"{"t":"2026-11-22T11:00:00Z","op":"complete","id":"td3"}"#,
            r#"{"op":"complete","id":"td3"}"#,
            r#"{"op":"complete","id":"td9"}"#,
            r#"{"op":"complete"}"#,
        ];
        let results: Vec<_> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| t.push(i as u64, l.as_bytes()))
            .collect();
        assert_eq!(results[6], Err(LineError::Missing("id")));
        assert_eq!(
            (t.open(), t.done(), t.completed, t.completed_unknown),
            (2, 1, 1, 2)
        );
        assert_eq!(t.get("td2").unwrap().priority.as_deref(), Some("2"));
        assert_eq!(t.overdue(at("2026-11-22T11:59:59Z")), 0);
        assert_eq!(t.overdue(at("2026-11-22T12:00:00Z")), 1);
        assert_eq!(t.overdue(at("2026-11-22T23:59:59Z")), 1);
        assert_eq!(t.overdue(at("2026-11-23T00:00:00Z")), 2);
        assert!(!t.get("td3").unwrap().overdue(at("2030-01-01T00:00:00Z")));
    }
}
