//! argv handling, vault selection, unknown commands, value unescaping.

mod common;
use common::Emu;

#[test]
fn no_arguments_is_the_tui_and_exits_2() {
    let emu = Emu::new();
    let out = emu.output(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not emulated"));
    // `--copy` alone is still no command.
    assert_eq!(emu.output(&["--copy"]).status.code(), Some(2));
}

#[test]
fn version_line() {
    let emu = Emu::new();
    assert_eq!(emu.ok(&["version"]), "1.12.7 (installer 1.12.7)\n");
    let emu = emu.with("OBSIDIAN_EMULATOR_VERSION", "1.13.0 (installer 1.12.7)");
    assert_eq!(emu.line(&["version"]), "1.13.0 (installer 1.12.7)");
}

#[test]
fn unknown_and_unemulated_commands() {
    let emu = Emu::new();
    for cmd in ["frobnicate", "delete", "eval", "plugin:enable", "move"] {
        assert_eq!(
            emu.line(&[cmd, "file=Welcome"]),
            format!("Error: Command \"{cmd}\" not found. It may require a plugin to be enabled.")
        );
    }
    assert!(emu.exists("Welcome.md"));
}

#[test]
fn vault_param_must_name_the_vault_and_come_first() {
    let emu = Emu::new();
    assert_eq!(
        emu.line(&["vault=sample-vault", "files", "ext=base"]),
        "Databases/Projects.base"
    );
    assert_eq!(
        emu.line(&["vault=Other Vault", "files", "total"]),
        "Vault not found."
    );
    // Not first: just an ordinary (ignored) parameter of the command.
    assert_eq!(
        emu.line(&["files", "vault=Other", "ext=base"]),
        "Databases/Projects.base"
    );
}

#[test]
fn no_vault_at_all() {
    let mut emu = Emu::new();
    emu.unset("OBSIDIAN_EMULATOR_VAULT");
    assert_eq!(emu.line(&["files"]), "Vault not found.");
    emu.set("OBSIDIAN_EMULATOR_VAULT", "/definitely/not/here");
    assert_eq!(emu.line(&["read", "file=Welcome"]), "Vault not found.");
}

#[test]
fn working_directory_vault_wins() {
    let mut emu = Emu::new();
    let other = emu.tmp.path().join("Other Vault");
    std::fs::create_dir_all(other.join(".obsidian")).unwrap();
    std::fs::write(other.join("Only note.md"), "hello\n").unwrap();
    emu.cwd = other.clone();
    assert_eq!(emu.line(&["files"]), "Only note.md");
    assert_eq!(emu.line(&["vault=Other Vault", "files"]), "Only note.md");
    // The env vault can still be named explicitly.
    assert_eq!(
        emu.line(&["vault=sample-vault", "files", "ext=canvas"]),
        "Canvas/Plan.canvas"
    );
    assert_eq!(emu.line(&["vault=Third", "files"]), "Vault not found.");
}

#[test]
fn copy_flag_is_ignored() {
    let emu = Emu::new();
    assert_eq!(
        emu.ok(&["--copy", "daily:path"]),
        emu.ok(&["daily:path", "--copy"])
    );
    assert_eq!(emu.line(&["daily:path", "--copy"]), "Daily/2026-03-03.md");
}

#[test]
fn values_are_unescaped_like_the_real_cli() {
    let emu = Emu::new();
    // \n -> newline, \t -> tab, \\ -> \, other sequences kept.
    emu.ok(&["daily:append", r"content=a\nb\tc \\times \x \\n"]);
    let text = emu.read("Daily/2026-03-03.md");
    assert!(text.ends_with("\na\nb\tc \\times \\x \\n"), "{text:?}");
    // The documented corruption: a lone \t in LaTeX becomes a tab.
    emu.ok(&["daily:append", r"content=$\times$", "inline"]);
    assert!(emu.read("Daily/2026-03-03.md").ends_with("$\times$"));
}

#[test]
fn parameter_split_at_first_equals() {
    let emu = Emu::new();
    emu.ok(&["property:set", "name=formula", "value=a=b=c", "file=Alice"]);
    assert_eq!(
        emu.line(&["property:read", "name=formula", "file=Alice"]),
        "a=b=c"
    );
}

#[test]
fn file_resolution_and_errors() {
    let emu = Emu::new();
    let alice = emu.ok(&["read", "path=People/Alice.md"]);
    assert_eq!(emu.ok(&["read", "file=alice"]), alice);
    assert_eq!(emu.ok(&["read", "file=Alice.md"]), alice);
    assert_eq!(emu.ok(&["read", "file=People/Alice"]), alice);
    assert_eq!(
        emu.line(&["read", "file=Nobody"]),
        "Error: File \"Nobody\" not found."
    );
    assert_eq!(
        emu.line(&["read", "path=people/alice.md"]),
        "Error: File \"people/alice.md\" not found."
    );
    for bad in [
        "../outside.md",
        "/etc/passwd",
        "People/../../x.md",
        "People/../Welcome.md",
    ] {
        assert_eq!(
            emu.line(&["read", &format!("path={bad}")]),
            format!("Error: File \"{bad}\" not found.")
        );
    }
    // Shortest path wins when several files share a name.
    emu.write("X/Alice.md", "short alice\n");
    emu.write("People/Team/Alice.md", "deep alice\n");
    assert_eq!(emu.ok(&["read", "file=Alice"]), "short alice\n");
}

#[test]
fn active_file_default() {
    let mut emu = Emu::new();
    assert_eq!(
        emu.line(&["read"]),
        "Error: No active file. Use file=<name> or path=<path> to specify a file."
    );
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "People/Bob.md");
    assert!(emu.ok(&["read"]).starts_with("---\nrole: Engineer\n"));
    emu.set("OBSIDIAN_EMULATOR_ACTIVE_FILE", "Gone.md");
    assert_eq!(emu.line(&["read"]), "Error: File \"Gone.md\" not found.");
}

#[test]
fn invalid_today_is_a_loud_configuration_error() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_TODAY", "03/03/2026");
    let out = emu.output(&["daily:path"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("OBSIDIAN_EMULATOR_TODAY"));
}

#[test]
fn help_lists_commands() {
    let emu = Emu::new();
    let help = emu.ok(&["help"]);
    for cmd in ["daily:append", "base:query", "search:context", "tag"] {
        assert!(help.lines().any(|l| l.trim() == cmd), "{cmd} missing");
    }
}
