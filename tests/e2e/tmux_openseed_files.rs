//! The real binary attached to the stand-in orchestrator: a creature's files as its
//! genome's tabs declare them, and the Ranger with no model key, from the OpenSeed menu.

use serde_json::json;

use crate::common::ui::Garden;
use crate::support::{Pane, tmux_available};
use crate::tmux_openseed::{ember_running_pip_asleep, openseed_home};

#[test]
fn files_and_the_ranger_from_the_menu() {
    if !tmux_available() {
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    let stand_in = rt.block_on(ember_running_pip_asleep());
    let garden = Garden::new();
    let ember = garden.creature("ember");
    std::fs::write(
        ember.join("genome.json"),
        json!({"tabs": [
            {"id": "purpose", "label": "purpose", "file": "PURPOSE.md", "type": "markdown"},
            {"id": "log", "label": "logbook", "file": "log.jsonl", "type": "jsonl"}
        ]})
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        ember.join("log.jsonl"),
        "{\"t\":\"2026-03-09T10:00:00Z\",\"entry\":\"charted the northern reef\"}\n",
    )
    .unwrap();
    let home = openseed_home(&garden, &stand_in);
    stand_in.set_home(&home.path().join("creatures"));
    let pane = Pane::start_with(&[("OPENSEED_HOME", home.path())], &[]);
    pane.wait_text("OpenSeed running");
    pane.keys(&["A"]);
    pane.wait_text("OpenSeed: ember");
    pane.keys(&["f"]);
    pane.wait_text("its genome's files (from its orchestrator)");
    pane.keys(&["Right"]);
    pane.wait_text("charted the northern reef");
    pane.keys(&["Escape"]);
    std::thread::sleep(std::time::Duration::from_millis(400));
    pane.keys(&["A", "R"]);
    pane.wait_text("Ask the Ranger");
    pane.keys(&["w", "h", "y", "Enter"]);
    pane.wait_text("has no Ranger configured");
    drop(pane);
    drop(rt);
}
