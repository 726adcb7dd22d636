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
        display_name: "Random note",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::scope::Place;

    #[test]
    fn a_random_note_is_picked_from_the_folder_and_its_path_checked_again() {
        let spec = tool();
        let call = spec.parse_call(&json!({"folder": "Ideas/"})).unwrap();
        let argv = call.invocation(None).unwrap().to_argv().unwrap();
        assert_eq!(argv, ["random:read", "folder=Ideas"]);
        let reach = call.facts().unwrap().reach;
        // The whole note is printed: the folder must be readable, not filtered.
        assert_eq!(reach.places, [Place::PickFrom(Some("Ideas".into()))]);
        assert_eq!(reach.output, Output::FirstLinePath);
        // No folder: anywhere in the vault, checked the same way.
        let any = spec.parse_call(&json!({})).unwrap();
        assert_eq!(any.facts().unwrap().reach.places, [Place::PickFrom(None)]);
    }

    #[test]
    fn a_folder_outside_the_vault_or_an_unknown_field_is_refused() {
        let spec = tool();
        for bad in [
            json!({"folder": "../Private"}),
            json!({"folder": "/etc"}),
            json!({"folder": "Ideas", "count": 3}),
        ] {
            assert!(spec.parse_call(&bad).is_err(), "{bad}");
        }
    }
}
