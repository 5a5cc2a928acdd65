//! The export of a process: spans go through a bounded queue to a task that sends them
//! in batches, never making the creature wait. A full queue drops spans (counted, said
//! once); an unreachable collector is said once and tried again with backoff, the spans
//! kept (within the queue's bound) until it answers.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use opentelemetry_sdk::metrics::SdkMeterProvider;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::config::TelemetryConfig;
use super::health::Health;
use super::meters::Meters;
use super::sender::{self, SpanSender, TelemetryError};
use super::span::SpanRecord;

/// The most spans in one request.
const BATCH: usize = 512;
/// How long finished spans wait to be sent with others.
const FLUSH_EVERY: Duration = Duration::from_millis(500);
/// The first wait after a failed send, and the longest.
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// How long a stop waits for the last spans to go.
const LAST_FLUSH: Duration = Duration::from_secs(5);

/// Where finished spans go: cheap to clone, never blocks.
#[derive(Debug, Clone)]
pub struct Sink {
    tx: mpsc::Sender<Vec<SpanRecord>>,
    dropped: Arc<AtomicU64>,
    health: Arc<Health>,
    pub meters: Meters,
}

impl Sink {
    /// Queues `spans`; drops them when the queue is full.
    pub fn send(&self, spans: Vec<SpanRecord>) {
        if spans.is_empty() {
            return;
        }
        let n = spans.len() as u64;
        if self.tx.try_send(spans).is_err() && self.dropped.fetch_add(n, Ordering::Relaxed) == 0 {
            tracing::warn!("OpenTelemetry export queue full: spans dropped");
        }
    }

    /// Spans dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// What is wrong with the export now (an unreachable collector), if anything.
    pub fn problem(&self) -> Option<String> {
        self.health.problem()
    }
}

/// A running export.
pub struct Exporter {
    sink: Sink,
    provider: SdkMeterProvider,
    worker: JoinHandle<()>,
}

impl Exporter {
    /// Starts the export on the current tokio runtime.
    pub fn start(config: &TelemetryConfig) -> Result<Self, TelemetryError> {
        let health = Arc::new(Health::default());
        let client = sender::client(&health)?;
        let resource = sender::resource(config);
        let spans = SpanSender::new(config, client.clone(), &resource)?;
        let (meters, provider) = Meters::start(config, client, resource)?;
        // A queued message is a handful of spans: the bound holds `queue` spans or so.
        let (tx, rx) = mpsc::channel(config.queue.max(1));
        let dropped = Arc::new(AtomicU64::new(0));
        let worker = tokio::spawn(run(spans, rx, config.queue, dropped.clone()));
        Ok(Self {
            sink: Sink {
                tx,
                dropped,
                health,
                meters,
            },
            provider,
            worker,
        })
    }

    pub fn sink(&self) -> Sink {
        self.sink.clone()
    }

    /// Sends what waits (for a few seconds at most) and stops.
    pub async fn shutdown(self) {
        let Self {
            sink,
            provider,
            mut worker,
        } = self;
        let dropped = sink.dropped();
        drop(sink);
        if tokio::time::timeout(LAST_FLUSH, &mut worker).await.is_err() {
            worker.abort();
            tracing::warn!("OpenTelemetry export stopped with spans unsent");
        }
        if dropped > 0 {
            tracing::warn!("OpenTelemetry export: {dropped} span(s) dropped (queue full)");
        }
        // The reader's thread sends the last metrics through this runtime: not from one
        // of its workers.
        let _ = tokio::task::spawn_blocking(move || provider.shutdown()).await;
    }
}

/// The sending task: batches, backoff, the bound.
async fn run(
    sender: SpanSender,
    mut rx: mpsc::Receiver<Vec<SpanRecord>>,
    bound: usize,
    dropped: Arc<AtomicU64>,
) {
    let mut waiting: VecDeque<SpanRecord> = VecDeque::new();
    let mut backoff = FIRST_BACKOFF;
    let mut next_try = tokio::time::Instant::now();
    let mut open = true;
    // The first spans go at once: a collector that cannot be reached is known early.
    let mut tried = false;
    while open || !waiting.is_empty() {
        let wait = if waiting.is_empty() {
            FLUSH_EVERY
        } else {
            next_try.saturating_duration_since(tokio::time::Instant::now())
        };
        if open {
            tokio::select! {
                got = rx.recv() => match got {
                    Some(spans) => {
                        if waiting.is_empty() && tried {
                            next_try = next_try.max(tokio::time::Instant::now() + FLUSH_EVERY);
                        }
                        waiting.extend(spans);
                        let over = waiting.len().saturating_sub(bound);
                        if over > 0 {
                            waiting.drain(..over);
                            dropped.fetch_add(over as u64, Ordering::Relaxed);
                        }
                    }
                    None => open = false,
                },
                () = tokio::time::sleep(wait) => {}
            }
        }
        let full = waiting.len() >= BATCH && backoff == FIRST_BACKOFF;
        if waiting.is_empty() || (!full && tokio::time::Instant::now() < next_try) {
            if !open {
                // Stopping: one last try, no waiting for backoff.
                next_try = tokio::time::Instant::now();
            }
            continue;
        }
        let n = waiting.len().min(BATCH);
        let batch: Vec<SpanRecord> = waiting.iter().take(n).cloned().collect();
        tried = true;
        match sender.send(&batch).await {
            Ok(()) => {
                waiting.drain(..n);
                backoff = FIRST_BACKOFF;
            }
            Err(_) if !open => return,
            Err(_) => {
                next_try = tokio::time::Instant::now() + backoff;
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}
