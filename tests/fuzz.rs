//! Fuzz targets, run as property tests at scale (cargo-fuzz needs nightly
//! Rust; proptest runs on stable and in CI). One `#[test]` per target:
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

// ---------------------------------------------------------------------------
// 1. The argument parser: ToolSpec::parse_call → invocation → to_argv.
// ---------------------------------------------------------------------------

static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(builtin_tools);

#[derive(Clone, Debug)]
enum FieldKind {
    Text,
    Bool,
    Integer,
    Choice(Vec<Value>),
}

/// Per tool, per command: the declared fields and their kinds (from the
/// command's own JSON Schema, so new commands are fuzzed without changes here).
/// One command: its name and its declared fields.
type CommandShape = (&'static str, Vec<(String, FieldKind)>);

static SHAPES: LazyLock<Vec<Vec<CommandShape>>> = LazyLock::new(|| {
    TOOLS
        .iter()
        .map(|tool| {
            tool.commands
                .iter()
                .map(|command| {
                    let schema = command.arguments_schema();
                    let fields = schema["properties"]
                        .as_object()
                        .map(|props| {
                            props
                                .iter()
                                .map(|(name, prop)| (name.clone(), field_kind(prop)))
                                .collect()
                        })
                        .unwrap_or_default();
                    (command.name, fields)
                })
                .collect()
        })
        .collect()
});

fn field_kind(prop: &Value) -> FieldKind {
    if let Some(values) = prop["enum"].as_array() {
        return FieldKind::Choice(values.iter().filter(|v| !v.is_null()).cloned().collect());
    }
    let types: Vec<&str> = match &prop["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.contains(&"boolean") {
        FieldKind::Bool
    } else if types.contains(&"integer") || types.contains(&"number") {
        FieldKind::Integer
    } else {
        FieldKind::Text
    }
}

fn field_value(kind: &FieldKind) -> BoxedStrategy<Value> {
    match kind {
        FieldKind::Text => prop_oneof![
            6 => plain_name().prop_map(Value::from),
            6 => text().prop_map(Value::from),
            1 => json_any(),
        ]
        .boxed(),
        FieldKind::Bool => {
            prop_oneof![8 => any::<bool>().prop_map(Value::from), 1 => json_any()].boxed()
        }
        FieldKind::Integer => prop_oneof![
            6 => (0u64..300).prop_map(Value::from),
            1 => any::<i64>().prop_map(Value::from),
            1 => Just(json!(2.5)),
            1 => json_any(),
        ]
        .boxed(),
        FieldKind::Choice(values) => prop_oneof![
            8 => select(values.clone()),
            1 => text().prop_map(Value::from),
            1 => json_any(),
        ]
        .boxed(),
    }
}

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

fn other_command() -> impl Strategy<Value = String> {
    let mut names: Vec<String> = EXCLUDED_COMMANDS.iter().map(|c| c.to_string()).collect();
    names.extend(
        TOOLS
            .iter()
            .flat_map(|t| t.command_names())
            .map(String::from),
    );
    names.extend(
        [
            "plugin:enable",
            "dev:eval",
            "DELETE",
            "read ",
            " read",
            "read\n",
            "tasks;",
            "daily:read\u{0}",
        ]
        .map(String::from),
    );
    select(names)
}

/// (tool index, arguments): mostly a well-typed call of one of the tool's
/// commands, mixed with wrong types, undeclared keys and foreign commands.
fn tool_arguments() -> impl Strategy<Value = (usize, Value)> {
    (0..TOOLS.len())
        .prop_flat_map(|tool| (Just(tool), 0..SHAPES[tool].len()))
        .prop_flat_map(|(tool, command)| {
            let (name, fields) = &SHAPES[tool][command];
            let name: &'static str = name;
            let fields: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
                .iter()
                .map(|(field, kind)| {
                    proptest::option::weighted(0.5, (Just(field.clone()), field_value(kind)))
                        .boxed()
                })
                .collect();
            let command = prop_oneof![
                14 => Just(Some(Value::from(name))),
                2 => other_command().prop_map(|c| Some(Value::from(c))),
                1 => text().prop_map(|c| Some(Value::from(c))),
                1 => json_leaf().prop_map(Some),
                1 => Just(None),
            ];
            let extra = prop_oneof![
                6 => Just(Vec::new()),
                1 => vec((select(ODD_KEYS).prop_map(String::from), json_any()), 1..3),
                1 => vec((text(), json_any()), 1..3),
            ];
            let object = prop_oneof![15 => Just(true), 1 => Just(false)];
            (Just(tool), command, fields, extra, object, json_any())
        })
        .prop_map(|(tool, command, fields, extra, object, other)| {
            if !object {
                return (tool, other);
            }
            let mut map = Map::new();
            if let Some(command) = command {
                map.insert("command".into(), command);
            }
            for (key, value) in fields.into_iter().flatten().chain(extra) {
                map.insert(key, value);
            }
            (tool, Value::Object(map))
        })
}

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

const PATH_KEYS: &[&str] = &["file", "path", "folder"];

fn check_tool_call(tool: &ToolSpec, args: &Value) -> TestCaseResult {
    let call = match tool.parse_call(args) {
        Ok(call) => call,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            prop_assert!(!error.code().is_empty());
            return Ok(());
        }
    };
    reached("arguments.parsed");
    let allowed = tool.command_names();
    let name = call.command.name;
    prop_assert!(
        allowed.contains(&name),
        "{name} is not on {}'s allowlist",
        tool.id
    );
    prop_assert!(!is_excluded(name), "{name} is excluded");
    if let Some(Value::String(asked)) = args.get("command") {
        prop_assert_eq!(asked.as_str(), name);
    }
    let _ = call.access();
    let _ = call.args.write_target();
    if let Some(probe) = call.args.plan().probe() {
        prop_assert!(!is_excluded(&probe.command), "probe runs {}", probe.command);
        let _ = probe.to_argv();
    }
    let invocation = match call.invocation(None) {
        Ok(invocation) => invocation,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            return Ok(());
        }
    };
    prop_assert_eq!(invocation.command.as_str(), name);
    prop_assert_eq!(&invocation.vault, &None);
    let argv = match invocation.to_argv() {
        Ok(argv) => argv,
        Err(error) => {
            prop_assert!(!error.to_string().trim().is_empty());
            return Ok(());
        }
    };
    reached("arguments.argv");
    prop_assert_eq!(argv[0].as_str(), name);
    prop_assert!(allowed.contains(&argv[0].as_str()) && !is_excluded(&argv[0]));
    prop_assert_eq!(
        argv.len(),
        1 + invocation.parameters.len() + invocation.flags.len()
    );
    let declared = tool.input_schema()["properties"].clone();
    let fields = args.as_object().cloned().unwrap_or_default();
    for (element, (key, value)) in argv[1..].iter().zip(&invocation.parameters) {
        prop_assert!(declared.get(key).is_some(), "undeclared parameter {key}");
        prop_assert!(
            key != "vault" && key != "command" && !UI_ONLY_PARAMETERS.contains(&key.as_str())
        );
        let (sent_key, sent) = element.split_once('=').expect("key=value");
        prop_assert_eq!(sent_key, key.as_str());
        prop_assert!(!sent.chars().any(char::is_control), "{element:?}");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(value));
        if PATH_KEYS.contains(&key.as_str()) {
            // Every path-like parameter went through the one normalisation.
            let again = normalised(key, value, PathKind::File);
            prop_assert_eq!(
                again.as_deref(),
                Ok(value.as_str()),
                "`{}` reached argv without normalisation",
                key
            );
        }
        match fields.get(key) {
            Some(Value::String(given)) if !PATH_KEYS.contains(&key.as_str()) && key != "ref" => {
                let name_normalised = normalised(key, given, PathKind::NoteName).ok();
                prop_assert!(
                    given == value || name_normalised.as_deref() == Some(value.as_str()),
                    "`{key}`: {given:?} became {value:?}"
                );
            }
            // A search page asks the CLI for `offset + limit` results.
            Some(Value::Number(given)) if key == "limit" && fields.contains_key("offset") => {
                let offset = fields["offset"].as_u64().unwrap_or(0);
                prop_assert_eq!(
                    (given.as_u64().unwrap_or(0) + offset).to_string(),
                    value.clone()
                );
            }
            Some(Value::Number(given)) => prop_assert_eq!(&given.to_string(), value),
            _ => {}
        }
    }
    for flag in &argv[1 + invocation.parameters.len()..] {
        prop_assert!(declared.get(flag).is_some(), "undeclared flag {flag}");
        prop_assert!(!UI_ONLY_PARAMETERS.contains(&flag.as_str()));
        // `minCount` needs the counts, so it asks for them.
        if flag == "counts" && fields.contains_key("minCount") {
            continue;
        }
        prop_assert_eq!(fields.get(flag), Some(&Value::Bool(true)));
    }
    prop_assert!(argv.iter().all(|a| !a.starts_with("vault=")));
    for os in [Os::Linux, Os::Macos, Os::Windows, Os::Other] {
        let _ = check_size("/usr/bin/obsidian", &argv, os);
    }
    Ok(())
}

#[test]
fn fuzz_arguments() {
    let started = Instant::now();
    let files = replay("arguments", |name, bytes| {
        let value: Value =
            serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
        for tool in TOOLS.iter() {
            check_tool_call(tool, &value)?;
        }
        Ok(())
    });
    let cases = Property {
        target: "arguments",
        name: "parse_call, invocation, to_argv",
        share: 1.0,
        seeds: seeds!("arguments"),
        strategy: tool_arguments(),
        save: |(_, value)| ("json", serde_json::to_vec_pretty(value).expect("JSON")),
    }
    .run(|(tool, args)| check_tool_call(&TOOLS[tool], &args));
    report("arguments", files, cases, started);
}

// ---------------------------------------------------------------------------
// 2. The argv serializer.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct ArgvCase {
    vault: Option<String>,
    command: String,
    parameters: Vec<(String, String)>,
    flags: Vec<String>,
}

fn key_is_valid(key: &str) -> bool {
    !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && key != "vault"
        && !UI_ONLY_PARAMETERS.contains(&key)
}

fn value_is_sendable(value: &str) -> bool {
    value
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
}

fn check_value(value: &str) -> TestCaseResult {
    match escape_value("content", value) {
        Ok(escaped) => {
            prop_assert!(value_is_sendable(value));
            prop_assert!(!escaped.chars().any(char::is_control), "{escaped:?}");
            let read = unescape_like_cli(&escaped);
            prop_assert_eq!(&read, &normalise_line_endings(value));
            if !value.contains('\r') {
                prop_assert_eq!(&read, value);
            }
        }
        Err(ArgvError::ControlCharacter { key, code }) => {
            prop_assert_eq!(key.as_str(), "content");
            let first_bad = value
                .chars()
                .find(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'));
            prop_assert_eq!(first_bad.map(|c| c as u32), Some(code));
        }
        Err(other) => prop_assert!(false, "unexpected {other}"),
    }
    Ok(())
}

fn check_argv(case: &ArgvCase) -> TestCaseResult {
    if let Some(vault) = &case.vault {
        check_value(vault)?;
    }
    for (_, value) in &case.parameters {
        check_value(value)?;
    }
    let mut invocation = CliInvocation::new(case.command.clone()).in_vault(case.vault.as_deref());
    for (key, value) in &case.parameters {
        invocation = invocation.parameter(key.clone(), value.clone());
    }
    for flag in &case.flags {
        invocation = invocation.flag(flag.clone());
    }
    let vault = case.vault.as_deref().filter(|v| !v.is_empty());
    let should_work = vault.is_none_or(value_is_sendable)
        && case
            .parameters
            .iter()
            .all(|(k, v)| key_is_valid(k) && value_is_sendable(v))
        && case.flags.iter().all(|f| key_is_valid(f));
    let argv = match invocation.to_argv() {
        Ok(argv) => argv,
        Err(error) => {
            prop_assert!(!should_work, "refused a valid call: {error}");
            prop_assert!(!error.to_string().is_empty());
            return Ok(());
        }
    };
    prop_assert!(should_work, "accepted an invalid call: {argv:?}");
    reached("argv.argv");
    let offset = usize::from(vault.is_some());
    prop_assert_eq!(
        argv.len(),
        offset + 1 + case.parameters.len() + case.flags.len()
    );
    if let Some(vault) = vault {
        let sent = argv[0].strip_prefix("vault=").expect("vault first");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(vault));
    }
    prop_assert_eq!(&argv[offset], &case.command);
    let parameters = &argv[offset + 1..offset + 1 + case.parameters.len()];
    for (element, (key, value)) in parameters.iter().zip(&case.parameters) {
        // Exactly one element, with exactly the intended key.
        prop_assert_eq!(element.split_once('=').map(|(k, _)| k), Some(key.as_str()));
        let sent = &element[key.len() + 1..];
        prop_assert!(!sent.chars().any(char::is_control), "{element:?}");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(value));
    }
    prop_assert_eq!(&argv[offset + 1 + case.parameters.len()..], &case.flags[..]);
    for element in &argv[offset..] {
        prop_assert!(!element.starts_with("vault="), "{element:?}");
    }
    for os in [Os::Linux, Os::Macos, Os::Windows, Os::Other] {
        let _ = check_size("C:\\Obsidian\\Obsidian.com", &argv, os);
    }
    Ok(())
}

fn argv_key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9_]{1,10}",
        2 => select(ODD_KEYS).prop_map(String::from),
        1 => select(UI_ONLY_PARAMETERS).prop_map(String::from),
        1 => text(),
    ]
}

fn argv_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => text(),
        2 => "[\\\\nt\\n\\t\\r a=]{0,24}",
        1 => "(?s).{0,200}",
    ]
}

fn argv_case() -> impl Strategy<Value = ArgvCase> {
    let command = prop_oneof![
        4 => select(TOOLS.iter().flat_map(|t| t.command_names()).collect::<Vec<_>>())
            .prop_map(String::from),
        1 => "[a-z:]{1,12}",
    ];
    (
        proptest::option::weighted(0.4, argv_value()),
        command,
        vec(
            prop_oneof![8 => "[a-z]{1,8}".prop_map(String::from), 1 => argv_key()]
                .prop_flat_map(|k| (Just(k), argv_value())),
            0..6,
        ),
        vec(
            prop_oneof![8 => "[a-z]{1,8}".prop_map(String::from), 1 => argv_key()],
            0..3,
        ),
    )
        .prop_map(|(vault, command, parameters, flags)| ArgvCase {
            vault,
            command,
            parameters,
            flags,
        })
}

#[test]
fn fuzz_argv() {
    let started = Instant::now();
    let files = replay("argv", |name, bytes| {
        if name.ends_with(".json") {
            let case: ArgvCase = serde_json::from_slice(bytes)
                .unwrap_or_else(|e| panic!("{name} is not an argv case: {e}"));
            return check_argv(&case);
        }
        // A raw value: as a value, as the vault, as a key and as a flag.
        let value = String::from_utf8_lossy(bytes).into_owned();
        check_value(&value)?;
        check_argv(&ArgvCase {
            vault: Some(value.clone()),
            command: "read".into(),
            parameters: vec![
                ("content".into(), value.clone()),
                (value.clone(), "x".into()),
            ],
            flags: vec![value],
        })
    });
    let cases = Property {
        target: "argv",
        name: "escape_value round trip, one element per parameter",
        share: 1.0,
        seeds: seeds!("argv"),
        strategy: argv_case(),
        save: |case| ("json", serde_json::to_vec_pretty(case).expect("JSON")),
    }
    .run(|case| check_argv(&case));
    report("argv", files, cases, started);
}

// ---------------------------------------------------------------------------
// 3. The path normaliser.
// ---------------------------------------------------------------------------

const KINDS: [PathKind; 3] = [PathKind::File, PathKind::Folder, PathKind::NoteName];

/// Look-alikes of `.` `/` `\` `:` `~` (the list in `base/vault_path.rs`'s docs).
const LOOKALIKES: &[char] = &[
    '\u{FF0E}', '\u{FF0F}', '\u{FF3C}', '\u{FF1A}', '\u{FF5E}', '\u{2024}', '\u{2025}', '\u{FE52}',
    '\u{FE68}', '\u{2215}', '\u{2044}', '\u{29F8}', '\u{29F9}',
];

const ENCODED: &[&str] = &["%2e", "%2f", "%5c", "%3a", "%25"];

fn check_path(value: &str, kind: PathKind) -> TestCaseResult {
    let result = normalised("path", value, kind);
    let composed: String = value.nfc().collect();
    let lower = composed.to_ascii_lowercase();
    if ENCODED.iter().any(|e| lower.contains(e)) || composed.contains(LOOKALIKES) {
        prop_assert!(result.is_err(), "{value:?} accepted as {result:?}");
    }
    let accepted = match result {
        Ok(accepted) => accepted,
        Err(message) => {
            prop_assert!(message.starts_with("`path`"), "{message}");
            prop_assert!(message.contains("such as"), "{message}");
            return Ok(());
        }
    };
    reached("paths.accepted");
    let nfc: String = accepted.nfc().collect();
    prop_assert_eq!(&nfc, &accepted, "not NFC");
    prop_assert!(!accepted.is_empty() && accepted.trim() == accepted);
    prop_assert!(!accepted.starts_with('/') && !accepted.starts_with('~'));
    prop_assert!(!accepted.contains('\\') && !accepted.contains(':'));
    prop_assert!(!accepted.chars().any(|c| c.is_control() || is_invisible(c)));
    prop_assert!(!accepted.contains(LOOKALIKES));
    let lower = accepted.to_ascii_lowercase();
    prop_assert!(!ENCODED.iter().any(|e| lower.contains(e)));
    for segment in accepted.split('/') {
        prop_assert!(!segment.is_empty(), "empty segment in {accepted:?}");
        prop_assert!(
            !segment.chars().all(|c| c == '.' || c.is_whitespace()),
            "dot segment {segment:?} in {accepted:?}"
        );
    }
    // Idempotent, and the same for every kind once normalised.
    for again in KINDS {
        let twice = normalised("path", &accepted, again);
        prop_assert_eq!(twice.as_deref(), Ok(accepted.as_str()));
    }
    Ok(())
}

fn path_value() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => vec(
            prop_oneof![
                3 => pieces(4),
                3 => "[a-zA-Z .]{1,6}",
                1 => "\\PC{1,4}",
            ],
            1..5,
        )
        .prop_flat_map(|segments| {
            let n = segments.len();
            (Just(segments), vec(select(vec!["/", "/", "/", "\\", "//", " / ", "\u{FF0F}"]), n))
        })
        .prop_map(|(segments, separators)| {
            let mut out = String::new();
            for (segment, separator) in segments.iter().zip(&separators) {
                out.push_str(segment);
                out.push_str(separator);
            }
            out.pop(); // usually without the last separator
            out
        }),
        2 => text(),
        1 => "(?s).{0,40}",
    ]
}

#[test]
fn fuzz_paths() {
    let started = Instant::now();
    let files = replay("paths", |name, bytes| {
        let value =
            std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}"));
        for kind in KINDS {
            check_path(value, kind)?;
        }
        // Curated seeds say what must happen to them.
        if name.starts_with("refused-") {
            for kind in KINDS {
                prop_assert!(
                    normalised("path", value, kind).is_err(),
                    "{value:?} must be refused"
                );
            }
        }
        if name.starts_with("accepted-") {
            prop_assert!(
                normalised("path", value, PathKind::File).is_ok(),
                "{value:?} must be accepted"
            );
        }
        Ok(())
    });
    let cases = Property {
        target: "paths",
        name: "normalised",
        share: 1.0,
        seeds: seeds!("paths"),
        strategy: (path_value(), select(KINDS.to_vec())),
        save: |(value, _)| ("txt", value.clone().into_bytes()),
    }
    .run(|(value, kind)| check_path(&value, kind));
    report("paths", files, cases, started);
}

// ---------------------------------------------------------------------------
// 4. The outcome mapper.
// ---------------------------------------------------------------------------

const STATUS_LINES: &[&str] = &[
    APP_NOT_RUNNING_MESSAGE,
    "Vault not found.",
    "Error: File \"Nope\" not found.",
    "Error: Missing required parameter: file",
    "Error: Command \"bases\" not found. It may require a plugin to be enabled.",
    "Error: ",
    "Error:",
    "Usage: obsidian read [file=<name>] [path=<path>]",
    "No tasks found.",
    "No base files found in vault",
];

const INSTALLER_LINES: &[&str] = &[
    "2026-03-01 10:00:00 Loading updated app package /opt/Obsidian/obsidian-1.9.12.asar",
    "Your Obsidian installer is out of date. Please download the latest installer from https://obsidian.md/download",
    "2026-03-01 10:00:00 Checking for update using Github",
    "2026-03-01 10:00 Loading updated app package",
    "9999-99-99 99:99:99 installer",
];

fn output_bytes() -> BoxedStrategy<Vec<u8>> {
    let line = prop_oneof![
        3 => select(STATUS_LINES).prop_map(String::from),
        2 => select(INSTALLER_LINES).prop_map(String::from),
        4 => text(),
        1 => Just(String::new()),
        1 => Just("   ".to_string()),
    ];
    let lines = vec((line, select(vec!["\n", "\r\n", "\r", "", "\n\n"])), 0..6).prop_map(|lines| {
        lines
            .into_iter()
            .flat_map(|(line, end)| [line, end.to_string()])
            .collect::<String>()
            .into_bytes()
    });
    // The CLI's own shapes, whole: after installer lines, with CRLF and blanks.
    let shaped = (
        vec(select(INSTALLER_LINES[..3].to_vec()), 0..3),
        select(STATUS_LINES),
        proptest::option::weighted(0.2, select(STATUS_LINES[7..8].to_vec())),
        select(vec!["\n", "\r\n"]),
        select(vec!["", "\n", "\r\n", " \n\n", "\t"]),
    )
        .prop_map(|(installer, status, usage, eol, trailing)| {
            let mut out: String = installer.iter().map(|l| format!("{l}{eol}")).collect();
            out.push_str(status);
            if let Some(usage) = usage {
                out.push_str(eol);
                out.push_str(usage);
            }
            out.push_str(trailing);
            out.into_bytes()
        });
    let mixed = vec(prop_oneof![5 => lines, 1 => bad_utf8()], 0..4).prop_map(|p| p.concat());
    (
        prop_oneof![2 => mixed, 1 => shaped],
        proptest::option::weighted(0.25, any::<Index>()),
    )
        .prop_map(|(mut bytes, cut)| {
            if let Some(cut) = cut {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            bytes
        })
        .boxed()
}

fn extra_bytes() -> impl Strategy<Value = u64> {
    prop_oneof![
        6 => Just(0u64),
        2 => 1u64..4,
        1 => 0u64..(1 << 22),
        1 => Just(u64::MAX / 2),
    ]
}

#[derive(Clone, Debug)]
struct OutcomeCase {
    outcome: ProcessOutcome,
    vault: Option<String>,
    silent_success: bool,
}

fn outcome_case() -> impl Strategy<Value = OutcomeCase> {
    let exit = prop_oneof![
        6 => Just(Some(0)),
        3 => Just(Some(1)),
        1 => Just(None),
        1 => any::<i32>().prop_map(Some),
    ];
    let signal = proptest::option::weighted(
        0.15,
        select(vec!["SIGTERM", "SIGKILL", ""]).prop_map(String::from),
    );
    let spawn_failure = proptest::option::weighted(
        0.03,
        (select(vec!["EACCES", "EPERM", "E2BIG", ""]), text()).prop_map(|(code, message)| {
            SpawnFailure {
                code: code.into(),
                message,
            }
        }),
    );
    (
        (output_bytes(), output_bytes(), extra_bytes(), extra_bytes()),
        (exit, signal, spawn_failure, proptest::bool::weighted(0.05)),
        (
            proptest::bool::weighted(0.2),
            proptest::option::of(text()),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (stdout, stderr, more_out, more_err),
                (exit_code, signal, spawn_failure, timed_out),
                (output_overflow, vault, silent_success),
            )| {
                OutcomeCase {
                    outcome: ProcessOutcome {
                        spawn_failure,
                        exit_code,
                        signal,
                        timed_out,
                        stdout_total_bytes: (stdout.len() as u64).saturating_add(more_out),
                        stderr_total_bytes: (stderr.len() as u64).saturating_add(more_err),
                        stdout,
                        stderr,
                        output_overflow,
                    },
                    vault,
                    silent_success,
                }
            },
        )
}

/// The kept output as text: a sequence cut by the cap at the very end is
/// dropped (it is not the process's fault), anything else decodes lossily.
fn kept_text(bytes: &[u8], total: u64) -> String {
    let mut end = bytes.len();
    if total > bytes.len() as u64 {
        for back in 1..=bytes.len().min(3) {
            if let Err(e) = std::str::from_utf8(&bytes[bytes.len() - back..]) {
                if e.valid_up_to() == 0 && e.error_len().is_none() {
                    end = bytes.len() - back;
                    break;
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// An uncut output reads back exactly, or with its CRLF line ends made LF
/// (the mapper may normalise them: the CLI on Windows writes CRLF).
fn reads_back(text: &str, stdout: &str) -> bool {
    let lf = stdout.replace("\r\n", "\n");
    text == without_installer_lines(stdout).trim_end()
        || text == without_installer_lines(&lf).trim_end()
}

fn replacement_count(text: &str) -> usize {
    text.matches('\u{FFFD}').count()
}

fn check_outcome(case: &OutcomeCase) -> TestCaseResult {
    let outcome = &case.outcome;
    let context = OutcomeContext {
        timeout_ms: 15_000,
        vault: case.vault.as_deref(),
        empty_output: if case.silent_success {
            EmptyOutput::Success("Done.")
        } else {
            EmptyOutput::Error
        },
    };
    let stderr = String::from_utf8_lossy(&outcome.stderr).into_owned();
    let stdout_text = String::from_utf8_lossy(&outcome.stdout).into_owned();
    let _ = classify(&stdout_text, &stderr, outcome.exit_code);
    let result = interpret(outcome, &context);
    if outcome.spawn_failure.is_some() {
        prop_assert_eq!(
            result.as_ref().err().map(ToolError::code),
            Some("exit_status")
        );
        return Ok(());
    }
    if outcome.timed_out {
        prop_assert_eq!(result.as_ref().err().map(ToolError::code), Some("timeout"));
        return Ok(());
    }
    let kept = outcome.stdout.len() as u64;
    let cut = outcome.stdout_total_bytes > kept;
    match result {
        Ok(out) => {
            reached(if cut { "outcome.ok_cut" } else { "outcome.ok" });
            prop_assert!(
                (outcome.exit_code == Some(0)
                    && outcome.signal.is_none()
                    && !outcome.output_overflow)
                    || (outcome.output_overflow && cut),
                "Ok from {outcome:?}"
            );
            prop_assert!(!out.text.trim().is_empty());
            let valid_part = kept_text(&outcome.stdout, outcome.stdout_total_bytes);
            prop_assert!(
                replacement_count(&out.text) <= replacement_count(&valid_part),
                "U+FFFD that the output did not have: {:?}",
                out.text
            );
            match out.truncation {
                Some(t) => {
                    prop_assert!(cut);
                    prop_assert_eq!(t.total_bytes, outcome.stdout_total_bytes);
                    prop_assert!(t.shown_bytes <= kept && kept - t.shown_bytes <= 3);
                    prop_assert_eq!(t.at_least, outcome.output_overflow);
                    prop_assert!(out.text.ends_with(&t.notice()));
                }
                None => {
                    prop_assert!(!cut);
                    // Uncut valid text reads back exactly (after installer lines).
                    if let Ok(whole) = std::str::from_utf8(&outcome.stdout) {
                        if !without_installer_lines(whole).trim().is_empty() {
                            prop_assert!(reads_back(&out.text, whole), "{:?}", out.text);
                        }
                    }
                }
            }
        }
        Err(error) => {
            reached(match error.code() {
                "cli_error" => "outcome.cli_error",
                "vault_not_found" => "outcome.vault_not_found",
                "app_not_running" => "outcome.app_not_running",
                _ => "outcome.other_error",
            });
            prop_assert!(!error.to_string().trim().is_empty());
            if let ToolError::ExitStatus { detail, .. } = &error {
                prop_assert!(detail.chars().count() <= 301, "{detail:?}");
                prop_assert!(!detail.contains('\n'));
            }
        }
    }
    Ok(())
}

/// A note: one line of anything but a status line's own shape (`Usage: `
/// after an `Error:` line is the CLI's, and installer lines are dropped).
fn note_line() -> impl Strategy<Value = String> {
    text()
        .prop_map(|t| t.replace(['\r', '\n'], " "))
        .prop_filter("a note line has text", |l| !l.trim().is_empty())
        .prop_filter("Usage: lines follow the CLI's errors", |l| {
            !l.trim_start().starts_with("Usage:")
        })
        .prop_filter("installer lines are not the answer", |l| {
            let probe = format!("{l}\nrest");
            without_installer_lines(&probe) == probe
        })
}

#[derive(Clone, Debug)]
struct QuotedStatus {
    stdout: String,
    exit_code: i32,
    on_stderr: bool,
}

/// Output that CONTAINS a status message among other lines.
fn quoted_status() -> impl Strategy<Value = QuotedStatus> {
    let status = select(STATUS_LINES[..6].to_vec());
    (
        vec(note_line(), 1..5),
        status,
        any::<Index>(),
        select(vec!["\n", "\r\n"]),
        select(vec!["", "\n", "\r\n", "  \n\n"]),
        vec(select(INSTALLER_LINES[..3].to_vec()), 0..3),
        prop_oneof![3 => Just(0), 1 => Just(1)],
        any::<bool>(),
    )
        .prop_map(
            |(mut lines, status, at, eol, trailing, installer, exit_code, on_stderr)| {
                lines.insert(at.index(lines.len() + 1), status.to_string());
                let mut stdout: String = installer.iter().map(|l| format!("{l}{eol}")).collect();
                stdout.push_str(&lines.join(eol));
                stdout.push_str(trailing);
                QuotedStatus {
                    stdout,
                    exit_code,
                    on_stderr,
                }
            },
        )
}

fn check_quoted_status(case: &QuotedStatus) -> TestCaseResult {
    let text = &case.stdout;
    let answer = without_installer_lines(text);
    prop_assert_eq!(classify(answer, "", Some(case.exit_code)), None);
    prop_assert_eq!(classify("", answer, Some(case.exit_code)), None);
    prop_assert_eq!(classify(text, text, Some(case.exit_code)), None);
    let (stdout, stderr) = if case.on_stderr {
        (Vec::new(), text.as_bytes().to_vec())
    } else {
        (text.as_bytes().to_vec(), Vec::new())
    };
    let outcome = ProcessOutcome {
        exit_code: Some(case.exit_code),
        stdout_total_bytes: stdout.len() as u64,
        stderr_total_bytes: stderr.len() as u64,
        stdout,
        stderr,
        ..Default::default()
    };
    let context = OutcomeContext {
        timeout_ms: 15_000,
        vault: None,
        empty_output: EmptyOutput::Success("Done."),
    };
    let result = interpret(&outcome, &context);
    match (case.exit_code, case.on_stderr) {
        (0, false) => {
            let out = result.map_err(|e| TestCaseError::fail(format!("note read as {e:?}")))?;
            prop_assert!(reads_back(&out.text, text), "{:?}", out.text);
            prop_assert!(!out.empty);
        }
        (0, true) => prop_assert!(result.is_ok(), "{result:?}"),
        _ => prop_assert_eq!(result.err().map(|e| e.code()), Some("exit_status")),
    }
    Ok(())
}

fn outcome_json(case: &OutcomeCase) -> Vec<u8> {
    let o = &case.outcome;
    serde_json::to_vec_pretty(&json!({
        "stdout": o.stdout,
        "stderr": o.stderr,
        "stdoutTotalBytes": o.stdout_total_bytes,
        "stderrTotalBytes": o.stderr_total_bytes,
        "exitCode": o.exit_code,
        "signal": o.signal,
        "timedOut": o.timed_out,
        "outputOverflow": o.output_overflow,
        "spawnFailure": o.spawn_failure.as_ref().map(|f| json!({"code": f.code, "message": f.message})),
        "vault": case.vault,
        "silentSuccess": case.silent_success,
    }))
    .expect("JSON")
}

/// `stdout`/`stderr` in a corpus case: a string, or an array of bytes.
fn json_bytes(value: &Value) -> Vec<u8> {
    match value {
        Value::String(s) => s.clone().into_bytes(),
        Value::Array(items) => items
            .iter()
            .map(|b| {
                b.as_u64()
                    .and_then(|b| u8::try_from(b).ok())
                    .expect("a byte")
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn outcome_from_json(value: &Value) -> OutcomeCase {
    let stdout = json_bytes(&value["stdout"]);
    let stderr = json_bytes(&value["stderr"]);
    OutcomeCase {
        outcome: ProcessOutcome {
            spawn_failure: value["spawnFailure"].as_object().map(|f| SpawnFailure {
                code: f["code"].as_str().unwrap_or_default().into(),
                message: f["message"].as_str().unwrap_or_default().into(),
            }),
            exit_code: value["exitCode"].as_i64().map(|c| c as i32),
            signal: value["signal"].as_str().map(String::from),
            timed_out: value["timedOut"].as_bool().unwrap_or(false),
            stdout_total_bytes: value["stdoutTotalBytes"]
                .as_u64()
                .unwrap_or(stdout.len() as u64)
                .max(stdout.len() as u64),
            stderr_total_bytes: value["stderrTotalBytes"]
                .as_u64()
                .unwrap_or(stderr.len() as u64)
                .max(stderr.len() as u64),
            output_overflow: value["outputOverflow"].as_bool().unwrap_or(false),
            stdout,
            stderr,
        },
        vault: value["vault"].as_str().map(String::from),
        silent_success: value["silentSuccess"].as_bool().unwrap_or(false),
    }
}

/// A raw corpus output, as stdout and as stderr, under every exit, cap and
/// flood combination.
fn outcome_matrix(bytes: &[u8]) -> Vec<OutcomeCase> {
    let mut cases = Vec::new();
    for exit_code in [Some(0), Some(1), None] {
        for on_stderr in [false, true] {
            for extra in [0u64, 1, 1 << 20] {
                for output_overflow in [false, true] {
                    for signal in [None, Some("SIGTERM".to_string())] {
                        let (stdout, stderr) = if on_stderr {
                            (Vec::new(), bytes.to_vec())
                        } else {
                            (bytes.to_vec(), Vec::new())
                        };
                        cases.push(OutcomeCase {
                            outcome: ProcessOutcome {
                                exit_code,
                                signal,
                                stdout_total_bytes: stdout.len() as u64 + extra,
                                stderr_total_bytes: stderr.len() as u64 + extra,
                                stdout,
                                stderr,
                                output_overflow,
                                ..Default::default()
                            },
                            vault: Some("Work".into()),
                            silent_success: extra == 0,
                        });
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn fuzz_outcome() {
    let started = Instant::now();
    let files = replay("outcome", |name, bytes| {
        if name.ends_with(".json") {
            let value: Value =
                serde_json::from_slice(bytes).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
            return check_outcome(&outcome_from_json(&value));
        }
        for case in outcome_matrix(bytes) {
            check_outcome(&case)?;
        }
        let text = std::str::from_utf8(bytes);
        if name.starts_with("note-") {
            // A note that quotes status messages reads back exactly.
            let text = text.unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}"));
            for (exit_code, on_stderr) in [(0, false), (0, true), (1, false), (1, true)] {
                check_quoted_status(&QuotedStatus {
                    stdout: text.to_string(),
                    exit_code,
                    on_stderr,
                })?;
            }
        }
        if name.starts_with("status-") {
            let text = text.unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}"));
            let answer = without_installer_lines(text);
            prop_assert!(
                classify(answer, "", Some(0)).is_some() || classify(answer, "", Some(1)).is_some(),
                "{name} must be recognised as a status"
            );
        }
        Ok(())
    });
    let mut cases = Property {
        target: "outcome",
        name: "interpret on arbitrary outcomes",
        share: 0.6,
        seeds: seeds!("outcome"),
        strategy: outcome_case(),
        save: |case| ("json", outcome_json(case)),
    }
    .run(|case| check_outcome(&case));
    cases += Property {
        target: "outcome",
        name: "a status message among other lines is not a status",
        share: 0.4,
        seeds: seeds!("outcome-quoted"),
        strategy: quoted_status(),
        save: |case| ("txt", case.stdout.clone().into_bytes()),
    }
    .run(|case| check_quoted_status(&case));
    // Sanity: the rule still recognises the real shapes.
    assert_eq!(
        classify("Vault not found.\r\n", "", Some(0)),
        Some(CliStatus::VaultNotFound)
    );
    report("outcome", files, cases, started);
}

// ---------------------------------------------------------------------------
// 5. The stream parsers.
// ---------------------------------------------------------------------------

fn sse_events(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let mut events = Vec::new();
    for chunk in chunks {
        events.extend(parser.push(chunk));
    }
    events.extend(parser.finish());
    events
}

/// The reply, and the text as it was streamed piece by piece.
fn assemble(kind: ProviderKind, events: &[SseEvent]) -> (Result<ModelReply, ChatError>, String) {
    let mut stream = assembler(kind);
    let mut streamed = String::new();
    for event in events {
        match stream.on_event(event) {
            Ok(pieces) => {
                for piece in pieces {
                    if let StreamPiece::Text(text) = piece {
                        streamed.push_str(&text);
                    }
                }
            }
            Err(error) => return (Err(error), streamed),
        }
    }
    assert_eq!(stream.partial_text(), streamed, "partial text");
    // What the stream held back until its end (a lone `<`) is streamed too.
    for piece in stream.flush() {
        if let StreamPiece::Text(text) = piece {
            streamed.push_str(&text);
        }
    }
    assert_eq!(
        stream.partial_text(),
        streamed,
        "partial text after the end"
    );
    (Ok(stream.finish()), streamed)
}

const KINDS_OF_PROVIDER: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

fn check_stream(bytes: &[u8], random: &[&[u8]]) -> TestCaseResult {
    let whole = sse_events(&[bytes]);
    for event in &whole {
        prop_assert!(!event.data.contains('\r'), "{event:?}");
        let name = event.event.as_deref().unwrap_or("");
        prop_assert!(!name.contains(['\r', '\n']), "{event:?}");
    }
    prop_assert_eq!(
        &sse_events(random),
        &whole,
        "cut at {:?}",
        random.iter().map(|c| c.len()).collect::<Vec<_>>()
    );
    if !whole.is_empty() {
        reached("streams.events");
    }
    for kind in KINDS_OF_PROVIDER {
        let reply = parse_stream(kind, [bytes]);
        if reply
            .as_ref()
            .is_ok_and(|r| !r.text.is_empty() || !r.tool_calls.is_empty())
        {
            reached(if kind == ProviderKind::OpenAi {
                "streams.openai_reply"
            } else {
                "streams.anthropic_reply"
            });
        }
        prop_assert_eq!(&parse_stream(kind, random.iter().copied()), &reply);
        let (assembled, streamed) = assemble(kind, &whole);
        prop_assert_eq!(&assembled, &reply);
        if let Ok(reply) = &reply {
            prop_assert_eq!(&reply.text, &streamed);
        }
    }
    Ok(())
}

/// The worst split gives the same events and replies as the whole stream.
fn check_byte_by_byte(bytes: &[u8]) -> TestCaseResult {
    let singles = singles_with_empties(bytes);
    prop_assert_eq!(sse_events(&singles), sse_events(&[bytes]), "byte by byte");
    for kind in KINDS_OF_PROVIDER {
        prop_assert_eq!(
            parse_stream(kind, singles.iter().copied()),
            parse_stream(kind, [bytes])
        );
    }
    Ok(())
}

fn openai_event() -> impl Strategy<Value = String> {
    (0..9u8, text(), text(), prop_oneof![3 => 0u64..3, 1 => any::<u64>()]).prop_map(
        |(variant, a, b, index)| {
            match variant {
                0 => json!({"choices": [{"delta": {"content": a}}]}),
                1 => json!({"choices": [{"delta": {"tool_calls": [{"index": index, "id": a, "function": {"name": b, "arguments": "{\"comm"}}]}}]}),
                2 => json!({"choices": [{"delta": {"tool_calls": [{"function": {"arguments": {"command": a}}}]}}]}),
                3 => json!({"choices": [{"delta": {}, "finish_reason": a}]}),
                4 => json!({"error": {"message": a}}),
                5 => json!({"choices": a}),
                6 => json!({"choices": [{"delta": {"content": index}}]}),
                7 => return "[DONE]".to_string(),
                _ => json!({"choices": [{"delta": {"content": a, "tool_calls": [{"index": 0, "function": {"arguments": b}}]}}]}),
            }
            .to_string()
        },
    )
}

fn anthropic_event() -> impl Strategy<Value = String> {
    (0..10u8, text(), text(), prop_oneof![3 => 0u64..3, 1 => any::<u64>()]).prop_map(
        |(variant, a, b, index)| {
            match variant {
                0 => json!({"type": "message_start", "message": {"id": a}}),
                1 => json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": a}}),
                2 => json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": a, "name": b, "input": {}}}),
                3 => json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": a}}),
                4 => json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": a}}),
                5 => json!({"type": "content_block_stop", "index": index}),
                6 => json!({"type": "message_delta", "delta": {"stop_reason": a}}),
                7 => json!({"type": "error", "error": {"type": b, "message": a}}),
                8 => json!({"type": "content_block_start", "index": a}),
                _ => json!({"type": "ping"}),
            }
            .to_string()
        },
    )
}

const SSE_TOKENS: &[&str] = &[
    "data:",
    "data: ",
    "data:  ",
    "event:",
    "event: ",
    "event: content_block_delta",
    "id: 7",
    "retry: 100",
    ":",
    ": keep-alive",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\r\r",
    "\r\n\r\n",
    "[DONE]",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    ",",
    "null",
    "{}",
    "DATA: x",
    "data",
    " data: x",
    "\u{FEFF}data: x",
];

/// Arbitrary bytes in the shape of a stream: fields, events, line ends,
/// garbage and broken UTF-8.
fn garbage_stream() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        3 => (
            select(vec!["data: ", "data:", "event: content_block_delta\ndata: "]),
            prop_oneof![openai_event(), anthropic_event()],
            select(vec!["\n\n", "\r\n\r\n", "\r\r", "\n", ""]),
        )
            .prop_map(|(field, event, end)| format!("{field}{event}{end}").into_bytes()),
        3 => select(SSE_TOKENS).prop_map(|t| t.as_bytes().to_vec()),
        1 => text().prop_map(String::into_bytes),
        1 => bad_utf8(),
    ];
    vec(token, 0..24).prop_map(|tokens| tokens.concat())
}

#[derive(Clone, Debug)]
struct ValidStream {
    kind: ProviderKind,
    texts: Vec<String>,
    bytes: Vec<u8>,
}

/// A valid stream with every line end SSE allows (`\n`, `\r\n`, lone `\r`),
/// comments, `id:`/`retry:` lines and data split over several `data:` lines.
fn valid_stream() -> impl Strategy<Value = ValidStream> {
    (
        any::<bool>(),
        vec(text(), 0..6),
        vec(select(vec!["\n", "\r\n", "\r"]), 1..8),
        vec(0..6u8, 1..8),
        any::<bool>(),
    )
        .prop_map(|(anthropic, texts, ends, noise, pretty)| {
            let kind = if anthropic {
                ProviderKind::Anthropic
            } else {
                ProviderKind::OpenAi
            };
            let mut events: Vec<(Option<&str>, Value)> = Vec::new();
            if anthropic {
                events.push((Some("message_start"), json!({"type": "message_start", "message": {}})));
                events.push((Some("content_block_start"), json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})));
            }
            for text in &texts {
                events.push(if anthropic {
                    (Some("content_block_delta"), json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}))
                } else {
                    (None, json!({"choices": [{"delta": {"content": text}}]}))
                });
            }
            if anthropic {
                events.push((Some("message_delta"), json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}})));
            }
            let mut lines: Vec<String> = Vec::new();
            for (i, (name, data)) in events.iter().enumerate() {
                match noise[i % noise.len()] {
                    0 => lines.push(": keep-alive".into()),
                    1 => lines.push(format!("id: {i}")),
                    2 => lines.push("retry: 1000".into()),
                    _ => {}
                }
                if let Some(name) = name {
                    lines.push(format!("event: {name}"));
                }
                let data = if pretty {
                    serde_json::to_string_pretty(data).expect("JSON")
                } else {
                    data.to_string()
                };
                let bare = i % 2 == 1;
                for line in data.lines() {
                    lines.push(if bare { format!("data:{line}") } else { format!("data: {line}") });
                }
                lines.push(String::new());
            }
            if !anthropic {
                lines.push("data: [DONE]".into());
                lines.push(String::new());
            }
            let mut out = String::new();
            let mut after_cr = false;
            for (i, line) in lines.iter().enumerate() {
                let mut end = ends[i % ends.len()];
                // A `\n` right after a lone `\r` would join it into one `\r\n`.
                if after_cr && line.is_empty() && end == "\n" {
                    end = "\r";
                }
                out.push_str(line);
                out.push_str(end);
                after_cr = end == "\r";
            }
            ValidStream {
                kind,
                texts,
                bytes: out.into_bytes(),
            }
        })
}

fn check_valid_stream(stream: &ValidStream, points: &[Index]) -> TestCaseResult {
    let whole = parse_stream(stream.kind, [&stream.bytes[..]]);
    let reply = whole
        .as_ref()
        .map_err(|e| TestCaseError::fail(format!("{e}")))?;
    prop_assert_eq!(&reply.text, &stream.texts.concat());
    prop_assert!(reply.tool_calls.is_empty());
    let random = cut(&stream.bytes, points);
    prop_assert_eq!(&parse_stream(stream.kind, random.iter().copied()), &whole);
    check_byte_by_byte(&stream.bytes)?;
    check_stream(&stream.bytes, &random)
}

#[test]
fn fuzz_streams() {
    let started = Instant::now();
    let files = replay("streams", |name, bytes| {
        // Every single cut point, and the worst split.
        for at in 0..=bytes.len() {
            check_stream(bytes, &[&bytes[..at], &bytes[at..]])?;
        }
        check_byte_by_byte(bytes)?;
        for (prefix, kind) in [
            ("openai-", ProviderKind::OpenAi),
            ("anthropic-", ProviderKind::Anthropic),
        ] {
            if name.starts_with(prefix) {
                let reply = parse_stream(kind, [bytes]);
                prop_assert!(reply.is_ok(), "{name}: {reply:?}");
            }
        }
        Ok(())
    });
    let mut cases = Property {
        target: "streams",
        name: "garbage cut anywhere",
        share: 0.6,
        seeds: seeds!("streams"),
        strategy: (garbage_stream(), vec(any::<Index>(), 0..16)),
        save: |(bytes, _)| ("bin", bytes.clone()),
    }
    .run(|(bytes, points)| {
        check_byte_by_byte(&bytes)?;
        check_stream(&bytes, &cut(&bytes, &points))
    });
    cases += Property {
        target: "streams",
        name: "valid streams with every line end, cut anywhere",
        share: 0.4,
        seeds: seeds!("streams-valid"),
        strategy: (valid_stream(), vec(any::<Index>(), 0..16)),
        save: |(stream, _)| ("bin", stream.bytes.clone()),
    }
    .run(|(stream, points)| check_valid_stream(&stream, &points));
    report("streams", files, cases, started);
}

// ---------------------------------------------------------------------------
// 6. The bounded JSON reader.
// ---------------------------------------------------------------------------

fn value_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(value_depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(value_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The size limits other than depth and total length.
fn sizes_within(value: &Value, limits: &InputLimits) -> bool {
    let text_ok = |s: &str| s.chars().count() <= limits.max_string_chars;
    match value {
        Value::String(s) => text_ok(s),
        Value::Array(items) => {
            items.len() <= limits.max_items && items.iter().all(|v| sizes_within(v, limits))
        }
        Value::Object(map) => {
            map.len() <= limits.max_items
                && map
                    .iter()
                    .all(|(k, v)| text_ok(k) && sizes_within(v, limits))
        }
        _ => true,
    }
}

/// Within every limit. Depth is the text's: it is measured before parsing
/// (so parsing cannot overflow the stack), and with duplicate keys the
/// parsed value can be shallower than the text (serde_json keeps the last).
fn within(value: &Value, text: &str, limits: &InputLimits) -> bool {
    text.len() <= limits.max_total_bytes
        && max_depth(text) <= limits.max_depth
        && sizes_within(value, limits)
}

fn check_json(text: &str, limits: &InputLimits) -> TestCaseResult {
    let depth = max_depth(text);
    let reference: Result<Value, _> = serde_json::from_str(text);
    if let Ok(value) = &reference {
        prop_assert!(
            depth >= value_depth(value),
            "max_depth {depth} is below the parsed value's depth"
        );
    }
    let within_limits = reference
        .as_ref()
        .is_ok_and(|value| within(value, text, limits));
    match parse_bounded(text, limits) {
        Ok(value) => {
            reached("json.accepted");
            prop_assert!(within_limits, "accepted past the limits");
            prop_assert_eq!(reference.as_ref().ok(), Some(&value));
        }
        Err(problem) => {
            prop_assert!(
                !within_limits,
                "refused a value within the limits: {problem}"
            );
            prop_assert!(!problem.to_string().is_empty());
            match problem {
                InputProblem::TooLarge { bytes, max } => {
                    prop_assert!(bytes == text.len() && bytes > max)
                }
                InputProblem::TooDeep { max } => prop_assert!(depth > max),
                InputProblem::NotJson(_) => prop_assert!(reference.is_err()),
                InputProblem::StringTooLong { .. } | InputProblem::TooManyItems { .. } => {
                    prop_assert!(reference.as_ref().is_ok_and(|v| !sizes_within(v, limits)))
                }
                InputProblem::NotPlainData(_) => prop_assert!(false, "NotPlainData from text"),
            }
        }
    }
    let vault_agent::base::input::Lenient { value, repairs, .. } = parse_lenient(text, limits);
    if !repairs.is_empty() && value != Value::Null {
        reached("json.repaired");
    }
    prop_assert!(
        value_depth(&value) <= limits.max_depth,
        "lenient result too deep"
    );
    prop_assert!(sizes_within(&value, limits), "lenient result too large");
    if text.len() > limits.max_total_bytes {
        prop_assert_eq!(&value, &Value::Null);
    }
    if within_limits {
        prop_assert_eq!(Some(&value), reference.as_ref().ok());
        prop_assert!(repairs.is_empty(), "{repairs:?}");
    }
    if repairs.is_empty() {
        prop_assert_eq!(Some(&value), reference.as_ref().ok());
    }
    Ok(())
}

const JSON_TOKENS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    "\"",
    "\\",
    "\\\"",
    "\\\\",
    ":",
    ",",
    "1",
    "-0.5e3",
    "1e999",
    "null",
    "true",
    "\"a\"",
    "\"[\"",
    "\"]\\\\\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    " ",
    "\n",
    "é",
    "\u{0}",
    "{\"a\":",
    "[[",
    "]]",
];

fn json_text() -> impl Strategy<Value = String> {
    let value_text = (json_any(), any::<bool>()).prop_map(|(value, pretty)| {
        if pretty {
            serde_json::to_string_pretty(&value).expect("JSON")
        } else {
            value.to_string()
        }
    });
    let deep = (
        prop_oneof![4 => 0usize..200, 1 => 0usize..100_000],
        prop_oneof![Just("["), Just("{\"a\":"), Just("[{\"k\":")],
        select(vec!["1", "\"]]]\"", "", "{}"]),
        any::<bool>(),
    )
        .prop_map(|(n, open, middle, closed)| {
            let close = match open {
                "[" => "]",
                "{\"a\":" => "}",
                _ => "}]",
            };
            let mut text = open.repeat(n);
            text.push_str(middle);
            if closed {
                text.push_str(&close.repeat(n));
            }
            text
        });
    let soup = vec(select(JSON_TOKENS), 0..64).prop_map(|t| t.concat());
    let mutated = (
        json_any(),
        any::<Index>(),
        select(JSON_TOKENS),
        any::<bool>(),
    )
        .prop_map(|(value, at, token, delete)| {
            let mut text = value.to_string();
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            if delete && i < text.len() {
                text.remove(i);
            } else {
                text.insert_str(i, token);
            }
            text
        });
    prop_oneof![4 => value_text, 2 => deep, 2 => soup, 2 => mutated, 1 => "(?s).{0,32}"]
}

fn json_limits() -> impl Strategy<Value = InputLimits> {
    prop_oneof![
        1 => Just(TOOL_ARGUMENTS),
        1 => Just(SETTINGS),
        1 => Just(CONVERSATION),
        3 => (0usize..10, 0usize..16, 0usize..10, 0usize..4096).prop_map(
            |(max_depth, max_string_chars, max_items, max_total_bytes)| InputLimits {
                max_depth,
                max_string_chars,
                max_items,
                max_total_bytes,
            }
        ),
    ]
}

#[test]
fn fuzz_json() {
    let started = Instant::now();
    let small = InputLimits {
        max_depth: 3,
        max_string_chars: 8,
        max_items: 4,
        max_total_bytes: 256,
    };
    let files = replay("json", |_, bytes| {
        let text = String::from_utf8_lossy(bytes);
        for limits in [TOOL_ARGUMENTS, SETTINGS, CONVERSATION, small] {
            check_json(&text, &limits)?;
        }
        Ok(())
    });
    let cases = Property {
        target: "json",
        name: "parse_bounded, parse_lenient, max_depth",
        share: 1.0,
        seeds: seeds!("json"),
        strategy: (json_text(), json_limits()),
        save: |(text, _)| ("txt", text.clone().into_bytes()),
    }
    .run(|(text, limits)| check_json(&text, &limits));
    report("json", files, cases, started);
}
