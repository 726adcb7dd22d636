//! The vault on disk: which vault to use, its files and folders, safe path
//! handling, and wikilink-style name resolution.

use std::io;
use std::path::{Path, PathBuf};

/// Sort vault paths the way the emulator lists them everywhere:
/// case-insensitively, ties broken by the exact bytes.
pub fn sort_paths(paths: &mut [String]) {
    paths.sort_by(|a, b| {
        a.to_lowercase()
            .cmp(&b.to_lowercase())
            .then_with(|| a.cmp(b))
    });
}

/// A scanned vault folder.
#[derive(Debug)]
pub struct Vault {
    pub root: PathBuf,
    files: Vec<String>,
    folders: Vec<String>,
    /// Files by lower-case file name, made on the first name lookup (a real
    /// vault of thousands of notes resolves every link of every note for
    /// `backlinks`; scanning the list for each was quadratic).
    by_name: std::cell::OnceCell<std::collections::HashMap<String, Vec<String>>>,
}

/// Why no vault could be used.
pub struct VaultNotFound;

/// Pick the vault for this invocation.
///
/// Candidates: the working directory if it is itself a vault folder (it
/// contains `.obsidian/`), then the folder named by
/// `OBSIDIAN_EMULATOR_VAULT`. Without `vault=` the first candidate wins;
/// with `vault=<name>` the candidate whose folder basename equals the name.
pub fn select(requested: Option<&str>) -> Result<Vault, VaultNotFound> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        if cwd.join(".obsidian").is_dir() {
            candidates.push(cwd);
        }
    }
    if let Some(env) = std::env::var_os("OBSIDIAN_EMULATOR_VAULT") {
        let p = PathBuf::from(env);
        if !p.as_os_str().is_empty() && p.is_dir() {
            candidates.push(p);
        }
    }
    let chosen = match requested {
        None => candidates.into_iter().next(),
        Some(name) => candidates
            .into_iter()
            .find(|c| basename(c).as_deref() == Some(name)),
    };
    let root = chosen.ok_or(VaultNotFound)?;
    Vault::open(&root).map_err(|_| VaultNotFound)
}

fn basename(p: &Path) -> Option<String> {
    let canon = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    canon.file_name().map(|n| n.to_string_lossy().into_owned())
}

impl Vault {
    /// Scan a vault folder. Hidden entries (names starting with `.`, such as
    /// `.obsidian` and `.trash`) and symbolic links are skipped, as Obsidian
    /// does not index them (and a link could lead out of the vault).
    pub fn open(root: &Path) -> io::Result<Vault> {
        let root = root.canonicalize()?;
        let mut files = Vec::new();
        let mut folders = Vec::new();
        scan(&root, "", &mut files, &mut folders)?;
        sort_paths(&mut files);
        sort_paths(&mut folders);
        Ok(Vault {
            root,
            files,
            folders,
            by_name: std::cell::OnceCell::new(),
        })
    }

    /// Every indexed file, sorted.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Every folder below the root, sorted.
    pub fn folders(&self) -> &[String] {
        &self.folders
    }

    /// Markdown notes, sorted.
    pub fn notes(&self) -> impl Iterator<Item = &String> {
        self.files.iter().filter(|f| is_markdown(f))
    }

    pub fn contains(&self, rel: &str) -> bool {
        self.files.iter().any(|f| f == rel)
    }

    pub fn has_folder(&self, rel: &str) -> bool {
        rel.is_empty() || self.folders.iter().any(|f| f == rel)
    }

    /// The absolute path of a vault-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        let mut p = self.root.clone();
        for part in rel.split('/').filter(|s| !s.is_empty()) {
            p.push(part);
        }
        p
    }

    pub fn read(&self, rel: &str) -> io::Result<String> {
        let bytes = std::fs::read(self.abs(rel))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Write a file (creating parent folders) and record it in the index.
    pub fn write(&mut self, rel: &str, content: &str) -> io::Result<()> {
        let abs = self.abs(rel);
        if let Some(parent) = abs.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&abs, content)?;
        if !self.contains(rel) {
            self.files.push(rel.to_string());
            sort_paths(&mut self.files);
            self.by_name = std::cell::OnceCell::new();
        }
        let mut folder = parent_folder(rel);
        while !folder.is_empty() {
            if !self.has_folder(&folder) {
                self.folders.push(folder.clone());
            }
            folder = parent_folder(&folder);
        }
        sort_paths(&mut self.folders);
        Ok(())
    }

    /// Read `.obsidian/<name>` as JSON, if present and valid.
    pub fn config_json(&self, name: &str) -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(self.root.join(".obsidian").join(name)).ok()?;
        serde_json::from_str(&text).ok()
    }

    /// Write `.obsidian/<name>` as pretty JSON (two-space indent, as Obsidian).
    pub fn write_config_json(&self, name: &str, value: &serde_json::Value) -> io::Result<()> {
        let dir = self.root.join(".obsidian");
        std::fs::create_dir_all(&dir)?;
        let text = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
        std::fs::write(dir.join(name), text)
    }

    /// `path=<path>`: the exact vault-relative path of an indexed file.
    /// Paths that try to leave the vault never match.
    pub fn resolve_path(&self, value: &str) -> Option<String> {
        let clean = safe_rel(value)?;
        self.contains(&clean).then_some(clean)
    }

    /// `file=<name>`: wikilink-style resolution. The name may be a basename
    /// or a vault path, with or without the extension; when no extension is
    /// given, `default_ext` is assumed. Case-insensitive; when several files
    /// match, the shortest path wins.
    pub fn resolve_name(&self, value: &str, default_ext: &str) -> Option<String> {
        self.resolve_from(value, default_ext, None)
    }

    /// Resolve a link target written in `source`, preferring a match in the
    /// source's own folder, then the shortest path.
    pub fn resolve_link(&self, target: &str, source: &str) -> Option<String> {
        let target = target.trim();
        if target.is_empty() {
            return None;
        }
        // Markdown-style relative links: resolve against the source folder.
        if target.starts_with("./") || target.starts_with("../") {
            let joined = join_rel(&parent_folder(source), target)?;
            return self.resolve_from(&joined, "md", None);
        }
        self.resolve_from(target, "md", Some(source))
    }

    fn resolve_from(&self, value: &str, default_ext: &str, source: Option<&str>) -> Option<String> {
        let value = value.trim().trim_start_matches('/');
        if value.is_empty() || value.split('/').any(|s| s == "..") {
            return None;
        }
        let lower = value.to_lowercase();
        let with_ext = format!("{lower}.{}", default_ext.to_lowercase());
        for wanted in [with_ext, lower] {
            let suffix = format!("/{wanted}");
            let name = wanted.rsplit('/').next().unwrap_or(&wanted);
            let by_name = self.by_name.get_or_init(|| {
                let mut map: std::collections::HashMap<String, Vec<String>> = Default::default();
                for f in &self.files {
                    map.entry(file_name(f).to_lowercase())
                        .or_default()
                        .push(f.clone());
                }
                map
            });
            let mut matches: Vec<&String> = by_name
                .get(name)
                .into_iter()
                .flatten()
                .filter(|f| {
                    let fl = f.to_lowercase();
                    fl == wanted || fl.ends_with(&suffix)
                })
                .collect();
            if matches.is_empty() {
                continue;
            }
            let home = source.map(parent_folder);
            matches.sort_by_key(|f| {
                let same_folder = home.as_deref() == Some(parent_folder(f).as_str());
                (!same_folder, f.len(), f.to_lowercase())
            });
            return matches.first().map(|s| s.to_string());
        }
        None
    }
}

/// How many folders deep a walk follows symbolic links (a loop ends here).
const MAX_LINKED_DEPTH: usize = 24;

fn scan(
    dir: &Path,
    rel: &str,
    files: &mut Vec<String>,
    folders: &mut Vec<String>,
) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let mut ty = entry.file_type()?;
        let child = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if ty.is_symlink() {
            // Obsidian lists what a symbolic link leads to as if it were
            // there; a link that leads nowhere, or deeper than any vault
            // goes (a loop), lists nothing.
            match std::fs::metadata(entry.path()) {
                Ok(meta) if child.matches('/').count() < MAX_LINKED_DEPTH => ty = meta.file_type(),
                _ => continue,
            }
        }
        if ty.is_dir() {
            folders.push(child.clone());
            scan(&entry.path(), &child, files, folders)?;
        } else if ty.is_file() {
            files.push(child);
        }
    }
    Ok(())
}

pub fn is_markdown(path: &str) -> bool {
    extension(path).eq_ignore_ascii_case("md")
}

/// The extension without the dot ("" when none).
pub fn extension(path: &str) -> &str {
    let name = file_name(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i + 1..],
        _ => "",
    }
}

/// The last path segment.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The file name without its extension.
pub fn stem(path: &str) -> &str {
    let name = file_name(path);
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

/// The folder part of a vault path ("" for the root).
pub fn parent_folder(path: &str) -> String {
    match path.rfind('/') {
        Some(i) => path[..i].to_string(),
        None => String::new(),
    }
}

/// Validate a user-supplied vault-relative path: no absolute paths, no `..`
/// segments, no backslashes, no NUL. Returns it with `./` and duplicate
/// slashes removed.
pub fn safe_rel(value: &str) -> Option<String> {
    if value.is_empty()
        || value.starts_with('/')
        || value.contains('\\')
        || value.contains('\0')
        || (value.len() >= 2 && value.as_bytes()[1] == b':')
    {
        return None;
    }
    let mut parts = Vec::new();
    for part in value.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

/// Normalise a folder parameter: "" or "/" means the vault root.
pub fn safe_folder(value: &str) -> Option<String> {
    let trimmed = value.trim().trim_end_matches('/');
    if trimmed.is_empty() || trimmed == "." {
        return Some(String::new());
    }
    safe_rel(trimmed)
}

/// Whether `path` lies inside `folder` (recursively); the root holds all.
pub fn in_folder(path: &str, folder: &str) -> bool {
    folder.is_empty() || path.starts_with(&format!("{folder}/"))
}

fn join_rel(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_paths() {
        assert_eq!(safe_rel("a/./b.md").as_deref(), Some("a/b.md"));
        assert!(safe_rel("../x.md").is_none());
        assert!(safe_rel("a/../../x.md").is_none());
        assert!(safe_rel("/etc/passwd").is_none());
        assert!(safe_rel("C:/x").is_none());
        assert_eq!(safe_folder("Projects/").as_deref(), Some("Projects"));
        assert_eq!(safe_folder("/").as_deref(), Some(""));
    }

    #[test]
    fn names() {
        assert_eq!(stem("a/b/Café ☕.md"), "Café ☕");
        assert_eq!(extension("x/Projects.base"), "base");
        assert_eq!(extension(".hidden"), "");
        assert_eq!(parent_folder("a/b/c.md"), "a/b");
        assert!(in_folder("Projects/Archive/x.md", "Projects"));
        assert!(!in_folder("ProjectsX/x.md", "Projects"));
    }
}
