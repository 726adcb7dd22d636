//! Fuzz target `paths`: The path normaliser.

use super::*;

const KINDS: [PathKind; 3] = [PathKind::File, PathKind::Folder, PathKind::NoteName];

/// Look-alikes of `.` `/` `\` `:` `~` (the list in `base/vault_path.rs`'s docs).
const LOOKALIKES: &[char] = &[
    '\u{FF0E}', '\u{FF0F}', '\u{FF3C}', '\u{FF1A}', '\u{FF5E}', '\u{2024}', '\u{2025}', '\u{FE52}',
    '\u{FE68}', '\u{2215}', '\u{2044}', '\u{29F8}', '\u{29F9}',
];

const ENCODED: &[&str] = &["%2e", "%2f", "%5c", "%3a", "%25"];

fn check_path(value: &str, kind: PathKind) -> TestCaseResult {
    let result = normalised("path", value, kind);
    let composed: String = value.nfc().collect();
    let lower = composed.to_ascii_lowercase();
    if ENCODED.iter().any(|e| lower.contains(e)) || composed.contains(LOOKALIKES) {
        prop_assert!(result.is_err(), "{value:?} accepted as {result:?}");
    }
    let accepted = match result {
        Ok(accepted) => accepted,
        Err(message) => {
            prop_assert!(message.starts_with("`path`"), "{message}");
            prop_assert!(message.contains("such as"), "{message}");
            return Ok(());
        }
    };
    reached("paths.accepted");
    let nfc: String = accepted.nfc().collect();
    prop_assert_eq!(&nfc, &accepted, "not NFC");
    prop_assert!(!accepted.is_empty() && accepted.trim() == accepted);
    prop_assert!(!accepted.starts_with('/') && !accepted.starts_with('~'));
    prop_assert!(!accepted.contains('\\') && !accepted.contains(':'));
    prop_assert!(!accepted.chars().any(|c| c.is_control() || is_invisible(c)));
    prop_assert!(!accepted.contains(LOOKALIKES));
    let lower = accepted.to_ascii_lowercase();
    prop_assert!(!ENCODED.iter().any(|e| lower.contains(e)));
    for segment in accepted.split('/') {
        prop_assert!(!segment.is_empty(), "empty segment in {accepted:?}");
        prop_assert!(
            !segment.chars().all(|c| c == '.' || c.is_whitespace()),
            "dot segment {segment:?} in {accepted:?}"
        );
    }
    // Idempotent, and the same for every kind once normalised.
    for again in KINDS {
        let twice = normalised("path", &accepted, again);
        prop_assert_eq!(twice.as_deref(), Ok(accepted.as_str()));
    }
    Ok(())
}

fn path_value() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => vec(
            prop_oneof![
                3 => pieces(4),
                3 => "[a-zA-Z .]{1,6}",
                1 => "\\PC{1,4}",
            ],
            1..5,
        )
        .prop_flat_map(|segments| {
            let n = segments.len();
            (Just(segments), vec(select(vec!["/", "/", "/", "\\", "//", " / ", "\u{FF0F}"]), n))
        })
        .prop_map(|(segments, separators)| {
            let mut out = String::new();
            for (segment, separator) in segments.iter().zip(&separators) {
                out.push_str(segment);
                out.push_str(separator);
            }
            out.pop(); // usually without the last separator
            out
        }),
        2 => text(),
        1 => "(?s).{0,40}",
    ]
}

#[test]
fn fuzz_paths() {
    let started = Instant::now();
    let files = replay("paths", |name, bytes| {
        let value =
            std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}"));
        for kind in KINDS {
            check_path(value, kind)?;
        }
        // Curated seeds say what must happen to them.
        if name.starts_with("refused-") {
            for kind in KINDS {
                prop_assert!(
                    normalised("path", value, kind).is_err(),
                    "{value:?} must be refused"
                );
            }
        }
        if name.starts_with("accepted-") {
            prop_assert!(
                normalised("path", value, PathKind::File).is_ok(),
                "{value:?} must be accepted"
            );
        }
        Ok(())
    });
    let cases = Property {
        target: "paths",
        name: "normalised",
        share: 1.0,
        seeds: seeds!("paths"),
        strategy: (path_value(), select(KINDS.to_vec())),
        save: |(value, _)| ("txt", value.clone().into_bytes()),
    }
    .run(|(value, kind)| check_path(&value, kind));
    report("paths", files, cases, started);
}
