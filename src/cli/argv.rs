//! How one CLI call becomes argv: `[vault=<name>] <command> key=value… flag…`.
//!
//! Each parameter is exactly one argv element, so no value can ever add an
//! element, a flag or a command. Values are escaped so that the CLI, which turns
//! `\n` into a newline and `\t` into a tab, reads back exactly the original text.

use thiserror::Error;

/// Parameters the CLI accepts but that only move Obsidian's UI around; an agent
/// never sends them (they would open panes or copy to the user's clipboard).
pub const UI_ONLY_PARAMETERS: &[&str] = &["open", "newtab", "paneType", "silent", "--copy", "copy"];

/// One call of the Obsidian CLI, before it is turned into argv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliInvocation {
    /// `vault=<name>`; `None` means the vault the CLI picks (the open one).
    pub vault: Option<String>,
    pub command: String,
    /// `key=value` parameters, in the order they are sent.
    pub parameters: Vec<(String, String)>,
    /// Bare flags such as `total` or `todo`.
    pub flags: Vec<String>,
}

/// A value the CLI could not receive intact.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ArgvError {
    #[error("`{key}` contains the control character U+{code:04X}, which the Obsidian CLI cannot receive; remove it")]
    ControlCharacter { key: String, code: u32 },
    #[error("`{key}` is a UI-only parameter and is never sent")]
    UiOnly { key: String },
    #[error("`{key}` is not a valid parameter name")]
    BadKey { key: String },
}

impl CliInvocation {
    pub fn new(command: impl Into<String>) -> Self {
        CliInvocation {
            vault: None,
            command: command.into(),
            parameters: Vec::new(),
            flags: Vec::new(),
        }
    }

    pub fn in_vault(mut self, vault: Option<&str>) -> Self {
        self.vault = vault.filter(|v| !v.is_empty()).map(str::to_string);
        self
    }

    pub fn parameter(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.parameters.push((key.into(), value.into()));
        self
    }

    /// Sets `key` to `value`, replacing what it held.
    pub fn set_parameter(&mut self, key: &str, value: &str) {
        self.parameters.retain(|(k, _)| k != key);
        self.parameters.push((key.to_string(), value.to_string()));
    }

    pub fn flag(mut self, flag: impl Into<String>) -> Self {
        self.flags.push(flag.into());
        self
    }

    /// The argv for the process (without the program itself).
    pub fn to_argv(&self) -> Result<Vec<String>, ArgvError> {
        let mut argv = Vec::with_capacity(2 + self.parameters.len() + self.flags.len());
        // The CLI only honours `vault=` as the very first argument.
        if let Some(vault) = &self.vault {
            argv.push(format!("vault={}", escape_value("vault", vault)?));
        }
        argv.push(self.command.clone());
        for (key, value) in &self.parameters {
            check_key(key)?;
            argv.push(format!("{key}={}", escape_value(key, value)?));
        }
        for flag in &self.flags {
            check_key(flag)?;
            argv.push(flag.clone());
        }
        Ok(argv)
    }
}

fn check_key(key: &str) -> Result<(), ArgvError> {
    if UI_ONLY_PARAMETERS.contains(&key) {
        return Err(ArgvError::UiOnly {
            key: key.to_string(),
        });
    }
    let valid = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid || key == "vault" {
        return Err(ArgvError::BadKey {
            key: key.to_string(),
        });
    }
    Ok(())
}

/// Escapes a value so the CLI's unescaping gives back `value` exactly (after
/// carriage returns are normalised to newlines).
///
/// Backslashes are doubled first, so a literal `\times` survives instead of
/// becoming TAB + `imes`; then newlines and tabs become `\n` and `\t`.
pub fn escape_value(key: &str, value: &str) -> Result<String, ArgvError> {
    let mut out = String::with_capacity(value.len() + 8);
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => {
                // CRLF and lone CR both become one newline.
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            c if c.is_control() => {
                return Err(ArgvError::ControlCharacter {
                    key: key.to_string(),
                    code: c as u32,
                })
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN).
pub const MAX_UNIX_ARGUMENT_BYTES: usize = 128 * 1024 - 1;
/// macOS allows 1 MiB for arguments and environment together; leave room.
pub const MAX_UNIX_COMMAND_LINE_BYTES: usize = 896 * 1024;
/// Windows' CreateProcess takes at most 32,767 UTF-16 units, program included.
pub const MAX_WINDOWS_COMMAND_LINE_UNITS: usize = 32_767;

/// Checks that the operating system will accept this command line; a value
/// too long for it would otherwise fail with a bare E2BIG.
pub fn check_size(program: &str, argv: &[String], os: crate::base::host::Os) -> Result<(), String> {
    let key_of = |element: &str| {
        element
            .split_once('=')
            .map_or(element, |(k, _)| k)
            .to_string()
    };
    if os == crate::base::host::Os::Windows {
        // Each argument may gain quotes and escapes; count 3 extra units each.
        let units: usize = program.encode_utf16().count()
            + 2
            + argv
                .iter()
                .map(|a| a.encode_utf16().count() + 3)
                .sum::<usize>();
        if units > MAX_WINDOWS_COMMAND_LINE_UNITS {
            let biggest = argv
                .iter()
                .max_by_key(|a| a.len())
                .map(|a| key_of(a))
                .unwrap_or_default();
            return Err(format!(
                "the command line would be {units} characters and Windows allows {MAX_WINDOWS_COMMAND_LINE_UNITS}; `{biggest}` is the longest part. Send the text in smaller pieces"
            ));
        }
        return Ok(());
    }
    if let Some(element) = argv.iter().find(|a| a.len() > MAX_UNIX_ARGUMENT_BYTES) {
        return Err(format!(
            "`{}` is {} KiB and one value can be at most 128 KiB; send the text in smaller pieces",
            key_of(element),
            element.len() / 1024
        ));
    }
    let total: usize = program.len() + 1 + argv.iter().map(|a| a.len() + 1).sum::<usize>();
    if total > MAX_UNIX_COMMAND_LINE_BYTES {
        return Err(format!(
            "the command line would be {} KiB and at most {} KiB is safe; send the text in smaller pieces",
            total / 1024,
            MAX_UNIX_COMMAND_LINE_BYTES / 1024
        ));
    }
    Ok(())
}

/// The text the CLI will see after unescaping: what `escape_value` promises to
/// preserve. Carriage returns become newlines.
pub fn normalise_line_endings(value: &str) -> String {
    value.replace("\r\n", "\n").replace('\r', "\n")
}

// Native only: proptest does not build for wasm32, and plain #[test]s do not
// run there anyway (the wasm boundary has its own tests).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How the real CLI reads a value (see `shared/reference/obsidian-cli.md`).
    fn unescape_like_cli(value: &str) -> String {
        let mut out = String::new();
        let mut chars = value.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.peek() {
                    Some('\\') => {
                        chars.next();
                        out.push('\\');
                    }
                    Some('n') => {
                        chars.next();
                        out.push('\n');
                    }
                    Some('t') => {
                        chars.next();
                        out.push('\t');
                    }
                    _ => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn vault_comes_first_then_command_parameters_flags() {
        let argv = CliInvocation::new("tasks")
            .in_vault(Some("My Vault"))
            .parameter("file", "Project Plan")
            .flag("todo")
            .flag("verbose")
            .to_argv()
            .unwrap();
        assert_eq!(
            argv,
            [
                "vault=My Vault",
                "tasks",
                "file=Project Plan",
                "todo",
                "verbose"
            ]
        );
    }

    #[test]
    fn empty_vault_name_means_the_open_vault() {
        let argv = CliInvocation::new("daily:read")
            .in_vault(Some(""))
            .to_argv()
            .unwrap();
        assert_eq!(argv, ["daily:read"]);
    }

    #[test]
    fn latex_backslashes_survive() {
        let escaped = escape_value("content", r"$a \times b$").unwrap();
        assert_eq!(escaped, r"$a \\times b$");
        assert_eq!(unescape_like_cli(&escaped), r"$a \times b$");
    }

    #[test]
    fn newlines_tabs_and_carriage_returns() {
        assert_eq!(
            escape_value("content", "a\r\nb\rc\td\n").unwrap(),
            r"a\nb\nc\td\n"
        );
    }

    #[test]
    fn control_characters_are_refused_with_their_code() {
        let err = escape_value("content", "a\0b").unwrap_err();
        assert_eq!(
            err,
            ArgvError::ControlCharacter {
                key: "content".into(),
                code: 0
            }
        );
        assert!(err.to_string().contains("U+0000"));
        assert!(escape_value("content", "bell\u{7}").is_err());
        assert!(escape_value("content", "next line\u{85}").is_err());
    }

    #[test]
    fn ui_only_and_malformed_keys_are_refused() {
        for key in ["open", "newtab", "paneType", "--copy", "silent"] {
            let result = CliInvocation::new("daily:append")
                .parameter(key, "x")
                .to_argv();
            assert!(matches!(result, Err(ArgvError::UiOnly { .. })), "{key}");
        }
        for key in ["", "a b", "a=b", "-x", "vault"] {
            let result = CliInvocation::new("read").parameter(key, "x").to_argv();
            assert!(matches!(result, Err(ArgvError::BadKey { .. })), "{key:?}");
        }
        let result = CliInvocation::new("tasks").flag("open").to_argv();
        assert!(matches!(result, Err(ArgvError::UiOnly { .. })));
    }

    #[test]
    fn command_lines_the_system_would_refuse_are_caught_first() {
        use crate::base::host::Os;
        let big = |n: usize| format!("content={}", "a".repeat(n));
        assert!(check_size(
            "/bin/obsidian",
            &["daily:append".into(), big(100_000)],
            Os::Linux
        )
        .is_ok());
        let err = check_size(
            "/bin/obsidian",
            &["daily:append".into(), big(200_000)],
            Os::Linux,
        )
        .unwrap_err();
        assert!(err.starts_with("`content` is 195 KiB"), "{err}");
        let many: Vec<String> = (0..10).map(|_| big(100_000)).collect();
        assert!(check_size("/bin/obsidian", &many, Os::Macos)
            .unwrap_err()
            .contains("at most 896 KiB"));
        assert!(check_size(
            "C:\\o\\Obsidian.com",
            &["read".into(), big(30_000)],
            Os::Windows
        )
        .is_ok());
        let err = check_size(
            "C:\\o\\Obsidian.com",
            &["read".into(), big(33_000)],
            Os::Windows,
        )
        .unwrap_err();
        assert!(
            err.contains("Windows allows 32767") && err.contains("`content`"),
            "{err}"
        );
    }

    /// Exactly at each limit, and one over it: an argument of Linux's
    /// MAX_ARG_STRLEN (128 KiB with its terminating NUL), a command line of
    /// 896 KiB counting every element's NUL, and a Windows command line of
    /// 32 767 units with every part quoted and the arguments spaced apart.
    #[test]
    fn each_size_limit_holds_to_the_byte() {
        use crate::base::host::Os;
        let element = |key: &str, n: usize| format!("{key}={}", "a".repeat(n - key.len() - 1));
        for os in [Os::Linux, Os::Macos] {
            let at = element("content", 128 * 1024 - 1);
            assert!(check_size("/o", &["append".into(), at], os).is_ok());
            let over = element("content", 128 * 1024);
            let err = check_size("/o", &["append".into(), over], os).unwrap_err();
            assert!(err.starts_with("`content` is 128 KiB"), "{err}");
        }
        // 896 KiB in all: "/o" and 7 elements of 128 KiB each, every one
        // with its NUL, the last one shorter by the program's 3 bytes.
        let line = |extra: usize| -> Vec<String> {
            let mut argv: Vec<String> =
                (0..6).map(|_| element("content", 128 * 1024 - 1)).collect();
            argv.push(element("content", 128 * 1024 - 1 - 3 + extra));
            argv
        };
        let nul_counted = |argv: &[String]| 3 + argv.iter().map(|a| a.len() + 1).sum::<usize>();
        assert_eq!(nul_counted(&line(0)), 896 * 1024);
        assert!(check_size("/o", &line(0), Os::Macos).is_ok());
        let err = check_size("/o", &line(1), Os::Macos).unwrap_err();
        assert!(err.contains("at most 896 KiB"), "{err}");
        // Windows: `"C:\o.com" "read" "content=…"`.
        let program = "C:\\o.com";
        let windows = |n: usize| vec!["read".to_string(), element("content", n)];
        let quoted = |argv: &[String]| {
            let mut line = format!("\"{program}\"");
            for a in argv {
                line.push_str(&format!(" \"{a}\""));
            }
            line.encode_utf16().count()
        };
        let fits = 32_767 - quoted(&windows(10)) + 10;
        assert_eq!(quoted(&windows(fits)), 32_767);
        assert!(check_size(program, &windows(fits), Os::Windows).is_ok());
        let err = check_size(program, &windows(fits + 1), Os::Windows).unwrap_err();
        assert!(err.contains("would be 32768 characters"), "{err}");
    }

    proptest! {
        // A fixed seed: the test command draws the same cases every time.
        #![proptest_config(ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(26),
            ..ProptestConfig::with_cases(2000)
        })]

        /// Unescaping a serialized value the way the CLI does gives the original.
        #[test]
        fn cli_reads_back_the_original(value in "(?s).{0,64}") {
            match escape_value("content", &value) {
                Ok(escaped) => prop_assert_eq!(unescape_like_cli(&escaped), normalise_line_endings(&value)),
                Err(ArgvError::ControlCharacter { code, .. }) => {
                    let c = char::from_u32(code).unwrap();
                    prop_assert!(c.is_control() && c != '\n' && c != '\t' && c != '\r');
                    prop_assert!(value.contains(c));
                }
                Err(other) => prop_assert!(false, "unexpected {other}"),
            }
        }

        /// Backslash-heavy text, the case that broke LaTeX in the real CLI.
        #[test]
        fn backslash_runs_round_trip(value in r"[\\nt\n\t a]{0,40}") {
            let escaped = escape_value("content", &value).unwrap();
            prop_assert_eq!(unescape_like_cli(&escaped), value);
        }

        /// No value ever produces an extra argv element or moves the command.
        #[test]
        fn one_element_per_parameter(
            values in proptest::collection::vec("(?s).{0,24}", 1..6),
            vault in proptest::option::of("[^\u{0}-\u{1f}]{1,12}"),
        ) {
            let mut invocation = CliInvocation::new("search").in_vault(vault.as_deref());
            for (i, value) in values.iter().enumerate() {
                invocation = invocation.parameter(format!("p{i}"), value.clone());
            }
            if let Ok(argv) = invocation.flag("total").to_argv() {
                let offset = usize::from(vault.is_some());
                prop_assert_eq!(argv.len(), offset + 1 + values.len() + 1);
                prop_assert_eq!(&argv[offset], "search");
                for (i, element) in argv[offset + 1..argv.len() - 1].iter().enumerate() {
                    let prefix = format!("p{i}=");
                    prop_assert!(element.starts_with(&prefix));
                    prop_assert!(!element.contains('\n'));
                }
                prop_assert_eq!(argv.last().unwrap(), "total");
            }
        }
    }
}
