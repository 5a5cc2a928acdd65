//! The narrator: the orchestrator's own model telling the garden's story every few
//! minutes (`src/host/narrator.ts` at 815f9fd), read as its dashboard reads it
//! (`dashboard/src/api.ts`, `SettingsModal.tsx`'s `NarratorSection`):
//! - `GET /api/narration?limit=N` (`index.ts:682`): its last entries (at most 100),
//!   oldest first, `[{t, text, blocks?, creatures_mentioned, events_count}]`, from
//!   `narration.jsonl` in OpenSeed's home; each new one is also streamed as
//!   `narrator.entry` (for `_narrator`, with `text` and `creatures_mentioned`).
//! - `GET /api/narrator/config` (655): `{enabled, model, interval_minutes}`; `PUT` (662)
//!   with any of them (`enabled` a boolean, `model` a non-empty string,
//!   `interval_minutes` at least 1) answers the config as it now is; `400 nothing to
//!   update` (no content type) when none is valid.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::OpenSeedError;
use super::client::Client;

/// How many entries the dashboard asks for (`api.ts`: `fetchNarration(limit = 50)`).
pub const NARRATION_ASKED: usize = 50;

/// One entry of the story.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct NarrationEntry {
    /// RFC 3339.
    #[serde(default)]
    pub t: String,
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub creatures_mentioned: Vec<String>,
}

/// The narrator's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NarratorConfig {
    pub enabled: bool,
    pub model: String,
    pub interval_minutes: u32,
}

impl Client {
    /// The narrator's last `limit` entries, oldest first.
    pub async fn narration(&self, limit: usize) -> Result<Vec<NarrationEntry>, OpenSeedError> {
        let limit = limit.to_string();
        self.get_query(&["api", "narration"], &[("limit", &limit)])
            .await
    }

    pub async fn narrator_config(&self) -> Result<NarratorConfig, OpenSeedError> {
        self.send(
            reqwest::Method::GET,
            &["api", "narrator", "config"],
            None,
            None,
        )
        .await
    }

    /// Sets the narrator's settings; answers them as they now are.
    pub async fn set_narrator_config(
        &self,
        config: &NarratorConfig,
    ) -> Result<NarratorConfig, OpenSeedError> {
        let body = json!({
            "enabled": config.enabled,
            "model": config.model,
            "interval_minutes": config.interval_minutes,
        });
        self.send(
            reqwest::Method::PUT,
            &["api", "narrator", "config"],
            None,
            Some(&body),
        )
        .await
    }
}
