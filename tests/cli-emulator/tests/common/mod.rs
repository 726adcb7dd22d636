//! Shared helpers: run the built `obsidian` emulator against a throw-away
//! copy of `tests/sample-vault` (the committed vault is never touched).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_obsidian");

/// The committed sample vault.
pub fn sample_vault() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("sample-vault")
        .canonicalize()
        .expect("tests/sample-vault exists")
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temporary copy of the sample vault plus the environment to run the
/// emulator against it.
pub struct Emu {
    pub tmp: tempfile::TempDir,
    pub vault: PathBuf,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
}

impl Emu {
    /// Vault copied to `<tmp>/sample-vault`, today = 2026-03-03 09:30, the
    /// working directory is `<tmp>` (not a vault), no active file.
    pub fn new() -> Emu {
        let tmp = tempfile::tempdir().unwrap();
        let vault = tmp.path().join("sample-vault");
        copy_dir(&sample_vault(), &vault);
        let cwd = tmp.path().to_path_buf();
        let env = vec![
            (
                "OBSIDIAN_EMULATOR_VAULT".to_string(),
                vault.to_string_lossy().into_owned(),
            ),
            (
                "OBSIDIAN_EMULATOR_TODAY".to_string(),
                "2026-03-03".to_string(),
            ),
            ("OBSIDIAN_EMULATOR_TIME".to_string(), "09:30".to_string()),
        ];
        Emu {
            tmp,
            vault,
            cwd,
            env,
        }
    }

    pub fn with(mut self, key: &str, value: &str) -> Emu {
        self.set(key, value);
        self
    }

    pub fn set(&mut self, key: &str, value: &str) {
        self.env.retain(|(k, _)| k != key);
        self.env.push((key.to_string(), value.to_string()));
    }

    pub fn unset(&mut self, key: &str) {
        self.env.retain(|(k, _)| k != key);
    }

    /// A command with a clean emulator environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        c.args(args).current_dir(&self.cwd);
        for (k, _) in std::env::vars() {
            if k.starts_with("OBSIDIAN_EMULATOR_") {
                c.env_remove(k);
            }
        }
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c.stdin(Stdio::null());
        c
    }

    pub fn output(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run emulator")
    }

    /// Run, assert exit code 0 and an empty stderr, return stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.output(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "args {args:?}: stderr {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("stdout is UTF-8")
    }

    /// `ok` with the trailing newline removed.
    pub fn line(&self, args: &[&str]) -> String {
        let s = self.ok(args);
        s.strip_suffix('\n').unwrap_or(&s).to_string()
    }

    /// stdout split into lines.
    pub fn lines(&self, args: &[&str]) -> Vec<String> {
        self.ok(args).lines().map(str::to_string).collect()
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.vault.join(rel)).unwrap()
    }

    pub fn write(&self, rel: &str, content: &str) {
        let p = self.vault.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.vault.join(rel).exists()
    }
}
