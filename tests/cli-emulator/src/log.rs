//! Invocation log: one JSON line per run, appended before anything else.

use std::io::Write;

/// Append `{"argv":[...],"cwd":"...","pid":N}` to the file named by
/// `OBSIDIAN_EMULATOR_LOG`, if set. The line is written with a single
/// `write_all` on a file opened in append mode, so concurrent invocations
/// do not clobber each other. Failures are reported on stderr only.
pub fn append(args: &[String]) {
    let Some(path) = std::env::var_os("OBSIDIAN_EMULATOR_LOG") else {
        return;
    };
    if path.is_empty() {
        return;
    }
    let cwd = std::env::current_dir()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let entry = serde_json::json!({
        "argv": args,
        "cwd": cwd,
        "pid": std::process::id(),
    });
    let mut line = entry.to_string();
    line.push('\n');
    let result = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = result {
        eprintln!(
            "obsidian-emulator: cannot write log {}: {e}",
            path.to_string_lossy()
        );
    }
}
