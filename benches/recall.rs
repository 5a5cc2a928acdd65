//! Semantic-memory recall: exact cosine top 10 over unit vectors of 768 dimensions, one
//! core, and the load of the vector file. Budget (issue 10): the top 10 among 100,000
//! memories in <= 20 ms.
//!
//! - `recall/top10/N`: [`VectorIndex::search`] over N memories (10,000 and 100,000;
//!   1,000,000 too with `DREAMWATCH_BENCH_1M=1`, which needs 3 GiB of memory).
//! - `recall/load/N`: reading `.self/semantic.vectors` of N memories into an index, the
//!   page cache warm.
//!
//! Run: `cargo bench --bench recall`. The vectors are pseudo-random (a fixed seed): exact
//! search does the same work whatever they hold.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may stop at the first failure

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

use dreamwatch::memory::vectors::{VectorIndex, VectorStore, load};

const DIMS: usize = 768;
const K: usize = 10;

/// xorshift64*: reproducible values in [-1, 1) without a dependency.
struct Values(u64);

impl Values {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn vector(&mut self) -> Vec<f32> {
        (0..DIMS).map(|_| self.next()).collect()
    }
}

fn index_of(count: usize) -> VectorIndex {
    let mut values = Values(0x9e37_79b9_7f4a_7c15);
    let mut index = VectorIndex::new(DIMS);
    for i in 0..count {
        index.push(&format!("m{i}"), &values.vector()).unwrap();
    }
    index
}

fn sizes() -> Vec<usize> {
    let mut sizes = vec![10_000, 100_000];
    if std::env::var_os("DREAMWATCH_BENCH_1M").is_some() {
        sizes.push(1_000_000);
    }
    sizes
}

fn top10(c: &mut Criterion) {
    let mut group = c.benchmark_group("recall/top10");
    group.measurement_time(Duration::from_secs(10));
    let query = Values(42).vector();
    for count in sizes() {
        let index = index_of(count);
        group.bench_with_input(BenchmarkId::from_parameter(count), &index, |b, index| {
            b.iter(|| {
                let hits = index.search(&query, K, |_| true).unwrap();
                assert_eq!(hits.len(), K);
                hits
            });
        });
    }
    group.finish();
}

fn load_file(c: &mut Criterion) {
    let mut group = c.benchmark_group("recall/load");
    group.sample_size(10);
    let dir = tempfile::tempdir().unwrap();
    let count = 100_000;
    let path = dir.path().join("semantic.vectors");
    let (mut store, _) = VectorStore::open(&path).unwrap();
    let mut values = Values(7);
    for i in 0..count {
        store
            .add(&format!("m{i}"), "bench-model", &values.vector())
            .unwrap();
    }
    drop(store);
    group.bench_function(BenchmarkId::from_parameter(count), |b| {
        b.iter(|| {
            let loaded = load(&path).unwrap();
            assert_eq!(loaded.index.len(), count);
            loaded
        });
    });
    group.finish();
}

criterion_group!(benches, top10, load_file);
criterion_main!(benches);
