//! The duplicate-title check on typical titles ("<word> <word> <n>", words
//! drawn by Zipf's law from a made-up vocabulary, as `make-vault.mjs
//! --typical` names its notes), at each size given: the work the candidate
//! search did (postings visited and trigrams merged), pairs compared, pairs
//! found and the time. The growth of `work` from one size to the next is
//! what BENCHMARKS.md records (issue 38 item 2).
//!
//!     cargo run --release --example titles_bench -- 10000,100000

use std::time::Instant;

use vault_agent::hygiene::titles::find_duplicates;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
}

fn vocabulary(n: usize) -> Vec<String> {
    const C: [&str; 14] = [
        "k", "r", "t", "m", "s", "l", "n", "p", "d", "v", "b", "g", "ch", "st",
    ];
    const V: [&str; 7] = ["a", "e", "i", "o", "u", "ai", "ou"];
    let mut rng = XorShift(7);
    let mut words = std::collections::BTreeSet::new();
    let mut order = Vec::new();
    while order.len() < n {
        let mut w = String::new();
        for _ in 0..2 + rng.below(3) {
            w.push_str(C[rng.below(C.len())]);
            w.push_str(V[rng.below(V.len())]);
        }
        if rng.below(4) == 0 {
            w.push_str(["s", "ing", "ed", "er"][rng.below(4)]);
        }
        if words.insert(w.clone()) {
            order.push(w);
        }
    }
    order
}

fn titles(n: usize) -> Vec<String> {
    let words = vocabulary(6000);
    let mut sum = 0.0;
    let cumulative: Vec<f64> = (0..words.len())
        .map(|k| {
            sum += 1.0 / (k + 1) as f64;
            sum
        })
        .collect();
    let mut rng = XorShift(11);
    let mut zipf = || {
        let x = rng.below(1_000_000) as f64 / 1_000_000.0 * sum;
        &words[cumulative.partition_point(|&c| c < x).min(words.len() - 1)]
    };
    let folders = ["Projects", "Areas", "Journal", "People", "Ideas"];
    (0..n)
        .map(|i| format!("{}/{} {} {i}.md", folders[i % 5], zipf(), zipf()))
        .collect()
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "1000,10000".into())
        .split(',')
        .map(|s| s.parse().expect("sizes: 1000,10000"))
        .collect();
    println!(
        "| Titles | Work (postings + merges) | Pairs compared | Similar found | Cut short | Time |"
    );
    println!("|---|---|---|---|---|---|");
    for n in sizes {
        let paths = titles(n);
        let started = Instant::now();
        let found = find_duplicates(&paths, 0.85, 200_000);
        println!(
            "| {n} | {} | {} | {} | {} | {:.0} ms |",
            found.work,
            found.comparisons,
            found.similar.len(),
            found.truncated,
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}
