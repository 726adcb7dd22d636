//! What a finished CLI process means. The real CLI prints its errors on stdout
//! with exit code 0, so the exit code alone never decides success.

use crate::error::ToolError;
use crate::host::ProcessOutcome;

/// Printed (on stdout or stderr, exit 1) when the CLI cannot reach the app.
const APP_NOT_RUNNING_MARKER: &str = "unable to find Obsidian";

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
            "[Output cut: showing the first {} of {}{}; {}{} were left out. Ask for less (a folder, a file, a limit or `total`), or raise the output cap in Settings → Vault Agent → Command line interface.]",
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
    let stdout_trimmed = stdout.trim();

    if stdout.contains(APP_NOT_RUNNING_MARKER) || stderr.contains(APP_NOT_RUNNING_MARKER) {
        let detail = first_line(if stdout.contains(APP_NOT_RUNNING_MARKER) {
            stdout_trimmed
        } else {
            stderr.trim()
        });
        return Err(ToolError::AppNotRunning { detail });
    }
    // A flood stopped by the host is a cut result, not a crash.
    if outcome.output_overflow && truncation.is_some() {
        return Ok(CliOutput {
            text: format!(
                "{}\n\n{}",
                stdout.trim_end(),
                truncation.map(|t| t.notice()).unwrap_or_default()
            ),
            empty: false,
            truncation,
        });
    }
    if let Some(signal) = &outcome.signal {
        return Err(ToolError::Killed {
            signal: signal.clone(),
        });
    }
    match outcome.exit_code {
        Some(0) => {}
        Some(status) => {
            let detail = first_line(if stderr.trim().is_empty() {
                stdout_trimmed
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
    if is_vault_not_found(stdout_trimmed) {
        return Err(ToolError::VaultNotFound {
            vault: context.vault.map(str::to_string),
        });
    }
    if let Some(message) = stdout_trimmed.strip_prefix("Error:") {
        return Err(ToolError::CliError {
            output: message.trim().to_string(),
            hint: cli_error_hint(message),
        });
    }
    if stdout_trimmed.is_empty() {
        return match context.empty_output {
            EmptyOutput::Error => Err(ToolError::EmptyOutput),
            EmptyOutput::Success(text) => Ok(CliOutput {
                text: text.to_string(),
                empty: true,
                truncation,
            }),
        };
    }
    let mut text = stdout.trim_end().to_string();
    if let Some(cut) = &truncation {
        text.push_str("\n\n");
        text.push_str(&cut.notice());
    }
    Ok(CliOutput {
        empty: is_no_results_message(stdout_trimmed),
        text,
        truncation,
    })
}

fn is_vault_not_found(stdout: &str) -> bool {
    stdout == "Vault not found." || stdout.starts_with("Vault not found")
}

/// "No tasks found.", "No backlinks found.", "No markdown files found." …
pub fn is_no_results_message(text: &str) -> bool {
    text.starts_with("No ") && text.ends_with(" found.") && !text.contains('\n')
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

pub fn human_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b >= KIB * KIB {
        format!("{:.1} MiB", b / (KIB * KIB))
    } else if b >= KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{bytes} bytes")
    }
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
