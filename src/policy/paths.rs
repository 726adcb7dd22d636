//! Vault paths the agent may name. The CLI resolves `path=` and `folder=` from
//! the vault root; anything that could point outside the vault is refused with
//! a message that says how to write it instead.

/// Checks a vault-relative file path such as `Projects/Plan.md`.
pub fn check_vault_path(key: &str, value: &str) -> Result<(), String> {
    check(
        key,
        value,
        "a path from the vault root such as \"Projects/Plan.md\"",
    )
}

/// Checks a vault-relative folder such as `Projects/2026` (no trailing slash needed).
pub fn check_vault_folder(key: &str, value: &str) -> Result<(), String> {
    check(
        key,
        value,
        "a folder from the vault root such as \"Projects\"",
    )
}

/// Checks an optional `folder` parameter.
pub fn check_optional_folder(key: &str, value: &Option<String>) -> Result<(), String> {
    value
        .as_deref()
        .map_or(Ok(()), |folder| check_vault_folder(key, folder))
}

/// Checks a note name as `file=` takes it (resolved like a wikilink).
pub fn check_note_name(key: &str, value: &str) -> Result<(), String> {
    check(key, value, "a note name such as \"Project Plan\"")
}

fn check(key: &str, value: &str, example: &str) -> Result<(), String> {
    let fix = format!("give {example}");
    if value.trim().is_empty() {
        return Err(format!("`{key}` is empty; {fix}"));
    }
    if value.starts_with('/')
        || value.starts_with('\\')
        || value.starts_with('~')
        || has_drive_letter(value)
    {
        return Err(format!(
            "`{key}` must be inside the vault, not an absolute path; {fix}"
        ));
    }
    if value.contains('\\') {
        return Err(format!("`{key}` uses `\\`; Obsidian paths use `/`: {fix}"));
    }
    if value.split('/').any(|segment| segment == "..") {
        return Err(format!("`{key}` may not contain `..`; {fix}"));
    }
    Ok(())
}

fn has_drive_letter(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_paths_pass() {
        for ok in [
            "Projects/Plan.md",
            "Café ☕.md",
            "a..b/c",
            "Daily",
            ".hidden/x",
        ] {
            assert_eq!(check_vault_path("path", ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn escapes_are_refused_with_a_fix() {
        for bad in [
            "",
            "  ",
            "/etc/passwd",
            "\\\\server\\share",
            "C:\\x",
            "c:/x",
            "~/notes",
            "../x",
            "a/../../b",
            "a\\b",
            "..",
        ] {
            let err = check_vault_folder("folder", bad).unwrap_err();
            assert!(err.starts_with("`folder`"), "{bad}: {err}");
            assert!(err.contains("Projects"), "{bad}: {err}");
        }
    }
}
