//! A genome's own script for the rehearsal brain's creature turns: what a creature of it
//! does, offline, session after session. The rehearsal brain keeps one script per genome
//! for the creature's life; a genome without one is played by the shared script.

use std::fmt;

use serde_json::Value;

use super::task::Turn;
use crate::llm::{ContentBlock, Response, StopReason};

/// The turns of one creature, scripted: state kept from turn to turn.
pub trait ScriptedTurns: Send {
    fn turn(&mut self, turn: &Turn) -> Response;
}

/// Which script plays a genome's turns, and how a fresh one is made.
#[derive(Clone, Copy)]
pub struct TurnScript {
    /// Tells the scripts apart (the genome's name).
    pub name: &'static str,
    pub new: fn() -> Box<dyn ScriptedTurns>,
}

impl fmt::Debug for TurnScript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TurnScript({})", self.name)
    }
}

impl PartialEq for TurnScript {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// A scripted turn: what the creature says, then its tool calls (ids from `call_id`).
pub fn scripted(
    say: Option<String>,
    calls: Vec<(String, Value)>,
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
