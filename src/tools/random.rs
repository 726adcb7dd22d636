//! `obsidianRandomRead`: a random note, for serendipity and review.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{CommandArgs, CommandSpec, ToolSpec};
use crate::base::call::Access;
use crate::base::vault_path::check_optional_folder;
use crate::policy::scope::{Output, Place, Reach};

/// Arguments of `random:read`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomReadArgs {
    /// Only pick from this folder (path from the vault root, e.g. "Ideas").
    pub folder: Option<String>,
}

impl CommandArgs for RandomReadArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_optional_folder("folder", &mut self.folder)
    }

    /// The note is printed whole, so the folder it comes from must be
    /// allowed; its path on the first line is checked again.
    fn reach(&self) -> Reach {
        Reach {
            places: vec![Place::PickFrom(self.folder.clone())],
            output: Output::FirstLinePath,
        }
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianRandomRead",
        display_name: "Random note (CLI)",
        description: "Read a randomly chosen note, optionally from one folder.",
        guidance: "Use obsidianRandomRead only when the user wants a random note (to review, \
                   resurface or get inspired). Each call picks a different note. To read a \
                   specific note use obsidianNotes `read`.",
        commands: vec![CommandSpec::new::<RandomReadArgs>(
            "random:read",
            Access::Read,
            "Read a random note (its path comes first).",
        )
        .brief("")],
        example: json!({"folder": "Ideas"}),
    }
}
