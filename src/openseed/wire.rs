//! The orchestrator's JSON answers as types (see the module doc for where each comes
//! from). Unknown values of a known field are kept, not refused: a newer orchestrator may
//! add a status.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A creature as `GET /api/creatures` lists it (written back in the same form, for a far
/// observatory).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatureInfo {
    pub name: String,
    pub status: ApiStatus,
    #[serde(rename = "sleepReason", default)]
    pub sleep_reason: Option<SleepReason>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub sha: Option<String>,
}

impl CreatureInfo {
    /// The orchestrator paused it at its daily budget: its container is stopped though
    /// the API says it sleeps (`supervisor.ts` `budgetPause`); only the start route
    /// wakes it before the day resets.
    pub fn paused_for_budget(&self) -> bool {
        self.status == ApiStatus::Sleeping && self.sleep_reason == Some(SleepReason::Budget)
    }
}

/// What the orchestrator says a creature is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ApiStatus {
    Running,
    Sleeping,
    Stopped,
    Starting,
    Error,
    Spawning,
    Other(String),
}

impl From<String> for ApiStatus {
    fn from(s: String) -> Self {
        match s.as_str() {
            "running" => Self::Running,
            "sleeping" => Self::Sleeping,
            "stopped" => Self::Stopped,
            "starting" => Self::Starting,
            "error" => Self::Error,
            "spawning" => Self::Spawning,
            _ => Self::Other(s),
        }
    }
}

impl From<ApiStatus> for String {
    fn from(s: ApiStatus) -> Self {
        s.label().to_owned()
    }
}

impl ApiStatus {
    pub fn label(&self) -> &str {
        match self {
            Self::Running => "running",
            Self::Sleeping => "sleeping",
            Self::Stopped => "stopped",
            Self::Starting => "starting",
            Self::Error => "error",
            Self::Spawning => "spawning",
            Self::Other(s) => s,
        }
    }

    /// Its container runs (stop makes sense; start does not).
    pub fn runs(&self) -> bool {
        !matches!(self, Self::Stopped | Self::Spawning)
    }
}

/// Why a creature is not awake, as the orchestrator knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum SleepReason {
    /// Its daily budget ran out: the orchestrator paused it until the day resets.
    Budget,
    /// It chose to sleep.
    Fatigue,
    /// Someone stopped it.
    User,
    Other(String),
}

impl From<String> for SleepReason {
    fn from(s: String) -> Self {
        match s.as_str() {
            "budget" => Self::Budget,
            "fatigue" => Self::Fatigue,
            "user" => Self::User,
            _ => Self::Other(s),
        }
    }
}

impl From<SleepReason> for String {
    fn from(r: SleepReason) -> Self {
        r.label().to_owned()
    }
}

impl SleepReason {
    pub fn label(&self) -> &str {
        match self {
            Self::Budget => "budget",
            Self::Fatigue => "fatigue",
            Self::User => "user",
            Self::Other(s) => s,
        }
    }
}

/// `GET /api/usage`: what each creature has cost since the orchestrator started, and
/// today.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    #[serde(default)]
    pub usage: BTreeMap<String, UsageEntry>,
    #[serde(default)]
    pub total: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsageEntry {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    pub calls: u64,
    pub daily_cost_usd: f64,
    pub daily_date: Option<String>,
}

/// The name the orchestrator books its narrator's model calls under in the usage.
pub const NARRATOR: &str = "_narrator";

impl Usage {
    /// What `name` spent on `day` (`YYYY-MM-DD`, UTC, as the orchestrator dates it): an
    /// entry of an earlier day counts nothing (the orchestrator keeps it until that
    /// name's next call, `src/host/costs.ts`).
    pub fn spent_on(&self, name: &str, day: &str) -> f64 {
        self.usage
            .get(name)
            .filter(|u| u.daily_date.as_deref() == Some(day))
            .map_or(0.0, |u| u.daily_cost_usd)
    }
}

/// `GET /api/creatures/:name/budget`: today's spending against the daily cap.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    pub daily_cap_usd: f64,
    pub daily_spent_usd: f64,
    #[serde(default)]
    pub remaining_usd: Option<f64>,
    #[serde(default)]
    pub resets_at: Option<String>,
    /// `sleep` (paused at the cap), `warn` or `off` (no cap).
    #[serde(default)]
    pub action: String,
    #[serde(default)]
    pub status: Option<String>,
}

/// How near a creature is to its daily cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetLevel {
    /// No cap (`off`), or well under it.
    Fine,
    /// At [`NEAR_CAP`] of the cap or more.
    Near,
    /// At the cap or past it.
    Past,
}

/// The share of the daily cap from which a creature is said to be near it.
pub const NEAR_CAP: f64 = 0.8;

impl Budget {
    pub fn level(&self) -> BudgetLevel {
        if self.action == "off" || self.daily_cap_usd <= 0.0 {
            return BudgetLevel::Fine;
        }
        if self.status.as_deref() == Some("exceeded") || self.daily_spent_usd >= self.daily_cap_usd
        {
            BudgetLevel::Past
        } else if self.daily_spent_usd >= self.daily_cap_usd * NEAR_CAP {
            BudgetLevel::Near
        } else {
            BudgetLevel::Fine
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creatures_parse_as_the_orchestrator_lists_them() {
        let list: Vec<CreatureInfo> = serde_json::from_str(
            r#"[{"name":"finch","status":"sleeping","sha":"abc","port":7771,"sleepReason":"budget","model":"claude-opus-4-6"},
                {"name":"wren","status":"spawning","sha":null,"port":null,"sleepReason":null,"model":null},
                {"name":"moss","status":"hibernating","sleepReason":"moon"}]"#,
        )
        .unwrap();
        assert_eq!(list[0].status, ApiStatus::Sleeping);
        assert_eq!(list[0].sleep_reason, Some(SleepReason::Budget));
        assert_eq!(list[1].status, ApiStatus::Spawning);
        assert_eq!(list[1].sleep_reason, None);
        assert_eq!(list[2].status.label(), "hibernating");
        assert_eq!(list[2].sleep_reason.as_ref().unwrap().label(), "moon");
    }

    #[test]
    fn budget_levels() {
        let budget = |spent: f64, action: &str| Budget {
            daily_cap_usd: 10.0,
            daily_spent_usd: spent,
            action: action.into(),
            ..Budget::default()
        };
        assert_eq!(budget(7.99, "sleep").level(), BudgetLevel::Fine);
        assert_eq!(budget(8.0, "sleep").level(), BudgetLevel::Near);
        assert_eq!(budget(10.0, "warn").level(), BudgetLevel::Past);
        assert_eq!(budget(50.0, "off").level(), BudgetLevel::Fine);
    }

    #[test]
    fn only_the_days_entries_count() {
        let usage: Usage = serde_json::from_str(
            r#"{"usage":{"a":{"cost_usd":3.5,"daily_cost_usd":1.25,"daily_date":"2026-03-09","calls":4,"input_tokens":10,"output_tokens":2},"b":{"cost_usd":1,"daily_cost_usd":0.5,"daily_date":"2026-03-08"},"c":{"cost_usd":1}},"total":4.5}"#,
        )
        .unwrap();
        assert_eq!(usage.spent_on("a", "2026-03-09"), 1.25);
        assert_eq!(usage.spent_on("b", "2026-03-09"), 0.0, "yesterday's");
        assert_eq!(usage.spent_on("c", "2026-03-09"), 0.0, "never dated");
        assert_eq!(usage.spent_on("z", "2026-03-09"), 0.0);
        assert_eq!(usage.total, 4.5);
    }
}
