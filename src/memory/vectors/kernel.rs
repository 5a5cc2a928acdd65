//! The arithmetic of exact cosine search: dot products written so the compiler turns
//! them into SIMD on the baseline target (16 independent lanes: four SSE2 or two AVX
//! registers of accumulators, no `target-cpu` needed), unit-length normalisation, and a
//! small heap that keeps the best `k` scores.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Lanes summed independently: enough accumulators to hide the add latency.
const LANES: usize = 16;

/// The dot product of two slices of one length (extra values of the longer are ignored).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let (a_chunks, a_rest) = a.as_chunks::<LANES>();
    let (b_chunks, b_rest) = b.as_chunks::<LANES>();
    let mut acc = [0.0f32; LANES];
    for (x, y) in a_chunks.iter().zip(b_chunks) {
        for lane in 0..LANES {
            acc[lane] += x[lane] * y[lane];
        }
    }
    let tail: f32 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    // Pairwise, so the sum does not depend on one long chain.
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for lane in 0..width {
            acc[lane] += acc[lane + width];
        }
    }
    acc[0] + tail
}

/// `vector` scaled to unit length; all zeros stays all zeros.
pub fn normalised(vector: &[f32]) -> Vec<f32> {
    let mut unit = vector.to_vec();
    normalise(&mut unit);
    unit
}

/// Scales `vector` to unit length in place; all zeros (or an overflowing norm) gives
/// all zeros.
pub fn normalise(vector: &mut [f32]) {
    let norm = dot(vector, vector).sqrt();
    if norm > 0.0 && norm.is_finite() {
        vector.iter_mut().for_each(|x| *x /= norm);
    } else {
        vector.fill(0.0);
    }
}

/// A score and the slot it belongs to, ordered so the heap's top is the worst kept.
#[derive(Debug, Clone, Copy)]
struct Kept {
    score: f32,
    slot: usize,
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Kept {}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kept {
    /// Reversed: a lower score (then a later slot) is "greater", so it sits on top.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then(self.slot.cmp(&other.slot))
    }
}

/// The best `k` (slot, score) pairs seen, ties going to the earlier slot.
pub struct TopK {
    k: usize,
    heap: BinaryHeap<Kept>,
}

impl TopK {
    pub fn new(k: usize) -> Self {
        Self {
            k,
            heap: BinaryHeap::with_capacity(k.saturating_add(1).min(1 << 16)),
        }
    }

    /// Whether `score` would be kept (checked before the caller's filter runs).
    pub fn would_keep(&self, score: f32) -> bool {
        if self.heap.len() < self.k {
            return self.k > 0;
        }
        self.heap.peek().is_some_and(|worst| score > worst.score)
    }

    pub fn push(&mut self, slot: usize, score: f32) {
        if !self.would_keep(score) {
            return;
        }
        if self.heap.len() == self.k {
            self.heap.pop();
        }
        self.heap.push(Kept { score, slot });
    }

    /// The pairs kept, best first.
    pub fn into_sorted(self) -> Vec<(usize, f32)> {
        // The heap's order is reversed, so ascending in it is best first.
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|kept| (kept.slot, kept.score))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_the_plain_sum_at_every_length() {
        for len in [0, 1, 7, 15, 16, 17, 33, 768] {
            let a: Vec<f32> = (0..len).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..len).map(|i| (i as f32 * 0.11).cos()).collect();
            let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!((dot(&a, &b) - plain).abs() < 1e-3, "{len}");
        }
    }

    #[test]
    fn normalising_gives_unit_length_and_keeps_zero() {
        let v = normalised(&[3.0, 4.0]);
        assert_eq!(v, vec![0.6, 0.8]);
        assert_eq!(normalised(&[0.0, 0.0]), vec![0.0, 0.0]);
    }

    #[test]
    fn top_k_keeps_the_best_best_first_ties_to_the_earlier() {
        let mut top = TopK::new(3);
        for (slot, score) in [0.1, 0.9, 0.5, 0.9, 0.3, 0.7].into_iter().enumerate() {
            top.push(slot, score);
        }
        assert_eq!(top.into_sorted(), vec![(1, 0.9), (3, 0.9), (5, 0.7)]);
        let mut none = TopK::new(0);
        none.push(0, 1.0);
        assert!(none.into_sorted().is_empty());
    }
}
