//! Staying attached: one task opens the event stream, reads the creatures' status and
//! costs (again every little while, and soon after an event that changes them), passes
//! each event on once, and when the orchestrator goes away says so and tries again with
//! a growing backoff. After a reconnect it fills the gap from the stored events
//! (`GET /api/creatures/:name/events`): what the stream missed is passed on, what was
//! already passed on is not (events are told apart by creature, time and type).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::OpenSeedError;
use super::client::Client;
use super::dedup::Seen;
use super::discover::Target;
use super::event::LiveEvent;
use super::token::Tokens;
use super::wire::{Budget, CreatureInfo, Usage};

/// How soon the status is read again after an event that changes it (a burst of events
/// costs one read).
const SOON: Duration = Duration::from_millis(300);

#[derive(Debug, Clone)]
pub struct AttachOptions {
    /// Each request gives up after this long.
    pub timeout: Duration,
    /// How often the status and costs are read while nothing changes them.
    pub poll_every: Duration,
    /// The first wait before trying again; it doubles up to `backoff_max`.
    pub backoff_first: Duration,
    pub backoff_max: Duration,
    /// How many stored events of each creature are passed on at the first connection,
    /// so that the live view starts with some history.
    pub first_backfill: usize,
}

impl Default for AttachOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(5),
            poll_every: Duration::from_secs(15),
            backoff_first: Duration::from_millis(500),
            backoff_max: Duration::from_secs(30),
            first_backfill: 20,
        }
    }
}

/// What the attachment reports, in order (as JSON too: a far machine's `inspect --follow
/// --wire` passes them on to the observatory).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Update {
    /// Connected (again) to the orchestrator at `base`.
    Up {
        base: String,
    },
    /// It cannot be reached (or closed the stream); the next try is in `retry_in`.
    Down {
        error: String,
        retry_in: Duration,
    },
    Creatures(Vec<CreatureInfo>),
    Costs(Costs),
    /// An event as it happens.
    Event(LiveEvent),
    /// An event from the stored history: the last few at the first connection, or one
    /// the stream missed while the orchestrator was away. Older news.
    Stored(LiveEvent),
}

/// What the creatures cost: the usage, and each creature's budget for today.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    pub usage: Usage,
    pub budgets: BTreeMap<String, Budget>,
}

/// A running attachment. Dropping it ends its task.
#[derive(Debug)]
pub struct Attachment {
    target: Target,
    client: watch::Receiver<Option<Client>>,
    task: JoinHandle<()>,
}

impl Attachment {
    /// A client of the orchestrator while it is reachable (for actions).
    pub fn client(&self) -> Option<Client> {
        self.client.borrow().clone()
    }

    pub fn target(&self) -> &Target {
        &self.target
    }
}

impl Drop for Attachment {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Attaches to the orchestrator `target` names (from inside a tokio runtime).
pub fn attach(
    target: Target,
    tokens: Tokens,
    options: AttachOptions,
) -> (Attachment, mpsc::UnboundedReceiver<Update>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let (client_tx, client_rx) = watch::channel(None);
    let task = tokio::spawn(stay_attached(
        target.clone(),
        Arc::new(tokens),
        options,
        tx,
        client_tx,
    ));
    (
        Attachment {
            target,
            client: client_rx,
            task,
        },
        rx,
    )
}

/// Where one session reports to.
struct Report<'a> {
    tx: &'a mpsc::UnboundedSender<Update>,
    client: &'a watch::Sender<Option<Client>>,
    seen: &'a mut Seen,
}

impl Report<'_> {
    /// Passes an update on; false when nobody listens any more.
    fn send(&self, update: Update) -> bool {
        self.tx.send(update).is_ok()
    }

    fn event(&mut self, event: LiveEvent) -> bool {
        !self.seen.first_time(&event) || self.send(Update::Event(event))
    }

    fn stored(&mut self, event: LiveEvent) -> bool {
        !self.seen.first_time(&event) || self.send(Update::Stored(event))
    }
}

async fn stay_attached(
    target: Target,
    tokens: Arc<Tokens>,
    options: AttachOptions,
    tx: mpsc::UnboundedSender<Update>,
    client: watch::Sender<Option<Client>>,
) {
    let mut seen = Seen::default();
    let mut backoff = options.backoff_first;
    loop {
        let mut report = Report {
            tx: &tx,
            client: &client,
            seen: &mut seen,
        };
        let ended = session(&target, &tokens, &options, &mut report, &mut backoff).await;
        client.send_replace(None);
        let error = match ended {
            Ok(()) => "the orchestrator closed the event stream".to_string(),
            Err(e) => e.to_string(),
        };
        tracing::info!("openseed: {error}; trying again in {backoff:?}");
        if tx.is_closed() || !report_down(&tx, error, backoff) {
            return;
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(options.backoff_max);
    }
}

fn report_down(tx: &mpsc::UnboundedSender<Update>, error: String, retry_in: Duration) -> bool {
    tx.send(Update::Down { error, retry_in }).is_ok()
}

/// One connection, from opening the stream until it breaks. `Ok` when the stream ended
/// (or nobody listens any more).
async fn session(
    target: &Target,
    tokens: &Arc<Tokens>,
    options: &AttachOptions,
    report: &mut Report<'_>,
    backoff: &mut Duration,
) -> Result<(), OpenSeedError> {
    let base = target.resolve()?;
    let client = Client::new(&base, Arc::clone(tokens), options.timeout)?;
    // The stream first: what happens while the rest is read waits in it.
    let mut stream = client.events().await?;
    let creatures = client.creatures().await?;
    *backoff = options.backoff_first;
    report.client.send_replace(Some(client.clone()));
    let costs = read_costs(&client, &creatures).await?;
    let missed = missed(&client, &creatures, report.seen, options.first_backfill).await;
    if !report.send(Update::Up {
        base: client.base().to_owned(),
    }) || !report.send(Update::Creatures(creatures))
        || !report.send(Update::Costs(costs))
    {
        return Ok(());
    }
    for event in missed {
        if !report.stored(event) {
            return Ok(());
        }
    }
    let mut next_read = Instant::now() + options.poll_every;
    loop {
        tokio::select! {
            event = stream.next() => {
                let Some(event) = event? else {
                    return Ok(());
                };
                if event.changes_status() {
                    next_read = next_read.min(Instant::now() + SOON);
                }
                if !report.event(event) {
                    return Ok(());
                }
            }
            () = tokio::time::sleep_until(next_read) => {
                let creatures = client.creatures().await?;
                let costs = read_costs(&client, &creatures).await?;
                if !report.send(Update::Creatures(creatures)) || !report.send(Update::Costs(costs)) {
                    return Ok(());
                }
                next_read = Instant::now() + options.poll_every;
            }
        }
    }
}

/// The usage and each creature's budget (a creature whose budget cannot be read has none).
async fn read_costs(client: &Client, creatures: &[CreatureInfo]) -> Result<Costs, OpenSeedError> {
    let usage = client.usage().await?;
    let mut budgets = BTreeMap::new();
    for c in creatures {
        if let Ok(budget) = client.budget(&c.name).await {
            budgets.insert(c.name.clone(), budget);
        }
    }
    Ok(Costs { usage, budgets })
}

/// The stored events the stream has not passed on, oldest first: those since the newest
/// seen of each creature, or its last `first` ones when none was seen. A creature whose
/// events cannot be read is skipped.
async fn missed(
    client: &Client,
    creatures: &[CreatureInfo],
    seen: &Seen,
    first: usize,
) -> Vec<LiveEvent> {
    let mut missed = Vec::new();
    for c in creatures {
        let Ok(stored) = client.recent_events(&c.name).await else {
            continue;
        };
        match seen.newest(&c.name) {
            Some(newest) => missed.extend(
                stored
                    .into_iter()
                    .filter(|e| e.t.is_some_and(|t| t >= newest)),
            ),
            None => {
                let skip = stored.len().saturating_sub(first);
                missed.extend(stored.into_iter().skip(skip));
            }
        }
    }
    missed.sort_by_key(|e| e.t);
    missed
}
