//! The invocation log and the fault modes.

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

fn wait_with_deadline(
    child: &mut std::process::Child,
    limit: Duration,
) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn log_line_per_invocation() {
    let emu = Emu::new();
    let log = emu.tmp.path().join("calls.jsonl");
    let emu = emu.with("OBSIDIAN_EMULATOR_LOG", log.to_str().unwrap());
    emu.ok(&["vault=sample-vault", "tasks", r"content=a\nb", "todo"]);
    emu.output(&[]);
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 2);
    let first = lines[0].as_object().unwrap();
    assert_eq!(first.keys().collect::<Vec<_>>(), ["argv", "cwd", "pid"]);
    // argv is logged raw, before unescaping.
    assert_eq!(
        lines[0]["argv"],
        serde_json::json!(["vault=sample-vault", "tasks", "content=a\\nb", "todo"])
    );
    assert_eq!(
        lines[0]["cwd"].as_str().unwrap(),
        emu.cwd.canonicalize().unwrap().to_str().unwrap()
    );
    assert!(lines[0]["pid"].as_u64().unwrap() > 0);
    assert_eq!(lines[1]["argv"], serde_json::json!([]));
}

#[test]
fn log_is_written_before_faults() {
    let emu = Emu::new();
    let log = emu.tmp.path().join("calls.jsonl");
    let emu = emu
        .with("OBSIDIAN_EMULATOR_LOG", log.to_str().unwrap())
        .with("OBSIDIAN_EMULATOR_FAULT", "signal");
    let out = emu.output(&["daily:read"]);
    assert!(!out.status.success());
    assert_eq!(
        log_lines(&log)[0]["argv"],
        serde_json::json!(["daily:read"])
    );
}

#[test]
fn concurrent_invocations_do_not_clobber_the_log() {
    let emu = Emu::new();
    let log = emu.tmp.path().join("calls.jsonl");
    let emu = emu.with("OBSIDIAN_EMULATOR_LOG", log.to_str().unwrap());
    let children: Vec<_> = (0..16)
        .map(|i| {
            let arg = format!("query=item {i} {}", "x".repeat(200));
            emu.command(&["search", &arg]).spawn().unwrap()
        })
        .collect();
    for mut c in children {
        c.wait().unwrap();
    }
    let lines = log_lines(&log);
    assert_eq!(lines.len(), 16);
    let mut pids: Vec<u64> = lines.iter().map(|l| l["pid"].as_u64().unwrap()).collect();
    pids.sort_unstable();
    pids.dedup();
    assert_eq!(pids.len(), 16);
}

#[test]
fn app_not_running() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "app-not-running");
    let out = emu.output(&["daily:read"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing on stdout");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.\n"
    );
    let windows = emu.with("OBSIDIAN_EMULATOR_PLATFORM", "windows");
    let out = windows.output(&["version"]);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .ends_with("again.\r\n"));
}

#[test]
fn old_installer_lines_come_before_the_answer() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "old-installer");
    let out = emu.ok(&["daily:path"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(
        lines[0],
        "2026-03-03 09:30:00 Loading updated app package /home/user/.config/obsidian/obsidian-1.12.7.asar"
    );
    assert!(lines[1].starts_with("Your Obsidian installer is out of date."));
    assert_eq!(lines[2], "Daily/2026-03-03.md", "then the usual answer");
    // The command still runs: a write happens.
    let emu = emu.with("OBSIDIAN_EMULATOR_FAULT_COMMAND", "daily:append");
    emu.ok(&["daily:append", "content=still written"]);
    assert!(emu.read("Daily/2026-03-03.md").ends_with("still written"));
}

#[test]
fn windows_line_endings() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_PLATFORM", "windows");
    assert_eq!(emu.ok(&["version"]), "1.12.7 (installer 1.12.7)\r\n");
    let read = emu.ok(&["read", "file=Welcome"]);
    assert!(read.ends_with("\r\n") && !read.replace("\r\n", "").contains('\n'));
    let bad = Emu::new().with("OBSIDIAN_EMULATOR_PLATFORM", "beos");
    assert_eq!(bad.output(&["version"]).status.code(), Some(2));
}

#[test]
fn empty_output() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "empty");
    let out = emu.output(&["daily:append", "content=never written"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!(!emu.read("Daily/2026-03-03.md").contains("never written"));
}

#[test]
fn flood_prints_exactly_the_requested_bytes_of_utf8() {
    let emu = Emu::new()
        .with("OBSIDIAN_EMULATOR_FAULT", "flood")
        .with("OBSIDIAN_EMULATOR_FLOOD_BYTES", "100001");
    let out = emu.output(&["tasks"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.len(), 100_001);
    let text = String::from_utf8(out.stdout).expect("valid UTF-8");
    assert!(text.contains('é') && text.contains("日本"));
    // Default: 5 MiB.
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "flood");
    let out = emu.output(&["version"]);
    assert_eq!(out.stdout.len(), 5 * 1024 * 1024);
    assert!(std::str::from_utf8(&out.stdout).is_ok());
}

#[test]
fn flood_survives_a_closed_pipe() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "flood");
    let mut child = emu
        .command(&["version"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = [0u8; 1024];
    std::io::Read::read_exact(&mut stdout, &mut buf).unwrap();
    drop(stdout);
    let status = wait_with_deadline(&mut child, Duration::from_secs(10)).expect("exits");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn slow_then_normal() {
    let emu = Emu::new()
        .with("OBSIDIAN_EMULATOR_FAULT", "slow")
        .with("OBSIDIAN_EMULATOR_SLOW_MS", "400");
    let start = Instant::now();
    assert_eq!(emu.line(&["daily:path"]), "Daily/2026-03-03.md");
    assert!(start.elapsed() >= Duration::from_millis(400));
}

#[test]
fn fault_limited_to_one_command() {
    let emu = Emu::new()
        .with("OBSIDIAN_EMULATOR_FAULT", "app-not-running")
        .with("OBSIDIAN_EMULATOR_FAULT_COMMAND", "tasks");
    assert_eq!(emu.line(&["daily:path"]), "Daily/2026-03-03.md");
    assert_eq!(emu.output(&["tasks"]).status.code(), Some(1));
    assert_eq!(
        emu.output(&["vault=sample-vault", "tasks", "todo"])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn unknown_fault_is_a_loud_error() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "explode");
    let out = emu.output(&["version"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("explode"));
}

#[test]
fn hang_never_finishes() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "hang");
    let mut child = emu.command(&["version"]).spawn().unwrap();
    assert!(wait_with_deadline(&mut child, Duration::from_millis(700)).is_none());
    child.kill().unwrap();
    child.wait().unwrap();
}

#[cfg(unix)]
mod unix {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    fn send(child: &std::process::Child, sig: i32) {
        // SAFETY: kill(2) on our own child's pid.
        let rc = unsafe { libc::kill(child.id() as i32, sig) };
        assert_eq!(rc, 0);
    }

    #[test]
    fn hang_dies_on_sigterm() {
        let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "hang");
        let mut child = emu.command(&["version"]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        send(&child, libc::SIGTERM);
        let status =
            wait_with_deadline(&mut child, Duration::from_secs(5)).expect("SIGTERM ends hang");
        assert_eq!(status.signal(), Some(libc::SIGTERM));
    }

    /// Wait until the child ignores SIGTERM (Linux: the SigIgn mask in
    /// /proc; elsewhere a generous pause).
    fn wait_until_term_ignored(child: &std::process::Child) {
        let status = format!("/proc/{}/status", child.id());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            let Ok(text) = std::fs::read_to_string(&status) else {
                std::thread::sleep(Duration::from_millis(500));
                return;
            };
            let mask = text
                .lines()
                .find_map(|l| l.strip_prefix("SigIgn:"))
                .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
                .unwrap_or(0);
            if mask & (1 << (libc::SIGTERM - 1)) != 0 {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the emulator never started ignoring SIGTERM");
    }

    #[test]
    fn hang_ignore_term_needs_sigkill() {
        let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "hang-ignore-term");
        let mut child = emu.command(&["version"]).spawn().unwrap();
        wait_until_term_ignored(&child);
        send(&child, libc::SIGTERM);
        assert!(
            wait_with_deadline(&mut child, Duration::from_millis(700)).is_none(),
            "SIGTERM must be ignored"
        );
        send(&child, libc::SIGKILL);
        let status =
            wait_with_deadline(&mut child, Duration::from_secs(5)).expect("SIGKILL ends it");
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }

    #[test]
    fn signal_kills_itself() {
        let emu = Emu::new().with("OBSIDIAN_EMULATOR_FAULT", "signal");
        let out = emu.output(&["tasks"]);
        assert_eq!(out.status.signal(), Some(libc::SIGKILL));
        assert_eq!(out.status.code(), None);
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn latency_delays_every_call_within_its_spread() {
    let emu = Emu::new().with("OBSIDIAN_EMULATOR_LATENCY_MS", "300:100");
    for _ in 0..3 {
        let start = Instant::now();
        assert_eq!(emu.line(&["daily:path"]), "Daily/2026-03-03.md");
        assert!(
            start.elapsed() >= Duration::from_millis(200),
            "{:?}",
            start.elapsed()
        );
    }
    let fixed = Emu::new().with("OBSIDIAN_EMULATOR_LATENCY_MS", "250");
    let start = Instant::now();
    assert_eq!(fixed.line(&["daily:path"]), "Daily/2026-03-03.md");
    assert!(start.elapsed() >= Duration::from_millis(250));
    let wrong = Emu::new().with("OBSIDIAN_EMULATOR_LATENCY_MS", "fast");
    let out = wrong.output(&["daily:path"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MS:JITTER"));
}
