//! When an evennia creature sleeps and wakes by itself: the sleep schedule (a window of
//! the day, wrapping past midnight) and which events wake a light sleeper.

use chrono::{DateTime, Timelike, Utc};

use super::config::SleepSchedule;
use crate::runner::genome::Incoming;

/// Priority at or above which an event is urgent.
pub const URGENT_PRIORITY: u8 = 8;

/// Whether `hour` (0..24) falls in the window that starts at `start` and lasts `hours`,
/// wrapping past midnight (22:00 for 4 h covers 22, 23, 0 and 1).
pub fn in_window(hour: u32, start: u32, hours: u32) -> bool {
    if hours == 0 {
        return false;
    }
    if hours >= 24 {
        return true;
    }
    (hour + 24 - start % 24) % 24 < hours
}

/// Seconds from `now` to the end of the window it is in.
pub fn seconds_to_window_end(now: DateTime<Utc>, s: &SleepSchedule) -> f64 {
    let into = (now.hour() + 24 - s.sleep_start_hour % 24) % 24;
    let left_h = s.sleep_duration_hours.min(24).saturating_sub(into);
    let secs = f64::from(left_h) * 3600.0 - f64::from(now.minute() * 60 + now.second());
    secs.max(60.0)
}

/// Whether the schedule puts an awake creature to sleep now: enabled, inside the window,
/// awake at least `min_awake_ticks`, and not within the cooldown after a wake.
pub fn schedule_says_sleep(
    now: DateTime<Utc>,
    s: &SleepSchedule,
    awake_ticks: u64,
    cooldown_until: Option<DateTime<Utc>>,
) -> bool {
    s.enabled
        && in_window(now.hour(), s.sleep_start_hour, s.sleep_duration_hours)
        && awake_ticks >= s.min_awake_ticks
        && cooldown_until.is_none_or(|c| now >= c)
}

/// Urgent events wake a light sleeper: a direct message, `urgent`, or priority >= 8.
pub fn is_urgent(m: &Incoming) -> bool {
    m.direct || m.urgent || m.priority.is_some_and(|p| p >= URGENT_PRIORITY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, h, m, 0).unwrap()
    }

    fn schedule(start: u32, hours: u32) -> SleepSchedule {
        SleepSchedule {
            enabled: true,
            sleep_start_hour: start,
            sleep_duration_hours: hours,
            min_awake_ticks: 10,
        }
    }

    #[test]
    fn a_window_wraps_past_midnight() {
        assert!(in_window(22, 22, 4));
        assert!(in_window(23, 22, 4));
        assert!(in_window(0, 22, 4));
        assert!(in_window(1, 22, 4));
        assert!(!in_window(2, 22, 4));
        assert!(!in_window(21, 22, 4));
        assert!(in_window(2, 2, 4) && in_window(5, 2, 4) && !in_window(6, 2, 4));
        assert!(!in_window(3, 2, 0));
    }

    #[test]
    fn the_window_end_is_counted_across_midnight() {
        let s = schedule(22, 4);
        assert_eq!(seconds_to_window_end(at(23, 30), &s), 2.5 * 3600.0);
        assert_eq!(seconds_to_window_end(at(1, 0), &s), 3600.0);
    }

    #[test]
    fn min_awake_ticks_and_cooldown_hold_the_schedule_back() {
        let s = schedule(22, 4);
        assert!(!schedule_says_sleep(at(23, 0), &s, 9, None));
        assert!(schedule_says_sleep(at(23, 0), &s, 10, None));
        assert!(!schedule_says_sleep(at(23, 0), &s, 10, Some(at(23, 30))));
        assert!(schedule_says_sleep(at(23, 30), &s, 10, Some(at(23, 30))));
        assert!(!schedule_says_sleep(at(12, 0), &s, 99, None));
        let off = SleepSchedule {
            enabled: false,
            ..s
        };
        assert!(!schedule_says_sleep(at(23, 0), &off, 99, None));
    }

    #[test]
    fn urgency_at_its_thresholds() {
        let m = |direct, urgent, priority| Incoming {
            from: "someone".into(),
            text: "hi".into(),
            direct,
            urgent,
            priority,
            payload: None,
        };
        assert!(!is_urgent(&m(false, false, Some(7))));
        assert!(is_urgent(&m(false, false, Some(8))));
        assert!(is_urgent(&m(false, true, None)));
        assert!(is_urgent(&m(true, false, None)));
        assert!(!is_urgent(&m(false, false, None)));
    }
}
