//! Faults never kill the creature: bounded retries with exponential backoff that honour
//! the server's `retry-after`, and a hook that lets the caller trim a request the model
//! found too long.

use std::collections::hash_map::RandomState;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::header::HeaderMap;

use super::LlmError;

/// How often and how patiently a provider retries a failed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries in all, the first included (at least 1).
    pub max_tries: u32,
    /// Backoff before the first retry; it doubles with every further retry.
    pub base: Duration,
    /// Longest single wait. A server asking for a longer wait (`retry-after`) gets its
    /// error returned at once, so the caller decides (for a creature: sleep on it).
    pub max: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_tries: 6,
            base: Duration::from_secs(1),
            max: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// The backoff before retry number `retry` (1 for the first): `base * 2^(retry-1)`
    /// capped at `max`, with random jitter over its upper half so that many clients
    /// hit by one outage don't come back in step.
    fn backoff(&self, retry: u32) -> Duration {
        let factor = 1u32
            .checked_shl(retry.saturating_sub(1))
            .unwrap_or(u32::MAX);
        let full = self.base.saturating_mul(factor).min(self.max);
        full / 2 + (full / 2).mul_f64(unit_random())
    }

    /// How long to wait before the next try, or `None` when `fault` goes back to the caller.
    fn wait_after(&self, fault: &Fault, retry: u32) -> Option<Duration> {
        if !fault.error.is_retryable() {
            return None;
        }
        match fault.retry_after {
            Some(asked) if asked > self.max => None,
            Some(asked) => Some(asked),
            None => Some(self.backoff(retry)),
        }
    }
}

/// A number in [0, 1) from the standard library's per-map random keys: jitter needs no
/// more randomness than that.
fn unit_random() -> f64 {
    let bits = RandomState::new().build_hasher().finish() >> 11;
    bits as f64 / (1u64 << 53) as f64
}

/// How a retry waits out its backoff: on the real clock, or (for tests of the schedule)
/// by writing the wait down and going on at once, so no test waits or times anything.
#[derive(Clone, Default)]
pub enum RetryClock {
    #[default]
    Real,
    Recorded(Arc<Mutex<Vec<Duration>>>),
}

impl RetryClock {
    /// A clock that records every wait it is asked for, and the record to read them from.
    pub fn recorder() -> (Self, Arc<Mutex<Vec<Duration>>>) {
        let waits = Arc::new(Mutex::new(Vec::new()));
        (Self::Recorded(Arc::clone(&waits)), waits)
    }

    async fn wait(&self, wait: Duration) {
        match self {
            Self::Real => tokio::time::sleep(wait).await,
            Self::Recorded(waits) => waits
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(wait),
        }
    }
}

impl std::fmt::Debug for RetryClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Real => "Real",
            Self::Recorded(_) => "Recorded",
        })
    }
}

/// Clocks are equal when they wait the same way.
impl PartialEq for RetryClock {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Real, Self::Real) => true,
            (Self::Recorded(a), Self::Recorded(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// One failed try: the error, and the wait the server asked for, if it did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fault {
    pub error: LlmError,
    pub retry_after: Option<Duration>,
}

impl From<LlmError> for Fault {
    fn from(error: LlmError) -> Self {
        Self {
            error,
            retry_after: None,
        }
    }
}

/// Runs `attempt` until it succeeds, fails in a way a retry cannot fix, or
/// `policy.max_tries` tries are spent; returns the last error then.
pub(crate) async fn run<T, F, Fut>(
    policy: &RetryPolicy,
    clock: &RetryClock,
    label: &str,
    mut attempt: F,
) -> Result<T, LlmError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Fault>>,
{
    let max_tries = policy.max_tries.max(1);
    let mut tries = 0;
    loop {
        tries += 1;
        let fault = match attempt().await {
            Ok(response) => return Ok(response),
            Err(fault) => fault,
        };
        let wait = if tries < max_tries {
            policy.wait_after(&fault, tries)
        } else {
            None
        };
        let Some(wait) = wait else {
            tracing::warn!(provider = label, tries, error = %fault.error, "LLM request failed");
            return Err(fault.error);
        };
        tracing::info!(
            provider = label,
            tries,
            wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
            error = %fault.error,
            "LLM request failed, retrying"
        );
        clock.wait(wait).await;
    }
}

/// The wait a server asks for: `retry-after-ms` (sent by OpenAI and Anthropic), else
/// `retry-after` in seconds or as an HTTP date (a date in the past means now).
pub(crate) fn retry_after(headers: &HeaderMap, now: DateTime<Utc>) -> Option<Duration> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok()) {
        return Duration::try_from_secs_f64(ms / 1000.0).ok();
    }
    let value = header("retry-after")?;
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let date = DateTime::parse_from_rfc2822(value).ok()?;
    Some(
        (date.with_timezone(&Utc) - now)
            .to_std()
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn retry_after_in_seconds_milliseconds_and_dates() {
        let now = DateTime::parse_from_rfc3339("2015-10-21T07:28:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            retry_after(&headers(&[("retry-after", "3")]), now),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            retry_after(
                &headers(&[("retry-after", "3"), ("retry-after-ms", "250")]),
                now
            ),
            Some(Duration::from_millis(250))
        );
        let date = [("retry-after", "Wed, 21 Oct 2015 07:28:30 GMT")];
        assert_eq!(
            retry_after(&headers(&date), now),
            Some(Duration::from_secs(30))
        );
        let past = [("retry-after", "Wed, 21 Oct 2015 07:00:00 GMT")];
        assert_eq!(retry_after(&headers(&past), now), Some(Duration::ZERO));
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[("retry-after", "-1")]), now), None);
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn backoff_doubles_within_jitter_and_stops_at_max() {
        let policy = RetryPolicy {
            max_tries: 10,
            base: Duration::from_millis(100),
            max: Duration::from_millis(1000),
        };
        for (retry, full) in [
            (1, 100),
            (2, 200),
            (3, 400),
            (4, 800),
            (5, 1000),
            (40, 1000),
        ] {
            let wait = policy.backoff(retry);
            let full = Duration::from_millis(full);
            assert!(wait >= full / 2 && wait <= full, "retry {retry}: {wait:?}");
        }
    }

    #[test]
    fn only_retryable_faults_within_max_are_waited_for() {
        let policy = RetryPolicy {
            max_tries: 3,
            base: Duration::from_millis(10),
            max: Duration::from_secs(1),
        };
        let limited = |secs| Fault {
            error: LlmError::RateLimited {
                retry_after: Some(Duration::from_secs(secs)),
            },
            retry_after: Some(Duration::from_secs(secs)),
        };
        assert_eq!(
            policy.wait_after(&limited(1), 1),
            Some(Duration::from_secs(1))
        );
        assert_eq!(policy.wait_after(&limited(5), 1), None);
        let rejected = Fault::from(LlmError::Rejected {
            status: 401,
            body: String::new(),
        });
        assert_eq!(policy.wait_after(&rejected, 1), None);
        let too_long = Fault::from(LlmError::ContextTooLong(String::new()));
        assert_eq!(policy.wait_after(&too_long, 1), None);
    }
}
