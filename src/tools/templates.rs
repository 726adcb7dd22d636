//! `obsidianTemplates`: the user's templates.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::check_not_blank;
use super::{CommandArgs, CommandSpec, ToolSpec};
use crate::base::call::Access;
use crate::policy::scope::Reach;

/// Arguments of `templates`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplatesArgs {
    /// Return only the number of templates.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for TemplatesArgs {
    /// Templates are read as templates, not as notes: their folder is the one
    /// set in Obsidian's Templates plugin, which the folder scopes leave open
    /// (README, "Folders").
    fn reach(&self) -> Reach {
        Reach::no_notes()
    }
}

/// Arguments of `template:read`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateReadArgs {
    /// The template's name, as `templates` lists it.
    pub name: String,
    /// The note title to use for `{{title}}` when `resolve` is set.
    pub title: Option<String>,
    /// Fill in `{{date}}`, `{{time}}` and `{{title}}`.
    #[serde(default)]
    pub resolve: bool,
}

impl CommandArgs for TemplateReadArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_not_blank("name", &self.name)
    }

    /// Templates are read as templates, not as notes: their folder is the one
    /// set in Obsidian's Templates plugin, which the folder scopes leave open
    /// (README, "Folders").
    fn reach(&self) -> Reach {
        Reach::no_notes()
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianTemplates",
        display_name: "Templates",
        description:
            "List the user's templates or read one, optionally with its variables filled in.",
        guidance: "Use obsidianTemplates to see which templates exist (`templates`) and what one \
                   contains (`template:read`, with `resolve` to fill in date, time and title). \
                   Templates are read only here; to read ordinary notes use obsidianNotes.",
        commands: vec![
            CommandSpec::new::<TemplatesArgs>("templates", Access::Read, "List template names.")
                .brief(""),
            CommandSpec::new::<TemplateReadArgs>(
                "template:read",
                Access::Read,
                "Read a template's text.",
            )
            .brief("")
            .silent_success("The template is empty."),
        ],
        example: json!({"command": "templates"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_listed_and_read_without_reaching_any_note() {
        let spec = tool();
        let list = spec.parse_call(&json!({"command": "templates"})).unwrap();
        assert_eq!(
            list.invocation(None).unwrap().to_argv().unwrap(),
            ["templates"]
        );
        let read = spec
            .parse_call(&json!({"command": "template:read", "name": "Daily", "title": "Tuesday", "resolve": true}))
            .unwrap();
        assert_eq!(
            read.invocation(None).unwrap().to_argv().unwrap(),
            ["template:read", "name=Daily", "title=Tuesday", "resolve"]
        );
        // The folder scopes leave the Templates plugin's folder open.
        for call in [list, read] {
            assert_eq!(call.facts().unwrap().reach, Reach::no_notes());
            assert_eq!(call.access(), Access::Read);
        }
    }

    #[test]
    fn a_template_needs_a_name() {
        let spec = tool();
        for bad in [
            json!({"command": "template:read"}),
            json!({"command": "template:read", "name": "  "}),
            json!({"command": "template:write", "name": "Daily"}),
        ] {
            assert!(spec.parse_call(&bad).is_err(), "{bad}");
        }
    }
}
