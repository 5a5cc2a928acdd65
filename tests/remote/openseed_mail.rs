//! The OpenSeed client's mail and narration routes against the stand-in, and the
//! stand-in answering them as the orchestrator's code does (status codes, bodies, no
//! content type on `ok`, the events a delivery emits).

use std::sync::Arc;
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use dreamwatch::openseed::mail::read_sent;
use dreamwatch::openseed::{CREATOR, Client, EventKind, Letter, NarratorConfig, Streamed, Tokens};
use serde_json::{Value, json};

async fn garden() -> StandIn {
    StandIn::start(&[
        ("finch", Creature::new("running")),
        ("wren", Creature::new("sleeping")),
        ("moss", Creature::new("stopped")),
    ])
    .await
}

fn client(stand_in: &StandIn) -> Client {
    Client::new(
        &stand_in.base,
        Arc::new(Tokens::default()),
        Duration::from_secs(5),
    )
    .unwrap()
}

fn letter(to: &str, subject: &str, body: &str) -> Letter {
    Letter {
        from: CREATOR.into(),
        to: to.into(),
        subject: subject.into(),
        body: body.into(),
    }
}

/// The next event the stream brings (a test that gets none fails instead of hanging).
async fn next_event(
    stream: &mut dreamwatch::openseed::EventStream,
) -> dreamwatch::openseed::LiveEvent {
    loop {
        let got = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("no event came")
            .expect("the stream failed")
            .expect("the stream ended");
        if let Streamed::Event(event) = got
            && event.creature != "_orchestrator"
        {
            return event;
        }
    }
}

#[tokio::test]
async fn mail_is_read_marked_archived_and_sent_as_the_creator() {
    let stand_in = garden().await;
    let home = tempfile::tempdir().unwrap();
    stand_in.keep_mail_in(&home.path().join("mail"));
    let client = client(&stand_in);
    assert!(client.mail_directory().await.unwrap().is_empty());
    // A mailbox never made reads empty.
    let empty = client.inbox("finch").await.unwrap();
    assert_eq!((empty.total, empty.unread), (0, 0));

    let first = stand_in.mail("finch", CREATOR, "found it", "the bug is in parse()");
    let second = stand_in.mail("wren", CREATOR, "", "good morning");
    let inbox = client.inbox(CREATOR).await.unwrap();
    assert_eq!((inbox.total, inbox.unread), (2, 2));
    assert_eq!(
        inbox
            .messages
            .iter()
            .map(|m| m.id.as_str())
            .collect::<Vec<_>>(),
        [second.as_str(), first.as_str()],
        "newest first"
    );
    let directory = client.mail_directory().await.unwrap();
    let names: Vec<(&str, usize, usize)> = directory
        .iter()
        .map(|m| (m.creature.as_str(), m.total, m.unread))
        .collect();
    assert_eq!(names, [("creator", 2, 2), ("finch", 0, 0), ("wren", 0, 0)]);

    // Reading one marks nothing; marking it read does.
    let message = client.mail_message(CREATOR, &first).await.unwrap();
    assert_eq!(message.body, "the bug is in parse()");
    assert!(!message.read);
    client.mark_read(CREATOR, &first).await.unwrap();
    assert_eq!(client.inbox(CREATOR).await.unwrap().unread, 1);
    // Archived: out of the inbox, into `archived`.
    assert!(client.archive_mail(CREATOR, &first).await.unwrap());
    assert!(
        !client.archive_mail(CREATOR, &first).await.unwrap(),
        "already moved"
    );
    assert_eq!(client.inbox(CREATOR).await.unwrap().total, 1);
    assert!(stand_in.mail_file(CREATOR, "archived", &first).is_some());

    // Sent as the creator: in finch's inbox and the creator's sent (its files).
    let id = client
        .send_mail(&letter("finch", "a question", "what did you find?"))
        .await
        .unwrap();
    assert_eq!(
        stand_in.mail_file("finch", "inbox", &id).unwrap()["body"],
        "what did you find?"
    );
    let sent = read_sent(&home.path().join("mail").join(CREATOR)).unwrap();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].to.as_str(), sent[0].subject.as_str()),
        ("finch", "a question")
    );
}

#[tokio::test]
async fn sending_refusals_are_in_words() {
    let stand_in = garden().await;
    let client = client(&stand_in);
    // A stopped creature has no supervisor: no recipient.
    let refused = client
        .send_mail(&letter("moss", "", "hello"))
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        refused,
        "the orchestrator refused (404): unknown recipient \"moss\". known creatures: finch, wren"
    );
    let refused = client
        .send_mail(&letter("finch", "", ""))
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        refused,
        "the orchestrator refused (400): to and body are required"
    );
    let mut bad = letter("finch", "", "hi");
    bad.from = "Creator".into();
    let refused = client.send_mail(&bad).await.unwrap_err().to_string();
    assert_eq!(
        refused,
        "the orchestrator refused (400): invalid creature name: \"Creator\""
    );
    let refused = client
        .mail_message(CREATOR, "not-an-id")
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        refused,
        "the orchestrator refused (400): invalid message id"
    );
    let refused = client
        .mail_message(CREATOR, "00000000-0000-4000-8000-000000000000")
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(refused, "the orchestrator refused (404): not found");
}

#[tokio::test]
async fn a_delivery_wakes_a_sleeper_and_tells_an_awake_one() {
    let stand_in = garden().await;
    let client = client(&stand_in);
    let mut stream = client.events().await.unwrap();
    client
        .send_mail(&letter("wren", "dawn", "wake up"))
        .await
        .unwrap();
    let wake = next_event(&mut stream).await;
    assert_eq!(wake.creature, "wren");
    assert!(
        matches!(&wake.kind, EventKind::Wake { reason, source } if reason == "mail from creator (subject: \"dawn\")" && source == "mail"),
        "{wake:?}"
    );
    assert_eq!(stand_in.creature("wren").status, "running");
    client.send_mail(&letter("finch", "", "hi")).await.unwrap();
    let told = next_event(&mut stream).await;
    assert_eq!(told.creature, "finch");
    assert!(
        matches!(&told.kind, EventKind::Message { text, source } if text.starts_with("[MAIL] New message from creator.") && source == "system"),
        "{told:?}"
    );
}

#[tokio::test]
async fn the_mail_routes_answer_as_the_orchestrators() {
    let stand_in = garden().await;
    let id = stand_in.mail("finch", CREATOR, "s", "b");
    let raw = reqwest::Client::new();
    let read = raw
        .post(format!(
            "{}/api/creatures/{CREATOR}/mail/{id}/read",
            stand_in.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), 200);
    assert!(!read.headers().contains_key("content-type"));
    assert_eq!(read.json::<Value>().await.unwrap(), json!({"ok": true}));
    let archive = raw
        .post(format!(
            "{}/api/creatures/{CREATOR}/mail/{id}/archive",
            stand_in.base
        ))
        .send()
        .await
        .unwrap();
    assert!(!archive.headers().contains_key("content-type"));
    assert_eq!(
        archive.json::<Value>().await.unwrap(),
        json!({"ok": true, "archived": 1})
    );
    let bad = raw
        .get(format!("{}/api/creatures/Bad/mail", stand_in.base))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert!(!bad.headers().contains_key("content-type"));
}

#[tokio::test]
async fn the_narration_and_its_config() {
    let stand_in = garden().await;
    let client = client(&stand_in);
    assert!(client.narration(50).await.unwrap().is_empty());
    let mut stream = client.events().await.unwrap();
    stand_in.narrate("**finch** opened PR #12.", &["finch"]);
    stand_in.narrate("**wren** went back to sleep.", &["wren"]);
    let streamed = next_event(&mut stream).await;
    assert_eq!(streamed.creature, "_narrator");
    assert!(
        matches!(&streamed.kind, EventKind::Narration { text } if text == "**finch** opened PR #12.")
    );
    let story = client.narration(50).await.unwrap();
    assert_eq!(story.len(), 2);
    assert_eq!(story[1].creatures_mentioned, ["wren"]);
    assert_eq!(
        client.narration(1).await.unwrap()[0].text,
        "**wren** went back to sleep."
    );

    let config = client.narrator_config().await.unwrap();
    assert_eq!(
        config,
        NarratorConfig {
            enabled: true,
            model: "claude-sonnet-4-6".into(),
            interval_minutes: 5
        }
    );
    let set = NarratorConfig {
        enabled: false,
        model: "claude-opus-4-6".into(),
        interval_minutes: 15,
    };
    assert_eq!(client.narrator_config().await.unwrap().interval_minutes, 5);
    assert_eq!(client.set_narrator_config(&set).await.unwrap(), set);
    assert_eq!(stand_in.narrator_config()["interval_minutes"], 15);
    let nothing = reqwest::Client::new()
        .put(format!("{}/api/narrator/config", stand_in.base))
        .json(&json!({"interval_minutes": 0, "model": ""}))
        .send()
        .await
        .unwrap();
    assert_eq!(nothing.status(), 400);
    assert!(!nothing.headers().contains_key("content-type"));
    assert_eq!(nothing.text().await.unwrap(), "nothing to update");
}
