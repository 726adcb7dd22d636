//! `obsidian`: an emulator of the official Obsidian CLI over a plain vault
//! folder, for tests and demos. See README.md for what it emulates.

mod args;
mod commands;
mod dates;
mod faults;
mod frontmatter;
mod inline;
mod log;
mod markdown;
mod platform;
mod vault;

use std::io::Write;

const TUI_MESSAGE: &str = "The interactive terminal interface (TUI) is not emulated. Run `obsidian <command> ...`, e.g. `obsidian help`.";

fn main() {
    let raw: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    log::append(&raw);
    let inv = args::parse(&raw);
    faults::latency();
    faults::apply(inv.command.as_deref());

    let Some(command) = inv.command.clone() else {
        eprintln!("{TUI_MESSAGE}");
        std::process::exit(2);
    };
    let (output, code) = run(&command, &inv);
    print(&output);
    std::process::exit(code);
}

/// What the command prints and the exit code it ends with.
fn run(command: &str, inv: &args::Invocation) -> (String, i32) {
    if inv.vault.is_none() {
        if let Some(out) = commands::run_without_vault(command) {
            return (out, 0);
        }
    }
    let Ok(vault) = vault::select(inv.vault.as_deref()) else {
        return ("Vault not found.".to_string(), 0);
    };
    if let Some(out) = commands::run_without_vault(command) {
        return (out, 0);
    }
    if !commands::is_known(command) {
        return (commands::unknown(command), 0);
    }
    let (today, now) = dates::configured_now();
    let active = std::env::var("OBSIDIAN_EMULATOR_ACTIVE_FILE")
        .ok()
        .filter(|a| !a.is_empty());
    let mut ctx = commands::Ctx {
        vault,
        today,
        now,
        active,
        exit_code: std::cell::Cell::new(0),
    };
    let out = match commands::run(&mut ctx, command, inv) {
        Ok(s) | Err(s) => s,
    };
    (out, ctx.exit_code.get())
}

/// Print the result followed by a line ending (unless it is empty or already
/// ends with one), with the platform's line endings. Write errors such as a
/// closed pipe are ignored.
fn print(output: &str) {
    if output.is_empty() {
        return;
    }
    let mut text = output.to_string();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(platform::line_endings(&text).as_bytes());
    let _ = out.flush();
}
