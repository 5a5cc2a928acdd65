//! A moment of a life as the command line names it: `dream:N`, `wake:N` or an RFC 3339
//! time; and `PATH@MOMENT`, a creature at a moment (`run --fork`).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use chrono::{DateTime, Utc};

use crate::memory::time::{format_time, parse_time};

/// A moment of a creature's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// Right after dream N (1-based) consolidated: its sleep's work done.
    Dream(u64),
    /// As wake N (1-based) began.
    Wake(u64),
    /// At this time.
    Time(DateTime<Utc>),
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0:?} is not a moment: dream:N, wake:N (N from 1) or an RFC 3339 time")]
pub struct BadAt(pub String);

impl FromStr for At {
    type Err = BadAt;

    fn from_str(s: &str) -> Result<Self, BadAt> {
        let bad = || BadAt(s.to_string());
        let number = |n: &str| n.trim().parse::<u64>().ok().filter(|n| *n > 0);
        if let Some(n) = s.strip_prefix("dream:") {
            return number(n).map(At::Dream).ok_or_else(bad);
        }
        if let Some(n) = s.strip_prefix("wake:") {
            return number(n).map(At::Wake).ok_or_else(bad);
        }
        parse_time(s.trim()).map(At::Time).ok_or_else(bad)
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Dream(n) => write!(f, "dream:{n}"),
            At::Wake(n) => write!(f, "wake:{n}"),
            At::Time(t) => f.write_str(&format_time(*t)),
        }
    }
}

/// `PATH` or `PATH@MOMENT`: a creature, at a moment or now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathAt {
    pub path: PathBuf,
    pub at: Option<At>,
}

impl FromStr for PathAt {
    type Err = BadAt;

    /// The last `@` followed by a moment splits; a path with an `@` of its own and no
    /// moment stays whole.
    fn from_str(s: &str) -> Result<Self, BadAt> {
        if let Some((path, at)) = s.rsplit_once('@')
            && (at.starts_with("dream:") || at.starts_with("wake:") || at.contains('T'))
            && !path.is_empty()
        {
            return Ok(PathAt {
                path: PathBuf::from(path),
                at: Some(at.parse()?),
            });
        }
        Ok(PathAt {
            path: PathBuf::from(s),
            at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_read_and_written_back() {
        assert_eq!("dream:12".parse(), Ok(At::Dream(12)));
        assert_eq!("wake:3".parse(), Ok(At::Wake(3)));
        assert!("dream:0".parse::<At>().is_err());
        assert!("dream:x".parse::<At>().is_err());
        assert!("yesterday".parse::<At>().is_err());
        let t: At = "2026-03-01T10:00:00Z".parse().unwrap();
        assert_eq!(t.to_string(), "2026-03-01T10:00:00.000Z");
        assert_eq!(At::Dream(4).to_string(), "dream:4");
    }

    #[test]
    fn a_path_may_carry_its_moment() {
        let p: PathAt = "/g/ada@dream:3".parse().unwrap();
        assert_eq!(
            (p.path, p.at),
            (PathBuf::from("/g/ada"), Some(At::Dream(3)))
        );
        let p: PathAt = "/g/me@home".parse().unwrap();
        assert_eq!((p.path, p.at), (PathBuf::from("/g/me@home"), None));
        assert!("/g/ada@dream:0".parse::<PathAt>().is_err());
    }
}
