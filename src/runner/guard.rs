//! Guardrails: what puts a hosted creature to sleep and holds it there until a person
//! wakes it, instead of killing it. A pure state machine: what the creature did goes in
//! ([`Seen`]), a [`Trip`] comes out, once, until [`Guard::release`].
//!
//! - a daily cost cap: what its model calls cost today (UTC) reached the cap;
//! - a loop: the same bash command failed `loop_repeats` times in a row;
//! - a fatigue ceiling: this many tool calls without a dream.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::memory::guardrail::MorningReport;

/// A creature's guardrails (`[guardrails]` in the config file; each one off when `None`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Guardrails {
    /// US dollars of model calls a day (UTC).
    pub daily_cost_usd: Option<f64>,
    /// The same command failing this many times in a row.
    pub loop_repeats: Option<u32>,
    /// Tool calls without a dream.
    pub fatigue_ceiling: Option<u64>,
}

impl Guardrails {
    /// `other`'s guardrails where it sets them, these elsewhere.
    pub fn over(&self, other: &Guardrails) -> Guardrails {
        Guardrails {
            daily_cost_usd: other.daily_cost_usd.or(self.daily_cost_usd),
            loop_repeats: other.loop_repeats.or(self.loop_repeats),
            fatigue_ceiling: other.fatigue_ceiling.or(self.fatigue_ceiling),
        }
    }

    /// Why these cannot be used, naming the key.
    pub fn invalid(&self) -> Option<&'static str> {
        if self
            .daily_cost_usd
            .is_some_and(|c| !(c.is_finite() && c > 0.0))
        {
            return Some("daily_cost_usd must be a positive number of dollars");
        }
        if self.loop_repeats.is_some_and(|n| n < 2) {
            return Some("loop_repeats must be 2 or more");
        }
        if self.fatigue_ceiling == Some(0) {
            return Some("fatigue_ceiling must be 1 or more");
        }
        None
    }

    pub fn any(&self) -> bool {
        self != &Guardrails::default()
    }
}

/// What the creature did that a guardrail watches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Seen<'a> {
    /// What its model calls cost on `day` so far.
    Spent { usd: f64, day: NaiveDate },
    /// A bash command ran (`failed`: a nonzero exit, a timeout or a refusal).
    Command { command: &'a str, failed: bool },
    /// Tool calls since the last dream.
    Fatigue(u64),
}

/// A guardrail that tripped.
#[derive(Debug, Clone, PartialEq)]
pub enum Trip {
    CostCap { cap: f64, spent: f64 },
    Loop { command: String, repeats: u32 },
    Fatigue { ceiling: u64, fatigue: u64 },
}

/// Most characters of a command said in a reason.
const COMMAND_SHOWN: usize = 40;

impl Trip {
    /// `cost_cap`, `loop` or `fatigue`.
    pub fn rail(&self) -> &'static str {
        match self {
            Trip::CostCap { .. } => "cost_cap",
            Trip::Loop { .. } => "loop",
            Trip::Fatigue { .. } => "fatigue",
        }
    }

    /// In a few words: `cost cap $2.00`.
    pub fn reason(&self) -> String {
        match self {
            Trip::CostCap { cap, .. } => format!("cost cap ${cap:.2}"),
            Trip::Loop { repeats, .. } => format!("loop ({repeats} failures in a row)"),
            Trip::Fatigue { ceiling, .. } => format!("fatigue ceiling {ceiling}"),
        }
    }

    /// In a sentence.
    pub fn detail(&self) -> String {
        match self {
            Trip::CostCap { cap, spent } => {
                format!("${spent:.2} spent today (UTC), the cap is ${cap:.2}")
            }
            Trip::Loop { command, repeats } => {
                let mut shown: String = command.chars().take(COMMAND_SHOWN).collect();
                if shown.len() < command.len() {
                    shown.push('…');
                }
                format!("`{shown}` failed {repeats} times in a row")
            }
            Trip::Fatigue { ceiling, fatigue } => {
                format!("{fatigue} tool calls without a dream, the ceiling is {ceiling}")
            }
        }
    }

    /// The report as it stands when the guardrail trips (the sleep not yet over).
    pub fn report(&self, at: chrono::DateTime<chrono::Utc>, spent: Option<f64>) -> MorningReport {
        MorningReport {
            rail: self.rail().into(),
            reason: self.reason(),
            detail: self.detail(),
            tripped_at: at,
            cost_today_usd: spent,
            slept_at: None,
            consolidated: false,
            changes: Vec::new(),
            wake_key: "w".into(),
            woken_at: None,
        }
    }
}

/// The guardrails' watch over one creature.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    rails: Guardrails,
    /// The cost so far today, when any call was priced.
    spent: Option<(NaiveDate, f64)>,
    /// The last failing command, and how many times in a row it failed.
    failing: Option<(String, u32)>,
    /// Tripped and not yet released: nothing trips again meanwhile.
    tripped: bool,
    /// The day a person woke the creature past its cost cap: the cap is quiet until the
    /// next day.
    cost_waived: Option<NaiveDate>,
}

impl Guard {
    pub fn new(rails: Guardrails) -> Self {
        Self {
            rails,
            ..Self::default()
        }
    }

    /// What the creature's calls cost today, as last seen.
    pub fn spent(&self) -> Option<f64> {
        self.spent.map(|(_, usd)| usd)
    }

    /// Takes in what the creature did; a guardrail that trips now.
    pub fn observe(&mut self, seen: Seen<'_>) -> Option<Trip> {
        let trip = match seen {
            Seen::Spent { usd, day } => {
                self.spent = Some((day, usd));
                let cap = self.rails.daily_cost_usd?;
                (usd >= cap && self.cost_waived != Some(day))
                    .then_some(Trip::CostCap { cap, spent: usd })
            }
            Seen::Command { command, failed } => {
                if !failed {
                    self.failing = None;
                    return None;
                }
                let repeats = match &self.failing {
                    Some((last, n)) if last == command => n + 1,
                    _ => 1,
                };
                self.failing = Some((command.to_string(), repeats));
                let want = self.rails.loop_repeats?;
                (repeats >= want).then(|| Trip::Loop {
                    command: command.to_string(),
                    repeats,
                })
            }
            Seen::Fatigue(fatigue) => {
                let ceiling = self.rails.fatigue_ceiling?;
                (fatigue >= ceiling).then_some(Trip::Fatigue { ceiling, fatigue })
            }
        };
        if self.tripped {
            return None;
        }
        self.tripped = trip.is_some();
        trip
    }

    /// A person woke the creature: the guardrails watch again, the loop count starts
    /// over, and a cost cap already reached stays quiet for the rest of the day.
    pub fn release(&mut self) {
        self.tripped = false;
        self.failing = None;
        if let Some((day, usd)) = self.spent
            && self.rails.daily_cost_usd.is_some_and(|cap| usd >= cap)
        {
            self.cost_waived = Some(day);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
    }

    fn guard() -> Guard {
        Guard::new(Guardrails {
            daily_cost_usd: Some(2.0),
            loop_repeats: Some(3),
            fatigue_ceiling: Some(50),
        })
    }

    fn fail(g: &mut Guard, command: &str) -> Option<Trip> {
        g.observe(Seen::Command {
            command,
            failed: true,
        })
    }

    #[test]
    fn the_cost_cap_trips_once_and_after_a_wake_waits_for_the_next_day() {
        let mut g = guard();
        assert_eq!(
            g.observe(Seen::Spent {
                usd: 1.5,
                day: day(1)
            }),
            None
        );
        let trip = g.observe(Seen::Spent {
            usd: 2.1,
            day: day(1),
        });
        assert_eq!(
            trip,
            Some(Trip::CostCap {
                cap: 2.0,
                spent: 2.1
            })
        );
        assert_eq!(trip.unwrap().reason(), "cost cap $2.00");
        assert_eq!(
            g.observe(Seen::Spent {
                usd: 2.2,
                day: day(1)
            }),
            None,
            "once"
        );
        g.release();
        assert_eq!(
            g.observe(Seen::Spent {
                usd: 3.0,
                day: day(1)
            }),
            None,
            "woken past it"
        );
        assert!(
            g.observe(Seen::Spent {
                usd: 2.0,
                day: day(2)
            })
            .is_some(),
            "a new day"
        );
        assert_eq!(g.spent(), Some(2.0));
    }

    #[test]
    fn a_loop_is_the_same_command_failing_in_a_row() {
        let mut g = guard();
        assert_eq!(fail(&mut g, "make"), None);
        assert_eq!(fail(&mut g, "make"), None);
        assert_eq!(
            fail(&mut g, "cargo test"),
            None,
            "another command starts over"
        );
        assert_eq!(fail(&mut g, "cargo test"), None);
        g.observe(Seen::Command {
            command: "cargo test",
            failed: false,
        });
        assert_eq!(fail(&mut g, "cargo test"), None, "a success starts over");
        assert_eq!(fail(&mut g, "cargo test"), None);
        let trip = fail(&mut g, "cargo test").unwrap();
        assert_eq!(trip.rail(), "loop");
        assert_eq!(trip.detail(), "`cargo test` failed 3 times in a row");
        assert_eq!(fail(&mut g, "cargo test"), None, "held: once");
        g.release();
        assert_eq!(fail(&mut g, "cargo test"), None, "released: counted again");
    }

    #[test]
    fn the_fatigue_ceiling_and_rails_left_off() {
        let mut g = guard();
        assert_eq!(g.observe(Seen::Fatigue(49)), None);
        let trip = g.observe(Seen::Fatigue(50)).unwrap();
        assert_eq!(trip.reason(), "fatigue ceiling 50");
        let mut off = Guard::new(Guardrails::default());
        assert_eq!(off.observe(Seen::Fatigue(10_000)), None);
        assert_eq!(
            off.observe(Seen::Spent {
                usd: 1e6,
                day: day(1)
            }),
            None
        );
        for _ in 0..10 {
            assert_eq!(fail(&mut off, "make"), None);
        }
    }

    #[test]
    fn a_report_at_the_trip_holds_the_creature() {
        let t = chrono::DateTime::parse_from_rfc3339("2026-03-01T10:00:00Z")
            .unwrap()
            .to_utc();
        let r = Trip::CostCap {
            cap: 2.0,
            spent: 2.04,
        }
        .report(t, Some(2.04));
        assert!(r.held());
        assert_eq!(r.headline(), "held: cost cap $2.00");
        assert_eq!(r.detail, "$2.04 spent today (UTC), the cap is $2.00");
    }

    #[test]
    fn overrides_and_validation() {
        let garden = Guardrails {
            daily_cost_usd: Some(2.0),
            loop_repeats: Some(5),
            fatigue_ceiling: None,
        };
        let one = Guardrails {
            loop_repeats: Some(3),
            ..Guardrails::default()
        };
        let both = garden.over(&one);
        assert_eq!(both.daily_cost_usd, Some(2.0));
        assert_eq!(both.loop_repeats, Some(3));
        assert_eq!(both.invalid(), None);
        let bad = Guardrails {
            loop_repeats: Some(1),
            ..Guardrails::default()
        };
        assert_eq!(bad.invalid(), Some("loop_repeats must be 2 or more"));
        let bad = Guardrails {
            daily_cost_usd: Some(-1.0),
            ..Guardrails::default()
        };
        assert!(bad.invalid().is_some());
    }
}
