//! The tokens one call used, as the provider's answer says, in one shape for every API.
//!
//! - OpenAI chat completions: `usage.prompt_tokens` (the cached part,
//!   `prompt_tokens_details.cached_tokens`, is counted as `cache_read`, the rest as
//!   `input`) and `usage.completion_tokens`; a stream carries it in its last chunk when
//!   asked with `stream_options.include_usage`. Embeddings: `usage.prompt_tokens`.
//! - Anthropic messages: `usage.input_tokens` (without the cache),
//!   `cache_read_input_tokens`, `cache_creation_input_tokens`, `output_tokens`; a stream
//!   gives them in `message_start` and the final counts in `message_delta`.

use serde_json::Value;

pub use crate::memory::usage::Tokens;

/// Reads a provider's `usage` object.
pub trait FromWire: Sized {
    fn from_openai(usage: &Value) -> Option<Self>;
    fn from_anthropic(usage: &Value) -> Option<Self>;
    fn merge_anthropic(&mut self, usage: &Value) -> bool;
}

impl FromWire for Tokens {
    /// An OpenAI `usage` object (chat or embeddings); `None` when it holds no count.
    fn from_openai(usage: &Value) -> Option<Self> {
        let prompt = count(usage, "prompt_tokens");
        let completion = count(usage, "completion_tokens");
        if prompt.is_none() && completion.is_none() {
            return None;
        }
        let prompt = prompt.unwrap_or(0);
        let cached = usage
            .get("prompt_tokens_details")
            .and_then(|d| count(d, "cached_tokens"))
            .unwrap_or(0)
            .min(prompt);
        Some(Self {
            input: prompt - cached,
            output: completion.unwrap_or(0),
            cache_read: cached,
            cache_write: 0,
        })
    }

    /// An Anthropic `usage` object; `None` when it holds no count.
    fn from_anthropic(usage: &Value) -> Option<Self> {
        let mut found = Self::default();
        found.merge_anthropic(usage).then_some(found)
    }

    /// Takes the counts an Anthropic `usage` object holds over these (a stream's
    /// `message_delta` carries final counts of some fields); whether it held any.
    fn merge_anthropic(&mut self, usage: &Value) -> bool {
        let mut any = false;
        for (field, slot) in [
            ("input_tokens", &mut self.input),
            ("output_tokens", &mut self.output),
            ("cache_read_input_tokens", &mut self.cache_read),
            ("cache_creation_input_tokens", &mut self.cache_write),
        ] {
            if let Some(n) = count(usage, field) {
                *slot = n;
                any = true;
            }
        }
        any
    }
}

fn count(object: &Value, field: &str) -> Option<u64> {
    object.get(field).and_then(Value::as_u64)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn openai_counts_the_cached_prompt_apart() {
        let u = Tokens::from_openai(&json!({"prompt_tokens": 1200, "completion_tokens": 80,
            "total_tokens": 1280, "prompt_tokens_details": {"cached_tokens": 1024}}))
        .unwrap();
        assert_eq!(
            u,
            Tokens {
                input: 176,
                output: 80,
                cache_read: 1024,
                cache_write: 0
            }
        );
        assert_eq!(u.total(), 1280);
        let embeddings = Tokens::from_openai(&json!({"prompt_tokens": 8, "total_tokens": 8}));
        assert_eq!(embeddings.map(|u| (u.input, u.output)), Some((8, 0)));
        assert_eq!(Tokens::from_openai(&json!({"total_tokens": 3})), None);
        assert_eq!(Tokens::from_openai(&Value::Null), None);
    }

    #[test]
    fn anthropic_counts_and_later_counts_replace_earlier_ones() {
        let mut u = Tokens::from_anthropic(&json!({"input_tokens": 30,
            "cache_read_input_tokens": 2000, "cache_creation_input_tokens": 500,
            "output_tokens": 1}))
        .unwrap();
        assert!(u.merge_anthropic(&json!({"output_tokens": 95})));
        assert_eq!(
            u,
            Tokens {
                input: 30,
                output: 95,
                cache_read: 2000,
                cache_write: 500
            }
        );
        assert!(!u.merge_anthropic(&json!({})));
        assert_eq!(
            Tokens::from_anthropic(&json!({"server_tool_use": {}})),
            None
        );
    }
}
