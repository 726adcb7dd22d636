//! Speed and memory of the ranked search's index, natively (BENCHMARKS.md,
//! "Ranked search"): build, heap held, re-index of one note, query p50/p95,
//! on generated vaults of notes of a typical length, and the CLI
//! emulator's `search` over the same files as the baseline.
//!
//!   cargo run --release --example search_bench -- [notes=1000,10000] [--emulator target/release/obsidian] [--rounds 3]
//!
//! A note: frontmatter with tags, two to four sections, about 300 words
//! drawn from a 6 000-word vocabulary by a Zipf law (as words in text are),
//! about 2 KB.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use vault_agent::search::{Index, Language, SearchQuery};

/// Counts the bytes held, so the index's heap is measured, not estimated.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn vocabulary(n: usize) -> Vec<String> {
    const C: &[&str] = &[
        "k", "r", "t", "m", "s", "l", "n", "p", "d", "v", "b", "g", "ch", "st",
    ];
    const V: &[&str] = &["a", "e", "i", "o", "u", "ai", "ou"];
    let mut rng = Rng(7);
    let mut words = Vec::with_capacity(n);
    let mut seen = std::collections::HashSet::new();
    while words.len() < n {
        let syllables = 2 + rng.below(3);
        let mut w = String::new();
        for _ in 0..syllables {
            w.push_str(C[rng.below(C.len())]);
            w.push_str(V[rng.below(V.len())]);
        }
        if rng.below(4) == 0 {
            w.push_str(["s", "ing", "ed", "er"][rng.below(4)]);
        }
        if seen.insert(w.clone()) {
            words.push(w);
        }
    }
    words
}

/// A Zipf-distributed pick (s = 1) by inverting the harmonic sums.
struct Zipf {
    cumulative: Vec<f64>,
}

impl Zipf {
    fn new(n: usize) -> Zipf {
        let mut sum = 0.0;
        let cumulative = (1..=n)
            .map(|k| {
                sum += 1.0 / k as f64;
                sum
            })
            .collect();
        Zipf { cumulative }
    }
    fn pick(&self, rng: &mut Rng) -> usize {
        let total = *self.cumulative.last().unwrap();
        let x = (rng.next() % 1_000_000) as f64 / 1_000_000.0 * total;
        self.cumulative.partition_point(|c| *c < x)
    }
}

fn note(rng: &mut Rng, words: &[String], zipf: &Zipf, i: usize) -> (String, String) {
    let mut text = format!(
        "---\ntags: [{}, {}]\nstatus: {}\n---\n",
        words[zipf.pick(rng) % 200],
        words[zipf.pick(rng) % 200],
        ["draft", "done", "idea"][i % 3]
    );
    let sections = 2 + rng.below(3);
    for s in 0..sections {
        text.push_str(&format!(
            "\n## {} {}\n",
            words[zipf.pick(rng)],
            words[zipf.pick(rng)]
        ));
        let length = 300 / sections;
        for w in 0..length {
            text.push_str(&words[zipf.pick(rng)]);
            text.push(if w % 12 == 11 { '\n' } else { ' ' });
        }
        if s == 0 {
            text.push_str(&format!("See [[{}]].\n", words[rng.below(words.len())]));
        }
    }
    let folder = ["Projects", "Areas", "Journal", "People", "Ideas"][i % 5];
    (
        format!(
            "{folder}/{} {} {i}.md",
            words[zipf.pick(rng)],
            words[zipf.pick(rng)]
        ),
        text,
    )
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> =
        args.first()
            .filter(|a| !a.starts_with("--"))
            .map_or(vec![1_000, 10_000], |a| {
                a.split(',')
                    .map(|n| n.parse().expect("note counts"))
                    .collect()
            });
    let emulator = args
        .iter()
        .position(|a| a == "--emulator")
        .map(|i| std::fs::canonicalize(&args[i + 1]).expect("the emulator binary"));
    // Builds per size, the best kept (1 for 100 000 notes on a slow machine).
    let rounds: usize = args
        .iter()
        .position(|a| a == "--rounds")
        .map_or(3, |i| args[i + 1].parse().expect("a number of rounds"));
    let words = vocabulary(6_000);
    let zipf = Zipf::new(words.len());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average at the start: {}",
        load.split(' ').next().unwrap_or("?")
    );
    println!("| notes | text | build (splitting the words alone, same run) | heap held after `shrink` (peak while building) | re-index one note p50 / p95 | query p50 / p95 | with passages p50 / p95 | emulator `search` p50 | ratio |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for &n in &sizes {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ n as u64);
        let notes: Vec<(String, String)> =
            (0..n).map(|i| note(&mut rng, &words, &zipf, i)).collect();
        let bytes: usize = notes.iter().map(|(_, t)| t.len()).sum();
        // The baseline, in the same run: the text model's words of the same
        // text, split and lower-cased (no stemming, no index; the hygiene
        // checks' own word pass it replaced is gone). Each the best of 3,
        // because this machine is shared.
        let mut baseline = f64::MAX;
        let mut build = f64::MAX;
        let (mut held, mut peak) = (0, 0);
        let mut index = Index::new(".obsidian", Language::English);
        for _ in 0..rounds {
            let start = Instant::now();
            let mut count = 0;
            for (_, t) in &notes {
                vault_agent::search::text::each_piece(t, |_, _| count += 1);
            }
            std::hint::black_box(count);
            baseline = baseline.min(start.elapsed().as_secs_f64());
            drop(index);
            let before = HELD.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let start = Instant::now();
            index = Index::new(".obsidian", Language::English);
            for (p, t) in &notes {
                index.upsert(p, t).unwrap();
            }
            build = build.min(start.elapsed().as_secs_f64());
            index.shrink();
            held = HELD.load(Ordering::Relaxed) - before;
            peak = PEAK.load(Ordering::Relaxed) - before;
        }
        // Re-index one note: each edit a real change (a word appended).
        let mut reindex = Vec::new();
        for k in 0..200 {
            let (p, t) = &notes[rng.below(n)];
            let edited = format!("{t}{} {k}\n", words[rng.below(words.len())]);
            let mut best = f64::MAX;
            for text in [&edited, t, &edited] {
                let start = Instant::now();
                index.upsert(p, text).unwrap();
                best = best.min(start.elapsed().as_secs_f64() * 1e3);
            }
            index.upsert(p, t).unwrap();
            reindex.push(best);
        }
        reindex.sort_by(f64::total_cmp);
        // Queries of two to five words, as people type them.
        let queries: Vec<String> = (0..300)
            .map(|_| {
                let k = 2 + rng.below(4);
                (0..k)
                    .map(|_| words[zipf.pick(&mut rng) % 3_000].as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let all = |_: &str| true;
        let texts: std::collections::HashMap<&str, &str> = notes
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut rank = Vec::new();
        let mut full = Vec::new();
        for q in &queries {
            let (mut a, mut b) = (f64::MAX, f64::MAX);
            for _ in 0..3 {
                let start = Instant::now();
                let _ = index.search(&SearchQuery::new(q), &all);
                a = a.min(start.elapsed().as_secs_f64() * 1e3);
                let start = Instant::now();
                let mut read = |p: &str| texts.get(p).map(|t| t.to_string());
                let _ = index.find(&SearchQuery::new(q), &all, 600, &mut read);
                b = b.min(start.elapsed().as_secs_f64() * 1e3);
            }
            rank.push(a);
            full.push(b);
        }
        rank.sort_by(f64::total_cmp);
        full.sort_by(f64::total_cmp);
        let (emulated, ratio) = match &emulator {
            Some(bin) => {
                let dir = std::env::temp_dir().join(format!("search-bench-{n}"));
                let _ = std::fs::remove_dir_all(&dir);
                for (p, t) in &notes {
                    let file = dir.join(p);
                    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                    std::fs::write(file, t).unwrap();
                }
                std::fs::create_dir_all(dir.join(".obsidian")).unwrap();
                let mut times = Vec::new();
                for q in queries.iter().take(15) {
                    let start = Instant::now();
                    std::process::Command::new(bin)
                        .arg("search")
                        .arg(format!("query={q}"))
                        .env("OBSIDIAN_EMULATOR_VAULT", &dir)
                        .current_dir(&dir)
                        .output()
                        .unwrap();
                    times.push(start.elapsed().as_secs_f64() * 1e3);
                }
                let _ = std::fs::remove_dir_all(&dir);
                times.sort_by(f64::total_cmp);
                let median = percentile(&times, 0.5);
                (
                    format!("{median:.1} ms"),
                    format!(
                        "{:.0}× the ranked query's p50",
                        median / percentile(&rank, 0.5)
                    ),
                )
            }
            None => ("–".into(), "–".into()),
        };
        let stats = index.stats();
        println!(
            "| {n} | {:.1} MB, {} chunks, {} terms | {:.2} s ({:.2} s, ×{:.1}) | {:.1} MB ({:.1} MB) | {:.2} / {:.2} ms | {:.2} / {:.2} ms | {:.2} / {:.2} ms | {emulated} | {ratio} |",
            bytes as f64 / 1e6,
            stats.chunks,
            stats.terms,
            build,
            baseline,
            build / baseline,
            held as f64 / 1e6,
            peak as f64 / 1e6,
            percentile(&reindex, 0.5),
            percentile(&reindex, 0.95),
            percentile(&rank, 0.5),
            percentile(&rank, 0.95),
            percentile(&full, 0.5),
            percentile(&full, 0.95),
        );
        eprintln!(
            "(index's own estimate of its heap: {:.1} MB; {} postings)",
            stats.bytes as f64 / 1e6,
            stats.postings
        );
    }
}
