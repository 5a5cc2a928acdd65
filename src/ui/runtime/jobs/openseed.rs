//! Asking the orchestrator what an OpenSeed action asks of it, and what the status line
//! says of the dashboard's actions (spawn, lifecycle, budgets) while under way and done.

use crate::openseed::lifecycle::cents;
use crate::openseed::{Cap, Client, Lifecycle, OpenSeedError};
use crate::ui::popups::genome_files::Source;
use crate::ui::update::{Fetched, OpenSeedAction};

/// Does `action` for the creature the orchestrator names `name`: what it read, if it
/// was asked to read.
pub(super) async fn ask(
    client: &Client,
    name: &str,
    action: &OpenSeedAction,
) -> Result<Option<Box<Fetched>>, OpenSeedError> {
    match action {
        OpenSeedAction::Wake => client.wake(name).await.map(|()| None),
        OpenSeedAction::Message(text) => client.message(name, text).await.map(|()| None),
        OpenSeedAction::Stop => client.stop(name).await.map(|()| None),
        OpenSeedAction::Start => client.start(name).await.map(|()| None),
        OpenSeedAction::Lifecycle(what) => client.lifecycle(name, *what).await.map(|()| None),
        OpenSeedAction::Spawn(request) => client.spawn(request).await.map(|()| None),
        OpenSeedAction::SpawnChoices => {
            let (genomes, models) = tokio::join!(client.genomes(), client.models());
            Ok(Some(Box::new(Fetched::SpawnChoices {
                genomes: genomes?,
                models: models?,
            })))
        }
        OpenSeedAction::ReadCap { global } => {
            let cap = if *global {
                client.global_cap().await?
            } else {
                let budget = client.budget(name).await?;
                Cap {
                    daily_usd: budget.daily_cap_usd,
                    action: budget.action,
                }
            };
            Ok(Some(Box::new(fetched_cap(*global, &cap))))
        }
        OpenSeedAction::Files => {
            let files = client.files(name).await?;
            Ok(Some(Box::new(Fetched::Files {
                files,
                source: Source::Orchestrator,
            })))
        }
        OpenSeedAction::Ranger { text, about } => {
            let answer = client.ranger(text, about.as_deref()).await?;
            Ok(Some(Box::new(Fetched::Ranger(answer))))
        }
        OpenSeedAction::RangerForget => client.ranger_reset().await.map(|()| None),
        OpenSeedAction::SetCap {
            global,
            cents,
            action,
        } => {
            let cap = Cap {
                daily_usd: *cents as f64 / 100.0,
                action: action.clone(),
            };
            let now = client.set_cap((!global).then_some(name), &cap).await?;
            Ok(Some(Box::new(fetched_cap(*global, &now))))
        }
    }
}

fn fetched_cap(global: bool, cap: &Cap) -> Fetched {
    Fetched::Cap {
        global,
        cents: cents(cap.daily_usd),
        action: cap.action.clone(),
    }
}

/// Who an action is about, as the status line names it: the creature, the one spawned,
/// or every creature for the global cap.
pub(super) fn about(action: &OpenSeedAction, name: &str) -> String {
    match action {
        OpenSeedAction::Spawn(request) => request.name.clone(),
        OpenSeedAction::SpawnChoices => "a spawn".into(),
        OpenSeedAction::ReadCap { global: true } | OpenSeedAction::SetCap { global: true, .. } => {
            "every creature (the global cap)".into()
        }
        OpenSeedAction::Ranger { about, .. } => {
            about.clone().unwrap_or_else(|| "the garden".into())
        }
        OpenSeedAction::RangerForget => "the Ranger".into(),
        _ => name.to_owned(),
    }
}

/// What the status line says while the dashboard's `action` is under way, and once done;
/// `None` for the creature keys' own (wake, message, stop, start).
pub(super) fn texts(action: &OpenSeedAction, name: &str) -> Option<(String, String)> {
    Some(match action {
        OpenSeedAction::Lifecycle(Lifecycle::Restart) => (
            format!("restarting {name}'s container…"),
            format!("{name}'s container restarted (its environment kept)"),
        ),
        OpenSeedAction::Lifecycle(Lifecycle::Rebuild) => (
            format!("rebuilding {name}'s image and container (this may take minutes)…"),
            format!("{name} rebuilt: a fresh container of a new image"),
        ),
        OpenSeedAction::Lifecycle(Lifecycle::Remount) => (
            format!("remounting {name}'s container…"),
            format!("{name} remounted: its container made again, its state kept"),
        ),
        OpenSeedAction::Lifecycle(Lifecycle::Archive) => (
            format!("archiving {name}…"),
            format!(
                "{name} archived: stopped, its container and image removed, its files in OpenSeed's archive"
            ),
        ),
        OpenSeedAction::Spawn(request) => (
            format!("asking the orchestrator to spawn {}…", request.name),
            format!(
                "the orchestrator is spawning {} ({}): its live view tells how it goes",
                request.name,
                request.genome.as_deref().unwrap_or("its default genome")
            ),
        ),
        OpenSeedAction::SpawnChoices => (
            "reading the genomes and models the orchestrator offers…".into(),
            "fill in the new creature: Tab moves between fields, Enter spawns it".into(),
        ),
        OpenSeedAction::ReadCap { .. } => (
            format!("reading the daily cap of {name}…"),
            format!("the daily cap of {name}: Enter sets it"),
        ),
        OpenSeedAction::SetCap { cents, action, .. } => (
            format!("setting the daily cap of {name}…"),
            format!(
                "the daily cap of {name} is now ${}.{:02} ({})",
                cents / 100,
                cents % 100,
                cap_words(action)
            ),
        ),
        OpenSeedAction::Files => (
            format!("reading the files {name}'s genome.json declares, through the orchestrator…"),
            format!("{name}'s genome files, as the orchestrator reads them"),
        ),
        OpenSeedAction::Ranger { .. } => (
            format!("asking the Ranger about {name} (it may take minutes)…"),
            "the Ranger's answer is in its window".into(),
        ),
        OpenSeedAction::RangerForget => (
            "asking the Ranger to forget the conversation…".into(),
            "the Ranger forgot the conversation (its one conversation, everyone's)".into(),
        ),
        OpenSeedAction::Wake
        | OpenSeedAction::Message(_)
        | OpenSeedAction::Stop
        | OpenSeedAction::Start => return None,
    })
}

/// What a cap's action means.
pub fn cap_words(action: &str) -> &'static str {
    match action {
        "sleep" => "paused at it",
        "warn" => "a warning at it",
        "off" => "no cap",
        _ => "an action dreamwatch does not know",
    }
}
