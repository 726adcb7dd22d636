//! Command-line parsing, the way the real CLI splits its argv.
//!
//! `obsidian [vault=<name>] <command> [key=value ...] [flag ...]`
//!
//! * `vault=` is only recognised as the very first argument.
//! * `--copy` is accepted anywhere and ignored.
//! * The first remaining argument is the command.
//! * Every later argument containing `=` is a parameter, split at the first
//!   `=`; its value is unescaped (see [`unescape`]). Anything else is a flag.
//! * A parameter given twice keeps its last value.

/// One parsed invocation.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Invocation {
    pub vault: Option<String>,
    pub command: Option<String>,
    pub params: Vec<(String, String)>,
    pub flags: Vec<String>,
}

impl Invocation {
    /// The value of a parameter (the last one wins).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a parameter, treating an empty value as absent (the real
    /// CLI checks required parameters for truthiness).
    pub fn get_nonempty(&self, key: &str) -> Option<&str> {
        self.get(key).filter(|v| !v.is_empty())
    }

    /// Whether a bare flag was given.
    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

/// Parse the arguments that follow `argv[0]`.
pub fn parse(args: &[String]) -> Invocation {
    let mut inv = Invocation::default();
    let mut rest = args.iter().peekable();
    if let Some(first) = rest.peek() {
        if let Some(name) = first.strip_prefix("vault=") {
            inv.vault = Some(unescape(name));
            rest.next();
        }
    }
    for arg in rest {
        if arg == "--copy" {
            continue;
        }
        if inv.command.is_none() {
            inv.command = Some(arg.clone());
            continue;
        }
        match arg.split_once('=') {
            Some((key, value)) => inv.params.push((key.to_string(), unescape(value))),
            None => inv.flags.push(arg.clone()),
        }
    }
    inv
}

/// Unescape a parameter value the way the real CLI does: scanning left to
/// right, `\\` becomes `\`, `\n` a newline and `\t` a tab; any other
/// backslash sequence is kept as it is.
pub fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('\\') => {
                out.push('\\');
                chars.next();
            }
            Some('n') => {
                out.push('\n');
                chars.next();
            }
            Some('t') => {
                out.push('\t');
                chars.next();
            }
            _ => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn vault_only_first() {
        let inv = parse(&argv(&["vault=My Vault", "read", "vault=Other"]));
        assert_eq!(inv.vault.as_deref(), Some("My Vault"));
        assert_eq!(inv.command.as_deref(), Some("read"));
        assert_eq!(inv.get("vault"), Some("Other"));
    }

    #[test]
    fn params_flags_and_copy() {
        let inv = parse(&argv(&["tasks", "--copy", "file=a=b", "todo", "verbose"]));
        assert_eq!(inv.command.as_deref(), Some("tasks"));
        assert_eq!(inv.get("file"), Some("a=b"));
        assert!(inv.has("todo") && inv.has("verbose") && !inv.has("--copy"));
    }

    #[test]
    fn unescape_rules() {
        assert_eq!(unescape(r"a\nb\tc"), "a\nb\tc");
        assert_eq!(unescape(r"\\times"), r"\times");
        assert_eq!(unescape(r"\times"), "\times");
        assert_eq!(unescape(r"\x \"), r"\x \");
        assert_eq!(unescape(r"\\n"), r"\n");
    }
}
