//! Binary discovery, per OS, with a fake file table and environment.

use vault_agent::base::host::{Os, ProcessOutcome};
use vault_agent::cli::discovery::{discover, CandidateSource, Verdict};
use vault_agent::testing::{block_on, FakeHost};

fn host(os: Os) -> FakeHost {
    FakeHost::new(os, |_| ProcessOutcome::success("1.12.7"))
}

fn order(host: &FakeHost, override_path: &str) -> Vec<(String, CandidateSource)> {
    let env = |name: &str| host.env.get(name).cloned();
    vault_agent::cli::discovery::candidates(override_path, &env, &host.facts)
}

#[test]
fn linux_order_override_env_app_path_known() {
    let mut h = host(Os::Linux);
    h.env
        .insert("OBSIDIAN_CLI_BINARY".into(), "/env/binary".into());
    h.env.insert("OBSIDIAN_CLI_PATH".into(), "/env/path".into());
    h.env.insert("PATH".into(), "/usr/bin::/opt/bin".into());
    h.facts.exec_path = Some("/opt/Obsidian/obsidian".into());
    h.facts.resources_path = Some("/opt/Obsidian/resources".into());
    let paths: Vec<(String, CandidateSource)> = order(&h, "/my/obsidian");
    let expected = [
        ("/my/obsidian", CandidateSource::SettingsOverride),
        ("/env/binary", CandidateSource::EnvObsidianCliBinary),
        ("/env/path", CandidateSource::EnvObsidianCliPath),
        ("/opt/Obsidian/obsidian-cli", CandidateSource::RunningApp),
        ("/usr/bin/obsidian", CandidateSource::SystemPath),
        ("/opt/bin/obsidian", CandidateSource::SystemPath),
        (
            "/home/ada/.local/bin/obsidian",
            CandidateSource::KnownLocation,
        ),
        ("/usr/local/bin/obsidian", CandidateSource::KnownLocation),
        (
            "/var/lib/flatpak/exports/bin/md.obsidian.Obsidian",
            CandidateSource::KnownLocation,
        ),
        (
            "/home/ada/.local/share/flatpak/exports/bin/md.obsidian.Obsidian",
            CandidateSource::KnownLocation,
        ),
        ("/snap/bin/obsidian", CandidateSource::KnownLocation),
    ];
    let got: Vec<(&str, CandidateSource)> = paths.iter().map(|(p, s)| (p.as_str(), *s)).collect();
    assert_eq!(got, expected);
}

#[test]
fn macos_uses_the_app_bundle_cli() {
    let mut h = host(Os::Macos);
    h.facts.exec_path = Some("/Applications/Obsidian.app/Contents/MacOS/Obsidian".into());
    h.facts.resources_path = Some("/Applications/Obsidian.app/Contents/Resources".into());
    let paths: Vec<String> = order(&h, "").into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        paths,
        [
            "/Applications/Obsidian.app/Contents/MacOS/obsidian-cli",
            "/usr/local/bin/obsidian",
            "/Users/ada/Applications/Obsidian.app/Contents/MacOS/obsidian-cli",
        ]
    );
}

#[test]
fn windows_uses_the_com_redirector_never_the_exe() {
    let mut h = host(Os::Windows);
    h.facts.exec_path =
        Some("C:\\Users\\ada\\AppData\\Local\\Programs\\obsidian\\Obsidian.exe".into());
    h.env
        .insert("Path".into(), "C:\\Tools;C:\\Users\\ada\\bin\\".into());
    h.env.insert(
        "LOCALAPPDATA".into(),
        "C:\\Users\\ada\\AppData\\Local".into(),
    );
    let paths: Vec<String> = order(&h, "").into_iter().map(|(p, _)| p).collect();
    assert_eq!(
        paths,
        [
            "C:\\Users\\ada\\AppData\\Local\\Programs\\obsidian\\Obsidian.com",
            "C:\\Tools\\Obsidian.com",
            "C:\\Users\\ada\\bin\\Obsidian.com",
            "C:\\Users\\ada\\AppData\\Local\\obsidian\\Obsidian.com",
        ]
    );
    assert!(paths.iter().all(|p| !p.to_lowercase().ends_with(".exe")));
}

#[test]
fn moves_on_only_past_missing_or_non_executable_candidates() {
    let mut h = host(Os::Linux);
    h.env
        .insert("OBSIDIAN_CLI_BINARY".into(), "/env/not-executable".into());
    h.env.insert("PATH".into(), "/usr/bin".into());
    h.add_plain_file("/env/not-executable");
    h.add_executable("/usr/bin/obsidian");
    h.add_executable("/snap/bin/obsidian");
    let d = block_on(discover(&h, "/missing/override"));
    assert_eq!(d.binary.as_deref(), Some("/usr/bin/obsidian"));
    let verdicts: Vec<(&str, Verdict)> = d
        .candidates
        .iter()
        .map(|c| (c.path.as_str(), c.verdict))
        .collect();
    assert_eq!(verdicts[0], ("/missing/override", Verdict::Missing));
    assert_eq!(verdicts[1], ("/env/not-executable", Verdict::NotExecutable));
    assert_eq!(verdicts[2], ("/usr/bin/obsidian", Verdict::Found));
    assert!(verdicts[3..].iter().all(|(_, v)| *v == Verdict::Skipped));
    // Nothing after the hit is touched on disk.
    assert_eq!(
        *h.looked_at.borrow(),
        [
            "/missing/override",
            "/env/not-executable",
            "/usr/bin/obsidian"
        ]
    );
}

#[test]
fn a_folder_is_not_a_binary() {
    let mut h = host(Os::Linux);
    h.files.insert(
        "/dir/obsidian".into(),
        vault_agent::base::host::FileStatus {
            exists: true,
            is_file: false,
            executable: true,
        },
    );
    let d = block_on(discover(&h, "/dir/obsidian"));
    assert_eq!(d.candidates[0].verdict, Verdict::Missing);
}

#[test]
fn windows_batch_files_are_never_used() {
    let mut h = host(Os::Windows);
    h.add_executable("C:\\tools\\obsidian.cmd");
    let d = block_on(discover(&h, "C:\\tools\\obsidian.cmd"));
    assert_eq!(d.candidates[0].verdict, Verdict::NeedsShell);
    assert_eq!(d.binary, None);
}

#[test]
fn nothing_found_lists_every_place_tried() {
    let mut h = host(Os::Linux);
    h.env.insert("PATH".into(), "/usr/bin".into());
    let d = block_on(discover(&h, ""));
    assert_eq!(d.binary, None);
    let tried = d.tried();
    assert_eq!(tried.len(), d.candidates.len());
    assert!(tried.contains(&"/usr/bin/obsidian (missing)".to_string()));
    assert!(tried.contains(&"/snap/bin/obsidian (missing)".to_string()));
}

/// Regression (hardening #10): a relative CLI path in the settings or the
/// environment is never checked nor run (it would be looked up in one folder
/// and run from the vault), and relative `PATH` entries are skipped.
#[test]
fn relative_paths_are_refused_and_relative_path_entries_skipped() {
    for os in [Os::Linux, Os::Macos, Os::Windows] {
        let mut h = host(os);
        let planted = if os == Os::Windows {
            "Obsidian.com"
        } else {
            "obsidian"
        };
        h.add_executable(planted);
        h.add_executable(&format!("bin/{planted}"));
        h.env
            .insert("OBSIDIAN_CLI_BINARY".into(), format!("./{planted}"));
        let separator = if os == Os::Windows { ";" } else { ":" };
        h.env.insert("PATH".into(), format!(".{separator}bin"));
        let found = block_on(discover(&h, planted));
        assert_eq!(found.binary, None, "{os:?}: {found:?}");
        assert!(
            !h.looked_at
                .borrow()
                .iter()
                .any(|p| !p.starts_with('/') && !p.contains(':')),
            "{os:?}: a relative path was looked at: {:?}",
            h.looked_at.borrow()
        );
        let first = &found.candidates[0];
        assert_eq!(first.verdict, Verdict::NotAbsolute);
        assert!(
            found.tried()[0].contains("not a full path"),
            "{:?}",
            found.tried()
        );
        assert!(
            !found
                .candidates
                .iter()
                .any(|c| c.source == CandidateSource::SystemPath),
            "{os:?}: relative PATH entries were used"
        );
    }
    let mut h = host(Os::Windows);
    h.add_executable("C:\\Obsidian\\Obsidian.com");
    assert_eq!(
        block_on(discover(&h, "C:\\Obsidian\\Obsidian.com"))
            .binary
            .as_deref(),
        Some("C:\\Obsidian\\Obsidian.com")
    );
}

/// A relative path in the settings is the user's own doing: the error leads
/// with that setting, by its real name, and a full path of this platform.
#[test]
fn a_relative_path_in_the_settings_is_named_first_with_a_full_path_for_the_platform() {
    for (os, example) in [
        (Os::Linux, "/home/ada/.local/bin/obsidian"),
        (Os::Macos, "/usr/local/bin/obsidian"),
        (Os::Windows, "\\Programs\\obsidian\\Obsidian.com"),
    ] {
        let h = host(os);
        let found = block_on(discover(&h, "obsidian"));
        assert_eq!(found.binary, None);
        let message = found.not_found().to_string();
        assert!(
            message.starts_with(
                "The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, \"obsidian\", is not a full path"
            ),
            "{os:?}: {message}"
        );
        assert!(message.contains(example), "{os:?}: {message}");
        assert!(message.contains("leave the setting empty"), "{message}");
        assert!(
            !message.contains("Vault Agent → Command line interface"),
            "no setting of that name: {message}"
        );
        assert!(
            !message.contains("obsidian (not a full path"),
            "the setting is not repeated in the list: {message}"
        );
        assert!(message.contains("Also looked in: "), "{message}");
        assert_eq!(found.not_found().code(), "cli_not_found");
    }
}

#[test]
fn a_setting_that_is_missing_not_executable_or_a_batch_file_is_named_first_too() {
    let mut h = host(Os::Linux);
    h.add_plain_file("/opt/obsidian-cli");
    for (path, what) in [
        ("/nowhere/obsidian", "does not exist"),
        ("/opt/obsidian-cli", "is not executable"),
    ] {
        let found = block_on(discover(&h, path));
        let message = found.not_found().to_string();
        assert!(
            message.starts_with(&format!(
                "The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, \"{path}\", "
            )),
            "{message}"
        );
        assert!(message.contains(what), "{message}");
    }
    let w = host(Os::Windows);
    let found = block_on(discover(&w, "C:\\Tools\\obsidian.cmd"));
    assert!(found.not_found().to_string().contains("is a batch file"));
}

#[test]
fn without_a_setting_the_message_names_the_real_setting_to_set() {
    let found = block_on(discover(&host(Os::Linux), ""));
    assert_eq!(found.setting_problem, None);
    let message = found.not_found().to_string();
    assert!(
        message.starts_with("The Obsidian CLI was not found."),
        "{message}"
    );
    assert!(
        message.contains("Settings → Vault Agent → Advanced → Path to the Obsidian CLI"),
        "{message}"
    );
    assert!(message.contains(" Looked in: "), "{message}");
}

#[test]
fn a_usable_setting_has_no_problem_and_one_ignored_for_another_cli_is_still_said() {
    let mut h = host(Os::Linux);
    h.add_executable("/opt/obsidian");
    let found = block_on(discover(&h, "/opt/obsidian"));
    assert_eq!(found.binary.as_deref(), Some("/opt/obsidian"));
    assert_eq!(found.setting_problem, None);
    h.add_executable("/usr/local/bin/obsidian");
    let found = block_on(discover(&h, "bin/obsidian"));
    assert_eq!(found.binary.as_deref(), Some("/usr/local/bin/obsidian"));
    assert!(
        found
            .setting_problem
            .as_deref()
            .is_some_and(|p| p.contains("is not a full path")),
        "the settings tab can say the user's path was not used: {found:?}"
    );
}
