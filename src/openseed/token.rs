//! Bearer tokens for the orchestrator's control routes (OpenSeed's open pull request #16
//! gives each creature its own): kept out of `Debug`, logs, errors and the screen. Only
//! the request header reads one, and it is marked sensitive there.

use std::collections::BTreeMap;
use std::fmt;

const REDACTED: &str = "[redacted]";

/// One token. It has no `Display`; its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// `None` for an empty value (no token).
    pub fn new(value: impl Into<String>) -> Option<Self> {
        let value = value.into();
        (!value.trim().is_empty()).then(|| Self(value.trim().to_owned()))
    }

    pub(super) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({REDACTED})")
    }
}

/// The tokens to send: one for every request, and one per creature for its own routes
/// (it wins there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens {
    pub all: Option<Token>,
    pub creatures: BTreeMap<String, Token>,
}

impl Tokens {
    /// The token for a request about `creature` (none: a request about no creature).
    pub fn for_creature(&self, creature: Option<&str>) -> Option<&Token> {
        creature
            .and_then(|c| self.creatures.get(c))
            .or(self.all.as_ref())
    }

    /// `text` with every token replaced, for a server that echoes one back.
    pub fn scrub(&self, text: &str) -> String {
        self.all
            .iter()
            .chain(self.creatures.values())
            .fold(text.to_owned(), |t, token| t.replace(&token.0, REDACTED))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_never_show() {
        let tokens = Tokens {
            all: Token::new("all-secret-1"),
            creatures: BTreeMap::from([("finch".into(), Token::new(" finch-secret-2 ").unwrap())]),
        };
        let shown = format!("{tokens:?}");
        assert!(!shown.contains("secret"), "{shown}");
        assert_eq!(
            tokens.scrub("bad token finch-secret-2 / all-secret-1"),
            "bad token [redacted] / [redacted]"
        );
        assert_eq!(
            tokens.for_creature(Some("finch")).unwrap().expose(),
            "finch-secret-2"
        );
        assert_eq!(
            tokens.for_creature(Some("wren")).unwrap().expose(),
            "all-secret-1"
        );
        assert_eq!(tokens.for_creature(None).unwrap().expose(), "all-secret-1");
        assert!(Token::new("  ").is_none());
    }
}
