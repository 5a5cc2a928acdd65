//! Attaching to a running OpenSeed orchestrator: its creatures' status, costs and live
//! events, and the actions it offers (wake, message, stop, start; and its dashboard's: spawn,
//! restart, rebuild, remount, archive, budgets: [`lifecycle`]; the creatures' mail:
//! [`mail`]; the narrator's story: [`narration`]; a genome's files as its `genome.json`
//! declares them: [`files`]; the Ranger, its diagnostic agent: [`ranger`]).
//!
//! What the orchestrator speaks, read in its own code (openseed-dev/openseed at 815f9fd,
//! March 2026; `index.ts` is `src/host/index.ts`):
//! - It writes `orchestrator.json` (`{port, pid, started_at}`) into OpenSeed's home
//!   (`$OPENSEED_HOME`, else `~/.openseed`: `src/shared/paths.ts:53`) when it starts and
//!   removes it on SIGINT/SIGTERM (`index.ts:183-203`); the port is `ORCHESTRATOR_PORT`,
//!   7770 by default (`index.ts:1356`).
//! - `GET /api/creatures` (`index.ts:947`, `listCreatures` at 529): an array of
//!   `{name, status, sha, port, sleepReason, model}`. `status` is the supervisor's
//!   (`stopped | starting | running | sleeping | error`, `src/host/supervisor.ts:36`), or
//!   `spawning` while a spawn is under way (`index.ts:542`); `sleepReason` is
//!   `budget | fatigue | user | null` (`supervisor.ts:47`): `budget` after a budget pause
//!   (98: the container is stopped though the status says `sleeping`), `fatigue` on a
//!   `creature.sleep` event (165). A creature no supervisor runs (never started, or
//!   stopped: `stopCreature` drops its supervisor, `index.ts:378`) is listed from its
//!   directory with `sha`, `port` and `sleepReason` null, so `user` is never seen.
//! - `GET /api/events` (`index.ts:992`): server-sent events, `data: <json>` lines only (no
//!   `id:`, no `event:`, no keep-alive), each `{creature, t, type, ...}` with the `Event`
//!   union of `src/shared/types.ts:13-46`; first an `orchestrator.status` event for
//!   `_orchestrator`. Nothing missed is replayed on a reconnect, but every event is kept
//!   in the creature's `.sys/events.jsonl` (`src/host/events.ts:26`) and
//!   `GET /api/creatures/:name/events` returns its last 200 (`index.ts:1117`): that is how
//!   [`attach`] fills a gap. The dashboard reconnects and refreshes the same way
//!   (`dashboard/src/app.tsx:58-79`).
//! - `GET /api/usage` (`index.ts:624`): `{usage: {name: {input_tokens, output_tokens,
//!   cost_usd, calls, daily_cost_usd, daily_date}}, total}` (`src/host/costs.ts:140`).
//!   `GET /api/creatures/:name/budget` (`index.ts:1260`): `{daily_cap_usd,
//!   daily_spent_usd, remaining_usd, resets_at, action: sleep|warn|off, status:
//!   ok|exceeded}`.
//! - `POST /api/creatures/:name/wake` with `{reason}` (`index.ts:1205`), `.../message`
//!   with `{text}` (1224: delivered to the creature, then a wake), `.../stop` (1147: stops
//!   the creature's container, `supervisor.ts:89`) and `.../start` (1131: it also starts
//!   a creature its budget paused, `index.ts:298`; a JSON 503 `{error, dependencies}`
//!   while the orchestrator is degraded). Success is `200 ok`; a refusal is a 400 with the
//!   error's text (`creature "x" is not running`, `fetch failed` when its container is
//!   stopped, a failed `docker build`'s output over several lines), no content type.
//!   Neither stop nor start emits an event: a start gives `host.spawn` for a fresh
//!   container and `host.promote` once its health gate (10 s) has passed. No route forces
//!   a sleep: a creature sleeps when it decides to, or when its budget pauses it.
//! - Open pull request #16 ("per-creature token auth for control API") would make
//!   start, stop, restart, rebuild, wake and message ask for `Authorization: Bearer
//!   <token>` (the creature's own token), localhost exempt, reads open: [`token`].

pub mod attach;
mod client;
mod dedup;
pub mod discover;
pub mod event;
pub mod files;
pub mod lifecycle;
pub mod mail;
pub mod narration;
pub mod ranger;
pub mod token;
pub mod wire;

pub use attach::{AttachOptions, Attachment, Costs, Refresher, Update, attach};
pub use client::{Client, EventStream, MAX_BODY, Streamed};
pub use discover::Target;
pub use event::{EventKind, LiveEvent};
pub use files::{Content, GenomeFiles, Tab, TabKind};
pub use lifecycle::{CAP_ACTIONS, Cap, GenomeInfo, Lifecycle, ModelInfo, SpawnRequest};
pub use mail::{CREATOR, Inbox, Letter, MailMessage, Mailbox};
pub use narration::{NarrationEntry, NarratorConfig};
pub use ranger::{RangerAnswer, RangerPart};
pub use token::{Token, Tokens};
pub use wire::{
    ApiStatus, Budget, BudgetLevel, CreatureInfo, NARRATOR, NEAR_CAP, SleepReason, Usage,
    UsageEntry,
};

/// What can go wrong talking to the orchestrator. Texts from the orchestrator are made
/// inert and any token is scrubbed from them.
#[derive(Debug, thiserror::Error)]
pub enum OpenSeedError {
    #[error("cannot reach the orchestrator at {base}: {detail}")]
    Unreachable { base: String, detail: String },
    #[error("the orchestrator did not answer within {0} s")]
    Timeout(u64),
    #[error(
        "the orchestrator asks for a token ({status}): set DREAMWATCH_OPENSEED_TOKEN or [openseed] tokens in the config file"
    )]
    Unauthorized { status: u16 },
    /// `body` is the answer whole (inert, its lines kept); the message says its first
    /// line, and how many more there are.
    #[error("the orchestrator refused ({status}): {}", first_line(body))]
    Refused { status: u16, body: String },
    #[error(
        "the orchestrator's answer to {what} is larger than {limit_mib} MiB: not read (the rest was dropped)"
    )]
    TooLarge { what: String, limit_mib: usize },
    #[error("the orchestrator answered something unexpected: {0}")]
    Malformed(String),
    /// An address given by the operator that is no orchestrator's (said before asking).
    #[error("{0} is not an http(s) URL of an orchestrator")]
    BadUrl(String),
    #[error("no orchestrator running: {0}")]
    NotRunning(String),
}

impl OpenSeedError {
    /// The whole of what went wrong: an answer of several lines (a failed start's command
    /// output) has them all, one under another.
    pub fn whole(&self) -> String {
        match self {
            Self::Refused { status, body } if first_line(body) != *body => {
                format!("the orchestrator refused ({status}):\n{body}")
            }
            other => other.to_string(),
        }
    }
}

/// How much of an answer's first line its message shows.
const FIRST_SHOWN: usize = 200;

/// The first line of `text` (an answer of the orchestrator's, inert; cut at [`FIRST_SHOWN`] characters), saying how many lines
/// follow.
pub fn first_line(text: &str) -> String {
    let mut lines = text.lines();
    let whole = lines.next().unwrap_or_default();
    let mut first: String = whole.chars().take(FIRST_SHOWN).collect();
    if first.len() < whole.len() {
        first.push('…');
    }
    match lines.count() {
        0 => first,
        1 => format!("{first} [and 1 more line]"),
        n => format!("{first} [and {n} more lines]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_says_its_first_line_and_keeps_the_whole() {
        let short = OpenSeedError::Refused {
            status: 400,
            body: "creature \"finch\" is not running".into(),
        };
        assert_eq!(
            short.to_string(),
            "the orchestrator refused (400): creature \"finch\" is not running"
        );
        assert_eq!(short.whole(), short.to_string());
        let long = OpenSeedError::Refused {
            status: 400,
            body: "Command failed: docker build -t creature-finch .\nstep 1/4\nERROR: no space"
                .into(),
        };
        assert_eq!(
            long.to_string(),
            "the orchestrator refused (400): Command failed: docker build -t creature-finch . [and 2 more lines]"
        );
        assert_eq!(
            long.whole(),
            "the orchestrator refused (400):\nCommand failed: docker build -t creature-finch .\nstep 1/4\nERROR: no space"
        );
        let wide = OpenSeedError::Refused {
            status: 500,
            body: "x".repeat(500),
        };
        assert_eq!(wide.to_string().chars().count(), 32 + FIRST_SHOWN + 1);
        assert!(wide.whole().ends_with(&"x".repeat(500)));
    }
}
