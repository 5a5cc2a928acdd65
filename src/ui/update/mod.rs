//! Changing the state: input events become actions (through the keymap), actions change
//! the state and return [`Job`]s for the runtime to perform (IO never happens here).

mod actions;
mod commands;
mod demo;
mod garden;
mod handover;
mod input;
mod mail;
mod open;
mod openseed;
mod openseed_files;
mod openseed_keys;
mod openseed_menu;
mod palette;
mod recorder;
mod remote;
mod scrolling;

pub use handover::{Foreground, HandBack, Program};
pub use mail::{MailAsk, MailDone};
pub use openseed_keys::{Fetched, OpenSeedAction, OpenSeedDone};
pub use remote::RemoteAsk;

use std::path::PathBuf;

use crate::control::ControlCommand;
use crate::history::History;
use crate::recorder::compare::Comparison;
use crate::ui::popups::blame::{BlameAsk, Blamed};
use crate::ui::popups::compare::CompareAsk;

/// What became of work done in the background: a notice (an error or not), a message
/// that did not go, given back to its creature as a draft, and what a runner made of an
/// edited dream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub text: String,
    pub error: bool,
    pub undelivered: Option<(PathBuf, String)>,
    pub dream_edit: Option<EditAnswer>,
    /// What an OpenSeed orchestrator made of an action.
    pub openseed: Option<OpenSeedDone>,
    /// A life's time index, built for the time cursor.
    pub time_index: Option<crate::ui::time::IndexDone>,
    /// A blame or a comparison made in the background.
    pub recorded: Option<Box<Recorded>>,
    /// What an OpenSeed orchestrator answered of the mail or the narrator.
    pub mail: Option<Box<MailDone>>,
}

/// What the flight recorder answered, for the popup that asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    Blame(BlameAsk, Result<Blamed, String>),
    Compare(CompareAsk, Result<Comparison, String>),
    /// A time cursor's move built.
    Past(crate::ui::time::build::PastDone),
}

impl From<(String, bool)> for Outcome {
    fn from((text, error): (String, bool)) -> Self {
        Self {
            text,
            error,
            undelivered: None,
            dream_edit: None,
            openseed: None,
            recorded: None,
            time_index: None,
            mail: None,
        }
    }
}

/// An edited dream sent to its creature's runner, and whether the runner holds it now.
/// Until it does, the text stays the draft the next edit starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditAnswer {
    pub creature: PathBuf,
    pub text: String,
    /// The runner answered that it holds it (`Answer::Replaced`); `false`: it refused
    /// it, or could not be asked.
    pub held: bool,
}

/// Work for the runtime: talking to runners and the OpenSeed orchestrator, writing files,
/// searching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Send a command to the creature's runner (hosted, or over its control socket).
    Control {
        creature: PathBuf,
        command: ControlCommand,
    },
    /// Append a message to the creature's MESSAGES.md (and tell a hosted runner).
    AppendMessage { creature: PathBuf, text: String },
    /// Search the creature's total recall (or, `garden`, every creature's), replacing any
    /// search under way.
    Search {
        creature: PathBuf,
        query: String,
        garden: bool,
        regex: bool,
    },
    /// Put a pruned line back into the creature's observations, under today's date.
    Restore { creature: PathBuf, line: String },
    /// Ask the attached OpenSeed orchestrator to act on the creature.
    OpenSeed {
        creature: PathBuf,
        action: OpenSeedAction,
    },
    /// Ask the far side of a creature on another machine.
    Remote { creature: PathBuf, ask: RemoteAsk },
    /// Tell the far garden whose copies are in `root` to send every conversation's
    /// window still to come.
    RemoteWindows { root: PathBuf },
    /// Hand the terminal to a program (an editor, a pager, a user command) until it
    /// exits; then [`crate::ui::state::App::on_handed_back`].
    Foreground(Foreground),
    /// Edit a dream held for review in `$EDITOR`: `text` is written to a file of its own,
    /// the terminal handed over, and what the editor leaves is read back
    /// ([`crate::ui::state::App::on_dream_edited`]).
    EditDream {
        creature: PathBuf,
        /// The creature's name, for the status line (inert).
        name: String,
        text: String,
    },
    /// Copy text to the operator's clipboard (OSC 52, base64).
    Clipboard(String),
    /// Blame a memory line off the UI thread (the watched history as a source too).
    Blame {
        ask: BlameAsk,
        history: Option<History>,
    },
    /// Compare two creatures' memories off the UI thread.
    Compare {
        ask: CompareAsk,
        history: Option<History>,
    },
    /// Run a user command's line with `sh -c` in `dir`, detached (no terminal); its last
    /// line of output, or how it failed, comes back as an outcome about `what`.
    Background {
        line: String,
        dir: PathBuf,
        what: String,
    },
    /// Suspend the observatory as a shell's Ctrl-Z does: the terminal put back, the
    /// process stopped, and on `fg` the screen taken again and drawn whole.
    Suspend,
    /// Build the time index of the creature's life (for the time cursor); it comes back
    /// as an outcome.
    IndexLife { creature: PathBuf },
    /// Ask the attached OpenSeed orchestrator of the mail or the narrator.
    Mail(MailAsk),
    /// Read the files the `genome.json` in the creature's directory declares (its tabs);
    /// they come back as an OpenSeed outcome.
    GenomeFiles { creature: PathBuf },
    /// Build the creature as it was at a time cursor's move; it comes back as an outcome
    /// ([`Recorded::Past`]).
    BuildPast(Box<crate::ui::time::build::PastAsk>),
}
