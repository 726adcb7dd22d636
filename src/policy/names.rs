//! How the platform's file system tells two names apart, so that a folder
//! scope holds exactly the files the file system puts in that folder: Linux
//! compares bytes (an NFD `Café/` and an NFC `Café/` are two folders there),
//! Windows ignores case, macOS ignores case and Unicode form (APFS and HFS+ as
//! formatted by default).

use std::borrow::Cow;

use crate::base::host::Os;
use crate::base::vault_path;

/// One platform's rule for comparing names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRule {
    /// Byte for byte (Linux, and any platform not known: comparing exactly
    /// refuses a name that might be the same, never admits one that is not).
    Exact,
    /// Without case (Windows: NTFS keeps the form of Unicode as written).
    IgnoreCase,
    /// Without case and without Unicode form (macOS).
    IgnoreCaseAndForm,
}

impl NameRule {
    pub fn of(os: Os) -> Self {
        match os {
            Os::Macos => NameRule::IgnoreCaseAndForm,
            Os::Windows => NameRule::IgnoreCase,
            Os::Linux | Os::Other => NameRule::Exact,
        }
    }

    /// `path` in the form two names the file system holds for one compare
    /// equal in.
    pub fn key<'a>(self, path: &'a str) -> Cow<'a, str> {
        match self {
            NameRule::Exact => Cow::Borrowed(path),
            NameRule::IgnoreCase => Cow::Owned(path.to_lowercase()),
            // Composed before and after lowering: lowering can decompose.
            NameRule::IgnoreCaseAndForm => {
                Cow::Owned(vault_path::nfc(&vault_path::nfc(path).to_lowercase()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_platform_tells_names_apart_as_its_file_system_does() {
        let composed = "Caf\u{e9}/Menu.md";
        let decomposed = "Cafe\u{301}/Menu.md";
        let upper = "CAF\u{c9}/MENU.md";
        let same = |rule: NameRule, a: &str, b: &str| rule.key(a) == rule.key(b);
        assert!(!same(NameRule::of(Os::Linux), composed, decomposed));
        assert!(!same(NameRule::of(Os::Linux), composed, upper));
        assert!(!same(NameRule::of(Os::Windows), composed, decomposed));
        assert!(same(NameRule::of(Os::Windows), composed, upper));
        assert!(same(NameRule::of(Os::Macos), composed, decomposed));
        assert!(same(NameRule::of(Os::Macos), decomposed, upper));
        assert_eq!(NameRule::of(Os::Other), NameRule::Exact);
        assert!(matches!(NameRule::Exact.key(composed), Cow::Borrowed(_)));
    }
}
