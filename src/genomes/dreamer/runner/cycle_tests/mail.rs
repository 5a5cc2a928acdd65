//! Messages between creatures through the engine: a `send_message` call and its delivery,
//! and a message from another creature, with the dreamer. No IO, no clock.

use serde_json::json;

use super::{H, text_of};
use crate::control::ControlCommand;
use crate::llm::ContentBlock;
use crate::memory::status::Status;
use crate::runner::engine::input::Input;
use crate::runner::engine::output::{Output, Record};
use crate::runner::genome::Incoming;
use crate::runner::mail::{Delivery, Outgoing};
use serde_json::Value;

fn from(name: &str, text: &str) -> Incoming {
    Incoming {
        from: name.into(),
        text: text.into(),
        direct: true,
        urgent: false,
        priority: None,
        payload: None,
    }
}

/// The creature calls `send_message{to, text}`: the engine posts it.
fn send(h: &mut H, to: &str, text: &str) -> (u64, Outgoing) {
    let c = h.call("send_message", json!({"to": to, "text": text}));
    h.reply(vec![c]);
    h.out
        .iter()
        .find_map(|o| match o {
            Output::Send { id, message } => Some((*id, message.clone())),
            _ => None,
        })
        .expect("a message is posted")
}

fn tool_result(h: &H) -> (String, bool) {
    let (_, _, req) = h.llm().expect("the next turn");
    req.messages
        .last()
        .and_then(|m| {
            m.content.iter().find_map(|b| match b {
                ContentBlock::ToolResult {
                    content, is_error, ..
                } => Some((content.clone(), *is_error)),
                _ => None,
            })
        })
        .expect("a tool result")
}

fn sent_event(h: &H) -> Option<serde_json::Map<String, Value>> {
    h.out.iter().find_map(|o| match o {
        Output::Record(Record::Event { kind, fields, .. })
            if kind.as_str() == "creature.message_sent" =>
        {
            Some(fields.clone())
        }
        _ => None,
    })
}

#[test]
fn a_delivered_message_answers_the_tool_and_is_recorded_as_sent() {
    let mut h = H::fresh();
    assert!(
        h.llm()
            .unwrap()
            .2
            .tools
            .iter()
            .any(|t| t.name == "send_message"),
        "the dreamer offers send_message"
    );
    let (id, message) = send(&mut h, "wren", "hello wren");
    assert_eq!(
        message,
        Outgoing {
            to: "wren".into(),
            text: "hello wren".into(),
            payload: None
        }
    );
    assert!(
        h.llm().is_none() || h.new_llm().is_none(),
        "waits for the delivery"
    );
    h.send(Input::Sent {
        id,
        message,
        delivery: Delivery::Delivered,
    });
    let fields = sent_event(&h).expect("a creature.message_sent event");
    assert_eq!(fields["to"], "wren");
    assert_eq!(fields["text"], "hello wren");
    assert_eq!(fields["delivery"], "delivered");
    assert_eq!(tool_result(&h), ("Delivered to wren.".into(), false));
    assert_eq!(h.fsm.fatigue(), 1, "a tool call like any other");
}

#[test]
fn an_unknown_recipient_or_no_garden_is_an_error_the_creature_reads() {
    let mut h = H::fresh();
    let (id, message) = send(&mut h, "nobody", "hi");
    h.send(Input::Sent {
        id,
        message,
        delivery: Delivery::UnknownRecipient {
            known: vec!["moss".into(), "wren".into()],
        },
    });
    let (text, is_error) = tool_result(&h);
    assert!(is_error);
    assert!(text.contains("no creature named `nobody`"), "{text}");
    assert!(text.contains("moss, wren"), "{text}");
    assert_eq!(sent_event(&h).unwrap()["delivery"], "unknown recipient");

    let (id, message) = send(&mut h, "wren", "hi");
    h.send(Input::Sent {
        id,
        message,
        delivery: Delivery::NotInGarden,
    });
    let (text, is_error) = tool_result(&h);
    assert!(is_error && text.contains("not in a garden"), "{text}");
}

#[test]
fn send_message_without_a_recipient_is_refused_at_once() {
    let mut h = H::fresh();
    let c = h.call("send_message", json!({"text": "to whom?"}));
    h.reply(vec![c]);
    assert!(!h.out.iter().any(|o| matches!(o, Output::Send { .. })));
    let (text, is_error) = tool_result(&h);
    assert!(is_error && text.contains("`to`"), "{text}");
}

#[test]
fn a_message_from_a_creature_goes_to_inbox_log_events_and_context() {
    let mut h = H::fresh();
    // Arrives while a tool runs: after the results in the next turn.
    let c = h.call("bash", json!({"command": "ls"}));
    h.reply(vec![c]);
    h.send(Input::Message(from("wren", "the river is rising")));
    assert!(h.wrote(
        |w| matches!(w, Record::AppendInbox { text, .. } if text == "From wren: the river is rising")
    ));
    assert!(h.wrote(|w| matches!(w, Record::InboxDelivered(_))));
    let event = h
        .out
        .iter()
        .find_map(|o| match o {
            Output::Record(Record::Event { kind, fields, .. })
                if kind.as_str() == "creature.message" =>
            {
                Some(fields.clone())
            }
            _ => None,
        })
        .expect("a creature.message event");
    assert_eq!(event["from"], "wren");
    assert_eq!(event["source"], "garden");
    h.run_tools();
    let (_, _, req) = h.llm().unwrap();
    let last = req.messages.last().unwrap();
    assert!(matches!(last.content[0], ContentBlock::ToolResult { .. }));
    let text = text_of(&req);
    assert!(text.contains("MESSAGE FROM wren"), "{text}");
    assert!(text.contains("the river is rising"), "{text}");
    assert!(
        h.all.iter().any(
            |o| matches!(o, Output::Record(Record::Conversation { content, .. })
            if content.contains("the river is rising"))
        ),
        "logged in conversation.jsonl"
    );
}

#[test]
fn a_paused_creature_receives_and_reads_it_when_resumed() {
    let mut h = H::fresh();
    h.control(ControlCommand::Pause);
    h.reply_text("thinking");
    h.send(Input::Message(from("moss", "are you there?")));
    assert_eq!(h.fsm.status(), Status::Paused);
    assert!(h.wrote(|w| matches!(w, Record::AppendInbox { .. })));
    assert!(h.new_llm().is_none(), "no turn while paused");
    h.control(ControlCommand::Resume);
    let (_, _, req) = h.llm().unwrap();
    assert!(text_of(&req).contains("are you there?"));
}

#[test]
fn a_message_reaches_a_sleeping_dreamer_without_waking_it() {
    let mut h = H::fresh();
    h.set_sleep(10.0);
    h.send(Input::Message(from("moss", "psst")));
    assert!(matches!(h.fsm.status(), Status::Napping { .. }));
    h.wake();
    let (_, _, req) = h.llm().unwrap();
    assert!(text_of(&req).contains("psst"));
}
