//! When the clock alone changes what is on screen: a countdown under a minute ticks just
//! after each of its seconds runs out, a creature not at rest every minute, on the
//! minute, and a text the last frame made of the clock (`active 3h ago`) when it reads
//! differently. Nothing else wakes an idle screen.

use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};

use crate::ui::state::App;

/// Past the instant a countdown's shown second changes, so that the frame reads the new one.
const MARGIN_MS: u64 = 5;

/// The longest wait when nothing on screen reads the clock.
const IDLE: Duration = Duration::from_secs(3600);

/// How long until the screen next reads differently with no event.
pub fn next_tick(app: &App, now: DateTime<Utc>) -> Duration {
    // A play of the time cursor moves on four times a second.
    if app.time.playing() {
        return Duration::from_millis(250);
    }
    let bound = app.clock_bound();
    let minute = (!bound.is_empty()).then(|| Duration::from_secs(60 - u64::from(now.second())));
    let soonest = bound
        .into_iter()
        .flat_map(|ui| {
            // A dream held for review counts down to when it applies itself.
            let deadline = ui.review.as_ref().and_then(|r| r.proposal.deadline);
            [ui.summary.status.wakes_at(), deadline]
        })
        .flatten()
        .filter(|t| *t > now && (*t - now).num_seconds() < 61)
        .map(|t| (t - now).num_milliseconds())
        .min();
    match soonest {
        // `wakes in 12s` shows whole seconds left, rounded down: it reads differently
        // when the milliseconds left pass a multiple of 1000, not a second after the
        // last frame (which let the countdown lag and skip a second now and then).
        Some(ms) => countdown_wait(ms),
        None => {
            let shown = app.shown_until().map(|t| {
                let ms = (t - now).num_milliseconds().max(0).unsigned_abs();
                Duration::from_millis(ms + MARGIN_MS)
            });
            [minute, shown].into_iter().flatten().min().unwrap_or(IDLE)
        }
    }
}

/// How long until a countdown `ms` milliseconds from its end shows another second.
fn countdown_wait(ms: i64) -> Duration {
    Duration::from_millis(ms.rem_euclid(1000).unsigned_abs() + MARGIN_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_countdown_ticks_when_its_shown_second_changes() {
        // 12.300 s left shows `12s` until 12.000 s: wake in 300 ms (and a little).
        assert_eq!(countdown_wait(12_300), Duration::from_millis(305));
        assert_eq!(countdown_wait(12_000), Duration::from_millis(5));
        assert_eq!(countdown_wait(999), Duration::from_millis(1004));
    }
}
