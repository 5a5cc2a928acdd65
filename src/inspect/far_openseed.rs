//! The far side's OpenSeed orchestrator: `inspect --follow --wire` attaches to the one
//! this machine runs (found as the observatory finds it: `orchestrator.json` in
//! OpenSeed's home), passes on what it reports, and performs the actions the near side
//! asks for its creatures. No token is sent: a far side talks to its orchestrator on
//! 127.0.0.1, which OpenSeed's pull request #16 exempts.

use tokio::sync::mpsc::UnboundedReceiver;

use crate::openseed::discover::local_run_file;
use crate::openseed::{
    AttachOptions, Attachment, Client, Lifecycle, OpenSeedError, Target, Tokens, Update, attach,
};
use crate::remote::wire::Report;

/// The attachment and its reports, while this machine runs an orchestrator.
pub struct FarOpenSeed {
    attachment: Attachment,
    updates: UnboundedReceiver<Update>,
}

impl FarOpenSeed {
    /// Attaches when this machine's `orchestrator.json` exists (inside a tokio runtime).
    pub fn find() -> Option<Self> {
        let file = local_run_file()?;
        let (attachment, updates) = attach(
            Target::RunFile(file),
            Tokens::default(),
            AttachOptions::default(),
        );
        Some(Self {
            attachment,
            updates,
        })
    }

    /// The next report to pass on.
    pub async fn next(&mut self) -> Option<Report> {
        let update = self.updates.recv().await?;
        Some(Report::OpenSeed {
            update: serde_json::to_value(update).unwrap_or_default(),
        })
    }
}

/// The next report of the orchestrator, if one is attached; never, otherwise.
pub async fn next(far: &mut Option<FarOpenSeed>) -> Option<Report> {
    match far {
        Some(far) => far.next().await,
        None => std::future::pending().await,
    }
}

/// Does `action` (`wake`, `stop`, `start`, `message` with `text`; `restart`, `rebuild`,
/// `remount`, `archive`) for the creature the
/// orchestrator names `name`; says whether it was done, and what became of it (a
/// refusal whole, its lines too); then has the status read again.
pub async fn act(
    far: Option<&FarOpenSeed>,
    name: &str,
    action: &str,
    text: Option<String>,
) -> (bool, String) {
    let Some(far) = far else {
        return (
            false,
            "no OpenSeed orchestrator runs there (no orchestrator.json in its OpenSeed home)"
                .into(),
        );
    };
    let Some(client) = far.attachment.client() else {
        return (
            false,
            "its OpenSeed orchestrator cannot be reached now".into(),
        );
    };
    let done = match (action, text) {
        ("wake", _) => client.wake(name).await.map(|()| "woken"),
        ("stop", _) => client.stop(name).await.map(|()| "its container stopped"),
        ("start", _) => client.start(name).await.map(|()| "its container started"),
        ("message", Some(text)) => client
            .message(name, &text)
            .await
            .map(|()| "message delivered through its OpenSeed orchestrator (it wakes it)"),
        (verb, _) if Lifecycle::from_verb(verb).is_some() => lifecycle(&client, name, verb).await,
        (other, _) => return (false, format!("not an OpenSeed action: {other}")),
    };
    // The orchestrator tells nothing of a stop or a start on its stream.
    far.attachment.refresh();
    match done {
        Ok(said) => (true, said.into()),
        Err(e) => (false, e.whole()),
    }
}

/// Restarts, rebuilds, remounts or archives the creature, as `verb` says.
async fn lifecycle(client: &Client, name: &str, verb: &str) -> Result<&'static str, OpenSeedError> {
    match Lifecycle::from_verb(verb) {
        Some(what) => client.lifecycle(name, what).await.map(|()| "done"),
        None => Err(OpenSeedError::Malformed(format!(
            "not an OpenSeed action: {verb}"
        ))),
    }
}
