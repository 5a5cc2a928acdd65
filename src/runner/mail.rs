//! Messages between creatures of one garden, and to their creator.
//!
//! A genome's tool sends with [`crate::runner::genome::Cx::send`] (an [`Outgoing`]); the
//! driver hands it to the garden's [`Postbox`] and feeds the [`Delivery`] back, which the
//! genome turns into its tool's result ([`crate::runner::genome::Genome::on_sent`]; the
//! default answers a pending `send_message` call with [`Delivery::outcome`]). The garden
//! delivers to the recipient's engine as an [`crate::runner::genome::Incoming`] with `direct: true`.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::genome::{Cx, Genome, GenomeTool, ToolCall, ToolReply, ToolTime};
use super::tools::ToolOutcome;
use crate::llm::ToolSpec;

/// The tool every genome may offer to talk to the others.
pub const SEND_MESSAGE: &str = "send_message";

/// The creator's name as a recipient and a sender.
pub const CREATOR: &str = "creator";

/// A message a creature sends: to another creature of its garden by name, or to
/// [`CREATOR`]. `payload` carries structured data for the recipient's genome (a neural
/// link's request or memories); the model only ever sees `text`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub to: String,
    pub text: String,
    pub payload: Option<Value>,
}

/// What became of an [`Outgoing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Handed to the recipient (in its context, or in its inbox when it does not run now).
    Delivered,
    /// Recorded for the creator: the sender's logs and the observatory.
    ToCreator,
    /// No creature of that name in the garden; `known` are the names there are.
    UnknownRecipient { known: Vec<String> },
    /// The creature is hosted alone: only [`CREATOR`] can be written to.
    NotInGarden,
    /// The recipient could not be reached (its inbox could not be written): why.
    Failed(String),
}

impl Delivery {
    pub fn delivered(&self) -> bool {
        matches!(self, Delivery::Delivered | Delivery::ToCreator)
    }

    /// How the events file names it.
    pub fn label(&self) -> &'static str {
        match self {
            Delivery::Delivered => "delivered",
            Delivery::ToCreator => "creator",
            Delivery::UnknownRecipient { .. } => "unknown recipient",
            Delivery::NotInGarden => "not in a garden",
            Delivery::Failed(_) => "failed",
        }
    }

    /// The `send_message` tool's result for a message to `to`.
    pub fn outcome(&self, to: &str) -> ToolOutcome {
        let (ok, text) = match self {
            Delivery::Delivered => (true, format!("Delivered to {to}.")),
            Delivery::ToCreator => (
                true,
                "Recorded for your creator: they see it in the observatory.".to_string(),
            ),
            Delivery::UnknownRecipient { known } if known.is_empty() => (
                false,
                format!("Error: no creature named `{to}` in your garden; it has no others."),
            ),
            Delivery::UnknownRecipient { known } => (
                false,
                format!(
                    "Error: no creature named `{to}` in your garden; there are {}.",
                    known.join(", ")
                ),
            ),
            Delivery::NotInGarden => (
                false,
                format!(
                    "Error: `{to}` cannot be reached: you live alone (not in a garden); you can \
                     write to `{CREATOR}`."
                ),
            ),
            Delivery::Failed(why) => (false, format!("Error: could not deliver to {to}: {why}")),
        };
        ToolOutcome {
            ok,
            display: text.clone(),
            content: text,
            ms: 0,
        }
    }
}

/// Where a driver posts its creature's messages: the garden hosting it.
pub trait Postbox: Send + Sync {
    /// Routes `message` from the creature named `from`, at `now`.
    fn post(&self, from: &str, message: &Outgoing, now: DateTime<Utc>) -> Delivery;
}

/// `send_message{to, text}` for a genome's [`crate::runner::genome::Genome::tools`]:
/// `mates` are the other creatures of the garden (empty when alone).
pub fn send_message_tool(mates: &[String]) -> GenomeTool {
    let who = if mates.is_empty() {
        format!("You live alone: only `{CREATOR}` can be written to.")
    } else {
        format!(
            "The others in your garden: {}; or `{CREATOR}`.",
            mates.join(", ")
        )
    };
    GenomeTool {
        spec: ToolSpec {
            name: SEND_MESSAGE.into(),
            description: format!(
                "Send a message to another creature of your garden by name, or to your \
                 creator. {who} The answer says whether it was delivered."
            ),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "to": {"type": "string", "description": "A creature's name, or creator"},
                    "text": {"type": "string"}
                },
                "required": ["to", "text"]
            }),
        },
        when: ToolTime::Awake,
    }
}

/// Handles a `send_message` call (`None` for another tool): sends, and the result comes
/// with the delivery. A call without `to` or `text` is refused at once.
pub fn call_send_message<G: Genome>(call: &ToolCall, cx: &mut Cx<'_, G>) -> Option<ToolReply> {
    if call.name != SEND_MESSAGE {
        return None;
    }
    let field = |k: &str| {
        call.input
            .get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let (Some(to), Some(text)) = (field("to"), field("text")) else {
        let text = "Error: send_message needs a non-empty `to` and `text`".to_string();
        return Some(ToolReply::Done(ToolOutcome {
            ok: false,
            display: text.clone(),
            content: text,
            ms: 0,
        }));
    };
    cx.send(Outgoing {
        to,
        text,
        payload: None,
    });
    Some(ToolReply::Pending)
}
