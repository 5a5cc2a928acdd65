//! Reading the files a creature's `genome.json` declares from its directory (a genome no
//! plug-in knows, no orchestrator here running it), off the UI thread.

use std::path::PathBuf;

use crate::ui::popups::genome_files::Source;
use crate::ui::state::openseed::name_of;
use crate::ui::update::{Fetched, OpenSeedAction, OpenSeedDone, Outcome};

/// What the creature's directory holds of its genome's tabs, as an outcome (blocking).
pub(super) fn read(creature: PathBuf) -> Outcome {
    let name = crate::ui::prepare::inert(name_of(&creature).unwrap_or_default());
    let read = crate::openseed::files::read_local(&creature);
    let (text, error) = match &read {
        Ok(_) => (
            format!("{name}'s genome files, read from its directory"),
            false,
        ),
        Err(why) => (format!("cannot read {name}'s genome files: {why}"), true),
    };
    let done = OpenSeedDone {
        creature,
        action: OpenSeedAction::Files,
        ok: read.is_ok(),
        answer: None,
        fetched: read.ok().map(|files| {
            Box::new(Fetched::Files {
                files,
                source: Source::Disk,
            })
        }),
    };
    Outcome {
        openseed: Some(done),
        ..Outcome::from((text, error))
    }
}
