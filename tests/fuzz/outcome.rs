//! Fuzz target `outcome`: The outcome mapper.

use super::*;

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
