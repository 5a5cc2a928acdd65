//! What OpenSeed's dashboard does to the garden besides wake, message, stop and start
//! (`dashboard/src/api.ts`), read in `src/host/index.ts` at 815f9fd:
//! - `POST /api/creatures/:name/restart` (1155: `docker restart`, environment kept),
//!   `.../rebuild` (1169: `docker build`, then a fresh container: its writable layer is
//!   lost), `.../remount` (1190: the container committed to its image, then made again
//!   with new mounts), each `200 ok` or a 400 with the error's text (`creature "x" is not
//!   running`), or a JSON 503 while the orchestrator is degraded; `.../archive` (1252:
//!   stops it, removes its container and image, moves its directory to the archive).
//! - `GET /api/genomes` (690): `[{name, description?, source}]`; `GET /api/models` (722):
//!   `[{id, provider, isDefault, inputCostPerMillion, outputCostPerMillion}]`.
//! - `POST /api/creatures` (954) with `{name, genome, purpose?, model?}`: `202
//!   {ok, name, status: "spawning"}` at once, then `creature.spawning`,
//!   `creature.spawned` or `creature.spawn_failed` (with `error`) on the stream; a 400
//!   with the reason (`invalid name (lowercase alphanumeric + hyphens)`, `creature "x"
//!   already exists`, `unsupported model "m"`).
//! - `GET`/`PUT /api/budget` (630, 637): `{daily_usd, action}`; `PUT
//!   /api/creatures/:name/budget` (1278) with `{daily_usd, action}` answers the same
//!   form; `400 nothing to update` when neither is valid.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::OpenSeedError;
use super::client::Client;

/// How long a restart, rebuild, remount or archive may take before the orchestrator
/// answers (it answers once Docker is done: a build may take two minutes there).
const DOCKER_WAIT: Duration = Duration::from_secs(150);

/// A genome the orchestrator can spawn a creature of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenomeInfo {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// `installed` or `bundled`.
    #[serde(default)]
    pub source: String,
}

/// A model the orchestrator can run a creature on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    #[serde(default)]
    pub provider: String,
    #[serde(rename = "isDefault", default)]
    pub is_default: bool,
}

/// A daily spending cap: dollars a day, and what happens at it (`sleep`, `warn`, `off`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cap {
    pub daily_usd: f64,
    pub action: String,
}

/// What a cap's action may be (`index.ts:645`).
pub const CAP_ACTIONS: [&str; 3] = ["sleep", "warn", "off"];

/// Dollars in whole cents (a negative or absurd amount is none).
pub fn cents(usd: f64) -> u64 {
    let cents = (usd * 100.0).round();
    if cents.is_finite() && cents > 0.0 {
        cents as u64
    } else {
        0
    }
}

/// A creature to spawn, as the dashboard's form asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnRequest {
    pub name: String,
    /// `None`: the orchestrator's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// The lifecycle routes that take no body, by their last segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lifecycle {
    Restart,
    Rebuild,
    Remount,
    Archive,
}

impl Lifecycle {
    pub const ALL: [Lifecycle; 4] = [Self::Restart, Self::Rebuild, Self::Remount, Self::Archive];

    pub fn verb(self) -> &'static str {
        match self {
            Self::Restart => "restart",
            Self::Rebuild => "rebuild",
            Self::Remount => "remount",
            Self::Archive => "archive",
        }
    }

    pub fn from_verb(verb: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.verb() == verb)
    }
}

impl Client {
    /// Restarts, rebuilds, remounts or archives the creature.
    pub async fn lifecycle(&self, creature: &str, what: Lifecycle) -> Result<(), OpenSeedError> {
        self.act_within(creature, what.verb(), json!({}), DOCKER_WAIT)
            .await
    }

    pub async fn genomes(&self) -> Result<Vec<GenomeInfo>, OpenSeedError> {
        self.send(reqwest::Method::GET, &["api", "genomes"], None, None)
            .await
    }

    pub async fn models(&self) -> Result<Vec<ModelInfo>, OpenSeedError> {
        self.send(reqwest::Method::GET, &["api", "models"], None, None)
            .await
    }

    /// Asks for a creature to be spawned; the orchestrator answers at once and tells on
    /// its stream how the spawn went.
    pub async fn spawn(&self, request: &SpawnRequest) -> Result<(), OpenSeedError> {
        let body =
            serde_json::to_value(request).map_err(|e| OpenSeedError::Malformed(e.to_string()))?;
        let _: Value = self
            .send(
                reqwest::Method::POST,
                &["api", "creatures"],
                None,
                Some(&body),
            )
            .await?;
        Ok(())
    }

    /// The cap of every creature that has none of its own.
    pub async fn global_cap(&self) -> Result<Cap, OpenSeedError> {
        self.send(reqwest::Method::GET, &["api", "budget"], None, None)
            .await
    }

    /// Sets the cap of `creature`, or (`None`) the global one; answers it as it now is.
    pub async fn set_cap(&self, creature: Option<&str>, cap: &Cap) -> Result<Cap, OpenSeedError> {
        let body = json!({ "daily_usd": cap.daily_usd, "action": cap.action });
        match creature {
            Some(name) => {
                self.send(
                    reqwest::Method::PUT,
                    &["api", "creatures", name, "budget"],
                    Some(name),
                    Some(&body),
                )
                .await
            }
            None => {
                self.send(reqwest::Method::PUT, &["api", "budget"], None, Some(&body))
                    .await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_are_whole_cents() {
        assert_eq!(cents(2.5), 250);
        assert_eq!(cents(0.014), 1);
        assert_eq!(cents(-3.0), 0);
        assert_eq!(cents(f64::NAN), 0);
        assert_eq!(Lifecycle::from_verb("remount"), Some(Lifecycle::Remount));
        assert_eq!(Lifecycle::from_verb("wake"), None);
    }
}
