//! Fuzz targets, run as property tests at scale (cargo-fuzz needs nightly
//! Rust; proptest runs on stable and in CI). One `#[test]` per target, each
//! target in its own module (`<target>.rs`), the harness and shared
//! generators here:
//!
//! | target | what it runs | corpus folder |
//! |---|---|---|
//! | `arguments` | `ToolSpec::parse_call` → `invocation` → `to_argv` for every tool | `arguments/` |
//! | `argv` | `CliInvocation::to_argv`, `escape_value`, `check_size` | `argv/` |
//! | `paths` | `policy::paths::normalised` for every `PathKind` | `paths/` |
//! | `outcome` | `cli::outcome::interpret` and `classify` | `outcome/` |
//! | `streams` | `SseParser` and `provider::parse_stream` (OpenAI, Anthropic) | `streams/` |
//! | `json` | `input::parse_bounded`, `parse_lenient`, `max_depth` | `json/` |
//!
//! Every run first replays each file of `tests/fuzz-corpus/<target>/` through
//! the target's property, then generates cases:
//!
//! - `VAULT_AGENT_FUZZ_CASES` (default 256): cases per property per batch.
//! - `VAULT_AGENT_FUZZ_SECONDS`: seconds per target; batches run until the
//!   time is up (`scripts/fuzz.sh` sets it, see FUZZING.md).
//! - `VAULT_AGENT_FUZZ_SEED`: the seed cases are drawn from. Without it the
//!   test command always draws the same cases (`FIXED_SEED`), so it cannot
//!   fail at random; the time-bounded mode draws a new seed each run and
//!   prints it, to run a failure again.
//!
//! A failure is shrunk by proptest; the minimal input is written into the
//! corpus as `found-<hash>.<ext>` (replayed from then on), and its seed into
//! `tests/fuzz-corpus/proptest-regressions/<target>.txt`.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, Index};
use proptest::test_runner::{
    Config, FileFailurePersistence, RngSeed, TestCaseError, TestCaseResult, TestError, TestRunner,
};
use serde_json::{json, Map, Value};
use unicode_normalization::UnicodeNormalization;

use vault_agent::base::host::{Os, ProcessOutcome, SpawnFailure};
use vault_agent::base::input::{
    max_depth, parse_bounded, parse_lenient, InputLimits, InputProblem, CONVERSATION, SETTINGS,
    TOOL_ARGUMENTS,
};
use vault_agent::base::vault_path::{is_invisible, normalised, PathKind};
use vault_agent::cli::argv::{
    check_size, escape_value, normalise_line_endings, ArgvError, CliInvocation, UI_ONLY_PARAMETERS,
};
use vault_agent::cli::outcome::{
    classify, interpret, without_installer_lines, CliStatus, EmptyOutput, OutcomeContext,
    APP_NOT_RUNNING_MESSAGE,
};
use vault_agent::doors::chat::model::{ChatError, ModelReply, StreamPiece};
use vault_agent::doors::chat::provider::{assembler, parse_stream};
use vault_agent::doors::chat::sse::{SseEvent, SseParser};
use vault_agent::settings::ProviderKind;
use vault_agent::tools::{builtin_tools, is_excluded, ToolSpec, EXCLUDED_COMMANDS};
use vault_agent::ToolError;

// ---------------------------------------------------------------------------
// Harness: case counts, time budget, corpus replay, saving what was found.
// ---------------------------------------------------------------------------

fn cases_per_batch() -> u32 {
    std::env::var("VAULT_AGENT_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n: &u32| n > 0)
        .unwrap_or(256)
}

/// Seconds for one whole target, when running in the time-bounded mode.
fn seconds_per_target() -> Option<f64> {
    std::env::var("VAULT_AGENT_FUZZ_SECONDS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&s: &f64| s > 0.0)
}

/// The seed of the test command's cases: the same on every run.
const FIXED_SEED: u64 = 26;

/// `VAULT_AGENT_FUZZ_SEED` when given; else a fresh one in the time-bounded
/// mode (long random runs), else `FIXED_SEED`.
static SEED: LazyLock<u64> = LazyLock::new(|| {
    if let Some(seed) = std::env::var("VAULT_AGENT_FUZZ_SEED")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return seed;
    }
    if seconds_per_target().is_none() {
        return FIXED_SEED;
    }
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(Instant::now())
});

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-corpus")
        .join(target)
}

/// Every corpus file of a target: (file name, bytes), sorted by name.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("corpus entry").path())
        .filter(|path| path.is_file())
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            (!name.starts_with('.') && name != "README.md")
                .then(|| (name, std::fs::read(&path).expect("corpus file")))
        })
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "the corpus of `{target}` is empty: {}",
        dir.display()
    );
    files
}

/// Replays a target's corpus; returns how many files it holds.
fn replay(target: &str, check: impl Fn(&str, &[u8]) -> TestCaseResult) -> usize {
    let files = corpus(target);
    for (name, bytes) in &files {
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| check(name, bytes)));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("fuzz-corpus/{target}/{name}: {e}"),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                panic!("fuzz-corpus/{target}/{name} panicked: {message}")
            }
        }
    }
    files.len()
}

/// Writes a minimal failing input into the corpus, so every later run replays it.
fn save_found(target: &str, extension: &str, bytes: &[u8]) -> PathBuf {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    let path = corpus_dir(target).join(format!("found-{:016x}.{extension}", hasher.finish()));
    if let Err(e) = std::fs::write(&path, bytes) {
        eprintln!("fuzz: could not save {}: {e}", path.display());
    }
    path
}

/// One property of a target.
struct Property<S: Strategy> {
    target: &'static str,
    name: &'static str,
    /// Its part of the target's time in the time-bounded mode.
    share: f64,
    /// proptest's seed file (absolute, see `seeds!`).
    seeds: &'static str,
    strategy: S,
    /// The corpus form of a failing input: (extension, bytes).
    save: fn(&S::Value) -> (&'static str, Vec<u8>),
}

macro_rules! seeds {
    ($target:literal) => {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fuzz-corpus/proptest-regressions/",
            $target,
            ".txt"
        )
    };
}

impl<S: Strategy> Property<S>
where
    S::Value: Debug,
{
    /// Runs the property: one batch, or batches until its share of the time is
    /// up. Returns how many cases passed.
    fn run(self, check: impl Fn(S::Value) -> TestCaseResult) -> u64 {
        let config = Config {
            cases: cases_per_batch(),
            failure_persistence: Some(Box::new(FileFailurePersistence::Direct(self.seeds))),
            max_shrink_iters: 20_000,
            rng_seed: RngSeed::Fixed(*SEED),
            ..Config::default()
        };
        let deadline =
            seconds_per_target().map(|s| Instant::now() + Duration::from_secs_f64(s * self.share));
        let mut master = TestRunner::new(config.clone());
        let mut passed = 0u64;
        loop {
            let mut runner = TestRunner::new_with_rng(config.clone(), master.new_rng());
            match runner.run(&self.strategy, &check) {
                Ok(()) => passed += u64::from(config.cases),
                Err(TestError::Fail(reason, value)) => {
                    let (extension, bytes) = (self.save)(&value);
                    let saved = save_found(self.target, extension, &bytes);
                    let mut shown = format!("{value:#?}");
                    if shown.len() > 6000 {
                        let cut = (0..=6000).rev().find(|&i| shown.is_char_boundary(i));
                        shown.truncate(cut.unwrap_or(0));
                        shown.push_str("\n…");
                    }
                    panic!(
                        "fuzz target `{}` ({}) failed after {passed} passing cases (VAULT_AGENT_FUZZ_SEED={}): {reason}\nminimal input saved as {}\n{shown}",
                        self.target,
                        self.name,
                        *SEED,
                        saved.display()
                    );
                }
                Err(TestError::Abort(reason)) => {
                    panic!(
                        "fuzz target `{}` ({}) aborted: {reason}",
                        self.target, self.name
                    )
                }
            }
            match deadline {
                Some(deadline) if Instant::now() < deadline => {}
                _ => break,
            }
        }
        passed
    }
}

/// How many cases reached each interesting point (`target.point`), so a
/// report shows the generators get past the first refusal.
static REACHED: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

fn reached(point: &'static str) {
    *REACHED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(point)
        .or_default() += 1;
}

fn report(target: &str, corpus_files: usize, cases: u64, started: Instant) {
    let points: String = REACHED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter_map(|(point, n)| {
            point
                .strip_prefix(target)?
                .strip_prefix('.')
                .map(|p| (p, n))
        })
        .map(|(point, n)| format!(" {point}={n}"))
        .collect();
    // `scripts/fuzz.sh` collects these lines.
    eprintln!(
        "fuzz-result target={target} corpus={corpus_files} cases={cases} seconds={:.1}{points} clean",
        started.elapsed().as_secs_f64()
    );
}

// ---------------------------------------------------------------------------
// Shared generators.
// ---------------------------------------------------------------------------

/// Pieces that have broken parsers, paths and command lines somewhere.
const PIECES: &[&str] = &[
    "a",
    "Plan",
    "Projects",
    ".md",
    "md",
    "é",
    "e\u{301}",
    "日本",
    "😀",
    "ﾃｽﾄ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\u{0}",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "\u{2028}",
    "\u{202E}",
    "\u{202A}",
    "\u{2066}",
    "\u{2069}",
    "\u{200B}",
    "\u{200D}",
    "\u{FEFF}",
    "\u{AD}",
    "\u{FFFD}",
    ".",
    "..",
    "...",
    "/",
    "//",
    "\\",
    "\\\\",
    "\\n",
    "\\t",
    ":",
    "::$DATA",
    "~",
    "C:",
    "%",
    "%2e",
    "%2E",
    "%2f",
    "%2F",
    "%5c",
    "%3a",
    "%25",
    "%252e",
    "%41",
    "\u{FF0E}",
    "\u{FF0F}",
    "\u{FF3C}",
    "\u{FF1A}",
    "\u{FF5E}",
    "\u{2024}",
    "\u{2025}",
    "\u{FE52}",
    "\u{2215}",
    "\u{2044}",
    "=",
    "vault=",
    "vault=Evil",
    "--copy",
    "-",
    "--",
    "open",
    "delete",
    "eval",
    "#",
    "^",
    "[[",
    "]]",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "'",
    "`",
    "$(",
    ")",
    ";",
    "|",
    "&&",
    "1",
    "-1",
    "12",
    ".md:12",
    "Error: ",
    "Usage: ",
    "Vault not found.",
    "No tasks found.",
];

fn pieces(max: usize) -> impl Strategy<Value = String> {
    vec(select(PIECES), 0..max).prop_map(|p| p.concat())
}

/// Text of every kind: hostile pieces, arbitrary Unicode (controls
/// included), plain names.
fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => pieces(8),
        2 => "(?s).{0,16}",
        1 => "[a-zA-Z0-9 ._/-]{0,16}",
        1 => "\\PC{0,24}",
    ]
    .boxed()
}

/// What a well-behaved model sends: names, paths, a line reference.
fn plain_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[A-Z][a-z]{1,8}( [a-z]{1,6})?",
        2 => "[A-Z][a-z]{1,8}/[A-Z][a-z]{1,8}(\\.md)?",
        1 => "[A-Z][a-z]{1,8}\\.md:[1-9][0-9]{0,2}",
        1 => "[#x /-]",
    ]
}

fn json_leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        1 => (0u64..300).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>()
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        3 => text().prop_map(Value::from),
    ]
    .boxed()
}

/// Any JSON value: shallow and wide, or a chain nested up to past the limit
/// of tool arguments (64).
fn json_any() -> BoxedStrategy<Value> {
    let tree = json_leaf().prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            vec((text(), inner), 0..6)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    });
    let chain = (json_leaf(), vec(any::<bool>(), 0..80)).prop_map(|(leaf, shape)| {
        shape.into_iter().fold(leaf, |inner, array| {
            if array {
                json!([inner])
            } else {
                json!({ "k": inner })
            }
        })
    });
    prop_oneof![4 => tree, 1 => chain].boxed()
}

/// Cut points in `0..=len`, sorted, repeats kept (a repeat is an empty chunk).
fn cut<'a>(bytes: &'a [u8], points: &[Index]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = points.iter().map(|p| p.index(bytes.len() + 1)).collect();
    at.sort_unstable();
    let mut chunks = Vec::with_capacity(at.len() + 1);
    let mut start = 0;
    for p in at {
        chunks.push(&bytes[start..p]);
        start = p;
    }
    chunks.push(&bytes[start..]);
    chunks
}

/// The worst delivery: one byte at a time with an empty chunk between each.
fn singles_with_empties(bytes: &[u8]) -> Vec<&[u8]> {
    let mut chunks = vec![&bytes[..0]];
    for i in 0..bytes.len() {
        chunks.push(&bytes[i..i + 1]);
        chunks.push(&bytes[..0]);
    }
    chunks
}

const BAD_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xfe\xff",
    b"\x80",
    b"\xbf\xbf",
    b"\xc3",
    b"\xc3\x28",
    b"\xe6\x97",
    b"\xf0\x9f\x98",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
];

fn bad_utf8() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => select(BAD_UTF8).prop_map(<[u8]>::to_vec),
        1 => vec(any::<u8>(), 0..6),
    ]
}

/// Every built-in tool (the argument and argv targets).
static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(builtin_tools);

/// Keys that are not declared anywhere, or look like something else.
const ODD_KEYS: &[&str] = &[
    "vault",
    "open",
    "silent",
    "newtab",
    "paneType",
    "copy",
    "--copy",
    "Command",
    "command ",
    " file",
    "FILE",
    "file=x",
    "",
    "__proto__",
    "constructor",
    "query\n",
    "content\u{0}",
    "ｆｉｌｅ",
    "pat\u{200B}h",
];

/// How the real CLI reads a value back (`shared/reference/obsidian-cli.md`):
/// left to right, `\\` → `\`, `\n` → newline, `\t` → tab; any other
/// backslash stays as it is.
fn unescape_like_cli(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            _ => {
                out.push('\\');
                continue;
            }
        }
        chars.next();
    }
    out
}

// The targets, one module each (after the harness: `seeds!` must be defined first).
mod arguments;
mod argv;
mod json;
mod outcome;
mod paths;
mod streams;
