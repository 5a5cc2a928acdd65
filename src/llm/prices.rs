//! What model calls cost: a price table in US dollars per million tokens, keyed
//! `provider/model` as usage is recorded. The built-in table is `prices.toml` beside this
//! file (its header says where the prices come from); the config file's `[prices]` adds
//! entries or replaces them. A model the table does not know has no cost: its tokens are
//! still counted, and [`Cost::unpriced`] names it.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::memory::usage::{Tokens, Totals};

/// The built-in table.
pub const BUILTIN: &str = include_str!("prices.toml");

/// The price of one model, per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(try_from = "RawPrice")]
pub struct Price {
    pub input: f64,
    pub output: f64,
    /// Input read from the prompt cache (default: the input price).
    pub cache_read: Option<f64>,
    /// Input written to the prompt cache (default: the input price).
    pub cache_write: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrice {
    input: f64,
    output: f64,
    cache_read: Option<f64>,
    cache_write: Option<f64>,
}

impl TryFrom<RawPrice> for Price {
    type Error = String;

    fn try_from(raw: RawPrice) -> Result<Self, Self::Error> {
        let all = [
            Some(raw.input),
            Some(raw.output),
            raw.cache_read,
            raw.cache_write,
        ];
        if all.iter().flatten().any(|p| !p.is_finite() || *p < 0.0) {
            return Err("a price must be a number of dollars, 0 or more".into());
        }
        Ok(Self {
            input: raw.input,
            output: raw.output,
            cache_read: raw.cache_read,
            cache_write: raw.cache_write,
        })
    }
}

impl Price {
    /// The dollars `tokens` cost.
    pub fn of(&self, tokens: &Tokens) -> f64 {
        let per = |n: u64, price: f64| n as f64 * price;
        (per(tokens.input, self.input)
            + per(tokens.output, self.output)
            + per(tokens.cache_read, self.cache_read.unwrap_or(self.input))
            + per(tokens.cache_write, self.cache_write.unwrap_or(self.input)))
            / 1e6
    }
}

/// A price table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prices(BTreeMap<String, Price>);

/// Why a price table cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("price table: {0}")]
pub struct PriceError(String);

impl Prices {
    /// A table in the format of `prices.toml`.
    pub fn parse(text: &str) -> Result<Self, PriceError> {
        toml::from_str(text)
            .map(Self)
            .map_err(|e| PriceError(e.message().to_string()))
    }

    /// The built-in table (a unit test keeps it readable).
    pub fn builtin() -> Self {
        Self::parse(BUILTIN).unwrap_or_else(|e| {
            tracing::warn!("{e}");
            Self::default()
        })
    }

    /// This table with `overrides` added over it.
    pub fn with(mut self, overrides: &BTreeMap<String, Price>) -> Self {
        self.0
            .extend(overrides.iter().map(|(k, v)| (k.clone(), *v)));
        self
    }

    /// The price of `model`: its own entry, else that of the model without a date at its
    /// end (`-20250929`, `-2024-07-18`).
    pub fn get(&self, model: &str) -> Option<&Price> {
        self.0.get(model).or_else(|| self.0.get(undated(model)?))
    }

    /// What the calls summed in `totals` cost.
    pub fn cost(&self, totals: &Totals) -> Cost {
        let mut cost = Cost::default();
        for (model, sums) in totals {
            cost.tokens += sums.tokens.total();
            cost.estimated |= sums.estimated;
            match self.get(model) {
                Some(price) => {
                    let usd = price.of(&sums.tokens);
                    cost.usd += usd;
                    cost.usd_estimated |= sums.estimated && usd > 0.0;
                }
                None => cost.unpriced.push(model.clone()),
            }
        }
        cost
    }
}

/// `model` without a date suffix, when it has one.
fn undated(model: &str) -> Option<&str> {
    let (head, tail) = model.rsplit_once('-')?;
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if digits(tail, 8) {
        return Some(head);
    }
    // `-YYYY-MM-DD`: the last three pieces.
    let (head, month) = head.rsplit_once('-')?;
    let (head, year) = head.rsplit_once('-')?;
    (digits(year, 4) && digits(month, 2) && digits(tail, 2)).then_some(head)
}

/// What some calls cost, as far as the table knows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cost {
    /// Dollars of the priced models.
    pub usd: f64,
    /// Every token counted, priced or not.
    pub tokens: u64,
    /// Models without a price: the cost is unknown while there is any.
    pub unpriced: Vec<String>,
    /// Some counts are dreamwatch's estimates.
    pub estimated: bool,
    /// Some of the dollars are priced from estimated counts.
    pub usd_estimated: bool,
}

impl Cost {
    /// The dollars, when every model is priced.
    pub fn known(&self) -> Option<f64> {
        self.unpriced.is_empty().then_some(self.usd)
    }

    pub fn add(&mut self, other: &Cost) {
        self.usd += other.usd;
        self.tokens += other.tokens;
        self.estimated |= other.estimated;
        self.usd_estimated |= other.usd_estimated;
        for model in &other.unpriced {
            if !self.unpriced.contains(model) {
                self.unpriced.push(model.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::memory::usage::ModelTotals;

    use super::*;

    fn sums(model: &str, input: u64, output: u64, cache_read: u64) -> (String, ModelTotals) {
        (
            model.to_string(),
            ModelTotals {
                calls: 1,
                tokens: Tokens {
                    input,
                    output,
                    cache_read,
                    cache_write: 0,
                },
                estimated: false,
            },
        )
    }

    #[test]
    fn the_built_in_table_reads_and_prices_known_models() {
        let prices = Prices::parse(BUILTIN).unwrap();
        assert_eq!(prices, Prices::builtin());
        let mini = prices.get("openai/gpt-4o-mini").unwrap();
        assert_eq!((mini.input, mini.output), (0.15, 0.6));
        // 1M input, 1M output, 1M from the cache: 0.15 + 0.60 + 0.075.
        let cost = prices.cost(&Totals::from([sums(
            "openai/gpt-4o-mini",
            1_000_000,
            1_000_000,
            1_000_000,
        )]));
        assert_eq!(cost.tokens, 3_000_000);
        assert!((cost.known().unwrap() - 0.825).abs() < 1e-9, "{cost:?}");
        assert_eq!(
            prices.get("rehearsal").map(|p| p.of(&Tokens {
                input: 9,
                ..Tokens::default()
            })),
            Some(0.0)
        );
    }

    #[test]
    fn dated_models_take_the_undated_price() {
        let prices = Prices::builtin();
        assert!(prices.get("anthropic/claude-sonnet-4-5-20250929").is_some());
        assert!(prices.get("openai/gpt-4o-mini-2024-07-18").is_some());
        assert!(prices.get("openai/gpt-4o-mini-preview").is_none());
        assert_eq!(undated("m-2024-07-18"), Some("m"));
        assert_eq!(undated("m-20240718"), Some("m"));
        assert_eq!(undated("m-2024"), None);
    }

    #[test]
    fn overrides_replace_and_add_and_unknown_models_leave_the_cost_open() {
        let overrides: BTreeMap<String, Price> = toml::from_str(
            r#""openai/gpt-4o-mini" = { input = 1, output = 2 }
               "openai/llama3" = { input = 0, output = 0 }"#,
        )
        .unwrap();
        let prices = Prices::builtin().with(&overrides);
        // The cache read falls back to the input price.
        let cost = prices.cost(&Totals::from([
            sums("openai/gpt-4o-mini", 1_000_000, 1_000_000, 1_000_000),
            sums("openai/llama3", 5, 5, 0),
        ]));
        assert_eq!(cost.known(), Some(4.0));
        let unknown = prices.cost(&Totals::from([
            sums("openai/gpt-4o-mini", 1_000_000, 0, 0),
            sums("ollama/qwen", 10, 10, 0),
        ]));
        assert_eq!(unknown.known(), None);
        assert_eq!(unknown.unpriced, ["ollama/qwen"]);
        assert_eq!(unknown.tokens, 1_000_020);
        let mut sum = cost.clone();
        sum.add(&unknown);
        assert_eq!(sum.unpriced, ["ollama/qwen"]);
    }

    #[test]
    fn bad_prices_are_refused() {
        assert!(Prices::parse(r#""a/b" = { input = -1, output = 0 }"#).is_err());
        assert!(Prices::parse(r#""a/b" = { input = 1 }"#).is_err());
        assert!(Prices::parse(r#""a/b" = { input = 1, output = 1, cached = 2 }"#).is_err());
    }
}
