//! Where the Obsidian CLI lives. Electron apps may replace PATH, and every
//! platform installs the CLI somewhere else, so we look in a fixed order and
//! keep a record of every place we looked.

use serde::Serialize;

use crate::base::error::{ToolError, PATH_SETTING};
use crate::base::host::{Host, Os, PlatformFacts};

/// Where a candidate path came from, in the order they are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum CandidateSource {
    SettingsOverride,
    EnvObsidianCliBinary,
    EnvObsidianCliPath,
    RunningApp,
    SystemPath,
    KnownLocation,
}

/// One place we looked, and what we found there.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "DiscoveryCandidate"))]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub path: String,
    pub source: CandidateSource,
    pub verdict: Verdict,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Found,
    Missing,
    NotExecutable,
    /// Windows batch files cannot run without a shell; we never use one.
    NeedsShell,
    /// A relative path would be looked up in one folder and run from another
    /// (the vault), where a planted file could answer: never used.
    NotAbsolute,
    /// Looked at only if an earlier candidate had not been found.
    Skipped,
}

/// The result of a discovery run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Discovery {
    pub binary: Option<String>,
    pub candidates: Vec<Candidate>,
    /// What is wrong with the path the user set, when it was not used
    /// (said first, before any list of places: it is the user's own doing).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub setting_problem: Option<String>,
}

impl Discovery {
    /// Every place that was actually looked at, for error messages.
    pub fn tried(&self) -> Vec<String> {
        self.candidates
            .iter()
            .filter(|c| c.verdict != Verdict::Skipped && c.verdict != Verdict::Found)
            .map(|c| format!("{} ({})", c.path, verdict_words(c.verdict)))
            .collect()
    }

    /// The error when no CLI was found: the user's own setting first, when
    /// it is what went wrong, then where else we looked.
    pub fn not_found(&self) -> ToolError {
        let setting_problem = self.setting_problem.clone();
        let tried = self
            .candidates
            .iter()
            .filter(|c| c.verdict != Verdict::Skipped && c.verdict != Verdict::Found)
            // Said already, in the user's terms.
            .filter(|c| setting_problem.is_none() || c.source != CandidateSource::SettingsOverride)
            .map(|c| format!("{} ({})", c.path, verdict_words(c.verdict)))
            .collect();
        ToolError::CliNotFound {
            setting_problem,
            tried,
        }
    }
}

/// What is wrong with the user's own path (`verdict`), in their terms, with
/// a full path of this platform as the example; `None` when it is usable.
pub fn setting_problem(path: &str, verdict: Verdict, example: &str) -> Option<String> {
    let what = match verdict {
        Verdict::Found | Verdict::Skipped => return None,
        Verdict::NotAbsolute => "is not a full path, so it was not used (a relative path would run whatever file of that name lies in the folder the CLI runs from)",
        Verdict::Missing => "does not exist",
        Verdict::NotExecutable => "is not a program this computer can run (it is not executable)",
        Verdict::NeedsShell => "is a batch file, which cannot run without a shell (the plugin never uses one)",
    };
    Some(format!(
        "The path in {PATH_SETTING}, \"{path}\", {what}. Give the full path of the CLI, such as {example}, or leave the setting empty to find it automatically."
    ))
}

/// A full path of the CLI on this platform, for messages: where registration
/// puts it (the user's own home and app folders where they are known).
pub fn example_path(os: Os, facts: &PlatformFacts, env: &dyn Fn(&str) -> Option<String>) -> String {
    known_locations(os, facts, env)
        .into_iter()
        .next()
        .unwrap_or_else(|| match os {
            Os::Windows => {
                "C:\\Users\\you\\AppData\\Local\\Programs\\obsidian\\Obsidian.com".to_string()
            }
            _ => "/usr/local/bin/obsidian".to_string(),
        })
}

fn verdict_words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Found => "found",
        Verdict::Missing => "missing",
        Verdict::NotExecutable => "not executable",
        Verdict::NeedsShell => "a batch file, which cannot run without a shell",
        Verdict::NotAbsolute => "not a full path, so not used",
        Verdict::Skipped => "not checked",
    }
}

/// The candidate paths, in order, before any of them is checked.
pub fn candidates(
    override_path: &str,
    env: &dyn Fn(&str) -> Option<String>,
    facts: &PlatformFacts,
) -> Vec<(String, CandidateSource)> {
    let os = facts.os();
    let mut list: Vec<(String, CandidateSource)> = Vec::new();
    let mut push = |path: String, source: CandidateSource| {
        if !path.is_empty() && !list.iter().any(|(p, _)| *p == path) {
            list.push((path, source));
        }
    };

    push(
        override_path.trim().to_string(),
        CandidateSource::SettingsOverride,
    );
    for (name, source) in [
        ("OBSIDIAN_CLI_BINARY", CandidateSource::EnvObsidianCliBinary),
        ("OBSIDIAN_CLI_PATH", CandidateSource::EnvObsidianCliPath),
    ] {
        if let Some(value) = env(name) {
            push(value.trim().to_string(), source);
        }
    }
    for path in running_app_cli(os, facts) {
        push(path, CandidateSource::RunningApp);
    }
    if let Some(path_var) = env("PATH").or_else(|| env("Path")) {
        let separator = if os == Os::Windows { ';' } else { ':' };
        let name = if os == Os::Windows {
            // Only the console redirector: `Obsidian.exe` is the GUI and would
            // open a window instead of answering.
            "Obsidian.com"
        } else {
            "obsidian"
        };
        // A relative entry (`.`, `bin`) would resolve against whatever folder
        // the lookup runs in, not where the CLI then runs: skip it.
        for dir in path_var
            .split(separator)
            .map(str::trim)
            .filter(|d| !d.is_empty() && is_absolute(os, d))
        {
            push(join(os, dir, name), CandidateSource::SystemPath);
        }
    }
    for path in known_locations(os, facts, env) {
        push(path, CandidateSource::KnownLocation);
    }
    list
}

/// The CLI that ships with the app the plugin is running in.
fn running_app_cli(os: Os, facts: &PlatformFacts) -> Vec<String> {
    let mut out = Vec::new();
    let exec_dir = facts.exec_path.as_deref().and_then(|p| parent(os, p));
    let resources_parent = facts.resources_path.as_deref().and_then(|p| parent(os, p));
    match os {
        Os::Windows => {
            if let Some(dir) = exec_dir {
                out.push(join(os, &dir, "Obsidian.com"));
            }
            if let Some(dir) = resources_parent {
                out.push(join(os, &dir, "Obsidian.com"));
            }
        }
        Os::Macos => {
            // exec: …/Obsidian.app/Contents/MacOS/Obsidian; resources: …/Contents/Resources
            if let Some(dir) = exec_dir {
                out.push(join(os, &dir, "obsidian-cli"));
            }
            if let Some(contents) = resources_parent {
                out.push(join(os, &join(os, &contents, "MacOS"), "obsidian-cli"));
            }
        }
        Os::Linux | Os::Other => {
            if let Some(dir) = exec_dir {
                out.push(join(os, &dir, "obsidian-cli"));
            }
            if let Some(dir) = resources_parent {
                out.push(join(os, &dir, "obsidian-cli"));
            }
        }
    }
    out
}

fn known_locations(
    os: Os,
    facts: &PlatformFacts,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<String> {
    let home = facts.home_dir.clone().or_else(|| env("HOME"));
    let in_home = |rel: &[&str]| {
        home.as_deref().map(|h| {
            rel.iter()
                .fold(h.trim_end_matches(['/', '\\']).to_string(), |acc, part| {
                    join(os, &acc, part)
                })
        })
    };
    match os {
        Os::Macos => [
            Some("/usr/local/bin/obsidian".to_string()),
            Some("/Applications/Obsidian.app/Contents/MacOS/obsidian-cli".to_string()),
            in_home(&[
                "Applications",
                "Obsidian.app",
                "Contents",
                "MacOS",
                "obsidian-cli",
            ]),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Os::Linux | Os::Other => [
            in_home(&[".local", "bin", "obsidian"]),
            Some("/usr/local/bin/obsidian".to_string()),
            Some("/var/lib/flatpak/exports/bin/md.obsidian.Obsidian".to_string()),
            in_home(&[
                ".local",
                "share",
                "flatpak",
                "exports",
                "bin",
                "md.obsidian.Obsidian",
            ]),
            Some("/snap/bin/obsidian".to_string()),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Os::Windows => {
            let local = env("LOCALAPPDATA").or_else(|| {
                home.as_deref()
                    .map(|h| join(os, &join(os, h, "AppData"), "Local"))
            });
            match local {
                Some(local) => vec![
                    join(
                        os,
                        &join(os, &join(os, &local, "Programs"), "obsidian"),
                        "Obsidian.com",
                    ),
                    join(os, &join(os, &local, "obsidian"), "Obsidian.com"),
                ],
                None => Vec::new(),
            }
        }
    }
}

/// Checks candidates in order and stops at the first usable one.
pub async fn discover<H: Host>(host: &H, override_path: &str) -> Discovery {
    let env = |name: &str| host.env_var(name);
    let list = candidates(override_path, &env, host.platform());
    let os = host.platform().os();
    let mut result = Discovery {
        binary: None,
        candidates: Vec::with_capacity(list.len()),
        setting_problem: None,
    };
    for (path, source) in list {
        let verdict = if result.binary.is_some() {
            Verdict::Skipped
        } else if !is_absolute(os, &path) {
            Verdict::NotAbsolute
        } else if os == Os::Windows && is_batch_file(&path) {
            Verdict::NeedsShell
        } else {
            let status = host.file_status(&path).await;
            if !status.exists || !status.is_file {
                Verdict::Missing
            } else if !status.executable {
                Verdict::NotExecutable
            } else {
                Verdict::Found
            }
        };
        if verdict == Verdict::Found {
            result.binary = Some(path.clone());
        }
        if source == CandidateSource::SettingsOverride {
            let example = example_path(os, host.platform(), &env);
            result.setting_problem = setting_problem(&path, verdict, &example);
        }
        result.candidates.push(Candidate {
            path,
            source,
            verdict,
        });
    }
    result
}

/// `/usr/bin/x` on macOS and Linux; `C:\x`, `C:/x` or `\\server\share\x` on Windows.
pub fn is_absolute(os: Os, path: &str) -> bool {
    if os != Os::Windows {
        return path.starts_with('/');
    }
    let b = path.as_bytes();
    let drive =
        b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/');
    drive || path.starts_with("\\\\")
}

fn is_batch_file(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    lower.ends_with(".bat") || lower.ends_with(".cmd")
}

/// Joins path parts with the separator of `os` (not of the machine running the
/// tests: discovery must be testable for every OS anywhere).
pub fn join(os: Os, dir: &str, name: &str) -> String {
    let sep = if os == Os::Windows { '\\' } else { '/' };
    let trimmed = dir.trim_end_matches(|c| c == '/' || (os == Os::Windows && c == '\\'));
    if trimmed.is_empty() && dir.starts_with('/') {
        return format!("/{name}");
    }
    format!("{trimmed}{sep}{name}")
}

fn parent(os: Os, path: &str) -> Option<String> {
    let is_sep = |c: char| c == '/' || (os == Os::Windows && c == '\\');
    let trimmed = path.trim_end_matches(is_sep);
    let cut = trimmed.rfind(is_sep)?;
    let dir = &trimmed[..cut];
    if dir.is_empty() {
        Some("/".to_string())
    } else {
        Some(dir.to_string())
    }
}
