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
use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use super::OpenSeedError;
use super::client::{Client, Streamed};
use super::dedup::Seen;
use super::discover::Target;
use super::event::LiveEvent;
use super::token::Tokens;
use super::wire::{Budget, CreatureInfo, Usage};

/// How soon the status is read again after an event that changes it (a burst of events
/// costs one read).
const SOON: Duration = Duration::from_millis(300);

/// The most creatures of one orchestrator followed; those it lists past it are left out
/// (and said so).
pub const MAX_CREATURES: usize = 1000;

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
    /// Part of what the orchestrator sent was dropped unread, being larger than the
    /// bounds: what, for the status line.
    Cut {
        what: String,
    },
}

/// What the creatures cost: the usage, and each creature's budget for today.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    pub usage: Usage,
    pub budgets: BTreeMap<String, Budget>,
}

impl Costs {
    /// What the creature `name` spent on `day` (`YYYY-MM-DD`, UTC): its budget's word
    /// (the orchestrator's own day), else its usage entry of that day.
    pub fn spent_on(&self, name: &str, day: &str) -> f64 {
        self.budgets
            .get(name)
            .map_or_else(|| self.usage.spent_on(name, day), |b| b.daily_spent_usd)
    }
}

/// A running attachment. Dropping it ends its task.
#[derive(Debug)]
pub struct Attachment {
    target: Target,
    client: watch::Receiver<Option<Client>>,
    refresh: Arc<Notify>,
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

    /// Has the status and costs read again at once (the orchestrator tells nothing of a
    /// stop or a start on its stream: after one answers, this is how it is seen).
    pub fn refresh(&self) {
        self.refresh.notify_one();
    }

    /// What [`Attachment::refresh`] does, for a task that outlives the borrow.
    pub fn refresher(&self) -> Refresher {
        Refresher(Arc::clone(&self.refresh))
    }
}

/// Asks an attachment to read the status and costs again at once.
#[derive(Debug, Clone)]
pub struct Refresher(Arc<Notify>);

impl Refresher {
    pub fn refresh(&self) {
        self.0.notify_one();
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
    let refresh = Arc::new(Notify::new());
    let task = tokio::spawn(stay_attached(
        target.clone(),
        Arc::new(tokens),
        options,
        Arc::clone(&refresh),
        (tx, client_tx),
    ));
    (
        Attachment {
            target,
            client: client_rx,
            refresh,
            task,
        },
        rx,
    )
}

/// Where one session reports to.
struct Report<'a> {
    tx: &'a mpsc::UnboundedSender<Update>,
    client: &'a watch::Sender<Option<Client>>,
    refresh: &'a Notify,
    seen: &'a mut Seen,
    /// The cap on creatures was said (once a connection).
    said_cap: bool,
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
    refresh: Arc<Notify>,
    (tx, client): (mpsc::UnboundedSender<Update>, watch::Sender<Option<Client>>),
) {
    let mut seen = Seen::default();
    let mut backoff = options.backoff_first;
    loop {
        let mut report = Report {
            tx: &tx,
            client: &client,
            refresh: &refresh,
            seen: &mut seen,
            said_cap: false,
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
    let creatures = capped(client.creatures().await?, report);
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
    let refresh = report.refresh;
    loop {
        tokio::select! {
            event = stream.next() => {
                let event = match event? {
                    None => return Ok(()),
                    Some(Streamed::Event(event)) => event,
                    Some(Streamed::Cut(n)) => {
                        let what = format!(
                            "{n} event(s) of its stream dropped unread: a line longer than {} MiB or an event larger than {} MiB",
                            crate::text::sse::MAX_LINE >> 20,
                            crate::text::sse::MAX_EVENT >> 20
                        );
                        tracing::warn!("openseed: {what}");
                        if !report.send(Update::Cut { what }) {
                            return Ok(());
                        }
                        continue;
                    }
                };
                if event.changes_status() {
                    next_read = next_read.min(Instant::now() + SOON);
                }
                if !report.event(event) {
                    return Ok(());
                }
            }
            () = refresh.notified() => next_read = Instant::now(),
            () = tokio::time::sleep_until(next_read) => {
                let creatures = capped(client.creatures().await?, report);
                let costs = read_costs(&client, &creatures).await?;
                if !report.send(Update::Creatures(creatures)) || !report.send(Update::Costs(costs)) {
                    return Ok(());
                }
                next_read = Instant::now() + options.poll_every;
            }
        }
    }
}

/// The first [`MAX_CREATURES`] of the list; the rest are left out, and said so.
fn capped(mut creatures: Vec<CreatureInfo>, report: &mut Report<'_>) -> Vec<CreatureInfo> {
    if creatures.len() > MAX_CREATURES && !std::mem::replace(&mut report.said_cap, true) {
        let what = format!(
            "it lists {} creatures: only the first {MAX_CREATURES} are followed",
            creatures.len()
        );
        tracing::warn!("openseed: {what}");
        // Nobody listening ends the session at its next send.
        report.send(Update::Cut { what });
    }
    creatures.truncate(MAX_CREATURES);
    creatures
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
