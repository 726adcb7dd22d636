//! What a finished CLI process means. The real CLI prints its errors on stdout
//! with exit code 0, so the exit code alone never decides success.

use crate::base::error::ToolError;
use crate::base::host::ProcessOutcome;
use crate::base::text::human_bytes;

/// Printed (on stderr, exit 1; older builds used stdout) when the CLI cannot
/// reach the app. Recognised only as the whole output, never inside it.
pub const APP_NOT_RUNNING_MESSAGE: &str =
    "The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.";

/// What to do when a command succeeds but prints nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmptyOutput {
    /// Every successful run prints something ("No tasks found." at least), so
    /// silence means the app was not ready.
    Error,
    /// Silence is a normal answer (a write, or an empty daily note); the text
    /// tells the model what happened.
    Success(&'static str),
}

/// The decoded, capped output of a successful call.
#[derive(Clone, Debug, PartialEq)]
pub struct CliOutput {
    pub text: String,
    /// The CLI's "No … found." answer: a successful, empty result.
    pub empty: bool,
    pub truncation: Option<Truncation>,
}

/// How much of the output was cut to respect the output cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncation {
    pub shown_bytes: u64,
    pub total_bytes: u64,
    /// The process was stopped for flooding: `total_bytes` is a lower bound.
    pub at_least: bool,
}

impl Truncation {
    pub fn notice(&self) -> String {
        format!(
            "[Output cut: showing the first {} of {}{}; {}{} were left out. Ask for less (a folder, a file, a limit or `total`), or raise the output cap in Settings → Vault Agent → Advanced → Output cap (KiB).]",
            human_bytes(self.shown_bytes),
            if self.at_least { "at least " } else { "" },
            human_bytes(self.total_bytes),
            if self.at_least { "at least " } else { "" },
            human_bytes(self.total_bytes - self.shown_bytes),
        )
    }
}

/// Context the mapping needs besides the outcome itself.
pub struct OutcomeContext<'a> {
    pub timeout_ms: u32,
    pub vault: Option<&'a str>,
    pub empty_output: EmptyOutput,
}

/// Maps a finished process to a result or a typed error.
pub fn interpret(
    outcome: &ProcessOutcome,
    context: &OutcomeContext,
) -> Result<CliOutput, ToolError> {
    if let Some(failure) = &outcome.spawn_failure {
        // ENOENT/EACCES are handled by the caller (rediscovery); anything else here.
        return Err(ToolError::ExitStatus {
            status: -1,
            detail: format!("could not start: {} {}", failure.code, failure.message),
        });
    }
    if outcome.timed_out {
        return Err(ToolError::Timeout {
            timeout_ms: context.timeout_ms,
        });
    }
    let (stdout, mut truncation) = decode_capped(&outcome.stdout, outcome.stdout_total_bytes);
    if let Some(cut) = truncation.as_mut() {
        cut.at_least = outcome.output_overflow;
    }
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    // Windows ends lines with CRLF; the plugin reads LF everywhere.
    let stdout = if stdout.contains("\r\n") {
        stdout.replace("\r\n", "\n")
    } else {
        stdout
    };
    let answer = without_installer_lines(&stdout);
    let status = classify(answer, &stderr, outcome.exit_code);

    if status == Some(CliStatus::AppNotRunning) {
        return Err(ToolError::AppNotRunning {
            detail: APP_NOT_RUNNING_MESSAGE.to_string(),
        });
    }
    if outcome.output_overflow {
        // Stopped by the host's output guard: a flood on stdout is a cut
        // result; a flood on stderr alone is the CLI's failure, not a signal.
        if truncation.is_some() {
            return Ok(CliOutput {
                text: format!(
                    "{}\n\n{}",
                    answer.trim_end(),
                    truncation.map(|t| t.notice()).unwrap_or_default()
                ),
                empty: false,
                truncation,
            });
        }
        return Err(ToolError::OutputFlood {
            bytes: outcome.stderr_total_bytes,
            first_line: first_line(stderr.trim()),
        });
    }
    if let Some(signal) = &outcome.signal {
        return Err(ToolError::Killed {
            signal: signal.clone(),
        });
    }
    match status {
        Some(CliStatus::VaultNotFound) => {
            return Err(ToolError::VaultNotFound {
                vault: context.vault.map(str::to_string),
            })
        }
        Some(CliStatus::Error { message }) => {
            return Err(ToolError::CliError {
                hint: cli_error_hint(&message),
                output: message,
            })
        }
        _ => {}
    }
    match outcome.exit_code {
        Some(0) => {}
        Some(status) => {
            let detail = first_line(if stderr.trim().is_empty() {
                answer.trim()
            } else {
                stderr.trim()
            });
            return Err(ToolError::ExitStatus { status, detail });
        }
        None => {
            return Err(ToolError::Killed {
                signal: "unknown".into(),
            })
        }
    }
    let stdout_trimmed = answer.trim();
    // Output that was cut is never "nothing", even when the kept part is blank.
    if stdout_trimmed.is_empty() && truncation.is_none() {
        return match context.empty_output {
            EmptyOutput::Error => Err(ToolError::EmptyOutput),
            EmptyOutput::Success(text) => Ok(CliOutput {
                text: text.to_string(),
                empty: true,
                truncation,
            }),
        };
    }
    let mut text = answer.trim_end().to_string();
    if let Some(cut) = &truncation {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&cut.notice());
    }
    Ok(CliOutput {
        empty: is_no_results_message(stdout_trimmed),
        text,
        truncation,
    })
}

/// What the CLI says about itself rather than about the vault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliStatus {
    AppNotRunning,
    VaultNotFound,
    /// `Error: <message>`, possibly followed by one `Usage: …` line.
    Error {
        message: String,
    },
}

/// The one rule for telling the CLI's own status lines from command output.
/// Only whole-output shapes count, never a substring, so a note that
/// mentions any of these texts reads back exactly:
///
/// | status | exit | shape (after leading installer log lines, trimmed, CRLF or LF) |
/// |---|---|---|
/// | app not running | not 0 | stderr, or stdout, is exactly `APP_NOT_RUNNING_MESSAGE` |
/// | vault not found | 0 | stdout is exactly `Vault not found.` |
/// | CLI error | any other | stdout is one line `Error: …`, or that line and one `Usage: …` line (a missing base exits 1) |
///
/// A note whose whole text is one `Error: …` line cannot be told from the
/// CLI's own error; that is the one remaining ambiguity of the CLI's format.
pub fn classify(stdout: &str, stderr: &str, exit_code: Option<i32>) -> Option<CliStatus> {
    let stdout = stdout.trim();
    if exit_code != Some(0) {
        let whole = |text: &str| text.trim() == APP_NOT_RUNNING_MESSAGE;
        if whole(stderr) || whole(stdout) {
            return Some(CliStatus::AppNotRunning);
        }
    } else if stdout == "Vault not found." {
        return Some(CliStatus::VaultNotFound);
    }
    let mut lines = stdout.lines().map(|l| l.trim_end_matches('\r'));
    let first = lines.next()?;
    let message = first.strip_prefix("Error: ")?;
    match (lines.next(), lines.next()) {
        (None, _) => {}
        (Some(usage), None) if usage.starts_with("Usage: ") => {}
        _ => return None,
    }
    Some(CliStatus::Error {
        message: message.trim().to_string(),
    })
}

/// Old installers log a few lines on stdout before the answer
/// (`2026-03-01 10:00:00 Loading updated app package …`,
/// `Your Obsidian installer is out of date …`); they are not the answer.
pub fn without_installer_lines(stdout: &str) -> &str {
    let mut rest = stdout;
    loop {
        let (line, after) = match rest.find('\n') {
            Some(end) => (&rest[..end], &rest[end + 1..]),
            None => return rest,
        };
        if is_installer_line(line.trim_end_matches('\r')) {
            rest = after;
        } else {
            return rest;
        }
    }
}

fn is_installer_line(line: &str) -> bool {
    if line.starts_with("Your Obsidian installer is out of date") {
        return true;
    }
    // `YYYY-MM-DD HH:MM:SS ` and then the app's log text.
    let b = line.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    (0..4).all(digit)
        && at(4, b'-')
        && (5..7).all(digit)
        && at(7, b'-')
        && (8..10).all(digit)
        && at(10, b' ')
        && (11..13).all(digit)
        && at(13, b':')
        && (14..16).all(digit)
        && at(16, b':')
        && (17..19).all(digit)
        && at(19, b' ')
        && (line.contains("app package") || line.contains("installer"))
}

/// "No tasks found.", "No backlinks found.", "No base files found in vault" …
pub fn is_no_results_message(text: &str) -> bool {
    let text = text.trim();
    !text.contains('\n')
        && text.starts_with("No ")
        && (text.ends_with(" found.") || text.ends_with(" found in vault"))
}

fn cli_error_hint(message: &str) -> Option<String> {
    if message.contains("not found. It may require a plugin") {
        Some("Turn on the core plugin this command needs (for example Daily notes, Templates, Bases or Bookmarks) in Obsidian's settings, or update Obsidian.".into())
    } else if message.contains("not found") {
        Some("Check the name: `file=` matches a note name like a wikilink, `path=` needs the exact path from the vault root.".into())
    } else if message.contains("Missing required parameter") {
        Some("Add the missing parameter and try again.".into())
    } else {
        None
    }
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let mut cut: String = line.chars().take(300).collect();
    if cut.len() < line.len() {
        cut.push('…');
    }
    cut
}

/// Decodes kept output, cutting an incomplete UTF-8 sequence at the end of a
/// capped stream instead of turning it into a replacement character.
fn decode_capped(bytes: &[u8], total_bytes: u64) -> (String, Option<Truncation>) {
    let kept = bytes.len() as u64;
    if total_bytes <= kept {
        return (String::from_utf8_lossy(bytes).into_owned(), None);
    }
    let boundary = utf8_boundary(bytes);
    let text = String::from_utf8_lossy(&bytes[..boundary]).into_owned();
    (
        text,
        Some(Truncation {
            shown_bytes: boundary as u64,
            total_bytes,
            at_least: false,
        }),
    )
}

/// The largest prefix length that does not end inside a UTF-8 sequence.
fn utf8_boundary(bytes: &[u8]) -> usize {
    // A sequence is at most 4 bytes: look back at most 3 for its lead byte.
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let b = bytes[len - back];
        if b & 0b1100_0000 == 0b1000_0000 {
            continue; // continuation byte: keep looking for the lead
        }
        let needed = if b & 0b1000_0000 == 0 {
            1
        } else if b & 0b1110_0000 == 0b1100_0000 {
            2
        } else if b & 0b1111_0000 == 0b1110_0000 {
            3
        } else if b & 0b1111_1000 == 0b1111_0000 {
            4
        } else {
            return len; // not UTF-8 at all: lossy decoding handles it
        };
        return if back >= needed { len } else { len - back };
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(stdout: &str) -> ProcessOutcome {
        ProcessOutcome {
            exit_code: Some(0),
            stdout: stdout.as_bytes().to_vec(),
            stdout_total_bytes: stdout.len() as u64,
            ..Default::default()
        }
    }

    fn context() -> OutcomeContext<'static> {
        OutcomeContext {
            timeout_ms: 15_000,
            vault: None,
            empty_output: EmptyOutput::Error,
        }
    }

    fn code(outcome: &ProcessOutcome) -> &'static str {
        interpret(outcome, &context()).unwrap_err().code()
    }

    #[test]
    fn plain_output_is_success() {
        let out = interpret(&ok("- [ ] Review PR\n"), &context()).unwrap();
        assert_eq!(out.text, "- [ ] Review PR");
        assert!(!out.empty);
        assert_eq!(out.truncation, None);
    }

    #[test]
    fn no_results_messages_are_successful_and_empty() {
        for message in [
            "No tasks found.",
            "No backlinks found.",
            "No markdown files found.",
        ] {
            let out = interpret(&ok(message), &context()).unwrap();
            assert!(out.empty, "{message}");
            assert_eq!(out.text, message);
        }
    }

    #[test]
    fn error_text_with_exit_zero_is_a_cli_error() {
        let err = interpret(&ok("Error: File \"Nope\" not found.\n"), &context()).unwrap_err();
        assert_eq!(err.code(), "cli_error");
        assert!(err.to_string().contains("File \"Nope\" not found."));
        assert!(err.to_string().contains("`path=`"));
        let err = interpret(
            &ok("Error: Command \"bases\" not found. It may require a plugin to be enabled."),
            &context(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("core plugin"));
    }

    #[test]
    fn vault_not_found_names_the_vault() {
        let ctx = OutcomeContext {
            vault: Some("Work"),
            ..context()
        };
        let err = interpret(&ok("Vault not found.\n"), &ctx).unwrap_err();
        assert_eq!(err.code(), "vault_not_found");
        assert!(err.to_string().contains("\"Work\""));
    }

    #[test]
    fn app_not_running_on_stdout_or_stderr() {
        let text = "The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.";
        let mut outcome = ok(text);
        outcome.exit_code = Some(1);
        assert_eq!(code(&outcome), "app_not_running");
        let outcome = ProcessOutcome {
            exit_code: Some(1),
            stderr: text.as_bytes().to_vec(),
            stderr_total_bytes: text.len() as u64,
            ..Default::default()
        };
        assert_eq!(code(&outcome), "app_not_running");
    }

    /// The status rule as a table: (stdout, stderr, exit code) → status.
    #[test]
    fn status_lines_are_recognised_only_as_whole_outputs() {
        let app = APP_NOT_RUNNING_MESSAGE;
        let app_crlf = format!("{app}\r\n");
        let error = |m: &str| {
            Some(CliStatus::Error {
                message: m.to_string(),
            })
        };
        let table: Vec<(String, &str, Option<i32>, Option<CliStatus>)> = vec![
            (String::new(), app, Some(1), Some(CliStatus::AppNotRunning)),
            (format!("{app}\n"), "", Some(1), Some(CliStatus::AppNotRunning)),
            (String::new(), &app_crlf, Some(1), Some(CliStatus::AppNotRunning)),
            // A note that quotes the message, read successfully.
            (format!("{app}\n"), "", Some(0), None),
            (format!("Notes\n{app}\n"), "", Some(0), None),
            (format!("Why: {app}"), "", Some(1), None),
            ("Vault not found.\n".into(), "", Some(0), Some(CliStatus::VaultNotFound)),
            ("Vault not found.\r\n".into(), "", Some(0), Some(CliStatus::VaultNotFound)),
            ("Vault not found. Check the name\n".into(), "", Some(0), None),
            ("Vault not found.\nmore".into(), "", Some(0), None),
            ("Error: File \"X\" not found.\n".into(), "", Some(0), error("File \"X\" not found.")),
            ("Error: No active file.\r\n".into(), "", Some(0), error("No active file.")),
            (
                "Error: Missing required parameter: to=<path>\nUsage: move [file=<name>] to=<path>\n".into(),
                "",
                Some(0),
                error("Missing required parameter: to=<path>"),
            ),
            ("Error: x\nsecond line\n".into(), "", Some(0), None),
            ("Error: x\nUsage: y\nthird\n".into(), "", Some(0), None),
            ("Error:x\n".into(), "", Some(0), None),
            ("Errors: many\n".into(), "", Some(0), None),
            ("- [ ] Error: fix it\n".into(), "", Some(0), None),
            ("plain output\n".into(), "", Some(0), None),
            // base:create of a missing base exits 1 with its error line.
            ("Error: Base file not found: X.base\n".into(), "", Some(1), error("Base file not found: X.base")),
        ];
        for (stdout, stderr, exit, expected) in table {
            assert_eq!(
                classify(&stdout, stderr, exit),
                expected,
                "stdout {stdout:?}, stderr {stderr:?}, exit {exit:?}"
            );
        }
    }

    #[test]
    fn notes_that_look_like_status_lines_read_back_exactly() {
        for note in [
            "# Help\nThe CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.\n",
            "Error: this note starts like an error\nbut goes on.\n",
            "Vault not found.\nA story about a lost vault.\n",
        ] {
            let out = interpret(&ok(note), &context()).unwrap();
            assert_eq!(out.text, note.trim_end(), "{note:?}");
        }
    }

    #[test]
    fn installer_log_lines_before_the_answer_are_dropped() {
        let stdout = "2026-03-01 10:00:00 Loading updated app package /x/obsidian-1.12.7.asar\r\nYour Obsidian installer is out of date. Please download the latest installer.\r\nError: File \"X\" not found.\r\n";
        assert_eq!(
            interpret(&ok(stdout), &context()).unwrap_err().code(),
            "cli_error"
        );
        let stdout = "2026-03-01 10:00:00 Loading updated app package\n- [ ] Review PR\n";
        assert_eq!(
            interpret(&ok(stdout), &context()).unwrap().text,
            "- [ ] Review PR"
        );
        // Only leading lines, and only the installer's: a note's own dated line stays.
        let note = "2026-03-01 10:00:00 Standup\nnotes\n";
        assert_eq!(
            interpret(&ok(note), &context()).unwrap().text,
            note.trim_end()
        );
    }

    #[test]
    fn a_stderr_flood_stopped_by_the_guard_is_an_output_flood() {
        let outcome = ProcessOutcome {
            signal: Some("SIGTERM".into()),
            stdout: b"ok".to_vec(),
            stdout_total_bytes: 2,
            stderr: b"warning: x\n".repeat(100),
            stderr_total_bytes: 50 * 1024 * 1024,
            output_overflow: true,
            ..Default::default()
        };
        let err = interpret(&outcome, &context()).unwrap_err();
        assert_eq!(err.code(), "output_flood");
        assert!(err.to_string().contains("50.0 MiB"), "{err}");
        assert!(err.to_string().contains("warning: x"), "{err}");
    }

    #[test]
    fn timeout_signal_status_and_empty() {
        let timed_out = ProcessOutcome {
            timed_out: true,
            signal: Some("SIGTERM".into()),
            ..Default::default()
        };
        assert_eq!(code(&timed_out), "timeout");
        let killed = ProcessOutcome {
            signal: Some("SIGKILL".into()),
            ..Default::default()
        };
        assert_eq!(code(&killed), "killed");
        let mut failed = ok("");
        failed.exit_code = Some(3);
        failed.stderr = b"boom\nmore".to_vec();
        let err = interpret(&failed, &context()).unwrap_err();
        assert_eq!(err.code(), "exit_status");
        assert!(err.to_string().contains("status 3 (boom)"));
        assert_eq!(code(&ok("  \n")), "empty_output");
    }

    #[test]
    fn empty_output_can_be_a_declared_success() {
        let ctx = OutcomeContext {
            empty_output: EmptyOutput::Success("Appended."),
            ..context()
        };
        let out = interpret(&ok(""), &ctx).unwrap();
        assert_eq!(out.text, "Appended.");
        assert!(out.empty);
    }

    #[test]
    fn truncation_cuts_on_a_utf8_boundary_and_says_how_much() {
        // "é" is two bytes; keep 3 bytes of "aéé" → "aé" plus a dangling lead byte.
        let full = "aéé".as_bytes();
        let outcome = ProcessOutcome {
            exit_code: Some(0),
            stdout: full[..4].to_vec(),
            stdout_total_bytes: 2 * 1024 * 1024,
            ..Default::default()
        };
        let out = interpret(&outcome, &context()).unwrap();
        assert!(out.text.starts_with("aé\n\n[Output cut"), "{}", out.text);
        assert!(!out.text.contains('\u{FFFD}'));
        assert_eq!(
            out.truncation,
            Some(Truncation {
                shown_bytes: 3,
                total_bytes: 2 * 1024 * 1024,
                at_least: false,
            })
        );
        assert!(out.text.contains("showing the first 3 bytes of 2.0 MiB"));
    }

    /// Found by `tests/fuzz/` (outcome): when the kept part of a cut output
    /// was blank, the call was reported as printing nothing (or as the silent
    /// success text), and the notice that output was left out was lost.
    #[test]
    fn a_cut_output_whose_kept_part_is_blank_still_says_it_was_cut() {
        let outcome = ProcessOutcome {
            exit_code: Some(0),
            stdout: b"\n".repeat(4096),
            stdout_total_bytes: 10_000,
            ..Default::default()
        };
        for empty_output in [EmptyOutput::Error, EmptyOutput::Success("Done.")] {
            let ctx = OutcomeContext {
                empty_output,
                ..context()
            };
            let out = interpret(&outcome, &ctx).unwrap();
            assert!(!out.empty);
            assert!(out.truncation.is_some());
            assert!(
                out.text
                    .starts_with("[Output cut: showing the first 4.0 KiB of 9.8 KiB"),
                "{}",
                out.text
            );
        }
    }

    #[test]
    fn a_flood_stopped_by_the_host_is_a_cut_success() {
        let outcome = ProcessOutcome {
            signal: Some("SIGTERM".into()),
            stdout: b"line\n".repeat(1000),
            stdout_total_bytes: 80_000,
            output_overflow: true,
            ..Default::default()
        };
        let out = interpret(&outcome, &context()).unwrap();
        assert!(out.truncation.unwrap().at_least);
        assert!(out.text.contains("of at least 78.1 KiB"), "{}", out.text);
    }

    #[test]
    fn utf8_boundary_handles_every_sequence_length() {
        for s in ["a", "é", "日", "😀"] {
            let bytes = s.as_bytes();
            assert_eq!(utf8_boundary(bytes), bytes.len(), "{s}");
            for cut in 1..bytes.len() {
                assert_eq!(utf8_boundary(&bytes[..cut]), 0, "{s} cut at {cut}");
            }
        }
    }
}
