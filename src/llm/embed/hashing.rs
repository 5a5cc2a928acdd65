//! A deterministic local embedding, no network: feature hashing of lower-cased words
//! and of their character trigrams into a fixed number of dimensions, L2-normalised.
//!
//! It is not semantic: texts score high when they share words and spellings, not
//! meanings ("car" and "automobile" are unrelated to it). It lets the rehearsal brain,
//! and a brain without an embeddings endpoint, run the whole semantic-memory pipeline
//! offline with a similarity that behaves sensibly on paraphrases.
//!
//! Each feature goes to one dimension with a sign, both from its hash (the "hashing
//! trick" of Weinberger et al.), so colliding features cancel rather than pile up and
//! unrelated texts score near 0. The hash is FNV-1a written out here: vectors are
//! stored on disk, so it must never change with the Rust version or platform, which
//! the standard library's hasher does not promise.

use super::{EmbedFuture, Embedder, Embeddings};

/// Weight of a whole word; its trigrams share [`TRIGRAM_WEIGHT`] each.
const WORD_WEIGHT: f32 = 1.0;
/// Trigrams catch inflections and typos (`dream`, `dreams`, `dreamt`) without letting
/// spelling outweigh the words.
const TRIGRAM_WEIGHT: f32 = 0.35;

/// The local hashing embedding of `dims` dimensions (default 256).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashingEmbedder {
    dims: usize,
}

impl Default for HashingEmbedder {
    fn default() -> Self {
        Self::new(Self::DEFAULT_DIMS)
    }
}

impl HashingEmbedder {
    pub const DEFAULT_DIMS: usize = 256;

    /// `dims` is at least 1.
    pub fn new(dims: usize) -> Self {
        Self { dims: dims.max(1) }
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The vector of one text: unit length, or all zeros for a text without a word.
    pub fn vector(&self, text: &str) -> Vec<f32> {
        let mut vector = vec![0.0f32; self.dims];
        let lower = text.to_lowercase();
        let mut padded = Vec::new();
        for word in lower.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            self.add(&mut vector, b'w', word.as_bytes(), WORD_WEIGHT);
            padded.clear();
            padded.push('^');
            padded.extend(word.chars());
            padded.push('$');
            let mut gram = String::new();
            for window in padded.windows(3) {
                gram.clear();
                gram.extend(window);
                self.add(&mut vector, b't', gram.as_bytes(), TRIGRAM_WEIGHT);
            }
        }
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            vector.iter_mut().for_each(|x| *x /= norm);
        }
        vector
    }

    /// Adds one feature (`kind` keeps words and trigrams apart) at its hashed place.
    fn add(&self, vector: &mut [f32], kind: u8, feature: &[u8], weight: f32) {
        let hash = fnv1a(kind, feature);
        let place = usize::try_from(hash % self.dims as u64).unwrap_or(0);
        let sign = if hash >> 63 == 1 { -1.0 } else { 1.0 };
        if let Some(slot) = vector.get_mut(place) {
            *slot += sign * weight;
        }
    }
}

/// 64-bit FNV-1a of `kind` then `bytes`.
fn fnv1a(kind: u8, bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    std::iter::once(&kind)
        .chain(bytes)
        .fold(OFFSET, |hash, &byte| {
            (hash ^ u64::from(byte)).wrapping_mul(PRIME)
        })
}

impl Embedder for HashingEmbedder {
    fn label(&self) -> String {
        "local hashing embedding (offline, not semantic)".to_owned()
    }

    fn model(&self) -> String {
        format!("local-hash-{}", self.dims)
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let vectors: Vec<Vec<f32>> = texts.iter().map(|text| self.vector(text)).collect();
        let dims = if vectors.is_empty() { 0 } else { self.dims };
        let embeddings = Embeddings {
            model: self.model(),
            dims,
            vectors,
            usage: None,
        };
        Box::pin(async move { Ok(embeddings) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &str, b: &str) -> f32 {
        let embedder = HashingEmbedder::default();
        let (a, b) = (embedder.vector(a), embedder.vector(b));
        a.iter().zip(&b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn the_same_text_gives_the_same_unit_vector() {
        let embedder = HashingEmbedder::default();
        let text = "The lighthouse keeper writes every evening.";
        let a = embedder.vector(text);
        assert_eq!(a, embedder.vector(text));
        assert_eq!(a.len(), 256);
        let norm: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5, "{norm}");
    }

    #[test]
    fn the_hash_is_fnv1a_and_the_vectors_never_change() {
        // The published FNV-1a test vectors ("a", "foobar").
        assert_eq!(fnv1a(b'a', b""), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b'f', b"oobar"), 0x8594_4171_f739_67e8);
        // Stored vectors must stay comparable with new ones: this one is pinned.
        let v = HashingEmbedder::new(8).vector("Dream");
        let pinned: Vec<String> = v.iter().map(|x| format!("{x:.4}")).collect();
        assert_eq!(
            pinned.join(" "),
            "0.2993 0.8551 0.0000 0.0000 -0.2993 0.0000 0.0000 -0.2993"
        );
    }

    #[test]
    fn paraphrases_score_high_and_unrelated_texts_low() {
        let pairs = [
            (
                "The creator said the garden needs water every morning.",
                "Every morning the garden needs water, the creator said.",
            ),
            (
                "Alice prefers tea over coffee in the afternoon.",
                "In the afternoon Alice prefers tea to coffee.",
            ),
        ];
        for (a, b) in pairs {
            let score = cosine(a, b);
            assert!(score > 0.7, "{score}: {a} / {b}");
        }
        let unrelated = [
            (
                "The creator said the garden needs water every morning.",
                "Quantum chromodynamics describes how gluons bind quarks.",
            ),
            (
                "Alice prefers tea over coffee in the afternoon.",
                "Compile the kernel module with debugging symbols enabled.",
            ),
        ];
        for (a, b) in unrelated {
            let score = cosine(a, b);
            assert!(score < 0.3, "{score}: {a} / {b}");
        }
    }

    #[test]
    fn a_text_without_words_is_the_zero_vector() {
        let v = HashingEmbedder::new(16).vector(" ,.;- ");
        assert_eq!(v, vec![0.0; 16]);
    }

    #[tokio::test]
    async fn embed_keeps_the_order_and_says_what_it_is() {
        let embedder = HashingEmbedder::new(32);
        let texts = vec!["one".to_owned(), "two".to_owned()];
        let got = embedder.embed(&texts).await.unwrap();
        assert_eq!(got.dims, 32);
        assert_eq!(got.model, "local-hash-32");
        assert_eq!(got.vectors[1], embedder.vector("two"));
        assert_eq!(embedder.embed(&[]).await.unwrap().dims, 0);
    }
}
