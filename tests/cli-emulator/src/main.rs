//! `obsidian`: an emulator of the official Obsidian CLI over a plain vault
//! folder, for tests and demos. See README.md for what it emulates.

mod args;
mod commands;
mod dates;
mod faults;
mod frontmatter;
mod log;
mod markdown;
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
    faults::apply(inv.command.as_deref());

    let Some(command) = inv.command.clone() else {
        eprintln!("{TUI_MESSAGE}");
        std::process::exit(2);
    };
    let output = run(&command, &inv);
    print(&output);
}

fn run(command: &str, inv: &args::Invocation) -> String {
    if inv.vault.is_none() {
        if let Some(out) = commands::run_without_vault(command) {
            return out;
        }
    }
    let Ok(vault) = vault::select(inv.vault.as_deref()) else {
        return "Vault not found.".to_string();
    };
    if let Some(out) = commands::run_without_vault(command) {
        return out;
    }
    if !commands::is_known(command) {
        return commands::unknown(command);
    }
    let (system_today, now) = dates::now_utc();
    let today = match std::env::var("OBSIDIAN_EMULATOR_TODAY") {
        Ok(v) if !v.trim().is_empty() => match dates::Date::parse_ymd(&v) {
            Some(d) => d,
            None => {
                eprintln!(
                    "obsidian-emulator: OBSIDIAN_EMULATOR_TODAY must be YYYY-MM-DD, got {v:?}"
                );
                std::process::exit(2);
            }
        },
        _ => system_today,
    };
    let now = match std::env::var("OBSIDIAN_EMULATOR_TIME") {
        Ok(v) if !v.trim().is_empty() => parse_time(&v).unwrap_or_else(|| {
            eprintln!("obsidian-emulator: OBSIDIAN_EMULATOR_TIME must be HH:MM[:SS], got {v:?}");
            std::process::exit(2);
        }),
        _ => now,
    };
    let active = std::env::var("OBSIDIAN_EMULATOR_ACTIVE_FILE")
        .ok()
        .filter(|a| !a.is_empty());
    let mut ctx = commands::Ctx {
        vault,
        today,
        now,
        active,
    };
    match commands::run(&mut ctx, command, inv) {
        Ok(s) | Err(s) => s,
    }
}

fn parse_time(v: &str) -> Option<dates::Time> {
    let mut parts = v.trim().split(':');
    let hour: u32 = parts.next()?.parse().ok()?;
    let minute: u32 = parts.next()?.parse().ok()?;
    let second: u32 = parts.next().map_or(Some(0), |s| s.parse().ok())?;
    (hour < 24 && minute < 60 && second < 60).then_some(dates::Time {
        hour,
        minute,
        second,
    })
}

/// Print the result followed by a newline (unless it is empty or already
/// ends with one). Write errors such as a closed pipe are ignored.
fn print(output: &str) {
    if output.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(output.as_bytes());
    if !output.ends_with('\n') {
        let _ = out.write_all(b"\n");
    }
    let _ = out.flush();
}
