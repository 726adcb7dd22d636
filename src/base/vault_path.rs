//! Vault paths the agent may name, normalised one way for every tool. The CLI
//! resolves `path=`, `folder=` and `file=` from the vault root; anything that
//! could point outside the vault, or look like something else than it is, is
//! refused with a message that says how to write it instead.
//!
//! The rule, in order: Unicode NFC (as Obsidian's `normalizePath` does), trim;
//! then refuse empty values, control characters, invisible and
//! direction-changing characters, look-alikes of `.` `/` `\` `:` `~`,
//! `%`-encoded dots, slashes and colons, absolute paths (leading `/`, `\` or
//! `~`, drive letters, UNC), backslashes, `:` (Windows stream names), and
//! segments made only of dots and spaces (`..`, `.`, `.. `). The normalised
//! value is what the CLI receives.

use std::sync::OnceLock;

/// What a value names; only the example in the message differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    /// A path from the vault root, such as `Projects/Plan.md`.
    File,
    /// A folder from the vault root, such as `Projects` (a trailing `/` is dropped).
    Folder,
    /// A note name as `file=` takes it (resolved like a wikilink).
    NoteName,
}

impl PathKind {
    fn example(self) -> &'static str {
        match self {
            PathKind::File => "a path from the vault root such as \"Projects/Plan.md\"",
            PathKind::Folder => "a folder from the vault root such as \"Projects\"",
            PathKind::NoteName => "a note name such as \"Project Plan\"",
        }
    }
}

/// Normalises `value` in place, or says why it cannot name anything in the vault.
pub fn normalise(key: &str, value: &mut String, kind: PathKind) -> Result<(), String> {
    let normalised = normalised(key, value, kind)?;
    *value = normalised;
    Ok(())
}

/// The normalised form of `value`, or why it is refused.
pub fn normalised(key: &str, value: &str, kind: PathKind) -> Result<String, String> {
    let fix = format!("give {}", kind.example());
    let mut text: String = nfc(value).trim().to_string();
    if kind == PathKind::Folder && text.len() > 1 && text.ends_with('/') {
        text.pop();
        // `Projects /` names the same folder as `Projects `, which is trimmed.
        text.truncate(text.trim_end().len());
    }
    if text.is_empty() {
        return Err(format!("`{key}` is empty; {fix}"));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!(
            "`{key}` contains the control character {}; {fix}",
            visible_code(c)
        ));
    }
    if let Some(c) = text.chars().find(|c| is_invisible(*c)) {
        return Err(format!(
            "`{key}` contains the invisible or direction-changing character {}, which would make it look like another name; {fix}",
            visible_code(c)
        ));
    }
    if let Some(c) = text.chars().find(|c| is_path_lookalike(*c)) {
        return Err(format!(
            "`{key}` contains {c:?} ({}), a look-alike of a path character; use the plain character or {fix}",
            visible_code(c)
        ));
    }
    if let Some(encoded) = percent_encoded_separator(&text) {
        return Err(format!(
            "`{key}` contains the %-encoded character {encoded}; write names as they are, not URL-encoded: {fix}"
        ));
    }
    if text.starts_with('/')
        || text.starts_with('\\')
        || text.starts_with('~')
        || has_drive_letter(&text)
    {
        return Err(format!(
            "`{key}` must be inside the vault, not an absolute path; {fix}"
        ));
    }
    if text.contains('\\') {
        return Err(format!("`{key}` uses `\\`; Obsidian paths use `/`: {fix}"));
    }
    if text.contains(':') {
        return Err(format!(
            "`{key}` contains `:`, which no note or folder name may hold (on Windows it names a hidden stream); {fix}"
        ));
    }
    let segments: Vec<&str> = text.split('/').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(format!("`{key}` has an empty part (`//`); {fix}"));
    }
    if segments
        .iter()
        .any(|s| s.chars().all(|c| c == '.' || c.is_whitespace()))
    {
        return Err(format!("`{key}` may not contain `..` or `.` parts; {fix}"));
    }
    Ok(text)
}

/// A path that comes from the user or from stored state (a chip, an image
/// or PDF attached in the chat, a saved prompt's path, a restored chat) in
/// the one form every scope check and every read then uses: `\\` read as
/// `/`, repeated slashes and `.` parts dropped, each `..` taking back the
/// folder before it; then the rule of [`normalised`]. A path whose `..`
/// climbs above the vault's top folder is refused, never clamped, so no
/// check passes on one name while the host reads another. (A tool's own
/// arguments keep the stricter rule: the model is told to write them plainly.)
pub fn resolved(key: &str, value: &str, kind: PathKind) -> Result<String, String> {
    let text = nfc(value);
    let text = text.trim();
    if text.starts_with(['/', '\\']) {
        // Absolute, or a network share: said by `normalised`.
        return normalised(key, text, kind);
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in text.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!(
                        "`{key}` climbs out of the vault (its `..` goes above the vault's top folder); give {}",
                        kind.example()
                    ));
                }
            }
            _ => parts.push(part),
        }
    }
    normalised(key, &parts.join("/"), kind)
}

/// How the running engine composes Unicode (NFC), when it has its own.
static ENGINE_NFC: OnceLock<fn(&str) -> String> = OnceLock::new();

/// In the plugin, NFC comes from the JS engine's `String.prototype.normalize`
/// (set once by `src/wasm` at start): its tables are already in the engine,
/// and a Rust copy would add about 85 KB to main.js. Natively (tests, fuzzing)
/// the unicode-normalization crate does it.
pub fn use_engine_nfc(normalize: fn(&str) -> String) {
    let _ = ENGINE_NFC.set(normalize);
}

/// `text` in Unicode NFC, as Obsidian's `normalizePath` gives it.
pub fn nfc(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    if let Some(normalize) = ENGINE_NFC.get() {
        return normalize(text);
    }
    native_nfc(text)
}

#[cfg(not(target_arch = "wasm32"))]
fn native_nfc(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfc().collect()
}

#[cfg(target_arch = "wasm32")]
fn native_nfc(text: &str) -> String {
    // Only reached if the wasm start did not register the engine's NFC. Not
    // built natively, so the mutation run skips it (.cargo/mutants.toml).
    text.to_string()
}

/// True when `value` lies in the vault's configuration folder
/// (`app.vault.configDir`, usually `.obsidian`). A refusal, so the rule is
/// the union of how the file systems a vault can sit on read a name (a vault
/// on an NTFS, exFAT or SMB drive is read the Windows way on every OS): case
/// is ignored, trailing dots and spaces are dropped (`.obsidian.`,
/// `.obsidian /`), `\` separates like `/`, and an 8.3 short name
/// (`OBSIDI~1`) stands for the long one.
pub fn in_config_dir(value: &str, config_dir: &str) -> bool {
    let config: Vec<&str> = segments(config_dir).collect();
    if config.is_empty() {
        return false;
    }
    let mut named = segments(value);
    config
        .iter()
        .all(|wanted| named.next().is_some_and(|s| same_folder_name(s, wanted)))
}

/// The parts of a path, `.` parts and empty ones (`//`, a leading `/`) left out.
fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split(['/', '\\'])
        .filter(|s| !s.trim().is_empty() && s.trim() != ".")
}

/// Whether two names could name one folder on some file system.
fn same_folder_name(name: &str, wanted: &str) -> bool {
    let folded = |s: &str| {
        nfc(s)
            .trim()
            .trim_end_matches(|c: char| c == '.' || c.is_whitespace())
            .to_lowercase()
    };
    folded(name) == folded(wanted) || is_short_name_of(name, wanted)
}

/// `OBSIDI~1` for `.obsidian`: a stem of up to six characters of the long
/// name (leading dots and spaces dropped, upper case), `~` and a number,
/// maybe an extension. The hashed form Windows uses after many collisions
/// (`OB1A2B~1`) cannot be told from the name; the real-path check before a
/// write resolves those.
fn is_short_name_of(name: &str, long: &str) -> bool {
    let name = name.trim().trim_end_matches(['.', ' ']).to_uppercase();
    let Some((stem, rest)) = name.split_once('~') else {
        return false;
    };
    let number = rest.split_once('.').map_or(rest, |(number, _)| number);
    if stem.is_empty() || number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let long = long.trim_start_matches(['.', ' ']);
    let base = long.rsplit_once('.').map_or(long, |(base, _)| base);
    let base: String = base
        .chars()
        .filter(|c| *c != '.' && *c != ' ')
        .collect::<String>()
        .to_uppercase();
    stem.chars().count() <= 6 && base.starts_with(stem)
}

/// The path a new note gets: `.md` added when the last part has no
/// extension, as the CLI's `create` does (`People/Alice` makes
/// `People/Alice.md`). Every check, preview, journal entry and read-back of
/// a new note uses this form, so none of them looks at another file than
/// the one the CLI writes.
pub fn new_note_path(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(dot) if dot > 0 && dot + 1 < name.len() => path.to_string(),
        _ => format!("{path}.md"),
    }
}

/// The part of `real` (a real path, links followed) inside `root` (the
/// vault folder's real path), `""` for the root itself, or `None` when it
/// lies outside. Both come from the same resolution, so they spell the vault
/// alike; on Windows `\` separates too and case is ignored.
pub fn inside_real_folder(root: &str, real: &str, windows: bool) -> Option<String> {
    let parts = |p: &str| -> Vec<String> {
        let separators: &[char] = if windows { &['/', '\\'] } else { &['/'] };
        p.split(separators)
            .filter(|s| !s.is_empty())
            .map(|s| {
                if windows {
                    s.to_lowercase()
                } else {
                    s.to_string()
                }
            })
            .collect()
    };
    let (root, real_parts) = (parts(root), parts(real));
    if real_parts.len() < root.len() || root.iter().zip(&real_parts).any(|(a, b)| a != b) {
        return None;
    }
    let original: Vec<&str> = real
        .split(if windows {
            &['/', '\\'][..]
        } else {
            &['/'][..]
        })
        .filter(|s| !s.is_empty())
        .collect();
    Some(original[root.len()..].join("/"))
}

/// Checks a vault-relative file path such as `Projects/Plan.md`.
pub fn check_vault_path(key: &str, value: &mut String) -> Result<(), String> {
    normalise(key, value, PathKind::File)
}

/// Checks a vault-relative folder such as `Projects/2026`.
pub fn check_vault_folder(key: &str, value: &mut String) -> Result<(), String> {
    normalise(key, value, PathKind::Folder)
}

/// Checks an optional `folder` parameter.
pub fn check_optional_folder(key: &str, value: &mut Option<String>) -> Result<(), String> {
    value
        .as_mut()
        .map_or(Ok(()), |folder| check_vault_folder(key, folder))
}

/// Checks a note name as `file=` takes it (resolved like a wikilink).
pub fn check_note_name(key: &str, value: &mut String) -> Result<(), String> {
    normalise(key, value, PathKind::NoteName)
}

/// `U+202E`, the way a person can read a character they cannot see.
pub fn visible_code(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// Characters that change how text around them is shown, or show nothing:
/// bidirectional controls and isolates, zero-width characters, the BOM, the
/// combining grapheme joiner, Hangul fillers, tag characters. Variation
/// selectors stay allowed: emoji in note names carry them (☕️).
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'
        | '\u{00AD}' | '\u{180E}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{3164}'
        | '\u{FFA0}' | '\u{E0000}'..='\u{E007F}')
}

/// Look-alikes of `.` `/` `\` `:` `~` that some file systems and Windows'
/// best-fit code pages turn into the real thing.
fn is_path_lookalike(c: char) -> bool {
    matches!(
        c,
        '\u{FF0E}' // fullwidth full stop
            | '\u{FF0F}' // fullwidth solidus
            | '\u{FF3C}' // fullwidth reverse solidus
            | '\u{FF1A}' // fullwidth colon
            | '\u{FF5E}' // fullwidth tilde
            | '\u{2024}' // one dot leader
            | '\u{2025}' // two dot leader
            | '\u{FE52}' // small full stop
            | '\u{FE68}' // small reverse solidus
            | '\u{2215}' // division slash
            | '\u{2044}' // fraction slash
            | '\u{29F8}' // big solidus
            | '\u{29F9}' // big reverse solidus
    )
}

/// `%2e`, `%2f`, `%5c`, `%3a`, `%25` (any case): separators and dots in URL
/// encoding, which a later decoding step could turn into `../`.
fn percent_encoded_separator(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    bytes.windows(3).find_map(|w| {
        if w[0] != b'%' {
            return None;
        }
        let code = std::str::from_utf8(&w[1..]).ok()?;
        let value = u8::from_str_radix(code, 16).ok()?;
        matches!(value, b'.' | b'/' | b'\\' | b':' | b'%').then(|| format!("%{code}"))
    })
}

fn has_drive_letter(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values that pass, and what the CLI then receives.
    const ACCEPTED: &[(&str, &str)] = &[
        ("Projects/Plan.md", "Projects/Plan.md"),
        ("Café ☕.md", "Café ☕.md"),
        ("Cafe\u{301}.md", "Café.md"), // NFD becomes NFC, as in Obsidian
        ("  Projects/Plan.md  ", "Projects/Plan.md"),
        ("a..b/c", "a..b/c"),
        ("Daily", "Daily"),
        (".hidden/x", ".hidden/x"),
        ("Notes…", "Notes…"),
        ("日本語/ﾃｽﾄ.md", "日本語/ﾃｽﾄ.md"),
        ("100% done", "100% done"),
        ("Coffee ☕\u{FE0F}.md", "Coffee ☕\u{FE0F}.md"),
    ];

    /// Values that are refused, and a word the message must contain.
    const REFUSED: &[(&str, &str)] = &[
        ("", "empty"),
        ("  ", "empty"),
        ("/etc/passwd", "absolute"),
        ("\\\\server\\share", "absolute"),
        ("//server/share", "absolute"),
        ("C:\\x", "absolute"),
        ("c:/x", "absolute"),
        ("~/notes", "absolute"),
        ("../x", "`..`"),
        (" ../x", "`..`"),
        (".. /x", "`..`"),
        ("a/../../b", "`..`"),
        ("a/./b", "`..`"),
        ("a/.../b", "`..`"),
        ("..", "`..`"),
        ("a\\b", "`\\`"),
        ("a//b", "empty part"),
        ("note.md:secret", "stream"),
        ("note.md::$DATA", "stream"),
        ("%2e%2e/x", "%-encoded"),
        ("%2E%2E%2Fx", "%-encoded"),
        ("a%5cb", "%-encoded"),
        ("%252e%252e/x", "%-encoded"),
        ("\u{FF0E}\u{FF0E}/x", "look-alike"),
        ("..\u{FF0F}x", "look-alike"),
        ("a\u{2215}b", "look-alike"),
        ("\u{2025}/x", "look-alike"),
        ("a\nb", "control"),
        ("a\u{0}b", "control"),
        ("\u{202E}dm.txt", "direction"),
        ("a\u{200B}b", "invisible"),
        ("\u{2066}x\u{2069}", "direction"),
        ("..\u{034F}/x", "invisible"),
        ("a\u{E0041}b", "invisible"),
    ];

    #[test]
    fn accepted_values_are_normalised() {
        for (input, expected) in ACCEPTED {
            assert_eq!(
                normalised("path", input, PathKind::File).as_deref(),
                Ok(*expected),
                "{input:?}"
            );
        }
    }

    #[test]
    fn refused_values_name_the_field_the_problem_and_the_fix() {
        for kind in [PathKind::File, PathKind::Folder, PathKind::NoteName] {
            for (input, word) in REFUSED {
                let err = normalised("folder", input, kind).unwrap_err();
                assert!(err.starts_with("`folder`"), "{input:?}: {err}");
                assert!(err.contains(word), "{input:?} should mention {word}: {err}");
                assert!(err.contains("such as"), "{input:?}: {err}");
            }
        }
    }

    /// Issue 36, item 2: what the user or stored state names is resolved
    /// the way the file system will read it before any check.
    #[test]
    fn a_path_from_the_user_is_resolved_before_it_is_checked() {
        for (given, meant) in [
            ("Projects/../Secret/Diary.md", "Secret/Diary.md"),
            ("./Projects/Plan.md", "Projects/Plan.md"),
            ("Projects//Plan.md", "Projects/Plan.md"),
            ("Projects\\Plan.md", "Projects/Plan.md"),
            ("Projects/./2026/../Plan.md", "Projects/Plan.md"),
            (" Projects\\.\\Plan.md ", "Projects/Plan.md"),
            ("Cafe\u{301}/x.md", "Caf\u{e9}/x.md"),
        ] {
            assert_eq!(
                resolved("attachment", given, PathKind::File).as_deref(),
                Ok(meant),
                "{given:?}"
            );
            // Once resolved, it stays as it is.
            assert_eq!(
                resolved("attachment", meant, PathKind::File).as_deref(),
                Ok(meant)
            );
        }
        for (given, word) in [
            ("../Secret.md", "climbs out of the vault"),
            ("Projects/../../x.md", "climbs out of the vault"),
            ("Projects\\..\\..\\x.md", "climbs out of the vault"),
            ("/etc/passwd", "absolute"),
            ("\\\\server\\share\\x.md", "absolute"),
            ("C:\\x.md", "absolute"),
            (".", "empty"),
            ("Projects/..", "empty"),
            ("a/.. /x.md", "`..`"),
            ("%2e%2e/x.md", "%-encoded"),
        ] {
            let err = resolved("attachment", given, PathKind::File).unwrap_err();
            assert!(err.starts_with("`attachment`"), "{given:?}: {err}");
            assert!(err.contains(word), "{given:?} should say {word}: {err}");
            assert!(err.contains("such as"), "{given:?}: {err}");
        }
    }

    #[test]
    fn a_real_path_is_inside_the_vault_only_below_its_real_folder() {
        let linux = |real: &str| inside_real_folder("/home/ada/Vault", real, false);
        assert_eq!(
            linux("/home/ada/Vault/Notes/A.md").as_deref(),
            Some("Notes/A.md")
        );
        assert_eq!(linux("/home/ada/Vault").as_deref(), Some(""));
        assert_eq!(linux("/home/ada/Vault2/A.md"), None);
        assert_eq!(linux("/home/ada/vault/A.md"), None);
        assert_eq!(linux("/etc/passwd"), None);
        assert_eq!(linux("/home/ada"), None);
        let windows = |real: &str| inside_real_folder("C:\\Users\\Ada\\Vault", real, true);
        assert_eq!(
            windows("c:\\users\\ada\\vault\\Notes\\A.md").as_deref(),
            Some("Notes/A.md")
        );
        assert_eq!(windows("D:\\Users\\Ada\\Vault\\A.md"), None);
    }

    #[test]
    fn a_new_note_gets_the_extension_the_cli_adds() {
        for (given, made) in [
            ("People/Alice", "People/Alice.md"),
            ("People/Alice.md", "People/Alice.md"),
            ("Alice", "Alice.md"),
            ("Board.canvas", "Board.canvas"),
            (".hidden/notes", ".hidden/notes.md"),
            ("a.b/Alice", "a.b/Alice.md"),
            ("Alice.", "Alice..md"),
            (".gitignore", ".gitignore.md"),
        ] {
            assert_eq!(new_note_path(given), made, "{given}");
        }
    }

    #[test]
    fn folders_may_end_with_a_slash() {
        let mut folder = "Projects/".to_string();
        check_vault_folder("folder", &mut folder).unwrap();
        assert_eq!(folder, "Projects");
        // Found by `tests/fuzz/` (paths): the space before the slash was
        // kept, so "a /" became "a ", untrimmed and not idempotent.
        for input in ["a /", " a / ", "a\u{3000}/"] {
            assert_eq!(
                normalised("folder", input, PathKind::Folder).as_deref(),
                Ok("a"),
                "{input:?}"
            );
        }
        assert!(normalised("folder", "a/ /", PathKind::Folder).is_err());
        let mut path = "Projects/".to_string();
        assert!(check_vault_path("path", &mut path).is_err());
    }

    #[test]
    fn the_config_folder_is_recognised_without_case() {
        for inside in [
            ".obsidian",
            ".obsidian/plugins/x/data.json",
            ".Obsidian/app.json",
            "./.obsidian/app.json",
        ] {
            assert!(in_config_dir(inside, ".obsidian"), "{inside}");
        }
        for outside in [
            ".obsidianx/a",
            "Notes/.obsidian",
            "obsidian/a",
            "OBSIDIAN~1/a",
        ] {
            assert!(!in_config_dir(outside, ".obsidian"), "{outside}");
        }
        assert!(in_config_dir(".config-x/a.md", ".config-x"));
    }

    /// Issue 26, items 5 and 36: Windows drops trailing dots and spaces from
    /// a name, reads `\` as a separator and answers to 8.3 short names; each
    /// form reaches the config folder there (and on an NTFS or exFAT drive
    /// mounted anywhere), so each is refused everywhere.
    #[test]
    fn the_config_folder_is_recognised_in_every_form_windows_reads_as_it() {
        for inside in [
            ".obsidian /plugins/x/data.json",
            ".obsidian./x.md",
            ".obsidian.../x.md",
            ".obsidian. ./x.md",
            ".OBSIDIAN\\x.md",
            ".obsidian\\plugins\\x\\data.json",
            "OBSIDI~1/plugins/x/data.json",
            "obsidi~1\\app.json",
            "OBSIDI~12/x",
            "OBS~1/x",
            "OBSIDI~1.OBS/x",
            "/.obsidian/x",
        ] {
            assert!(in_config_dir(inside, ".obsidian"), "{inside}");
        }
        for outside in [
            ".obsidian-notes/x.md",
            "OBSIDIAN~1/x.md",
            "OBSIDI~/x",
            "OBSIDI~x/x",
            "XOBSID~1/x",
            "Notes/OBSIDI~1/x",
            "..obsidian/x",
        ] {
            assert!(!in_config_dir(outside, ".obsidian"), "{outside}");
        }
        assert!(in_config_dir("CONFIG~1/a.md", ".config-x"));
        assert!(in_config_dir("My config./a.md", "My config"));
        // Found by the mutation run: the short name's stem leaves out the
        // long name's spaces and inner dots, so a config folder renamed to
        // one with a space or a dot is reached by its short name too.
        assert!(in_config_dir("MYCONF~1/a.md", "My config"));
        assert!(in_config_dir("MYCONF~1/a.md", ".my.conf.d"));
        assert!(!in_config_dir("MYCONG~1/a.md", "My config"));
    }

    /// Found by the mutation run: `/` alone is the file system's root, not
    /// an empty folder name, and the message says so.
    #[test]
    fn a_lone_slash_is_refused_as_an_absolute_path() {
        for kind in [PathKind::Folder, PathKind::File, PathKind::NoteName] {
            let err = normalised("folder", "/", kind).unwrap_err();
            assert!(err.contains("not an absolute path"), "{kind:?}: {err}");
        }
    }

    /// Found by the mutation run: once the wasm start registers the JS
    /// engine's NFC, a non-ASCII value goes through it. This is the only test that registers one; it composes as the
    /// crate does, so the other tests in this binary see the same results.
    #[test]
    fn a_registered_engine_nfc_is_the_one_used() {
        use std::sync::atomic::{AtomicBool, Ordering};
        static CALLED: AtomicBool = AtomicBool::new(false);
        fn recording_nfc(text: &str) -> String {
            use unicode_normalization::UnicodeNormalization;
            CALLED.store(true, Ordering::SeqCst);
            text.nfc().collect()
        }
        use_engine_nfc(recording_nfc);
        assert_eq!(nfc("Plan.md"), "Plan.md");
        assert_eq!(nfc("Cafe\u{301}.md"), "Caf\u{e9}.md");
        assert!(
            CALLED.load(Ordering::SeqCst),
            "the registered NFC was not used"
        );
    }
}
