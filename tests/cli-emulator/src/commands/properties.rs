//! `properties`, `property:read`, `property:set`, `property:remove`.

use super::{format_param, json, read_note, require, target, tsv_row, wants_single_file, Ctx, Out};
use crate::args::Invocation;
use crate::dates::Date;
use crate::frontmatter::{self, NewValue};
use crate::markdown;
use crate::vault;

/// guess: the wording when the vault has no properties at all.
const NONE: &str = "No properties found.";

/// A note without (valid) frontmatter (marwansaab/obsidian-cli-mcp
/// specs/013-read-property/research.md Finding 6 / T0.1, Windows, 1.12.7).
const NO_FRONTMATTER: &str = "No frontmatter found.";

/// The property type Obsidian reports in `properties format=json`
/// (`[{"name","type","count"}]`, marwansaab 013 Finding 3): the type saved in
/// `.obsidian/types.json`, else the built-in one (`aliases`, `tags`,
/// `cssclasses` → `multitext`), else inferred from the values: text (dates
/// written without a saved type stay text, as in Finding 3; null too), number,
/// checkbox, multitext (a list of text), unknown (a mapping or a mixed list).
fn property_type(ctx: &Ctx, name: &str, values: &[yaml_rust2::Yaml]) -> String {
    use yaml_rust2::Yaml;
    if let Some(t) = ctx
        .vault
        .config_json("types.json")
        .and_then(|c| c.get("types")?.get(name)?.as_str().map(str::to_string))
    {
        return t;
    }
    match name {
        "aliases" => return "aliases".into(),
        "tags" => return "tags".into(),
        "cssclasses" => return "multitext".into(),
        _ => {}
    }
    let kind = |v: &Yaml| match v {
        Yaml::Integer(_) | Yaml::Real(_) => "number",
        Yaml::Boolean(_) => "checkbox",
        Yaml::Array(items) if items.iter().all(|i| matches!(i, Yaml::String(_))) => "multitext",
        Yaml::Array(_) | Yaml::Hash(_) => "unknown",
        _ => "text",
    };
    values
        .iter()
        .find(|v| !matches!(v, Yaml::Null))
        .map_or("text", kind)
        .to_string()
}

/// `properties`: one note (see `one_file`) or the vault: names in yaml
/// (default), tsv or json (`[{"name","type","count"}]`, marwansaab 013
/// Finding 3); the yaml/tsv layouts, `counts`, `sort`, `name=` and `total`
/// are guesses.
pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["yaml", "json", "tsv"])?.unwrap_or("yaml");
    if wants_single_file(inv) {
        return one_file(ctx, inv, format);
    }
    // Vault-wide: property names, in how many notes each occurs, and values.
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut values: Vec<Vec<yaml_rust2::Yaml>> = Vec::new();
    for note in ctx.vault.notes() {
        let content = ctx.vault.read(note).unwrap_or_default();
        let Some(fm) = markdown::frontmatter(&content) else {
            continue;
        };
        for (key, value) in fm.iter() {
            let Some(k) = key.as_str() else { continue };
            match counts.iter().position(|(n, _)| n == k) {
                Some(i) => {
                    counts[i].1 += 1;
                    values[i].push(value.clone());
                }
                None => {
                    counts.push((k.to_string(), 1));
                    values.push(vec![value.clone()]);
                }
            }
        }
    }
    let mut typed: Vec<(String, usize, String)> = counts
        .iter()
        .zip(&values)
        .map(|((n, c), v)| (n.clone(), *c, property_type(ctx, n, v)))
        .collect();
    if let Some(name) = inv.get("name") {
        let n = counts
            .iter()
            .find(|(k, _)| k == name)
            .map_or(0, |(_, c)| *c);
        return Ok(n.to_string());
    }
    if inv.has("total") {
        return Ok(counts.len().to_string());
    }
    if counts.is_empty() {
        return Ok(NONE.to_string());
    }
    typed.sort_by(|a, b| {
        a.0.to_lowercase()
            .cmp(&b.0.to_lowercase())
            .then(a.0.cmp(&b.0))
    });
    if inv.get("sort") == Some("count") {
        typed.sort_by_key(|c| std::cmp::Reverse(c.1));
    }
    let counts: Vec<(String, usize)> = typed.iter().map(|(n, c, _)| (n.clone(), *c)).collect();
    let with_counts = inv.has("counts");
    Ok(match format {
        // Field names and types: marwansaab 013 Finding 3; the layout (pretty,
        // two spaces) is a guess (the capture was reformatted).
        "json" => json(&serde_json::Value::Array(
            typed
                .iter()
                .map(|(n, c, t)| serde_json::json!({"name": n, "type": t, "count": c}))
                .collect(),
        )),
        "tsv" => counts
            .iter()
            .map(|(n, c)| {
                if with_counts {
                    tsv_row(&[n.clone(), c.to_string()])
                } else {
                    n.clone()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => counts
            .iter()
            .map(|(n, c)| {
                if with_counts {
                    format!("{n}: {c}")
                } else {
                    n.clone()
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// One note: yaml (`key: value`, lists as block lists), `format=json` the
/// frontmatter object pretty-printed with two spaces (marwansaab 013 T0.2),
/// `format=tsv` `key\tvalue`. No frontmatter: `No frontmatter found.`
fn one_file(ctx: &Ctx, inv: &Invocation, format: &str) -> Out {
    let path = target(ctx, inv, "md")?;
    let content = read_note(ctx, &path)?;
    let Some(mut fm) = markdown::frontmatter(&content).filter(|fm| !fm.is_empty()) else {
        // guess: `total` on such a note prints 0.
        if inv.has("total") {
            return Ok("0".to_string());
        }
        return Ok(NO_FRONTMATTER.to_string());
    };
    if let Some(name) = inv.get("name") {
        fm.retain(|k, _| k.as_str() == Some(name));
    }
    if inv.has("total") {
        return Ok(fm.len().to_string());
    }
    if fm.is_empty() {
        return Ok(NONE.to_string());
    }
    Ok(match format {
        "json" => json(&frontmatter::to_json(&yaml_rust2::Yaml::Hash(fm))),
        "tsv" => fm
            .iter()
            .map(|(k, v)| {
                tsv_row(&[
                    k.as_str().unwrap_or_default().to_string(),
                    frontmatter::display(v),
                ])
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => frontmatter::emit_yaml(&fm),
    })
}

/// The value as text: a list one item per line, `true`/`false`, null prints
/// nothing, a mapping `[object Object]` (marwansaab/obsidian-cli-mcp
/// specs/013-read-property/research.md R2, Windows, 1.12.7). A property the
/// note does not have: the wording is a guess.
pub fn read(ctx: &Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "property:read", "name", "name")?;
    let path = target(ctx, inv, "md")?;
    let content = read_note(ctx, &path)?;
    let fm = markdown::frontmatter(&content).unwrap_or_default();
    match frontmatter::get(&fm, name) {
        Some(v) => Ok(frontmatter::read_text(v)),
        None => Err(format!("Error: Property \"{name}\" not found.")),
    }
}

fn parse_value(name: &str, value: &str, ty: Option<&str>) -> Result<NewValue, String> {
    let list = |v: &str| {
        NewValue::List(
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        )
    };
    // guess: without `type`, `tags`/`aliases`/`cssclasses` are lists.
    let ty = ty.unwrap_or(match name {
        "tags" | "aliases" | "cssclasses" => "list",
        _ => "text",
    });
    // `value=[]` writes an empty list, with or without `type=list`
    // (marwansaab/obsidian-cli-mcp specs/018-write-property/research.md F2).
    if value.trim() == "[]" && matches!(ty, "list" | "text") {
        return Ok(NewValue::List(Vec::new()));
    }
    match ty {
        "text" => Ok(NewValue::Text(value.to_string())),
        // `value=` with `type=list` is a one-item list of "" (018 F14).
        "list" if value.is_empty() => Ok(NewValue::List(vec![String::new()])),
        // Comma-separated (018 F13).
        "list" => Ok(list(value)),
        // `Error: Invalid number: abc` (018 F4).
        "number" => {
            let v = value.trim();
            if v.parse::<f64>().is_ok_and(f64::is_finite) {
                Ok(NewValue::Raw(v.to_string()))
            } else {
                Err(format!("Error: Invalid number: {value}"))
            }
        }
        // guess, in the shape of the number error.
        "checkbox" => match value.trim().to_lowercase().as_str() {
            "true" => Ok(NewValue::Raw("true".into())),
            "false" => Ok(NewValue::Raw("false".into())),
            _ => Err(format!("Error: Invalid checkbox: {value}")),
        },
        // `Error: Invalid date format. Use YYYY-MM-DD` (018 F4).
        "date" => match Date::parse_ymd(value) {
            Some(d) => Ok(NewValue::Raw(d.ymd())),
            None => Err("Error: Invalid date format. Use YYYY-MM-DD".to_string()),
        },
        "datetime" => {
            let v = value.trim();
            let (d, t) = v.split_once('T').unwrap_or((v, ""));
            let time_ok = {
                let parts: Vec<&str> = t.split(':').collect();
                (2..=3).contains(&parts.len())
                    && parts
                        .iter()
                        .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_digit()))
            };
            if Date::parse_ymd(d).is_some() && time_ok {
                Ok(NewValue::Raw(v.to_string()))
            } else {
                // guess, in the shape of the date error.
                Err("Error: Invalid datetime format. Use YYYY-MM-DDTHH:mm".to_string())
            }
        }
        other => Err(format!(
            "Error: Invalid type \"{other}\". Expected one of: text, list, number, checkbox, date, datetime."
        )),
    }
}

fn markdown_target(ctx: &Ctx, inv: &Invocation) -> Result<String, String> {
    let path = target(ctx, inv, "md")?;
    if !vault::is_markdown(&path) {
        return Err(format!(
            "Error: \"{path}\" is not a markdown file; properties live in markdown notes."
        ));
    }
    Ok(path)
}

/// `Set <name>: <value>` with the value as given (marwansaab 018 F1, F3,
/// F13). `value=` may be empty (018 F14), so only its absence is an error.
pub fn set(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "property:set", "name", "name")?;
    let value = inv
        .get("value")
        .ok_or_else(|| super::missing("property:set", "value=<value>"))?;
    let new_value = parse_value(name, value, inv.get("type"))?;
    let path = markdown_target(ctx, inv)?;
    let content = read_note(ctx, &path)?;
    let updated = frontmatter::set_property(&content, name, &new_value);
    ctx.vault
        .write(&path, &updated)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("Set {name}: {value}"))
}

/// guess: no capture shows what `property:remove` prints.
pub fn remove(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "property:remove", "name", "name")?;
    let path = markdown_target(ctx, inv)?;
    let content = read_note(ctx, &path)?;
    let Some(updated) = frontmatter::remove_property(&content, name) else {
        return Err(format!("Error: Property \"{name}\" not found."));
    };
    ctx.vault
        .write(&path, &updated)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("Property \"{name}\" removed from {path}"))
}
