//! The emulator against the real CLI's captured outputs
//! (`fixtures/captured.json`): stdout, stderr and the exit code, byte for byte.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const FIXTURE: &str = include_str!("../fixtures/captured.json");

/// `expected` with `{digits}` standing for one or more ASCII digits.
fn matches(expected: &str, actual: &str) -> bool {
    let mut parts = expected.split("{digits}");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    for part in parts {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return false;
        }
        rest = &rest[digits..];
        let Some(after) = rest.strip_prefix(part) else {
            return false;
        };
        rest = after;
    }
    rest.is_empty()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().expect("argv items are strings").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn run(
    vault: &Path,
    cwd: &Path,
    env: &[(String, String)],
    argv: &[String],
) -> std::process::Output {
    let mut c = Command::new(common::BIN);
    c.args(argv).current_dir(cwd).stdin(Stdio::null());
    for (k, _) in std::env::vars() {
        if k.starts_with("OBSIDIAN_EMULATOR_") {
            c.env_remove(k);
        }
    }
    c.env("OBSIDIAN_EMULATOR_VAULT", vault)
        .env("OBSIDIAN_EMULATOR_TODAY", "2026-03-03")
        .env("OBSIDIAN_EMULATOR_TIME", "09:30");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run the emulator")
}

/// Runs one case; `Err` says what differs.
fn check(case: &Value) -> Result<(), String> {
    let tmp = tempfile::tempdir().unwrap();
    let name = case["vault"]["name"].as_str().unwrap_or("vault");
    let vault = tmp.path().join(name);
    std::fs::create_dir_all(vault.join(".obsidian")).unwrap();
    if let Some(files) = case["vault"]["files"].as_object() {
        for (rel, text) in files {
            let p = vault.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text.as_str().unwrap()).unwrap();
        }
    }
    if let Some(config) = case["vault"]["config"].as_object() {
        for (file, json) in config {
            std::fs::write(vault.join(".obsidian").join(file), json.to_string()).unwrap();
        }
    }
    let env: Vec<(String, String)> = case["env"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default();
    for step in case["before"].as_array().into_iter().flatten() {
        let out = run(&vault, tmp.path(), &[], &strings(step));
        if !out.status.success() {
            return Err(format!("setup step {step} failed"));
        }
    }
    let argv = strings(&case["argv"]);
    let out = run(&vault, tmp.path(), &env, &argv);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let want_stdout = case["stdout"].as_str().unwrap();
    let want_stderr = case["stderr"].as_str().unwrap();
    let want_exit = case["exit"].as_i64().unwrap();
    let mut problems = Vec::new();
    if !matches(want_stdout, &stdout) {
        problems.push(format!("stdout {stdout:?}, want {want_stdout:?}"));
    }
    if stderr != want_stderr {
        problems.push(format!("stderr {stderr:?}, want {want_stderr:?}"));
    }
    if out.status.code().map(i64::from) != Some(want_exit) {
        problems.push(format!("exit {:?}, want {want_exit}", out.status.code()));
    }
    if let Some(files) = case["files_after"].as_object() {
        for (rel, text) in files {
            let got = std::fs::read_to_string(vault.join(rel)).unwrap_or_else(|e| format!("<{e}>"));
            if got != text.as_str().unwrap() {
                problems.push(format!("{rel} is {got:?}, want {text}"));
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[test]
fn every_captured_output_matches() {
    let doc: Value = serde_json::from_str(FIXTURE).expect("captured.json is JSON");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 40, "the fixture lost cases");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("every case has a name");
        let source = case["source"].as_str().unwrap_or("");
        assert!(
            !source.trim().is_empty(),
            "{name}: every case names its source"
        );
        if let Err(why) = check(case) {
            failures.push(format!("{name} ({source}): {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn digits_placeholder() {
    assert!(matches("a\t{digits}\n", "a\t123\n"));
    assert!(!matches("a\t{digits}\n", "a\t\n"));
    assert!(!matches("a\t{digits}\n", "a\t12x\n"));
    assert!(matches("exact", "exact"));
    assert!(!matches("exact", "exact more"));
}
