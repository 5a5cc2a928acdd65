//! Reading a server's error (an HTTP status and body, or an error inside a stream) as an
//! [`LlmError`].
//!
//! Anthropic (`{"type":"error","error":{"type","message"}}`), OpenAI
//! (`{"error":{"message","type","code"}}`), Ollama (`{"error":"..."}`), vLLM
//! (`{"object":"error","message","type"}`) and llama.cpp (`{"error":{"type","message"}}`)
//! all fit one reader. Texts kept in errors are cut short and flattened to one line.

use std::time::Duration;

use serde_json::Value;

use super::LlmError;
use super::retry::Fault;

/// Longest server text kept in an error.
const MAX_DETAIL_CHARS: usize = 400;

/// Phrases servers use when the prompt does not fit the model's context window.
const CONTEXT_OVERFLOW: &[&str] = &[
    "prompt is too long",                 // Anthropic
    "context_length_exceeded",            // OpenAI error code
    "maximum context length",             // OpenAI, vLLM, OpenRouter
    "exceed_context_size",                // llama.cpp error type
    "exceeds the available context size", // llama.cpp
    "exceed context limit",               // Anthropic, prompt plus max_tokens
    "input is too long",                  // Anthropic on Bedrock
    "context window exceeded",
    "greater than the context length", // LM Studio
];

/// Error types and codes that say the key was refused (Anthropic, OpenAI).
const AUTH_KINDS: &[&str] = &[
    "authentication_error",
    "permission_error",
    "invalid_api_key",
];

/// What a server said went wrong: a kind (`type` or `code`) and a message.
#[derive(Debug, Default, PartialEq)]
struct Detail {
    kind: Option<String>,
    /// A `code` given as a name (OpenAI's `invalid_api_key` beside its `type`).
    code_name: Option<String>,
    /// A numeric `code`, which some servers put in the body of a 200 answer.
    code: Option<u16>,
    message: String,
}

impl Detail {
    fn parse(body: &[u8]) -> Self {
        let Ok(json) = serde_json::from_slice::<Value>(body) else {
            return Self {
                message: String::from_utf8_lossy(body).into_owned(),
                ..Self::default()
            };
        };
        let inner = match json.get("error") {
            Some(Value::String(message)) => {
                return Self {
                    message: message.clone(),
                    ..Self::default()
                };
            }
            Some(error @ Value::Object(_)) => error,
            _ => &json,
        };
        let text = |key: &str| inner.get(key).and_then(Value::as_str).map(str::to_owned);
        let code = inner.get("code");
        let code_name = code.and_then(Value::as_str).map(str::to_owned);
        Self {
            kind: text("type").or_else(|| code_name.clone()),
            code_name,
            code: code
                .and_then(Value::as_u64)
                .and_then(|c| u16::try_from(c).ok()),
            message: text("message").unwrap_or_else(|| inner.to_string()),
        }
    }

    fn is_context_overflow(&self) -> bool {
        let haystack =
            format!("{} {}", self.kind.as_deref().unwrap_or(""), self.message).to_lowercase();
        CONTEXT_OVERFLOW
            .iter()
            .any(|phrase| haystack.contains(phrase))
    }

    fn is_auth(&self) -> bool {
        [&self.kind, &self.code_name]
            .into_iter()
            .flatten()
            .any(|name| AUTH_KINDS.contains(&name.as_str()))
    }

    fn summary(&self) -> String {
        let full = match &self.kind {
            Some(kind) if !self.message.contains(kind.as_str()) => {
                format!("{kind}: {}", self.message)
            }
            _ => self.message.clone(),
        };
        shorten(&full)
    }
}

/// `text` on one line, at most [`MAX_DETAIL_CHARS`] characters.
pub(crate) fn shorten(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(MAX_DETAIL_CHARS) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

/// The fault for an answer that cannot be read, saying why (shortened).
pub(crate) fn malformed(why: String) -> Fault {
    LlmError::Malformed(shorten(&why)).into()
}

/// The fault for an HTTP error answer.
pub(crate) fn from_status(status: u16, body: &[u8], retry_after: Option<Duration>) -> Fault {
    classify(status, &Detail::parse(body), retry_after)
}

/// The fault for an error object a server put in a 200 answer or in a stream, as its
/// status would have been.
pub(crate) fn from_error_body(body: &[u8]) -> Fault {
    let detail = Detail::parse(body);
    let status = detail
        .code
        .filter(|code| (400..600).contains(code))
        .or_else(|| detail.code_name.as_deref().and_then(status_of_kind))
        .or_else(|| detail.kind.as_deref().and_then(status_of_kind))
        .unwrap_or(500);
    classify(status, &detail, None)
}

/// The status that goes with an error type name of Anthropic or OpenAI.
fn status_of_kind(kind: &str) -> Option<u16> {
    Some(match kind {
        "invalid_request_error" => 400,
        "authentication_error" | "invalid_api_key" => 401,
        "billing_error" => 402,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" | "rate_limit_exceeded" => 429,
        "api_error" | "server_error" => 500,
        "timeout_error" => 504,
        "overloaded_error" => 529,
        _ => return None,
    })
}

fn classify(status: u16, detail: &Detail, retry_after: Option<Duration>) -> Fault {
    let error = match status {
        // Out of credit is not going to pass by waiting.
        429 if detail.kind.as_deref() == Some("insufficient_quota") => LlmError::Rejected {
            status,
            body: detail.summary(),
        },
        429 => LlmError::RateLimited { retry_after },
        401 | 403 => auth(status, detail),
        _ if detail.is_auth() => auth(status, detail),
        413 => LlmError::ContextTooLong(detail.summary()),
        _ if detail.is_context_overflow() => LlmError::ContextTooLong(detail.summary()),
        408 => LlmError::Timeout,
        500..=599 => LlmError::Server {
            status,
            body: detail.summary(),
        },
        _ => LlmError::Rejected {
            status,
            body: detail.summary(),
        },
    };
    Fault { error, retry_after }
}

/// The key was refused; the provider names its variable later ([`LlmError::naming_key`]).
fn auth(status: u16, detail: &Detail) -> LlmError {
    LlmError::Auth {
        status,
        body: detail.summary(),
        variable: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anthropic_errors() {
        let overloaded =
            br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(
            from_status(529, overloaded, None).error,
            LlmError::Server {
                status: 529,
                body: "overloaded_error: Overloaded".into()
            }
        );
        assert_eq!(
            from_error_body(overloaded).error,
            LlmError::Server {
                status: 529,
                body: "overloaded_error: Overloaded".into()
            }
        );
        let long = br#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}"#;
        assert!(matches!(
            from_status(400, long, None).error,
            LlmError::ContextTooLong(_)
        ));
        let limited =
            br#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#;
        assert_eq!(
            from_error_body(limited).error,
            LlmError::RateLimited { retry_after: None }
        );
    }

    #[test]
    fn openai_compatible_errors() {
        let openai = br#"{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
        assert!(matches!(
            from_status(400, openai, None).error,
            LlmError::ContextTooLong(_)
        ));
        let llama = br#"{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens)","type":"exceed_context_size_error"}}"#;
        assert!(matches!(
            from_status(400, llama, None).error,
            LlmError::ContextTooLong(_)
        ));
        assert!(matches!(
            from_error_body(llama).error,
            LlmError::ContextTooLong(_)
        ));
        let ollama = br#"{"error":"model \"x\" not found, try pulling it first"}"#;
        assert_eq!(
            from_status(404, ollama, None).error,
            LlmError::Rejected {
                status: 404,
                body: "model \"x\" not found, try pulling it first".into()
            }
        );
        let quota = br#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#;
        assert!(matches!(
            from_status(429, quota, None).error,
            LlmError::Rejected { status: 429, .. }
        ));
        let wait = Some(Duration::from_secs(2));
        assert_eq!(
            from_status(429, b"", wait),
            Fault {
                error: LlmError::RateLimited { retry_after: wait },
                retry_after: wait
            }
        );
    }

    #[test]
    fn refused_keys_are_auth_errors() {
        let anthropic = br#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
        let openai = br#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        let auth = |status: u16, body: &str| LlmError::Auth {
            status,
            body: body.into(),
            variable: None,
        };
        assert_eq!(
            from_status(401, anthropic, None).error,
            auth(401, "authentication_error: invalid x-api-key")
        );
        assert_eq!(
            from_error_body(anthropic).error,
            auth(401, "authentication_error: invalid x-api-key")
        );
        assert_eq!(
            from_status(401, openai, None).error,
            auth(401, "invalid_request_error: Incorrect API key provided")
        );
        assert_eq!(
            from_error_body(openai).error,
            auth(401, "invalid_request_error: Incorrect API key provided")
        );
        assert_eq!(from_status(403, b"", None).error, auth(403, ""));
        // A 400 whose body names a refused key is one too.
        assert!(matches!(
            from_status(400, openai, None).error,
            LlmError::Auth { status: 400, .. }
        ));
        assert!(!from_status(401, b"", None).error.is_retryable());
    }

    #[test]
    fn auth_errors_say_which_variable_to_check() {
        let error = from_status(401, b"", None)
            .error
            .naming_key("ANTHROPIC_API_KEY");
        assert_eq!(
            error.to_string(),
            "the model refused the key (401): check ANTHROPIC_API_KEY"
        );
        let error = from_status(403, br#"{"error":"no access"}"#, None)
            .error
            .naming_key("OPENAI_API_KEY");
        assert_eq!(
            error.to_string(),
            "the model refused the key (403): check OPENAI_API_KEY (no access)"
        );
    }

    #[test]
    fn plain_text_bodies_are_flattened_and_cut() {
        let body = format!("<html>\n  bad   gateway {}</html>", "x".repeat(1000));
        let LlmError::Server { status: 502, body } = from_status(502, body.as_bytes(), None).error
        else {
            panic!("not a server error");
        };
        assert!(body.starts_with("<html> bad gateway xxx"));
        assert_eq!(body.chars().count(), MAX_DETAIL_CHARS + 1);
    }
}
