//! Messages and the neural link: `send_message` through the garden (a `said` line and an
//! interaction on both sides), and the memory transfer of seed 003. A asks B
//! (`neural_link_request_memory{agent: B}`: a message whose payload B's genome reads); B
//! may accept within the window (2 minutes by the engine's clock:
//! `neural_link_share_memory{agent: A}`), which sends A its whole memory bank (its current
//! long-term memories and its memory summaries, never the soul); A copies them under new
//! ids, with where they came from. Nothing is removed from either. Both record it in
//! `longterm.jsonl` (`neural_link {agent, role}`: requested, received, shared, expired).

use super::config;
use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::tools::{done, str_arg};
use super::{Emergence, IdKind, Summary, SummaryKind, append};
use crate::genomes::emergence::memory::longterm::{LinkRole, NeuralLinkLine};
use crate::memory::op_line::OpRecord;
use crate::runner::genome::{Cx, Incoming, IoProgress, ToolReply};
use crate::runner::mail::{self, Delivery, Outgoing};

pub const REQUEST_MEMORY: &str = "neural_link_request_memory";
pub const SHARE_MEMORY: &str = "neural_link_share_memory";

/// The payload key and its two values.
const LINK: &str = "neural_link";
const REQUEST: &str = "request";
const SHARE: &str = "share";

/// A message in flight: what to record once the garden says what became of it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Sending {
    Message {
        to: String,
        text: String,
    },
    Request {
        to: String,
    },
    Share {
        to: String,
        memories: usize,
        summaries: usize,
    },
}

/// Neural-link requests on both sides: those this creature made, those made to it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Links {
    /// Agent -> when this creature asked it.
    pub asked: BTreeMap<String, DateTime<Utc>>,
    /// Agent -> when it asked this creature.
    pub asked_by: BTreeMap<String, DateTime<Utc>>,
}

/// Whether a request `age_s` creature seconds old may still be accepted.
pub fn within_window(age_s: f64, window_s: f64) -> bool {
    (0.0..=window_s).contains(&age_s)
}

impl Emergence {
    /// `send_message`, `neural_link_request_memory`, `neural_link_share_memory`.
    pub(super) fn link_tool(
        &mut self,
        name: &str,
        input: &Value,
        cx: &mut Cx<'_, Self>,
    ) -> Option<ToolReply> {
        let refuse = |text: String| Some(ToolReply::Done(done(false, text)));
        match name {
            mail::SEND_MESSAGE => {
                let (Some(to), Some(text)) = (str_arg(input, "to"), str_arg(input, "text")) else {
                    return refuse("Error: send_message needs a non-empty `to` and `text`".into());
                };
                let (to, text) = (to.to_string(), text.to_string());
                let id = cx.send(Outgoing {
                    to: to.clone(),
                    text: text.clone(),
                    payload: None,
                });
                self.sending = Some((id, Sending::Message { to, text }));
                Some(ToolReply::Pending)
            }
            REQUEST_MEMORY => {
                let Some(to) = str_arg(input, "agent").map(str::to_string) else {
                    return refuse(format!("Error: {REQUEST_MEMORY} needs `agent`"));
                };
                let text = format!(
                    "{} asks for your memory bank through the neural link. To give it (your \
                     long-term memories and summaries, not your soul; you lose nothing), call \
                     {SHARE_MEMORY}{{agent: \"{}\"}} within {} seconds.",
                    self.name,
                    self.name,
                    config::of(cx.cfg).link_window_s
                );
                // Asked from now on: the answer may come before the delivery is known.
                self.links.asked.insert(to.clone(), cx.now);
                let id = cx.send(Outgoing {
                    to: to.clone(),
                    text,
                    payload: Some(json!({LINK: REQUEST})),
                });
                self.sending = Some((id, Sending::Request { to }));
                Some(ToolReply::Pending)
            }
            SHARE_MEMORY => {
                let Some(to) = str_arg(input, "agent").map(str::to_string) else {
                    return refuse(format!("Error: {SHARE_MEMORY} needs `agent`"));
                };
                let window = config::of(cx.cfg).link_window_s;
                let Some(at) = self.links.asked_by.get(&to).copied() else {
                    return refuse(format!("Refused: {to} has not asked for your memory bank."));
                };
                let age = cx.cfg.creature_secs(cx.now - at);
                if !within_window(age, window) {
                    self.links.asked_by.remove(&to);
                    return refuse(format!(
                        "Refused: {to}'s request came {}s ago; a neural link must be accepted \
                         within {window}s.",
                        age.round()
                    ));
                }
                let memories: Vec<Value> = self
                    .active_memories()
                    .map(|m| json!({"id": m.id, "text": m.text}))
                    .collect();
                let summaries: Vec<Value> = self
                    .summaries
                    .iter()
                    .filter(|s| s.kind == SummaryKind::Memories)
                    .map(|s| json!({"id": s.id, "focus": s.focus, "text": s.text, "covers": s.covers}))
                    .collect();
                let (m, s) = (memories.len(), summaries.len());
                let id = cx.send(Outgoing {
                    to: to.clone(),
                    text: format!(
                        "{} shared its memory bank with you through the neural link: {m} \
                         memories and {s} summaries, now in your long-term memory.",
                        self.name
                    ),
                    payload: Some(
                        json!({LINK: SHARE, "memories": memories, "summaries": summaries}),
                    ),
                });
                self.sending = Some((
                    id,
                    Sending::Share {
                        to,
                        memories: m,
                        summaries: s,
                    },
                ));
                Some(ToolReply::Pending)
            }
            _ => None,
        }
    }

    /// What became of a message this creature sent: recorded, and the tool's answer.
    pub(super) fn sent(
        &mut self,
        id: u64,
        delivery: &Delivery,
        cx: &mut Cx<'_, Self>,
    ) -> IoProgress {
        let Some((want, sending)) = self.sending.take() else {
            return IoProgress::Nothing;
        };
        if want != id {
            self.sending = Some((want, sending));
            return IoProgress::Nothing;
        }
        let to = match &sending {
            Sending::Message { to, .. } | Sending::Request { to } | Sending::Share { to, .. } => {
                to.clone()
            }
        };
        if !delivery.delivered() {
            if matches!(sending, Sending::Request { .. }) {
                self.links.asked.remove(&to);
            }
            return IoProgress::Tool(delivery.outcome(&to));
        }
        let text = match sending {
            Sending::Message { to, text } => {
                let me = self.name.clone();
                self.said(&to, &me, &text, cx);
                return IoProgress::Tool(delivery.outcome(&to));
            }
            Sending::Request { to } => {
                self.link_line(&to, LinkRole::Requested, None, cx);
                format!(
                    "Asked {to} for its memory bank; it has {}s to accept.",
                    config::of(cx.cfg).link_window_s
                )
            }
            Sending::Share {
                to,
                memories,
                summaries,
            } => {
                self.links.asked_by.remove(&to);
                self.link_line(&to, LinkRole::Shared, Some((memories, summaries)), cx);
                format!(
                    "Shared {memories} memories and {summaries} summaries with {to}; you keep them all."
                )
            }
        };
        IoProgress::Tool(done(true, text))
    }

    /// A message's neural-link payload, if any: a request to remember (true), or a bank
    /// to copy.
    pub(super) fn link_payload(&mut self, m: &Incoming, cx: &mut Cx<'_, Self>) -> bool {
        let Some(payload) = &m.payload else {
            return false;
        };
        match payload.get(LINK).and_then(Value::as_str) {
            Some(REQUEST) => {
                self.links.asked_by.insert(m.from.clone(), cx.now);
                true
            }
            Some(SHARE) => {
                // Not asked for (or expired): nothing is copied.
                if self.links.asked.remove(&m.from).is_some() {
                    self.receive_bank(&m.from, payload, cx);
                }
                false
            }
            _ => false,
        }
    }

    /// Copies another agent's memory bank under new ids, with where each came from.
    fn receive_bank(&mut self, from: &str, payload: &Value, cx: &mut Cx<'_, Self>) {
        let items = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let field = |v: &Value, k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let mut memories = 0;
        for m in items("memories") {
            let text = field(&m, "text");
            if !text.trim().is_empty() {
                self.remember(&text, Some((from, &field(&m, "id"))), cx);
                memories += 1;
            }
        }
        let mut lines = Vec::new();
        for s in items("summaries") {
            let summary = Summary {
                id: self.new_id(IdKind::Summary),
                t: cx.now,
                kind: SummaryKind::Memories,
                focus: field(&s, "focus"),
                text: field(&s, "text"),
                covers: Vec::new(),
                folded: Vec::new(),
                watermark: None,
                from: Some(from.to_string()),
            };
            lines.push(summary.record(Some(field(&s, "id"))).line());
            self.summaries.push(summary);
        }
        let summaries = lines.len();
        if !lines.is_empty() {
            append(cx, crate::genomes::emergence::memory::SUMMARIES, lines);
        }
        self.link_line(from, LinkRole::Received, Some((memories, summaries)), cx);
    }

    /// A `neural_link` line in `longterm.jsonl`.
    fn link_line(
        &self,
        agent: &str,
        role: LinkRole,
        counts: Option<(usize, usize)>,
        cx: &mut Cx<'_, Self>,
    ) {
        let line = NeuralLinkLine {
            agent: Some(agent.to_string()),
            role: Some(role),
            memories: counts.map(|(m, _)| m as u64),
            summaries: counts.map(|(_, s)| s as u64),
        };
        append(
            cx,
            crate::genomes::emergence::memory::LONG_TERM,
            vec![line.line()],
        );
    }

    /// Whether a request made to this creature may still be accepted.
    pub(super) fn link_waiting(&self, cx: &Cx<'_, Self>) -> bool {
        let window = config::of(cx.cfg).link_window_s;
        self.links
            .asked_by
            .values()
            .any(|at| within_window(cx.cfg.creature_secs(cx.now - *at), window))
    }

    /// Requests this creature made that passed the window unanswered: recorded as
    /// expired, and said.
    pub(super) fn expired_requests(&mut self, cx: &mut Cx<'_, Self>) -> Option<String> {
        let window = config::of(cx.cfg).link_window_s;
        let now = cx.now;
        let gone: Vec<String> = self
            .links
            .asked
            .iter()
            .filter(|(_, at)| cx.cfg.creature_secs(now - **at) > window)
            .map(|(a, _)| a.clone())
            .collect();
        for agent in &gone {
            self.links.asked.remove(agent);
            self.link_line(agent, LinkRole::Expired, None, cx);
        }
        (!gone.is_empty()).then(|| {
            format!(
                "[Neural link] No answer within {window}s from {}: the request expired.",
                gone.join(", ")
            )
        })
    }
}
