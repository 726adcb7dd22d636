//! The fault modes that leave a process behind (`orphan`, `orphan-hang`) and
//! the stderr flood.

mod common;
use common::Emu;
use std::time::{Duration, Instant};

fn log_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each log line is JSON"))
        .collect()
}

#[test]
fn orphan_answers_and_leaves_a_grandchild_holding_stdout() {
    let emu = Emu::new();
    let log = emu.tmp.path().join("calls.jsonl");
    let emu = emu
        .with("OBSIDIAN_EMULATOR_LOG", log.to_str().unwrap())
        .with("OBSIDIAN_EMULATOR_FAULT", "orphan")
        .with("OBSIDIAN_EMULATOR_GRANDCHILD_MS", "400");
    let started = Instant::now();
    // output() reads until every writer closes stdout: the grandchild too.
    let out = emu.output(&["daily:path"]);
    assert!(
        started.elapsed() >= Duration::from_millis(350),
        "the grandchild held stdout for {:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Daily/2026-03-03.md\n"
    );
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(
        lines[1]["argv"],
        serde_json::json!(["--grandchild-of", lines[0]["pid"].to_string()])
    );
    assert_ne!(lines[0]["pid"], lines[1]["pid"]);
}

#[test]
fn orphan_hang_starts_the_grandchild_then_hangs() {
    let emu = Emu::new();
    let log = emu.tmp.path().join("calls.jsonl");
    let emu = emu
        .with("OBSIDIAN_EMULATOR_LOG", log.to_str().unwrap())
        .with("OBSIDIAN_EMULATOR_FAULT", "orphan-hang")
        .with("OBSIDIAN_EMULATOR_GRANDCHILD_MS", "300");
    let mut child = emu.command(&["daily:path"]).spawn().unwrap();
    let started = Instant::now();
    while log_lines(&log).len() < 2 {
        assert!(started.elapsed() < Duration::from_secs(5), "no grandchild");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(100));
    assert!(child.try_wait().unwrap().is_none(), "the CLI hangs");
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn flood_stderr_prints_exactly_the_requested_bytes_on_stderr() {
    let emu = Emu::new()
        .with("OBSIDIAN_EMULATOR_FAULT", "flood-stderr")
        .with("OBSIDIAN_EMULATOR_FLOOD_BYTES", "100003");
    let out = emu.output(&["tasks"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(out.stderr.len(), 100_003);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("warning: "));
}
