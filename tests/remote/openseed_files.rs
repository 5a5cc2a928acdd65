//! A genome's files as its `genome.json` tabs declare them, and the Ranger, against the
//! stand-in orchestrator (their routes as OpenSeed's code answers them).

use std::sync::Arc;
use std::time::Duration;

use crate::common::http::openseed::{Creature, StandIn};
use dreamwatch::openseed::{
    Client, Content, OpenSeedError, RangerPart, TabKind, Tokens, files::read_local,
};
use serde_json::json;

fn client(stand_in: &StandIn) -> Client {
    Client::new(
        &stand_in.base,
        Arc::new(Tokens::default()),
        Duration::from_secs(5),
    )
    .unwrap()
}

/// A creature home with `finch`, of a genome whose `genome.json` declares tabs.
fn home() -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    let finch = home.path().join("finch");
    std::fs::create_dir_all(finch.join(".self/skills")).unwrap();
    std::fs::write(
        finch.join("genome.json"),
        json!({"name": "voyager", "tabs": [
            {"id": "purpose", "label": "purpose", "file": "PURPOSE.md", "type": "markdown"},
            {"id": "skills", "label": "skills", "file": ".self/skills/index.jsonl", "type": "jsonl", "limit": 2},
            {"id": "notes", "label": "notes", "file": "notes.txt", "type": "text"},
            {"id": "gone", "file": "missing.jsonl", "type": "jsonl"}
        ]})
        .to_string(),
    )
    .unwrap();
    std::fs::write(finch.join("PURPOSE.md"), "# Purpose\n\nExplore.\n").unwrap();
    std::fs::write(
        finch.join(".self/skills/index.jsonl"),
        "{\"t\":\"2026-03-09T10:00:00Z\",\"name\":\"one\"}\n{\"name\":\"two\"}\nbroken\n{\"t\":\"2026-03-09T11:00:00Z\",\"name\":\"three\"}\n",
    )
    .unwrap();
    std::fs::write(finch.join("notes.txt"), "plain\ntext").unwrap();
    home
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_as_the_genome_declares_them_from_the_orchestrator_and_from_disk() {
    let stand_in = StandIn::start(&[("finch", Creature::new("running"))]).await;
    let home = home();
    stand_in.set_home(home.path());
    let files = client(&stand_in).files("finch").await.unwrap();
    let labels: Vec<&str> = files.tabs.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels, ["purpose", "skills", "notes", "gone"]);
    assert_eq!(files.tabs[0].kind, TabKind::Markdown);
    assert_eq!(
        files.tabs[0].content,
        Content::Text {
            text: "# Purpose\n\nExplore.\n".into(),
            cut: false
        }
    );
    // The last two lines: `broken` is left out, as the orchestrator leaves it out.
    assert_eq!(
        files.tabs[1].content,
        Content::Rows(vec![json!({"t":"2026-03-09T11:00:00Z","name":"three"})])
    );
    assert_eq!(files.tabs[3].content, Content::Rows(Vec::new()));
    // Read from the directory, the same tabs and the same rows.
    let local = read_local(&home.path().join("finch")).unwrap();
    assert_eq!(local, files);
    // A creature it does not know: no tabs, and nothing made on disk.
    let none = client(&stand_in).files("nobody").await.unwrap();
    assert!(none.tabs.is_empty());
    assert!(!home.path().join("nobody").exists());
    let seen = stand_in.seen();
    assert!(
        seen.iter()
            .any(|s| s.method == "GET" && s.path == "/api/creatures/finch/files")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ranger_unconfigured_configured_refusing_and_forgetting() {
    let stand_in = StandIn::start(&[("finch", Creature::new("sleeping"))]).await;
    let client = client(&stand_in);
    // No model key: an answer that says so, in words.
    let none = client
        .ranger("why is it asleep?", Some("finch"))
        .await
        .unwrap();
    assert!(none.unconfigured() && none.done, "{none:?}");
    assert!(stand_in.ranger_asked().is_empty());
    let asked = stand_in.seen();
    let chat = asked.iter().find(|s| s.path == "/api/ranger/chat").unwrap();
    assert_eq!(
        chat.body,
        json!({"message": "why is it asleep?", "context": {"creature": "finch"}})
    );

    stand_in.ranger_answers(vec![
        json!({"type": "thinking", "text": "check its sleep"}),
        json!({"type": "tool_call", "name": "bash", "input": {"command": "cat creatures/finch/.sys/sleep.json"}}),
        json!({"type": "tool_result", "name": "bash", "result": "{\"reason\":\"fatigue\"}"}),
        json!({"type": "text", "text": "It chose to **sleep**."}),
    ]);
    let answer = client.ranger("why is it asleep?", None).await.unwrap();
    assert!(answer.done && !answer.unconfigured());
    assert_eq!(
        answer.parts.last(),
        Some(&RangerPart::Text("It chose to **sleep**.".into()))
    );
    assert!(matches!(&answer.parts[1], RangerPart::ToolCall { name, .. } if name == "bash"));
    assert_eq!(
        stand_in.ranger_asked(),
        [("why is it asleep?".to_owned(), None)]
    );

    match client.ranger("", None).await {
        Err(OpenSeedError::Refused { status: 400, body }) => {
            assert_eq!(body, "message is required");
        }
        other => panic!("{other:?}"),
    }
    client.ranger_reset().await.unwrap();
    assert!(stand_in.ranger_asked().is_empty());
}
