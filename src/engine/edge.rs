//! The vault's edge on disk: Obsidian follows symbolic links inside a
//! vault, so a path that reads as a note of the vault can lead anywhere.
//! Before any write (the CLI's, the vault's, an undo's) the real path of the
//! target, or of its nearest folder that exists, must lie inside the vault's
//! real folder and outside its configuration folder; otherwise the write is
//! refused as `path_outside_vault`. A read (a tool's, an attached image or
//! PDF, the instructions note, a saved prompt) is refused the same way when
//! its real path leaves the vault or the read scope
//! ([`real_read_refusal`]): a link inside an allowed folder reads only what
//! the folder it leads to may give.

use crate::base::call::NoteLocator;
use crate::base::error::ToolError;
use crate::base::host::{Host, Os};
use crate::base::vault_path::{in_config_dir, inside_real_folder};
use crate::engine::record::Before;
use crate::engine::Engine;
use crate::policy::scope::{FolderScope, Place, Reach, Resolved};
use crate::tools::ToolCall;

impl<H: Host> Engine<H> {
    /// Every place a write names by path, checked on disk. A note named by
    /// name (or today's) is checked once its path is known: when its text is
    /// read before the change (`check_captured_place`), by the edit and
    /// organise steps, and by undo.
    pub(crate) async fn check_write_places(&self, call: &ToolCall<'_>) -> Result<(), ToolError> {
        for place in call.args.reach().places {
            let path = match place {
                Place::Note(NoteLocator::Path(path)) | Place::NewNote(Some(path)) => path,
                Place::Within(Some(folder)) => folder,
                _ => continue,
            };
            self.check_real_place(&path).await?;
        }
        Ok(())
    }

    /// Every place a call reads by path (a write's too: what it changes
    /// must be readable), checked on disk against the vault and the read
    /// scope. A name is checked once looked up (`resolved`); while reading
    /// is not limited, names are not looked up and the CLI resolves them.
    pub(crate) async fn check_read_places(
        &self,
        reach: &Reach,
        resolved: &Resolved,
        scope: &FolderScope<'_>,
    ) -> Result<(), ToolError> {
        for place in &reach.places {
            let path = match place {
                Place::Note(NoteLocator::Path(path)) | Place::NewNote(Some(path)) => path.as_str(),
                Place::Note(other) => match resolved.path_of(other) {
                    Some(path) => path,
                    None => continue,
                },
                Place::Within(Some(folder)) | Place::PickFrom(Some(folder)) => folder.as_str(),
                Place::Reference(path) => path.as_str(),
                _ => continue,
            };
            if let Some(detail) = real_read_refusal(self.host(), path, scope).await {
                return Err(ToolError::ReadThroughLink {
                    target: format!("\"{}\"", path.trim_end_matches('/')),
                    detail,
                });
            }
        }
        Ok(())
    }

    /// The note a CLI write is about to change, as its capture found it.
    pub(crate) async fn check_captured_place(&self, before: &Before) -> Result<(), ToolError> {
        match before.path() {
            Some(path) => self.check_real_place(path).await,
            None => Ok(()),
        }
    }

    /// Refuses `path` (vault-relative) when its real place on disk, or that
    /// of its nearest existing folder, is outside the vault or in its
    /// configuration folder.
    pub(crate) async fn check_real_place(&self, path: &str) -> Result<(), ToolError> {
        let facts = self.host().platform();
        // Without a folder on disk there is no link to follow.
        let Some(vault) = facts.vault_path.clone() else {
            return Ok(());
        };
        let windows = facts.os() == Os::Windows;
        let refused = |detail: &str| ToolError::PathOutsideVault {
            target: format!("\"{}\"", path.trim_end_matches('/')),
            detail: detail.to_string(),
        };
        let root = self.host().real_path(&vault).await.map_err(|_| {
            refused("cannot be checked: the vault's own folder could not be resolved")
        })?;
        let mut place = path.trim_end_matches('/').to_string();
        loop {
            let absolute = if place.is_empty() {
                vault.clone()
            } else {
                let separator = if windows { "\\" } else { "/" };
                format!(
                    "{}{separator}{}",
                    vault.trim_end_matches(['/', '\\']),
                    place.replace('/', separator)
                )
            };
            match self.host().real_path(&absolute).await {
                Ok(real) => {
                    let Some(inside) = inside_real_folder(&root, &real, windows) else {
                        return Err(refused(
                            "leads through a symbolic link to a place outside the vault",
                        ));
                    };
                    if in_config_dir(&inside, facts.config_dir()) {
                        return Err(refused(if in_config_dir(path, facts.config_dir()) {
                            "lies in the vault's configuration folder"
                        } else {
                            "leads through a symbolic link into the vault's configuration folder"
                        }));
                    }
                    return Ok(());
                }
                Err(failure) if failure.code == "not_found" && !place.is_empty() => {
                    // Made by the write: what counts is the folder it goes in.
                    place = place
                        .rsplit_once('/')
                        .map_or(String::new(), |(folder, _)| folder.to_string());
                }
                Err(failure) => {
                    return Err(refused(&format!(
                        "cannot be checked on disk ({})",
                        failure.message
                    )))
                }
            }
        }
    }
}

/// Why a read of `path` (vault-relative) is refused on disk, or `None`: its
/// real path, every link followed, must lie inside the vault's real folder,
/// outside its configuration folder, and inside the read scope. What is not
/// there (yet) reads nothing and is left to the read to say; a vault that is
/// no folder on disk has no link to follow. The reason never says where a
/// link leads: that place is one the agent may not read.
pub(crate) async fn real_read_refusal<H: Host>(
    host: &H,
    path: &str,
    scope: &FolderScope<'_>,
) -> Option<String> {
    let facts = host.platform();
    let vault = facts.vault_path.clone()?;
    let windows = facts.os() == Os::Windows;
    let Ok(root) = host.real_path(&vault).await else {
        return Some("cannot be checked: the vault's own folder could not be resolved".into());
    };
    let place = path.trim_end_matches('/');
    let separator = if windows { "\\" } else { "/" };
    let absolute = format!(
        "{}{separator}{}",
        vault.trim_end_matches(['/', '\\']),
        place.replace('/', separator)
    );
    let real = match host.real_path(&absolute).await {
        Ok(real) => real,
        Err(failure) if failure.code == "not_found" => return None,
        Err(failure) => return Some(format!("cannot be checked on disk ({})", failure.message)),
    };
    let Some(inside) = inside_real_folder(&root, &real, windows) else {
        return Some("leads through a symbolic link to a place outside the vault".into());
    };
    if in_config_dir(&inside, facts.config_dir()) && !in_config_dir(place, facts.config_dir()) {
        return Some("leads through a symbolic link into the vault's configuration folder".into());
    }
    if !scope.contains(&inside) {
        return Some(
            "leads through a symbolic link to a place outside the folders the agent may read"
                .into(),
        );
    }
    None
}

/// The symbolic links under the vault whose real place `scope` does not
/// give: outside the vault, in its configuration folder, or outside the
/// read folders. Nothing under one is listed or found
/// ([`FolderScope::barring`]). One host call lists the links and each is
/// judged once here, so a listing costs no look-up per entry. Fails closed:
/// when the vault's own folder cannot be resolved, every link is barred.
pub(crate) async fn links_out<H: Host>(host: &H, scope: &FolderScope<'_>) -> Vec<String> {
    let facts = host.platform();
    let Some(vault) = facts.vault_path.clone() else {
        return Vec::new();
    };
    let links = host.vault_links(&vault).await;
    if links.is_empty() {
        return Vec::new();
    }
    let windows = facts.os() == Os::Windows;
    let root = host.real_path(&vault).await.ok();
    let config = facts.config_dir();
    links
        .into_iter()
        .filter(|link| {
            let inside = match (&root, &link.real) {
                (Some(root), Some(real)) => inside_real_folder(root, real, windows),
                _ => None,
            };
            match inside {
                None => true,
                Some(inside) => {
                    (in_config_dir(&inside, config) && !in_config_dir(&link.path, config))
                        || !scope.contains(&inside)
                }
            }
        })
        .map(|link| link.path)
        .collect()
}
