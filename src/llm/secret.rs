//! The API key: kept out of `Debug`, logs and error messages.

use std::fmt;

use super::LlmError;

const REDACTED: &str = "[redacted]";

/// An API key. It has no `Display`; its `Debug` never shows it; the only way to read
/// it is from inside the crate, when the request header is built.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced, for servers that echo it back.
    pub(crate) fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() {
            return text.to_owned();
        }
        text.replace(&self.0, REDACTED)
    }

    /// `error` with the key scrubbed from every text it carries.
    pub(crate) fn scrub_error(&self, error: LlmError) -> LlmError {
        match error {
            LlmError::Server { status, body } => LlmError::Server {
                status,
                body: self.scrub(&body),
            },
            LlmError::Rejected { status, body } => LlmError::Rejected {
                status,
                body: self.scrub(&body),
            },
            LlmError::Auth {
                status,
                body,
                variable,
            } => LlmError::Auth {
                status,
                body: self.scrub(&body),
                variable,
            },
            LlmError::ContextTooLong(text) => LlmError::ContextTooLong(self.scrub(&text)),
            LlmError::Malformed(text) => LlmError::Malformed(self.scrub(&text)),
            LlmError::Connection(text) => LlmError::Connection(self.scrub(&text)),
            LlmError::NoAnswer { url, secs } => LlmError::NoAnswer {
                url: self.scrub(&url),
                secs,
            },
            LlmError::RateLimited { .. } | LlmError::Timeout => error,
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({REDACTED})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_errors_hide_the_key() {
        let key = ApiKey::new("sk-very-secret");
        assert!(!format!("{key:?}").contains("sk-very-secret"));
        let error = key.scrub_error(LlmError::Rejected {
            status: 401,
            body: "invalid key sk-very-secret".into(),
        });
        assert_eq!(
            error.to_string(),
            "request rejected 401: invalid key [redacted]"
        );
    }

    #[test]
    fn an_empty_key_scrubs_nothing() {
        assert_eq!(ApiKey::new("").scrub("abc"), "abc");
    }
}
