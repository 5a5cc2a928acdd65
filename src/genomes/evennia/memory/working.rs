//! `.self/working_memory.json`: the working-memory tier, one conversation per entity,
//! rewritten whole (atomically) by the runner.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::memory::json::LineError;
use crate::memory::lenient::{lenient_records, read};
use crate::memory::time::parse_time;

lenient_records! {
    /// The state of a conversation with one entity.
    pub struct ConversationState {
        topic: String,
        started_at: String,
        /// When it last moved (the runner clears conversations idle too long).
        last_at: String,
        messages: Vec<WorkingMessage>,
        pending_actions: Vec<String>,
    }

    /// One message of it.
    pub struct WorkingMessage {
        t: String,
        from: String,
        text: String,
    }
}

/// One entity's conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub entity_id: String,
    pub topic: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    pub last_at: Option<DateTime<Utc>>,
    pub messages: Vec<WorkingMessage>,
    pub pending_actions: Vec<String>,
}

/// The working memory: conversations by entity id, in id order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkingMemory {
    pub conversations: Vec<Conversation>,
}

impl WorkingMemory {
    /// A JSON object of conversations; an entry that is not an object reads as empty.
    pub fn parse(bytes: &[u8]) -> Result<Self, LineError> {
        let Value::Object(map) = serde_json::from_slice::<Value>(bytes)? else {
            return Err(LineError::NotAnObject);
        };
        let conversations = map
            .into_iter()
            .map(|(entity_id, v)| {
                let state: ConversationState = match v {
                    Value::Object(fields) => read(&fields),
                    _ => ConversationState::default(),
                };
                Conversation {
                    entity_id,
                    topic: state.topic,
                    started_at: state.started_at.as_deref().and_then(parse_time),
                    last_at: state.last_at.as_deref().and_then(parse_time),
                    messages: state.messages.unwrap_or_default(),
                    pending_actions: state.pending_actions.unwrap_or_default(),
                }
            })
            .collect();
        Ok(Self { conversations })
    }

    pub fn get(&self, entity_id: &str) -> Option<&Conversation> {
        self.conversations.iter().find(|c| c.entity_id == entity_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversations_by_entity() {
        let w = WorkingMemory::parse(br#"{"creator":{"topic":"the garden","started_at":"2026-11-22T10:00:00Z","messages":[{"t":"2026-11-22T10:00:00Z","from":"creator","text":"How is the garden?"}],"pending_actions":["answer about the roses"]},"odd":5}"#).unwrap();
        assert_eq!(w.conversations.len(), 2);
        let c = w.get("creator").unwrap();
        assert_eq!(c.topic.as_deref(), Some("the garden"));
        assert!(c.started_at.is_some());
        assert_eq!(c.messages[0].text.as_deref(), Some("How is the garden?"));
        assert_eq!(c.pending_actions, ["answer about the roses"]);
        assert_eq!(w.get("odd").unwrap().messages.len(), 0);
        assert_eq!(WorkingMemory::parse(b"[]"), Err(LineError::NotAnObject));
        assert!(WorkingMemory::parse(b"{").is_err());
    }
}
