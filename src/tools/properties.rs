//! `obsidianProperties`: frontmatter properties. Reads run at once; setting or
//! removing a property waits for the user's click, with the old and new value.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::shared::{check_not_blank, check_note_target, describe_note, SortOrder};
use super::{CommandArgs, CommandSpec, ToolSpec, UndoKind};
use crate::base::call::{Access, NoteLocator, Preview, ProbeResult};
use crate::base::error::ToolError;
use crate::cli::argv::CliInvocation;
use crate::policy::scope::{Output, Place, Reach};
use crate::tools::Previews;
use crate::tools::{Card, CliWrite, Plan};

/// `format=` of `properties`.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PropertiesFormat {
    Yaml,
    Json,
    Tsv,
}

/// Arguments of `properties`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertiesArgs {
    /// Properties of this note (its name, like a wikilink).
    pub file: Option<String>,
    /// Properties of the note at this exact path from the vault root.
    pub path: Option<String>,
    /// Vault-wide: how many notes use this property.
    pub name: Option<String>,
    /// "count" to sort by how often each property is used (default: by name).
    pub sort: Option<SortOrder>,
    /// Output format: yaml (default), json or tsv.
    pub format: Option<PropertiesFormat>,
    /// Every property name in the vault. Without `all`, `file` or `path` the CLI shows the note open in Obsidian.
    #[serde(default)]
    pub all: bool,
    /// Include how often each property is used.
    #[serde(default)]
    pub counts: bool,
    /// Return only the number of properties.
    #[serde(default)]
    pub total: bool,
}

impl CommandArgs for PropertiesArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_note_target(&mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        match NoteLocator::of(&self.file, &self.path) {
            Some(note) => Reach::note(Some(note)),
            // Property names and counts over the vault cannot be split by folder.
            None if self.all || self.name.is_some() => Reach {
                places: vec![Place::Within(None)],
                output: Output::Unplaceable {
                    fix: "Ask for the properties of a note in the allowed folders (`file` or `path`).",
                },
            },
            None => Reach::note(None),
        }
    }
}

/// Arguments of `property:read` and `property:remove`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertyNameArgs {
    /// The property, e.g. "status" or "tags".
    pub name: String,
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
}

/// The type `property:set` gives a value.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum PropertyType {
    Text,
    List,
    Number,
    Checkbox,
    Date,
    Datetime,
}

/// Arguments of `property:set`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertySetArgs {
    /// The property, e.g. "status".
    pub name: String,
    /// The new value. Lists are comma-separated ("a, b"); checkboxes are true or false; dates are YYYY-MM-DD.
    pub value: String,
    /// The value's type: text, list, number, checkbox, date or datetime.
    #[serde(rename = "type")]
    pub kind: Option<PropertyType>,
    /// The note's name, resolved like a wikilink.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
}

fn read_probe(name: &str, file: &Option<String>, path: &Option<String>) -> CliInvocation {
    let mut probe = CliInvocation::new("property:read").parameter("name", name);
    if let Some(file) = file {
        probe = probe.parameter("file", file.clone());
    }
    if let Some(path) = path {
        probe = probe.parameter("path", path.clone());
    }
    probe
}

/// The property's value now, as `property:read` prints it (a list one item
/// per line, whatever the line endings), or `None` when the note does not
/// have it.
pub(crate) fn current_value(current: &ProbeResult) -> Result<Option<String>, ToolError> {
    match current {
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => Ok(Some(text.lines().collect::<Vec<_>>().join("\n"))),
        Err(ToolError::CliError { output, .. })
            if output.starts_with("Property") && output.contains("not found") =>
        {
            Ok(None)
        }
        Err(ToolError::EmptyOutput) => Ok(None),
        Err(other) => Err(other.clone()),
    }
}

const NOT_SET: &str = "(not set)";

/// Properties Obsidian always treats as lists.
pub(crate) const LIST_PROPERTIES: [&str; 3] = ["tags", "aliases", "cssclasses"];

/// The checks every property command shares.
fn check_property(
    name: &str,
    file: &mut Option<String>,
    path: &mut Option<String>,
) -> Result<(), String> {
    check_not_blank("name", name)?;
    check_note_target(file, path)
}

/// What a property write changes, in words; `None` without a named note.
fn property_target(name: &str, file: &Option<String>, path: &Option<String>) -> Option<String> {
    describe_note(file, path).map(|note| format!("property \"{name}\" of {note}"))
}

impl CommandArgs for PropertyNameArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_property(&self.name, &mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn write_target(&self) -> Option<String> {
        property_target(&self.name, &self.file, &self.path)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl PropertyNameArgs {
    pub fn probe(&self) -> Option<CliInvocation> {
        Some(read_probe(&self.name, &self.file, &self.path))
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        Some(UndoKind::Property {
            name: self.name.clone(),
            note: NoteLocator::of(&self.file, &self.path)?,
        })
    }
}

impl Previews for PropertyNameArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        let target = self.write_target().unwrap_or_default();
        match current_value(current)? {
            Some(before) => Ok(Preview {
                target,
                before,
                after: "(removed)".into(),
                diff: None,
                warning: None,
            }),
            None => Err(ToolError::CliError {
                output: format!("{target} is not set, so there is nothing to remove."),
                hint: Some("Check the property name with obsidianProperties `properties`.".into()),
            }),
        }
    }
}

impl CommandArgs for PropertySetArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_property(&self.name, &mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }

    fn write_target(&self) -> Option<String> {
        property_target(&self.name, &self.file, &self.path)
    }

    fn plan(&self) -> Plan<'_> {
        Plan::CliWrite(CliWrite {
            undo: self.undo_kind().unwrap_or(UndoKind::UNKNOWN),
            check: None,
            new_note: None,
            card: self.probe().map(|probe| Card {
                probe,
                exact_note: None,
                preview: self,
            }),
        })
    }
}

impl PropertySetArgs {
    pub fn probe(&self) -> Option<CliInvocation> {
        Some(read_probe(&self.name, &self.file, &self.path))
    }

    pub fn undo_kind(&self) -> Option<UndoKind> {
        Some(UndoKind::Property {
            name: self.name.clone(),
            note: NoteLocator::of(&self.file, &self.path)?,
        })
    }
}

impl Previews for PropertySetArgs {
    fn preview(&self, current: &ProbeResult) -> Result<Preview, ToolError> {
        let before = current_value(current)?.unwrap_or_else(|| NOT_SET.into());
        let after = match self.kind {
            // A list, shown as `property:read` shows one: an item per line.
            _ if self.is_list() => {
                let items = list_items(&self.value);
                if items.is_empty() {
                    "(empty list)".into()
                } else {
                    items.join("\n")
                }
            }
            Some(kind) => format!(
                "{} ({})",
                self.value,
                serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default()
            ),
            None => self.value.clone(),
        };
        Ok(Preview {
            target: self.write_target().unwrap_or_default(),
            before,
            after,
            diff: None,
            warning: None,
        })
    }
}

impl PropertySetArgs {
    /// Whether the value is written as a list: `type=list`, or no type for a
    /// property Obsidian always keeps as a list.
    fn is_list(&self) -> bool {
        match self.kind {
            Some(kind) => kind == PropertyType::List,
            None => LIST_PROPERTIES.contains(&self.name.as_str()),
        }
    }
}

/// The items of a comma-separated list value (`[]` is the empty list).
fn list_items(value: &str) -> Vec<&str> {
    if value.trim() == "[]" {
        return Vec::new();
    }
    value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .collect()
}

/// `property:read` is the same shape as `property:remove` but only reads; it
/// may use the note open in Obsidian.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertyReadArgs {
    /// The property, e.g. "status" or "tags".
    pub name: String,
    /// The note's name, resolved like a wikilink. Omit both `file` and `path` for the note open in Obsidian.
    pub file: Option<String>,
    /// The note's exact path from the vault root.
    pub path: Option<String>,
}

impl CommandArgs for PropertyReadArgs {
    fn validate(&mut self) -> Result<(), String> {
        check_property(&self.name, &mut self.file, &mut self.path)
    }

    fn reach(&self) -> Reach {
        Reach::note(NoteLocator::of(&self.file, &self.path))
    }
}

pub fn tool() -> ToolSpec {
    ToolSpec {
        id: "obsidianProperties",
        display_name: "Properties",
        description: "List and read note properties (frontmatter), or set or remove one.",
        guidance: "Use obsidianProperties for frontmatter: `properties all counts` lists the \
                   property names used in the vault, `properties file=…` one note's properties, \
                   `property:read` one value. `property:set` and `property:remove` change a note \
                   only after the user clicks Approve on a preview; always name the note with \
                   `file` or `path`. For a note's text use obsidianNotes `read`.",
        commands: vec![
            CommandSpec::new::<PropertiesArgs>(
                "properties",
                Access::Read,
                "List properties of a note or of the vault.",
            )
            .brief(""),
            // An empty property (`topics:` with nothing after it, common in
            // template vaults) prints nothing (captured: marwansaab
            // specs/013-read-property R2), like a missing value would.
            CommandSpec::new::<PropertyReadArgs>(
                "property:read",
                Access::Read,
                "Read one property's value.",
            )
            .brief("")
            .silent_success("The property has no value (it is empty in the note's properties)."),
            CommandSpec::new::<PropertySetArgs>(
                "property:set",
                Access::ConfirmedWrite,
                "Set a property on a note (the user approves a preview first).",
            )
            .brief("")
            .confirm_as("Set")
            .idempotent(),
            CommandSpec::new::<PropertyNameArgs>(
                "property:remove",
                Access::ConfirmedWrite,
                "Remove a property from a note (the user approves a preview first).",
            )
            .brief("")
            .confirm_as("Remove")
            .idempotent(),
        ],
        example: json!({"command": "properties", "all": true, "counts": true}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(value: &str, kind: Option<PropertyType>) -> PropertySetArgs {
        PropertySetArgs {
            name: "status".into(),
            value: value.into(),
            kind,
            file: Some("Plan".into()),
            path: None,
        }
    }

    #[test]
    fn set_preview_shows_old_and_new_value() {
        let preview = set("done", None).preview(&Ok("active".into())).unwrap();
        assert_eq!(preview.target, "property \"status\" of note \"Plan\"");
        assert_eq!(
            (preview.before.as_str(), preview.after.as_str()),
            ("active", "done")
        );
        let missing = Err(ToolError::CliError {
            output: "Property \"status\" not found.".into(),
            hint: None,
        });
        let preview = set("3", Some(PropertyType::Number))
            .preview(&missing)
            .unwrap();
        assert_eq!(
            (preview.before.as_str(), preview.after.as_str()),
            ("(not set)", "3 (number)")
        );
    }

    #[test]
    fn list_values_show_one_item_per_line_before_and_after() {
        let mut args = set("project, launch,, q2", Some(PropertyType::List));
        args.name = "tags".into();
        // property:read prints a list one item per line (CRLF on Windows).
        let preview = args.preview(&Ok("project\r\nlaunch".into())).unwrap();
        assert_eq!(preview.before, "project\nlaunch");
        assert_eq!(preview.after, "project\nlaunch\nq2");
        // Without a type, tags, aliases and cssclasses are lists too.
        args.kind = None;
        assert_eq!(
            args.preview(&Ok("project".into())).unwrap().after,
            "project\nlaunch\nq2"
        );
        args.value = "[]".into();
        assert_eq!(
            args.preview(&Ok("project".into())).unwrap().after,
            "(empty list)"
        );
        // Other properties stay text unless the type says list.
        let text = set("a, b", None);
        assert_eq!(text.preview(&Ok("x".into())).unwrap().after, "a, b");
        let remove = PropertyNameArgs {
            name: "aliases".into(),
            file: Some("Plan".into()),
            path: None,
        };
        assert_eq!(
            remove
                .preview(&Ok("Launch\nGo-live".into()))
                .unwrap()
                .before,
            "Launch\nGo-live"
        );
    }

    #[test]
    fn remove_of_a_missing_property_is_refused() {
        let args = PropertyNameArgs {
            name: "status".into(),
            file: None,
            path: Some("Projects/Plan.md".into()),
        };
        let err = args.preview(&Ok(String::new())).unwrap_err();
        assert!(err.to_string().contains("nothing to remove"), "{err}");
        let file_missing = ToolError::CliError {
            output: "File \"Projects/Plan.md\" not found.".into(),
            hint: None,
        };
        assert_eq!(
            args.preview(&Err(file_missing.clone())).unwrap_err(),
            file_missing
        );
    }

    #[test]
    fn writes_without_a_note_have_no_target() {
        let mut args = set("x", None);
        args.file = None;
        assert_eq!(args.write_target(), None);
    }
}
