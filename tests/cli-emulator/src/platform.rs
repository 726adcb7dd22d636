//! The operating system the emulator pretends to run on
//! (`OBSIDIAN_EMULATOR_PLATFORM`), and what that changes in its output.

/// The emulated platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Linux,
    MacOs,
    Windows,
}

/// `OBSIDIAN_EMULATOR_PLATFORM`: `linux` (default), `macos` or `windows`.
/// Anything else is a misconfigured test: a message on stderr, exit 2.
pub fn current() -> Platform {
    match std::env::var("OBSIDIAN_EMULATOR_PLATFORM")
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
        .as_str()
    {
        "" | "linux" => Platform::Linux,
        "macos" | "darwin" | "mac" => Platform::MacOs,
        "windows" | "win32" => Platform::Windows,
        other => {
            eprintln!(
                "obsidian-emulator: OBSIDIAN_EMULATOR_PLATFORM must be linux, macos or windows, got {other:?}"
            );
            std::process::exit(2)
        }
    }
}

/// Text as the CLI writes it on this platform: every line ends with `\r\n`
/// on Windows (shared reference, "Output always ends with a line ending
/// (`\r\n` on Windows)"; that lines inside the output get `\r\n` too is a
/// guess), unchanged elsewhere. A `\r\n` already there is kept as it is.
pub fn line_endings(text: &str) -> String {
    if current() != Platform::Windows {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut previous = '\0';
    for c in text.chars() {
        if c == '\n' && previous != '\r' {
            out.push('\r');
        }
        out.push(c);
        previous = c;
    }
    out
}

/// Where the app keeps its downloaded app package, for the old installer's
/// `Loading updated app package <path>` line. The macOS folder follows
/// jackal092927/obsidian-official-cli-skills `reports/raw/` (1.12.1); the
/// Linux and Windows folders are guesses (Electron's usual user-data folders).
pub fn app_package(version: &str) -> String {
    match current() {
        Platform::MacOs => {
            format!("/Users/user/Library/Application Support/obsidian/obsidian-{version}.asar")
        }
        Platform::Linux => format!("/home/user/.config/obsidian/obsidian-{version}.asar"),
        Platform::Windows => {
            format!("C:\\Users\\user\\AppData\\Roaming\\obsidian\\obsidian-{version}.asar")
        }
    }
}
