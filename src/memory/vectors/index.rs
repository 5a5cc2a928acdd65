//! [`VectorIndex`]: unit vectors in one contiguous `Vec<f32>`, searched exactly (a dot
//! product with every live vector, the best `k` kept in a small heap).

use std::collections::HashMap;

use super::VectorError;
use super::file::check_id;
use super::kernel::{TopK, dot, normalise, normalised};

/// One search result: a memory's id and its cosine similarity to the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub id: String,
    pub score: f32,
}

/// Vectors of one length by id, for exact cosine search.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VectorIndex {
    dims: usize,
    /// Row `slot` is `data[slot * dims..][..dims]`, of unit length (or zero).
    data: Vec<f32>,
    ids: Vec<String>,
    /// False for a forgotten (or replaced) vector: a tombstone, skipped by searches.
    live: Vec<bool>,
    by_id: HashMap<String, usize>,
}

impl VectorIndex {
    /// An empty index of vectors of `dims` values.
    pub fn new(dims: usize) -> Self {
        Self {
            dims,
            ..Self::default()
        }
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Live vectors.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// The stored (unit) vector of `id`.
    pub fn get(&self, id: &str) -> Option<&[f32]> {
        self.by_id.get(id).map(|&slot| self.row(slot))
    }

    /// The live ids, oldest first.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.ids
            .iter()
            .zip(&self.live)
            .filter(|(_, live)| **live)
            .map(|(id, _)| id.as_str())
    }

    /// Adds `vector` (scaled to unit length) under `id`, replacing the one it had.
    pub fn push(&mut self, id: &str, vector: &[f32]) -> Result<(), VectorError> {
        check_id(id)?;
        self.check(vector)?;
        self.remove(id);
        let slot = self.ids.len();
        let start = self.data.len();
        self.data.extend_from_slice(vector);
        normalise(&mut self.data[start..]);
        self.ids.push(id.to_owned());
        self.live.push(true);
        self.by_id.insert(id.to_owned(), slot);
        Ok(())
    }

    /// Makes room for `additional` more vectors.
    pub fn reserve(&mut self, additional: usize) {
        self.data.reserve(additional.saturating_mul(self.dims));
        self.ids.reserve(additional);
        self.live.reserve(additional);
        self.by_id.reserve(additional);
    }

    /// Forgets `id`; whether it was there. Its slot stays as a tombstone until tombstones
    /// outnumber the live vectors, then the index is packed.
    pub fn remove(&mut self, id: &str) -> bool {
        let Some(slot) = self.by_id.remove(id) else {
            return false;
        };
        self.live[slot] = false;
        if self.ids.len() >= 64 && self.ids.len() > 2 * self.by_id.len() {
            self.pack();
        }
        true
    }

    /// The `k` live vectors most similar to `query` (cosine, best first, ties to the
    /// older) among those whose id `filter` accepts. `filter` runs only for vectors that
    /// would make the top `k`, so it may be slow. An index of 0 dimensions (no vector
    /// yet) finds nothing for any query.
    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        mut filter: impl FnMut(&str) -> bool,
    ) -> Result<Vec<Hit>, VectorError> {
        if self.dims == 0 {
            return Ok(Vec::new());
        }
        self.check(query)?;
        let query = normalised(query);
        Ok(self.top(&query, k, |slot, _| filter(&self.ids[slot])))
    }

    /// The `k` live vectors most similar to `id`'s own, each at least `min_score`, itself
    /// left out (A-MEM links). Nothing for an unknown id.
    pub fn similar_to(&self, id: &str, k: usize, min_score: f32) -> Vec<Hit> {
        let Some(&own) = self.by_id.get(id) else {
            return Vec::new();
        };
        self.top(self.row(own), k, |slot, score| {
            slot != own && score >= min_score
        })
    }

    /// The scan: every live row scored against `query` (unit length), the best `k` that
    /// `keep` accepts.
    fn top(&self, query: &[f32], k: usize, mut keep: impl FnMut(usize, f32) -> bool) -> Vec<Hit> {
        if self.dims == 0 || k == 0 {
            return Vec::new();
        }
        let mut best = TopK::new(k);
        for (slot, row) in self.data.chunks_exact(self.dims).enumerate() {
            let score = dot(query, row);
            if best.would_keep(score) && self.live[slot] && keep(slot, score) {
                best.push(slot, score);
            }
        }
        best.into_sorted()
            .into_iter()
            .map(|(slot, score)| Hit {
                id: self.ids[slot].clone(),
                score,
            })
            .collect()
    }

    fn row(&self, slot: usize) -> &[f32] {
        &self.data[slot * self.dims..][..self.dims]
    }

    fn check(&self, vector: &[f32]) -> Result<(), VectorError> {
        if vector.len() != self.dims {
            return Err(VectorError::WrongDims {
                got: vector.len(),
                want: self.dims,
            });
        }
        // A value that is not finite, or finite values whose length is not (1e20 squared
        // overflows an f32): either would make every score NaN or infinite.
        if !vector.iter().all(|x| x.is_finite()) || !dot(vector, vector).is_finite() {
            return Err(VectorError::NotFinite);
        }
        Ok(())
    }

    /// Drops the tombstones, keeping the live vectors in their order.
    fn pack(&mut self) {
        let mut packed = Self::new(self.dims);
        for (slot, id) in self.ids.iter().enumerate() {
            if self.live[slot] {
                packed.data.extend_from_slice(self.row(slot));
                packed.by_id.insert(id.clone(), packed.ids.len());
                packed.ids.push(id.clone());
                packed.live.push(true);
            }
        }
        *self = packed;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn index(rows: &[(&str, [f32; 3])]) -> VectorIndex {
        let mut index = VectorIndex::new(3);
        for (id, v) in rows {
            index.push(id, v).unwrap();
        }
        index
    }

    fn ids(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.id.as_str()).collect()
    }

    #[test]
    fn search_ranks_by_cosine_and_filters() {
        let index = index(&[
            ("x", [1.0, 0.0, 0.0]),
            ("xy", [1.0, 1.0, 0.0]),
            ("y", [0.0, 2.0, 0.0]),
            ("-x", [-1.0, 0.0, 0.0]),
        ]);
        let hits = index.search(&[3.0, 0.1, 0.0], 3, |_| true).unwrap();
        assert_eq!(ids(&hits), ["x", "xy", "y"]);
        assert!((hits[1].score - std::f32::consts::FRAC_1_SQRT_2).abs() < 0.05);
        let hits = index.search(&[1.0, 0.0, 0.0], 2, |id| id != "x").unwrap();
        assert_eq!(ids(&hits), ["xy", "y"]);
        assert!(matches!(
            index.search(&[1.0, 0.0], 2, |_| true),
            Err(VectorError::WrongDims { got: 2, want: 3 })
        ));
        assert!(matches!(
            index.search(&[f32::NAN, 0.0, 0.0], 2, |_| true),
            Err(VectorError::NotFinite)
        ));
    }

    #[test]
    fn similar_to_leaves_itself_out_and_keeps_the_threshold() {
        let index = index(&[
            ("a", [1.0, 0.0, 0.0]),
            ("b", [1.0, 0.1, 0.0]),
            ("c", [1.0, 1.0, 0.0]),
            ("d", [0.0, 0.0, 1.0]),
        ]);
        let hits = index.similar_to("a", 10, 0.7);
        assert_eq!(ids(&hits), ["b", "c"]);
        assert!(hits.iter().all(|h| h.score >= 0.7));
        assert!(index.similar_to("zzz", 10, 0.0).is_empty());
    }

    #[test]
    fn forgotten_and_replaced_vectors_are_not_found() {
        let mut index = index(&[("a", [1.0, 0.0, 0.0]), ("b", [0.9, 0.1, 0.0])]);
        assert!(index.remove("a"));
        assert!(!index.remove("a"));
        assert_eq!(
            ids(&index.search(&[1.0, 0.0, 0.0], 5, |_| true).unwrap()),
            ["b"]
        );
        index.push("b", &[0.0, 1.0, 0.0]).unwrap();
        assert_eq!(index.len(), 1);
        assert_eq!(index.get("b"), Some(&[0.0, 1.0, 0.0][..]));
        assert_eq!(index.ids().collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn packing_keeps_the_live_vectors_in_order() {
        let mut index = VectorIndex::new(2);
        for i in 0..100u8 {
            index
                .push(&format!("m{i}"), &[f32::from(i) + 1.0, 1.0])
                .unwrap();
        }
        for i in 0..90u8 {
            index.remove(&format!("m{i}"));
        }
        assert!(index.ids.len() < 100, "packed");
        let live: Vec<&str> = index.ids().collect();
        assert_eq!(live.len(), 10);
        assert_eq!(live[0], "m90");
        assert!(index.get("m95").is_some() && index.get("m5").is_none());
    }

    #[test]
    fn bad_ids_are_refused() {
        let mut index = VectorIndex::new(1);
        assert!(index.push("", &[1.0]).is_err());
        assert!(index.push("an-id-of-17-bytes", &[1.0]).is_err());
        assert!(index.push("a\0b", &[1.0]).is_err());
        assert!(index.push("sixteen-bytes-ok", &[1.0]).is_ok());
    }

    /// The exact top `k` by a plain sort (ties to the older), scores from the stored
    /// vectors as the index computes them.
    fn naive(index: &VectorIndex, query: &[f32], k: usize) -> Vec<(String, f32)> {
        let query = normalised(query);
        let mut all: Vec<(usize, String, f32)> = index
            .ids()
            .enumerate()
            .map(|(order, id)| (order, id.to_owned(), dot(&query, index.get(id).unwrap())))
            .collect();
        all.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
        all.into_iter().take(k).map(|(_, id, s)| (id, s)).collect()
    }

    proptest! {
        #[test]
        fn search_agrees_with_a_naive_sort(
            rows in prop::collection::vec(prop::collection::vec(-1.0f32..1.0, 24), 0..120),
            forget in prop::collection::vec(any::<bool>(), 120),
            query in prop::collection::vec(-1.0f32..1.0, 24),
            k in 0usize..20,
        ) {
            let mut index = VectorIndex::new(24);
            for (i, row) in rows.iter().enumerate() {
                index.push(&format!("m{i}"), row).unwrap();
            }
            for (i, gone) in forget.iter().enumerate().take(rows.len()) {
                if *gone && i % 3 == 0 {
                    index.remove(&format!("m{i}"));
                }
            }
            let hits = index.search(&query, k, |_| true).unwrap();
            let got: Vec<(String, f32)> = hits.into_iter().map(|h| (h.id, h.score)).collect();
            prop_assert_eq!(got, naive(&index, &query, k));
        }
    }
}
