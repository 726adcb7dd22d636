//! Fuzz target `argv`: The argv serializer.

use super::*;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct ArgvCase {
    vault: Option<String>,
    command: String,
    parameters: Vec<(String, String)>,
    flags: Vec<String>,
}

fn key_is_valid(key: &str) -> bool {
    !key.is_empty()
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && key != "vault"
        && !UI_ONLY_PARAMETERS.contains(&key)
}

fn value_is_sendable(value: &str) -> bool {
    value
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
}

fn check_value(value: &str) -> TestCaseResult {
    match escape_value("content", value) {
        Ok(escaped) => {
            prop_assert!(value_is_sendable(value));
            prop_assert!(!escaped.chars().any(char::is_control), "{escaped:?}");
            let read = unescape_like_cli(&escaped);
            prop_assert_eq!(&read, &normalise_line_endings(value));
            if !value.contains('\r') {
                prop_assert_eq!(&read, value);
            }
        }
        Err(ArgvError::ControlCharacter { key, code }) => {
            prop_assert_eq!(key.as_str(), "content");
            let first_bad = value
                .chars()
                .find(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'));
            prop_assert_eq!(first_bad.map(|c| c as u32), Some(code));
        }
        Err(other) => prop_assert!(false, "unexpected {other}"),
    }
    Ok(())
}

fn check_argv(case: &ArgvCase) -> TestCaseResult {
    if let Some(vault) = &case.vault {
        check_value(vault)?;
    }
    for (_, value) in &case.parameters {
        check_value(value)?;
    }
    let mut invocation = CliInvocation::new(case.command.clone()).in_vault(case.vault.as_deref());
    for (key, value) in &case.parameters {
        invocation = invocation.parameter(key.clone(), value.clone());
    }
    for flag in &case.flags {
        invocation = invocation.flag(flag.clone());
    }
    let vault = case.vault.as_deref().filter(|v| !v.is_empty());
    let should_work = vault.is_none_or(value_is_sendable)
        && case
            .parameters
            .iter()
            .all(|(k, v)| key_is_valid(k) && value_is_sendable(v))
        && case.flags.iter().all(|f| key_is_valid(f));
    let argv = match invocation.to_argv() {
        Ok(argv) => argv,
        Err(error) => {
            prop_assert!(!should_work, "refused a valid call: {error}");
            prop_assert!(!error.to_string().is_empty());
            return Ok(());
        }
    };
    prop_assert!(should_work, "accepted an invalid call: {argv:?}");
    reached("argv.argv");
    let offset = usize::from(vault.is_some());
    prop_assert_eq!(
        argv.len(),
        offset + 1 + case.parameters.len() + case.flags.len()
    );
    if let Some(vault) = vault {
        let sent = argv[0].strip_prefix("vault=").expect("vault first");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(vault));
    }
    prop_assert_eq!(&argv[offset], &case.command);
    let parameters = &argv[offset + 1..offset + 1 + case.parameters.len()];
    for (element, (key, value)) in parameters.iter().zip(&case.parameters) {
        // Exactly one element, with exactly the intended key.
        prop_assert_eq!(element.split_once('=').map(|(k, _)| k), Some(key.as_str()));
        let sent = &element[key.len() + 1..];
        prop_assert!(!sent.chars().any(char::is_control), "{element:?}");
        prop_assert_eq!(unescape_like_cli(sent), normalise_line_endings(value));
    }
    prop_assert_eq!(&argv[offset + 1 + case.parameters.len()..], &case.flags[..]);
    for element in &argv[offset..] {
        prop_assert!(!element.starts_with("vault="), "{element:?}");
    }
    for os in [Os::Linux, Os::Macos, Os::Windows, Os::Other] {
        let _ = check_size("C:\\Obsidian\\Obsidian.com", &argv, os);
    }
    Ok(())
}

fn argv_key() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[a-zA-Z0-9_]{1,10}",
        2 => select(ODD_KEYS).prop_map(String::from),
        1 => select(UI_ONLY_PARAMETERS).prop_map(String::from),
        1 => text(),
    ]
}

fn argv_value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => text(),
        2 => "[\\\\nt\\n\\t\\r a=]{0,24}",
        1 => "(?s).{0,200}",
    ]
}

fn argv_case() -> impl Strategy<Value = ArgvCase> {
    let command = prop_oneof![
        4 => select(TOOLS.iter().flat_map(|t| t.command_names()).collect::<Vec<_>>())
            .prop_map(String::from),
        1 => "[a-z:]{1,12}",
    ];
    (
        proptest::option::weighted(0.4, argv_value()),
        command,
        vec(
            prop_oneof![8 => "[a-z]{1,8}".prop_map(String::from), 1 => argv_key()]
                .prop_flat_map(|k| (Just(k), argv_value())),
            0..6,
        ),
        vec(
            prop_oneof![8 => "[a-z]{1,8}".prop_map(String::from), 1 => argv_key()],
            0..3,
        ),
    )
        .prop_map(|(vault, command, parameters, flags)| ArgvCase {
            vault,
            command,
            parameters,
            flags,
        })
}

#[test]
fn fuzz_argv() {
    let started = Instant::now();
    let files = replay("argv", |name, bytes| {
        if name.ends_with(".json") {
            let case: ArgvCase = serde_json::from_slice(bytes)
                .unwrap_or_else(|e| panic!("{name} is not an argv case: {e}"));
            return check_argv(&case);
        }
        // A raw value: as a value, as the vault, as a key and as a flag.
        let value = String::from_utf8_lossy(bytes).into_owned();
        check_value(&value)?;
        check_argv(&ArgvCase {
            vault: Some(value.clone()),
            command: "read".into(),
            parameters: vec![
                ("content".into(), value.clone()),
                (value.clone(), "x".into()),
            ],
            flags: vec![value],
        })
    });
    let cases = Property {
        target: "argv",
        name: "escape_value round trip, one element per parameter",
        share: 1.0,
        seeds: seeds!("argv"),
        strategy: argv_case(),
        save: |case| ("json", serde_json::to_vec_pretty(case).expect("JSON")),
    }
    .run(|case| check_argv(&case));
    report("argv", files, cases, started);
}
