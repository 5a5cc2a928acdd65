//! Fuzzy matching of what was typed in the palette (smart case: a query with a capital
//! matches case exactly; words separated by spaces must each match).

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// The indexes of the `haystacks` that `query` matches, best first (ties keep their
/// order); every one, in order, for an empty query.
pub fn rank(query: &str, haystacks: &[String]) -> Vec<usize> {
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut scored: Vec<(usize, u32)> = haystacks
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let score = pattern.score(Utf32Str::new(h, &mut buf), &mut matcher)?;
            Some((i, score))
        })
        .collect();
    scored.sort_by_key(|&(i, score)| (std::cmp::Reverse(score), i));
    scored.into_iter().map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_beats_a_word_deep_in_a_description() {
        let hay = [
            "pause pause or resume the creature".to_string(),
            "sleep force the creature to sleep now".to_string(),
        ];
        assert_eq!(rank("sle", &hay), [1]);
        assert_eq!(rank("", &hay), [0, 1]);
        assert_eq!(rank("creature", &hay).len(), 2);
        assert!(
            rank("Sle", &hay).is_empty(),
            "a capital matches case exactly"
        );
    }
}
