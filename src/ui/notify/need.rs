//! What needs a person, decided from what each look at a creature finds: a state machine
//! with no IO and no clock of its own ([`Needs::handle`]). A condition (failing, stalled,
//! a dream held for review, past a budget) gives one notice when it begins, and another
//! only after it has cleared and begun again; a message to the creator gives one per new
//! message. What a creature is like when first seen is taken as it is, and so is what a
//! source that speaks of it later says the first time (an OpenSeed orchestrator's list
//! or costs, which come after the files): no notice for what was already so when the
//! observatory started.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

/// Awake, not paused, and no event for this long by default: stalled.
pub const STALLED_AFTER: Duration = Duration::minutes(10);

/// Why a creature needs a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Need {
    /// Its model calls (or writes) fail.
    Failing,
    /// Awake and not paused, and nothing written for longer than it should be.
    Stalled,
    /// A dream is held for the operator's review.
    Review,
    /// Past a budget: a guardrail holds it asleep, or its orchestrator paused it.
    Budget,
    /// It wrote to its creator.
    Message,
}

impl Need {
    /// The kind as the hook's JSON says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Need::Failing => "failing",
            Need::Stalled => "stalled",
            Need::Review => "review",
            Need::Budget => "budget",
            Need::Message => "message",
        }
    }

    /// What a person is asked to do.
    pub fn asks(self) -> &'static str {
        match self {
            Need::Failing => {
                "look at why its model calls fail (the Events view, Enter on the error)"
            }
            Need::Stalled => "look at why it has written nothing while awake",
            Need::Review => "review the dream it holds: apply, edit or reject it",
            Need::Budget => "decide whether it goes on: wake it, or raise its cap",
            Need::Message => "read what it wrote to you (the Talk view)",
        }
    }
}

/// What one look at a creature found (its texts inert already).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seen {
    /// Its model calls fail: why.
    pub failing: Option<String>,
    /// Awake and not paused.
    pub awake: bool,
    /// When it last wrote anything.
    pub last_activity: Option<DateTime<Utc>>,
    /// A dream is held for review.
    pub review: bool,
    /// Past a budget: in a few words (`held: cost cap $2.00`).
    pub budget: Option<String>,
    /// Messages to its creator recorded so far, and the latest one's text.
    pub to_creator: u64,
    pub last_to_creator: Option<String>,
    /// How many sources have spoken of it (its files, an orchestrator's list, its
    /// costs): a look after one more has is taken as it is.
    pub sources: u8,
}

/// What [`Needs::handle`] is fed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// A look at the creature at `path` (named `name`) at `now`.
    Looked {
        path: PathBuf,
        name: String,
        now: DateTime<Utc>,
        seen: Seen,
    },
    /// The creature is gone: forgotten (seen again, it is a new first look).
    Gone { path: PathBuf },
}

/// One notice: a creature that needs a person, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub need: Need,
    pub path: PathBuf,
    pub name: String,
    pub at: DateTime<Utc>,
    /// In a sentence, naming the creature.
    pub text: String,
}

/// What is remembered of a creature: the conditions on now, the messages counted.
#[derive(Debug, Default)]
struct Known {
    on: BTreeSet<Need>,
    to_creator: u64,
    sources: u8,
}

/// The state machine: per creature, the conditions that are on.
#[derive(Debug)]
pub struct Needs {
    stalled_after: Duration,
    known: HashMap<PathBuf, Known>,
}

impl Needs {
    pub fn new(stalled_after: Duration) -> Self {
        Self {
            stalled_after,
            known: HashMap::new(),
        }
    }

    /// The creatures it knows (for [`Fact::Gone`] of those no longer there).
    pub fn known(&self) -> impl Iterator<Item = &Path> {
        self.known.keys().map(PathBuf::as_path)
    }

    /// Takes in a fact; the notices it gives.
    pub fn handle(&mut self, fact: Fact) -> Vec<Notice> {
        let (path, name, now, seen) = match fact {
            Fact::Gone { path } => {
                self.known.remove(&path);
                return Vec::new();
            }
            Fact::Looked {
                path,
                name,
                now,
                seen,
            } => (path, name, now, seen),
        };
        let on = self.conditions(&seen, now);
        let first = !self.known.contains_key(&path);
        let known = self.known.entry(path.clone()).or_default();
        let settling = seen.sources > known.sources;
        let mut notices = Vec::new();
        let tell = |need: Need, text: String| Notice {
            need,
            path: path.clone(),
            name: name.clone(),
            at: now,
            text,
        };
        if !first && !settling {
            for need in on.difference(&known.on) {
                notices.push(tell(
                    *need,
                    Self::text(*need, &name, &seen, self.stalled_after),
                ));
            }
            if seen.to_creator > known.to_creator {
                let more = seen.to_creator - known.to_creator - 1;
                let said = seen.last_to_creator.as_deref().unwrap_or("");
                let more = if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                };
                notices.push(tell(
                    Need::Message,
                    format!("{name} wrote to you: {said}{more}"),
                ));
            }
        }
        known.on = on;
        known.to_creator = seen.to_creator;
        known.sources = seen.sources;
        notices
    }

    /// The conditions `seen` says are on at `now`.
    fn conditions(&self, seen: &Seen, now: DateTime<Utc>) -> BTreeSet<Need> {
        let stalled = seen.awake
            && seen
                .last_activity
                .is_none_or(|t| now - t >= self.stalled_after);
        [
            (Need::Failing, seen.failing.is_some()),
            (Need::Stalled, stalled),
            (Need::Review, seen.review),
            (Need::Budget, seen.budget.is_some()),
        ]
        .into_iter()
        .filter_map(|(need, on)| on.then_some(need))
        .collect()
    }

    fn text(need: Need, name: &str, seen: &Seen, stalled_after: Duration) -> String {
        match need {
            Need::Failing => format!(
                "{name} is failing: {}",
                seen.failing.as_deref().unwrap_or("its model calls fail")
            ),
            Need::Stalled => format!(
                "{name} is stalled: awake, and nothing written for {} minutes",
                stalled_after.num_minutes()
            ),
            Need::Review => format!("{name} holds a dream for your review"),
            Need::Budget => format!(
                "{name} is past its budget: {}",
                seen.budget.as_deref().unwrap_or("held")
            ),
            Need::Message => format!("{name} wrote to you"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    fn look(needs: &mut Needs, s: i64, seen: &Seen) -> Vec<Need> {
        needs
            .handle(Fact::Looked {
                path: PathBuf::from("/g/sprout"),
                name: "sprout".into(),
                now: at(s),
                seen: seen.clone(),
            })
            .into_iter()
            .map(|n| n.need)
            .collect()
    }

    fn calm(s: i64) -> Seen {
        Seen {
            awake: true,
            last_activity: Some(at(s)),
            sources: 1,
            ..Seen::default()
        }
    }

    #[test]
    fn a_condition_notifies_once_when_it_begins_and_again_only_after_it_cleared() {
        let mut needs = Needs::new(STALLED_AFTER);
        assert!(look(&mut needs, 10, &calm(10)).is_empty());
        let failing = Seen {
            failing: Some("connection refused".into()),
            ..calm(11)
        };
        assert_eq!(look(&mut needs, 11, &failing), [Need::Failing]);
        assert!(
            look(&mut needs, 12, &failing).is_empty(),
            "once per episode"
        );
        assert!(look(&mut needs, 13, &calm(13)).is_empty(), "cleared");
        assert_eq!(look(&mut needs, 14, &failing), [Need::Failing], "again");
    }

    #[test]
    fn what_was_so_at_the_start_gives_no_notice() {
        let mut needs = Needs::new(STALLED_AFTER);
        let bad = Seen {
            failing: Some("401".into()),
            review: true,
            budget: Some("held: cost cap $2.00".into()),
            to_creator: 3,
            last_to_creator: Some("hi".into()),
            ..calm(0)
        };
        // The first look; then an orchestrator speaks of it for the first time.
        assert!(look(&mut needs, 1, &calm(1)).is_empty());
        let heard = Seen {
            sources: 2,
            ..bad.clone()
        };
        assert!(look(&mut needs, 2, &heard).is_empty());
        assert!(
            look(&mut needs, 30, &heard).is_empty(),
            "still the same episode"
        );
        // A creature first seen later: its first look is taken as it is too.
        let first = needs.handle(Fact::Looked {
            path: PathBuf::from("/g/fern"),
            name: "fern".into(),
            now: at(60),
            seen: bad.clone(),
        });
        assert!(first.is_empty(), "{first:?}");
    }

    #[test]
    fn each_need_begins_on_its_own() {
        let mut needs = Needs::new(STALLED_AFTER);
        look(&mut needs, 10, &calm(10));
        let review = Seen {
            review: true,
            ..calm(20)
        };
        assert_eq!(look(&mut needs, 20, &review), [Need::Review]);
        let budget = Seen {
            budget: Some("held: loop".into()),
            ..review.clone()
        };
        assert_eq!(look(&mut needs, 21, &budget), [Need::Budget]);
        let said = needs.handle(Fact::Looked {
            path: PathBuf::from("/g/sprout"),
            name: "sprout".into(),
            now: at(22),
            seen: Seen {
                budget: None,
                ..budget
            },
        });
        assert!(said.is_empty());
    }

    #[test]
    fn stalled_is_awake_and_quiet_for_longer_than_the_time_given() {
        let mut needs = Needs::new(Duration::seconds(60));
        look(&mut needs, 10, &calm(10));
        assert!(look(&mut needs, 69, &calm(10)).is_empty());
        assert_eq!(look(&mut needs, 70, &calm(10)), [Need::Stalled]);
        assert!(look(&mut needs, 500, &calm(10)).is_empty());
        // Asleep or paused is not stalled: the episode ends.
        let asleep = Seen {
            awake: false,
            ..calm(10)
        };
        assert!(look(&mut needs, 501, &asleep).is_empty());
        assert_eq!(look(&mut needs, 502, &calm(10)), [Need::Stalled]);
    }

    #[test]
    fn each_new_message_to_the_creator_is_a_notice() {
        let mut needs = Needs::new(STALLED_AFTER);
        let wrote = |n: u64, text: &str| Seen {
            to_creator: n,
            last_to_creator: Some(text.into()),
            ..calm(10)
        };
        look(&mut needs, 10, &wrote(2, "old"));
        let said = needs.handle(Fact::Looked {
            path: PathBuf::from("/g/sprout"),
            name: "sprout".into(),
            now: at(11),
            seen: wrote(4, "the garden is dry"),
        });
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].need, Need::Message);
        assert_eq!(
            said[0].text,
            "sprout wrote to you: the garden is dry (and 1 more)"
        );
        assert!(look(&mut needs, 12, &wrote(4, "the garden is dry")).is_empty());
        // The events read again from the start: counted anew, nothing said.
        assert!(look(&mut needs, 13, &wrote(1, "x")).is_empty());
        assert_eq!(look(&mut needs, 14, &wrote(2, "y")), [Need::Message]);
    }

    #[test]
    fn a_creature_gone_and_back_is_seen_for_the_first_time_again() {
        let mut needs = Needs::new(STALLED_AFTER);
        look(&mut needs, 10, &calm(10));
        needs.handle(Fact::Gone {
            path: PathBuf::from("/g/sprout"),
        });
        assert_eq!(needs.known().count(), 0);
        let failing = Seen {
            failing: Some("x".into()),
            ..calm(11)
        };
        assert!(look(&mut needs, 11, &failing).is_empty());
    }
}
