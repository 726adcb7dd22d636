//! Fault injection, chosen by `OBSIDIAN_EMULATOR_FAULT`.

use std::io::Write;
use std::time::Duration;

/// The message the real CLI prints when the app cannot be reached.
pub const APP_NOT_RUNNING: &str =
    "The CLI is unable to find Obsidian. Please make sure Obsidian is running and try again.";

/// Apply the configured fault, if any, for this invocation. Returns normally
/// when the command should run as usual (no fault, a fault limited to another
/// command, or after the `slow` delay); otherwise it never returns.
pub fn apply(command: Option<&str>) {
    let Ok(mode) = std::env::var("OBSIDIAN_EMULATOR_FAULT") else {
        return;
    };
    if mode.is_empty() {
        return;
    }
    if let Ok(only) = std::env::var("OBSIDIAN_EMULATOR_FAULT_COMMAND") {
        if !only.is_empty() && command != Some(only.as_str()) {
            return;
        }
    }
    match mode.as_str() {
        "hang" => sleep_forever(),
        "hang-ignore-term" => {
            ignore_sigterm();
            sleep_forever()
        }
        "flood" => flood(),
        "app-not-running" => {
            // On stderr with exit 1, stdout empty: marwansaab/obsidian-cli-mcp
            // specs/060-recover-closed-obsidian/research.md (Windows, 1.12.7).
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(
                crate::platform::line_endings(&format!("{APP_NOT_RUNNING}\n")).as_bytes(),
            );
            let _ = err.flush();
            std::process::exit(1)
        }
        "old-installer" => old_installer_banner(),
        "signal" => kill_self(),
        "orphan" => spawn_grandchild(),
        "orphan-hang" => {
            spawn_grandchild();
            sleep_forever()
        }
        "orphan-grandchild" => grandchild(),
        "flood-stderr" => flood_stderr(),
        "empty" => std::process::exit(0),
        "slow" => {
            let ms = std::env::var("OBSIDIAN_EMULATOR_SLOW_MS")
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .unwrap_or(1000);
            std::thread::sleep(Duration::from_millis(ms));
        }
        other => {
            eprintln!("obsidian-emulator: unknown OBSIDIAN_EMULATOR_FAULT {other:?}");
            std::process::exit(2)
        }
    }
}

/// The two lines an app updated in place over an old installer prints on
/// stdout before every answer; the command then runs as usual. The first line
/// is as in jackal092927/obsidian-official-cli-skills `reports/raw/` (macOS,
/// 1.12.1) with the emulator's date and time and the emulated version; the
/// second as quoted verbatim by several public CLI wrappers that strip it.
fn old_installer_banner() {
    let (date, time) = crate::dates::configured_now();
    let version = crate::commands::app_version();
    let version = version.split_whitespace().next().unwrap_or("1.12.7");
    let banner = format!(
        "{} {:02}:{:02}:{:02} Loading updated app package {}\n{OLD_INSTALLER}\n",
        date.ymd(),
        time.hour,
        time.minute,
        time.second,
        crate::platform::app_package(version),
    );
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(crate::platform::line_endings(&banner).as_bytes());
    let _ = out.flush();
}

/// The old installer's warning line.
pub const OLD_INSTALLER: &str = "Your Obsidian installer is out of date. Please download the latest installer which includes better CLI support: https://obsidian.md/download";

/// `OBSIDIAN_EMULATOR_LATENCY_MS`: every call first waits as long as the
/// real CLI takes (a process start plus a round trip to the app): `250`, or
/// `250:100` for 250 ± 100 ms, uniformly spread. The spread is drawn from
/// the process id and the clock, so calls started together differ.
pub fn latency() {
    let Ok(spec) = std::env::var("OBSIDIAN_EMULATOR_LATENCY_MS") else {
        return;
    };
    let (base, jitter) = match spec.trim().split_once(':') {
        Some((base, jitter)) => (base.trim(), jitter.trim()),
        None => (spec.trim(), "0"),
    };
    let (Ok(base), Ok(jitter)) = (base.parse::<u64>(), jitter.parse::<u64>()) else {
        eprintln!("obsidian-emulator: OBSIDIAN_EMULATOR_LATENCY_MS must be `MS` or `MS:JITTER`, e.g. 250:100; got {spec:?}");
        std::process::exit(2)
    };
    let ms = if jitter == 0 {
        base
    } else {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos() as u64)
            .unwrap_or(0);
        let draw = (nanos ^ (u64::from(std::process::id()) << 17))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            >> 33;
        let offset = draw % (2 * jitter + 1);
        (base + offset).saturating_sub(jitter)
    };
    std::thread::sleep(Duration::from_millis(ms));
}

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

#[cfg(unix)]
fn ignore_sigterm() {
    // SAFETY: installing SIG_IGN for SIGTERM has no preconditions; no Rust
    // state is touched from a signal handler.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn ignore_sigterm() {}

#[cfg(unix)]
fn kill_self() -> ! {
    // SAFETY: raise() with a valid signal number; SIGKILL cannot be caught.
    unsafe {
        libc::raise(libc::SIGKILL);
    }
    std::process::exit(137)
}

#[cfg(not(unix))]
fn kill_self() -> ! {
    std::process::exit(137)
}

/// Print `OBSIDIAN_EMULATOR_FLOOD_BYTES` bytes (default 5 MiB) of valid
/// multi-byte UTF-8 and exit 0. The total is exact: the tail is padded with
/// ASCII so no character is ever cut in half.
fn flood() -> ! {
    let total = std::env::var("OBSIDIAN_EMULATOR_FLOOD_BYTES")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(5 * 1024 * 1024);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut written = 0usize;
    let mut n = 0u64;
    while written < total {
        n += 1;
        let line = format!("{n:08} café crème – 日本語のテキスト – naïve résumé ✓\n");
        let remaining = total - written;
        let chunk: String = if line.len() <= remaining {
            line
        } else if remaining == 1 {
            "\n".to_string()
        } else {
            let mut pad = ".".repeat(remaining - 1);
            pad.push('\n');
            pad
        };
        if out.write_all(chunk.as_bytes()).is_err() {
            std::process::exit(0);
        }
        written += chunk.len();
    }
    let _ = out.flush();
    std::process::exit(0)
}

/// Start a copy of this binary that inherits stdout and stderr and sleeps (the
/// `orphan-grandchild` mode), as a CLI that launches the app would leave it
/// holding the pipes. Its log line is `["--grandchild-of", "<this pid>"]`, so a
/// test can find its pid. Returns once it is started.
fn spawn_grandchild() {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("obsidian-emulator: cannot find own binary: {e}");
            std::process::exit(2)
        }
    };
    let started = std::process::Command::new(exe)
        .args(["--grandchild-of", &std::process::id().to_string()])
        .env("OBSIDIAN_EMULATOR_FAULT", "orphan-grandchild")
        .env_remove("OBSIDIAN_EMULATOR_FAULT_COMMAND")
        .stdin(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        eprintln!("obsidian-emulator: cannot start the grandchild: {e}");
        std::process::exit(2)
    }
}

/// The grandchild: sleeps `OBSIDIAN_EMULATOR_GRANDCHILD_MS` (default 60 000)
/// with the inherited pipes open, then exits 0 without printing anything.
fn grandchild() -> ! {
    let ms = std::env::var("OBSIDIAN_EMULATOR_GRANDCHILD_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(60_000);
    std::thread::sleep(Duration::from_millis(ms));
    std::process::exit(0)
}

/// `flood`, on stderr: `OBSIDIAN_EMULATOR_FLOOD_BYTES` bytes, nothing on
/// stdout, exit 0 (also when the pipe closes early).
fn flood_stderr() -> ! {
    let total = std::env::var("OBSIDIAN_EMULATOR_FLOOD_BYTES")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(5 * 1024 * 1024);
    let line = b"warning: something is wrong with the vault index, retrying\n";
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stderr.lock());
    let mut written = 0usize;
    while written < total {
        let n = line.len().min(total - written);
        if out.write_all(&line[..n]).is_err() {
            std::process::exit(0);
        }
        written += n;
    }
    let _ = out.flush();
    std::process::exit(0)
}
