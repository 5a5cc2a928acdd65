//! Search over total recall: the query being typed, the hits found so far, the current one.

use std::path::PathBuf;

use crate::memory::creature::Creature;
use crate::memory::layout::FileKind;
use crate::search::{Hit, SearchRequest, SearchSource};
use crate::ui::popups::hits::HitList;

/// Where each source of hits every creature may have lives.
const SHARED: [(SearchSource, FileKind); 4] = [
    (SearchSource::Conversation, FileKind::Conversation),
    (SearchSource::Observations, FileKind::Observations),
    (SearchSource::Dreams, FileKind::Dreams),
    (SearchSource::Diary, FileKind::Diary),
];

/// Every source of hits and the file it searches: the shared ones, then each installed
/// genome's.
pub fn sources() -> impl Iterator<Item = (SearchSource, FileKind)> {
    SHARED.into_iter().chain(
        crate::ui::genome::installed()
            .iter()
            .flat_map(|g| g.search.iter().copied()),
    )
}

/// The file a source's hits are lines of.
pub fn file_of(source: SearchSource) -> FileKind {
    sources()
        .find(|(s, _)| *s == source)
        .map_or(FileKind::Conversation, |(_, kind)| kind)
}

/// A search of `query` over the total recall of `models` (one creature, or the whole
/// garden): conversation, observations, dreams and diary, and the files each genome
/// searches (those each creature has). A capital letter in the query makes it
/// case-sensitive. Beside it, the creature (root) of each file.
pub fn request<'c>(
    models: impl IntoIterator<Item = &'c Creature>,
    query: String,
    regex: bool,
) -> (SearchRequest, Vec<PathBuf>) {
    let (files, owners) = models
        .into_iter()
        .flat_map(|model| {
            sources()
                .map(|(source, kind)| ((source, model.path_of(kind)), model.root().to_path_buf()))
        })
        .filter(|((_, path), _)| path.exists())
        .unzip();
    let request = SearchRequest {
        case_sensitive: query.chars().any(char::is_uppercase),
        regex,
        query,
        files,
    };
    (request, owners)
}

#[derive(Debug, Default)]
pub struct SearchState {
    /// The query being typed (search mode).
    pub input: String,
    /// The search typed is over the whole garden, not the selected creature.
    pub garden: bool,
    /// The query typed is a regular expression, not literal text.
    pub regex: bool,
    /// The last query run, and the creature it ran over (the selected one, for a garden
    /// search).
    pub query: Option<String>,
    pub creature: Option<PathBuf>,
    /// The creature each file of the search belongs to (`Hit::file` indexes it).
    pub owners: Vec<PathBuf>,
    /// Hits kept so far, in file order.
    pub hits: Vec<Hit>,
    /// Matching lines found in all (more may be counted than kept).
    pub count: usize,
    /// Index into `hits` of the hit shown.
    pub current: Option<usize>,
    /// The search is still running.
    pub running: bool,
    /// The hits as the list of them shows them.
    pub list: HitList,
}

impl SearchState {
    /// Steps to the next (or previous) hit, wrapping around: its index.
    pub fn step(&mut self, forward: bool) -> Option<usize> {
        if self.hits.is_empty() {
            return None;
        }
        let n = self.hits.len();
        let next = match (self.current, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(i), true) => (i + 1) % n,
            (Some(i), false) => (i + n - 1) % n,
        };
        self.current = Some(next);
        Some(next)
    }

    /// The creature the hit was found in.
    pub fn owner(&self, hit: &Hit) -> Option<&PathBuf> {
        self.owners.get(hit.file).or(self.creature.as_ref())
    }

    /// What the search covered and how it matched: `garden regex `, `garden `, `regex ` or
    /// nothing (one creature, literal text).
    pub fn scope(&self) -> &'static str {
        match (self.garden, self.regex) {
            (true, true) => "garden regex ",
            (true, false) => "garden ",
            (false, true) => "regex ",
            (false, false) => "",
        }
    }

    /// `/query  3/17`, `/query  0 hits`, with `…` while running; a garden search says so,
    /// and (given its name) which creature the current hit is in.
    pub fn label(&self, creature: Option<&str>) -> Option<String> {
        let query = self.query.as_ref()?;
        let more = if self.running { "…" } else { "" };
        let scope = self.scope();
        let of = match creature {
            Some(name) if self.garden => format!(" in {name}"),
            _ => String::new(),
        };
        Some(match self.current {
            Some(i) => format!("{scope}/{query}  hit {}/{}{of}{more}", i + 1, self.count),
            None => format!("{scope}/{query}  {} hits{more}", self.count),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchSource;

    fn hit(line: u64) -> Hit {
        Hit {
            source: SearchSource::Conversation,
            file: 0,
            line,
            byte_offset: 0,
            preview: String::new(),
            preview_match: 0..0,
        }
    }

    #[test]
    fn steps_wrap_both_ways() {
        let mut s = SearchState {
            query: Some("x".into()),
            hits: vec![hit(1), hit(5), hit(9)],
            count: 3,
            ..SearchState::default()
        };
        assert_eq!(s.label(None).as_deref(), Some("/x  3 hits"));
        let mut line = |forward| s.step(forward).map(|i| s.hits[i].line);
        assert_eq!(line(false), Some(9));
        assert_eq!(line(true), Some(1));
        assert_eq!(line(false), Some(9));
        assert_eq!(s.label(Some("pip")).as_deref(), Some("/x  hit 3/3"));
        s.garden = true;
        assert_eq!(
            s.label(Some("pip")).as_deref(),
            Some("garden /x  hit 3/3 in pip")
        );
        assert!(SearchState::default().step(true).is_none());
    }
}
