//! Command dispatch and the helpers every command family shares.

mod base_eval;
mod base_expr;
mod base_filter;
mod base_methods;
mod base_value;
mod bases;
mod bookmarks;
mod daily;
mod files;
mod links;
mod notes;
mod properties;
mod search;
mod tags;
mod tasks;
mod templates;

use crate::args::Invocation;
use crate::dates::{self, Date, Time};
use crate::vault::Vault;

/// What a command prints. `Err` carries an in-app error message; like the
/// real CLI, both are printed on stdout with exit code 0.
pub type Out = Result<String, String>;

/// Everything a command may look at.
pub struct Ctx {
    pub vault: Vault,
    pub today: Date,
    pub now: Time,
    pub active: Option<String>,
    /// The process exit code. In-app errors keep 0 (the real CLI's habit);
    /// the few captured exceptions (a `base:create` on a missing base) set 1.
    pub exit_code: std::cell::Cell<i32>,
}

/// The version line `version` prints (override with
/// `OBSIDIAN_EMULATOR_VERSION`).
/// (misiekhardcore/claude-obsidian tests/spike-results/meta-version-ok.out).
pub const DEFAULT_VERSION: &str = "1.12.7 (installer 1.12.7)";

/// The version line `version` prints.
pub fn app_version() -> String {
    std::env::var("OBSIDIAN_EMULATOR_VERSION")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| DEFAULT_VERSION.to_string())
}

/// Whether the emulated app is at least `major.minor` (from the version line).
pub fn version_at_least(major: u32, minor: u32) -> bool {
    let version = app_version();
    let mut parts = version
        .split_whitespace()
        .next()
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let found = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    found >= (major, minor)
}

/// The commands the emulator implements, with their usage lines (the shape of
/// a usage line, `move [file=<name>] [path=<path>] to=<path>`, is captured in
/// marwansaab/obsidian-cli-mcp specs/030-move-note/research.md F4; the lines
/// for these commands are guesses in that shape).
pub const COMMANDS: &[(&str, &str)] = &[
    ("help", "help"),
    ("version", "version"),
    ("daily:path", "daily:path"),
    ("daily:read", "daily:read"),
    ("daily:append", "daily:append content=<text> [paneType=tab|split|window] [inline] [open] [silent]"),
    ("daily:prepend", "daily:prepend content=<text> [paneType=tab|split|window] [inline] [open] [silent]"),
    ("tasks", "tasks [file=<name>] [path=<path>] [status=\"<char>\"] [format=json|tsv|csv] [all] [active] [daily] [total] [done] [todo] [verbose]"),
    ("task", "task [ref=<path:line>] [file=<name>] [path=<path>] [line=<n>] [status=\"<char>\"] [toggle] [daily] [done] [todo]"),
    ("properties", "properties [file=<name>] [path=<path>] [name=<name>] [sort=count] [format=yaml|json|tsv] [all] [active] [total] [counts]"),
    ("property:read", "property:read name=<name> [file=<name>] [path=<path>]"),
    ("property:set", "property:set name=<name> value=<value> [type=text|list|number|checkbox|date|datetime] [file=<name>] [path=<path>]"),
    ("property:remove", "property:remove name=<name> [file=<name>] [path=<path>]"),
    ("backlinks", "backlinks [file=<name>] [path=<path>] [format=json|tsv|csv] [counts] [total]"),
    ("links", "links [file=<name>] [path=<path>] [total]"),
    ("orphans", "orphans [total] [all]"),
    ("deadends", "deadends [total] [all]"),
    ("unresolved", "unresolved [format=json|tsv|csv] [total] [counts] [verbose]"),
    ("templates", "templates [total]"),
    ("template:read", "template:read name=<template> [title=<title>] [resolve]"),
    ("bases", "bases [total]"),
    ("base:views", "base:views [file=<name>] [path=<path>]"),
    ("base:query", "base:query [file=<name>] [path=<path>] [view=<name>] [format=json|csv|tsv|md|paths] [total]"),
    ("base:create", "base:create [file=<name>] [path=<path>] [view=<name>] [name=<name>] [content=<text>] [open] [newtab]"),
    ("bookmarks", "bookmarks [format=json|tsv|csv] [total] [verbose]"),
    ("bookmark", "bookmark [file=<path>] [subpath=<subpath>] [folder=<path>] [search=<query>] [url=<url>] [title=<title>]"),
    ("random:read", "random:read [folder=<path>]"),
    ("read", "read [file=<name>] [path=<path>]"),
    ("create", "create [name=<name>] [path=<path>] [content=<text>] [template=<name>] [overwrite] [open] [newtab]"),
    ("append", "append [file=<name>] [path=<path>] content=<text> [inline]"),
    ("prepend", "prepend [file=<name>] [path=<path>] content=<text> [inline]"),
    ("outline", "outline [file=<name>] [path=<path>] [format=tree|md|json] [total]"),
    ("files", "files [folder=<path>] [ext=<extension>] [total]"),
    ("folders", "folders [folder=<path>] [total]"),
    ("file", "file [file=<name>] [path=<path>]"),
    ("search", "search query=<text> [path=<folder>] [limit=<n>] [format=text|json] [total] [case]"),
    ("search:context", "search:context query=<text> [path=<folder>] [limit=<n>] [format=text|json] [total] [case]"),
    ("tags", "tags [file=<name>] [path=<path>] [sort=count] [format=json|tsv|csv] [all] [active] [total] [counts]"),
    ("tag", "tag name=<tag> [total] [verbose]"),
];

fn usage(command: &str) -> &'static str {
    COMMANDS
        .iter()
        .find(|(name, _)| *name == command)
        .map_or("", |(_, u)| u)
}

/// `Error: Missing required parameter: <spec>` plus the usage line, which
/// starts with the command, not `obsidian ` (marwansaab/obsidian-cli-mcp
/// specs/030-move-note/research.md F4, Windows, 1.12.7).
pub fn missing(command: &str, spec: &str) -> String {
    format!(
        "Error: Missing required parameter: {spec}\nUsage: {}",
        usage(command)
    )
}

/// A required parameter (an empty value counts as missing).
pub fn require<'a>(
    inv: &'a Invocation,
    command: &str,
    key: &str,
    hint: &str,
) -> Result<&'a str, String> {
    inv.get_nonempty(key)
        .ok_or_else(|| missing(command, &format!("{key}=<{hint}>")))
}

/// `Error: File "<value>" not found.` with the value as given
/// (misiekhardcore/claude-obsidian notes-read-missing.out; MatrixFounder/llm-wiki
/// evals/fixtures/obsidian-file-not-found.txt).
pub fn not_found(value: &str) -> String {
    format!("Error: File \"{value}\" not found.")
}

/// The file a command acts on: `path=`, else `file=` (resolved with
/// `default_ext` when the name has none), else the active file.
pub fn target(ctx: &Ctx, inv: &Invocation, default_ext: &str) -> Result<String, String> {
    if let Some(p) = inv.get("path") {
        return ctx.vault.resolve_path(p).ok_or_else(|| not_found(p));
    }
    if let Some(f) = inv.get("file") {
        return ctx
            .vault
            .resolve_name(f, default_ext)
            .ok_or_else(|| not_found(f));
    }
    active(ctx)
}

/// Printed when a command falls back to the active file and none is open
/// (misiekhardcore/claude-obsidian tests/spike-results/notes-read-malformed.out,
/// Linux, 1.12.7; the same in marwansaab/obsidian-cli-mcp 013 F7, Windows).
pub const NO_ACTIVE_FILE: &str =
    "Error: No active file. Use file=<name> or path=<path> to specify a file.";

/// The active file, which must exist.
pub fn active(ctx: &Ctx) -> Result<String, String> {
    let Some(a) = ctx.active.as_deref() else {
        return Err(NO_ACTIVE_FILE.to_string());
    };
    ctx.vault.resolve_path(a).ok_or_else(|| not_found(a))
}

/// Whether a command should look at one file (file/path/active given).
pub fn wants_single_file(inv: &Invocation) -> bool {
    inv.get("file").is_some() || inv.get("path").is_some() || inv.has("active")
}

/// Validate `format=`; `None` when not given (guess: the wording of an
/// unknown format; `outline` falls back to its default instead, as captured).
pub fn format_param<'a>(inv: &'a Invocation, allowed: &[&str]) -> Result<Option<&'a str>, String> {
    match inv.get("format") {
        None => Ok(None),
        Some(f) if allowed.contains(&f) => Ok(Some(f)),
        Some(f) => Err(format!(
            "Error: Invalid format \"{f}\". Expected one of: {}.",
            allowed.join(", ")
        )),
    }
}

/// One CSV record (RFC 4180 quoting).
pub fn csv_row<S: AsRef<str>>(fields: &[S]) -> String {
    fields
        .iter()
        .map(|f| {
            let f = f.as_ref();
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// One TSV record; tabs and newlines inside a field become spaces.
pub fn tsv_row<S: AsRef<str>>(fields: &[S]) -> String {
    fields
        .iter()
        .map(|f| f.as_ref().replace(['\t', '\n', '\r'], " "))
        .collect::<Vec<_>>()
        .join("\t")
}

/// Pretty JSON with two-space indentation (misiekhardcore/claude-obsidian
/// lint-backlinks-json.out; marwansaab 013 T0.2). `search` prints compact JSON.
pub fn json(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Read a vault file as text or fail with a not-found error.
pub fn read_note(ctx: &Ctx, rel: &str) -> Result<String, String> {
    ctx.vault.read(rel).map_err(|_| not_found(rel))
}

/// Today's daily note path and settings.
pub struct DailySettings {
    pub folder: String,
    pub format: String,
    pub template: Option<String>,
}

/// The Daily notes plugin's settings (`.obsidian/daily-notes.json`).
pub fn daily_settings(ctx: &Ctx) -> DailySettings {
    let cfg = ctx.vault.config_json("daily-notes.json");
    let text = |key: &str| {
        cfg.as_ref()
            .and_then(|c| c.get(key))
            .and_then(|v| v.as_str())
            .map(|s| s.trim().trim_matches('/').to_string())
            .filter(|s| !s.is_empty())
    };
    DailySettings {
        folder: text("folder").unwrap_or_default(),
        format: text("format").unwrap_or_else(|| "YYYY-MM-DD".to_string()),
        template: text("template"),
    }
}

/// The vault path of today's daily note (it may not exist).
pub fn daily_path(ctx: &Ctx) -> String {
    let s = daily_settings(ctx);
    let name = dates::format(&s.format, ctx.today, ctx.now);
    if s.folder.is_empty() {
        format!("{name}.md")
    } else {
        format!("{}/{name}.md", s.folder)
    }
}

/// Read a text config value from `.obsidian/<file>`.
pub fn config_text(ctx: &Ctx, file: &str, key: &str) -> Option<String> {
    ctx.vault
        .config_json(file)?
        .get(key)?
        .as_str()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn help() -> String {
    let mut out = String::from("Obsidian CLI emulator. Commands:\n");
    for (name, _) in COMMANDS {
        out.push_str(&format!("  {name}\n"));
    }
    out
}

/// Run a command that needs no vault, if it is one.
pub fn run_without_vault(command: &str) -> Option<String> {
    match command {
        "version" => Some(app_version()),
        "help" => Some(help()),
        _ => None,
    }
}

/// misiekhardcore/claude-obsidian tests/spike-results/meta-unknown-verb.out.
pub fn unknown(command: &str) -> String {
    format!("Error: Command \"{command}\" not found. It may require a plugin to be enabled.")
}

/// Whether the emulator implements a command.
pub fn is_known(command: &str) -> bool {
    COMMANDS.iter().any(|(n, _)| *n == command)
}

/// Run a vault command.
pub fn run(ctx: &mut Ctx, command: &str, inv: &Invocation) -> Out {
    match command {
        "daily:path" => daily::path(ctx),
        "daily:read" => daily::read(ctx),
        "daily:append" => daily::append(ctx, inv, false),
        "daily:prepend" => daily::append(ctx, inv, true),
        "tasks" => tasks::list(ctx, inv),
        "task" => tasks::one(ctx, inv),
        "properties" => properties::list(ctx, inv),
        "property:read" => properties::read(ctx, inv),
        "property:set" => properties::set(ctx, inv),
        "property:remove" => properties::remove(ctx, inv),
        "backlinks" => links::backlinks(ctx, inv),
        "links" => links::links(ctx, inv),
        "orphans" => links::orphans(ctx, inv),
        "deadends" => links::deadends(ctx, inv),
        "unresolved" => links::unresolved(ctx, inv),
        "templates" => templates::list(ctx, inv),
        "template:read" => templates::read(ctx, inv),
        "bases" => bases::list(ctx, inv),
        "base:views" => bases::views(ctx, inv),
        "base:query" => bases::query(ctx, inv),
        "base:create" => bases::create(ctx, inv),
        "bookmarks" => bookmarks::list(ctx, inv),
        "bookmark" => bookmarks::add(ctx, inv),
        "random:read" => files::random_read(ctx, inv),
        "read" => files::read(ctx, inv),
        "create" => notes::create(ctx, inv),
        "append" => notes::append(ctx, inv, false),
        "prepend" => notes::append(ctx, inv, true),
        "outline" => files::outline(ctx, inv),
        "files" => files::files(ctx, inv),
        "folders" => files::folders(ctx, inv),
        "file" => files::info(ctx, inv),
        "search" => search::search(ctx, inv, false),
        "search:context" => search::search(ctx, inv, true),
        "tags" => tags::tags(ctx, inv),
        "tag" => tags::tag(ctx, inv),
        other => Err(unknown(other)),
    }
}
