//! Every `ToolError`: its stable code and the message built from sample
//! fields (each form where the message has more than one), in one snapshot.
//! The list must name every code of the public API (`ToolErrorCode` in
//! `plugin-shim/vault-agent-api.d.ts`, which `ts_types` checks against
//! `ToolError::code`), so a new error cannot be added without its message
//! being pinned here.

use std::collections::BTreeSet;

use vault_agent::settings::ModeSetting;
use vault_agent::ToolError;

fn s(text: &str) -> String {
    text.to_string()
}

/// One sample of each error, and a second one for each other form of a
/// message.
fn samples() -> Vec<ToolError> {
    use ToolError::*;
    vec![
        CliNotFound {
            setting_problem: None,
            tried: vec![s("/usr/bin/obsidian"), s("/home/ada/.local/bin/obsidian")],
        },
        CliNotFound {
            setting_problem: Some(s("The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, \"obsidian\", is not absolute. Give the full path of the CLI, such as /usr/bin/obsidian, or leave the setting empty to find it automatically.")),
            tried: vec![s("/usr/bin/obsidian")],
        },
        CliNotFound {
            setting_problem: None,
            tried: vec![],
        },
        AppNotRunning {
            detail: s("The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again."),
        },
        VaultNotFound {
            vault: Some(s("Work")),
        },
        VaultNotFound { vault: None },
        CliError {
            output: s("Error: File \"Plan\" not found."),
            hint: Some(s("Check the name with obsidianNotes `files`.")),
        },
        CliError {
            output: s("Error: Missing required parameter: name=<name>"),
            hint: None,
        },
        Timeout { timeout_ms: 10_000 },
        Killed { signal: s("SIGSEGV") },
        OutputFlood {
            bytes: 4 * 1024 * 1024,
            first_line: s("Error: out of memory"),
        },
        OutputFlood {
            bytes: 2048,
            first_line: s(""),
        },
        ExitStatus {
            status: 2,
            detail: s("Usage: move [file=<name>] to=<path>"),
        },
        ExitStatus {
            status: 1,
            detail: s(""),
        },
        EmptyOutput,
        UnknownTool {
            tool: s("obsidianShell"),
            available: s("obsidianNotes, obsidianSearch"),
        },
        ToolDisabled {
            tool: s("obsidianBases"),
            place: s("in Settings → Vault Agent → Tools"),
            available: s("obsidianNotes, obsidianSearch"),
        },
        ToolDisabled {
            tool: s("obsidianMemory"),
            place: s("with the Memory switch in Settings → Vault Agent → Model"),
            available: s("obsidianNotes, obsidianSearch"),
        },
        InvalidArguments {
            tool: s("obsidianNotes"),
            problem: s("unknown field `vault`, expected one of `command`, `file`, `path`"),
        },
        CommandNotAllowed {
            tool: s("obsidianNotes"),
            command: s("eval"),
            reason: s("It runs code inside Obsidian, which no agent may do."),
        },
        UnsupportedPlatform,
        WritesDisabled {
            tool: s("obsidianEdit"),
            command: s("append"),
            mode: "Read only",
            lead: ModeSetting::Chat.lead(),
            place: ModeSetting::Chat.place(),
        },
        WritesDisabled {
            tool: s("obsidianEdit"),
            command: s("append"),
            mode: "Read only",
            lead: ModeSetting::Mcp.lead(),
            place: ModeSetting::Mcp.place(),
        },
        MissingTarget {
            command: s("append"),
            fix: s("Give `file` (the note's name) or `path` (its exact path)."),
        },
        ConfigFolder {
            command: s("create"),
            verb: "write",
            key: s(".obsidian/plugins/x/data.json"),
            config_dir: s(".obsidian"),
        },
        OutOfScope {
            command: s("delete"),
            place: s("\"Inbox/Idea.md\""),
            verb: "change",
            folders: s("Projects"),
            fix: s("Ask the user to add the folder, or work inside Projects."),
        },
        NoteExists {
            target: s("\"Projects/Plan.md\""),
        },
        NoteNotFound {
            target: s("\"Plans\""),
        },
        FindNotFound {
            target: s("\"Projects/Plan.md\""),
            near: vec![],
        },
        FindNotFound {
            target: s("\"Projects/Plan.md\""),
            near: vec![6, 14],
        },
        FindAmbiguous {
            target: s("\"Projects/Plan.md\""),
            lines: vec![3, 9, 12],
        },
        HeadingNotFound {
            target: s("\"Projects/Plan.md\""),
            heading: s("Budget"),
            headings: vec![s("Plan"), s("Tasks"), s("Risks")],
        },
        HeadingNotFound {
            target: s("\"Inbox/Idea.md\""),
            heading: s("Budget"),
            headings: vec![],
        },
        HeadingAmbiguous {
            target: s("\"Projects/Plan.md\""),
            heading: s("Notes"),
            candidates: vec![s("Plan::Tasks::Notes"), s("Plan::Risks::Notes")],
        },
        NothingToChange {
            target: s("\"Projects/Plan.md\""),
        },
        SelectionChanged {
            target: s("\"Projects/Plan.md\""),
        },
        TooLargeForCli {
            detail: s("one argument of 140 KB, more than Linux's 128 KiB"),
        },
        WriteNotVerified {
            target: s("\"Projects/Plan.md\""),
            detail: s("the read-back printed nothing"),
        },
        VaultFailed {
            target: s("\"Projects/Plan.md\""),
            detail: s("the disk refused Projects/Plan.md"),
        },
        NoteTooLarge {
            target: s("\"Archive/Log.md\""),
            size: s("9.5 MiB"),
            max: s("8 MiB"),
        },
        OutsideTurn {
            request: s("fs/write_text_file"),
            ended: false,
        },
        OutsideTurn {
            request: s("session/request_permission"),
            ended: true,
        },
        NotUtf8 {
            target: s("\"Old/Latin.md\""),
            detail: s("byte 0xe9 at offset 12"),
        },
        PathOutsideVault {
            target: s("\"Linked/Plan.md\""),
            detail: s("leads through a symbolic link to a place outside the vault"),
        },
        ReadThroughLink {
            target: s("\"Projects/Diary.md\""),
            detail: s("leads through a symbolic link to a place outside the folders the agent may read"),
        },
        ConfirmationNotFound { id: s("c7-1a2b3c4d") },
        ConfirmationUsed { state: s("done") },
        ConfirmationExpired,
        ConfirmationRejected,
        ArgvMismatch,
        Stale {
            target: s("\"Projects/Plan.md\""),
            now: s("paused"),
            refused_again: None,
        },
        Stale {
            target: s("\"Projects/Plan.md\""),
            now: s("+1 −1 lines since the preview"),
            refused_again: Some(s("The text to find is not in \"Projects/Plan.md\", so nothing changed. Copy the exact text from the note (obsidianNotes `read`) and try again.")),
        },
        UndoConflict {
            target: s("\"Projects/Plan.md\""),
            detail: s("2 lines changed since"),
        },
        AlreadyUndone {
            target: s("\"Projects/Plan.md\""),
        },
        NotUndoable {
            target: s("the bookmarks"),
            reason: s("The Obsidian CLI has no command that removes a bookmark; remove it in Obsidian's Bookmarks view."),
        },
        UndoTargetMissing {
            target: s("\"Projects/Plan.md\""),
        },
        UndoNotFound {
            id: s("j42"),
            kept: 200,
        },
        NothingToUndo { scope: None },
        NothingToUndo {
            scope: Some(s("in this answer")),
        },
        WebFailed {
            detail: s("SearXNG at localhost:8888 answered 403 Forbidden: its JSON API is off. Add `json` to `search.formats` in SearXNG's settings.yml (formats: [html, json]) and restart it"),
        },
    ]
}

#[test]
fn every_error_message() {
    let text: String = samples()
        .iter()
        .map(|e| format!("{}\n  {}\n", e.code(), e))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(text);
}

#[test]
fn the_samples_name_every_public_error_code() {
    let declared = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/plugin-shim/vault-agent-api.d.ts"
    ))
    .unwrap();
    let union = declared
        .split("export type ToolErrorCode =")
        .nth(1)
        .expect("the ToolErrorCode union")
        .split(';')
        .next()
        .unwrap();
    let public: BTreeSet<&str> = union
        .split('|')
        .filter_map(|member| member.trim().strip_prefix('"')?.strip_suffix('"'))
        // The shim's own, for a failure outside the core.
        .filter(|code| *code != "internal_error")
        .collect();
    let sampled: BTreeSet<&str> = samples().iter().map(ToolError::code).collect();
    assert_eq!(sampled, public, "a sample for each code, and no other");
}
