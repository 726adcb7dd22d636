//! `properties`, `property:read`, `property:set`, `property:remove`.

use super::{format_param, json, read_note, require, target, tsv_row, wants_single_file, Ctx, Out};
use crate::args::Invocation;
use crate::dates::Date;
use crate::frontmatter::{self, NewValue};
use crate::markdown;
use crate::vault;

const NONE: &str = "No properties found.";

pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["yaml", "json", "tsv"])?.unwrap_or("yaml");
    if wants_single_file(inv) {
        return one_file(ctx, inv, format);
    }
    // Vault-wide: property names and in how many notes each occurs.
    let mut counts: Vec<(String, usize)> = Vec::new();
    for note in ctx.vault.notes() {
        let content = ctx.vault.read(note).unwrap_or_default();
        let Some(fm) = markdown::frontmatter(&content) else {
            continue;
        };
        for key in fm.keys() {
            let Some(k) = key.as_str() else { continue };
            match counts.iter_mut().find(|(n, _)| n == k) {
                Some(entry) => entry.1 += 1,
                None => counts.push((k.to_string(), 1)),
            }
        }
    }
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
    counts.sort_by(|a, b| {
        a.0.to_lowercase()
            .cmp(&b.0.to_lowercase())
            .then(a.0.cmp(&b.0))
    });
    if inv.get("sort") == Some("count") {
        counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    }
    let with_counts = inv.has("counts");
    Ok(match format {
        "json" => json(&serde_json::Value::Array(
            counts
                .iter()
                .map(|(n, c)| serde_json::json!({"name": n, "count": c}))
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

fn one_file(ctx: &Ctx, inv: &Invocation, format: &str) -> Out {
    let path = target(ctx, inv, "md")?;
    let content = read_note(ctx, &path)?;
    let mut fm = markdown::frontmatter(&content).unwrap_or_default();
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

pub fn read(ctx: &Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "property:read", "name", "name")?;
    let path = target(ctx, inv, "md")?;
    let content = read_note(ctx, &path)?;
    let fm = markdown::frontmatter(&content).unwrap_or_default();
    match frontmatter::get(&fm, name) {
        Some(v) => Ok(frontmatter::display(v)),
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
    let ty = ty.unwrap_or(match name {
        "tags" | "aliases" | "cssclasses" => "list",
        _ => "text",
    });
    match ty {
        "text" => Ok(NewValue::Text(value.to_string())),
        "list" => Ok(list(value)),
        "number" => {
            let v = value.trim();
            if v.parse::<f64>().is_ok_and(f64::is_finite) {
                Ok(NewValue::Raw(v.to_string()))
            } else {
                Err(format!("Error: Invalid number \"{value}\"."))
            }
        }
        "checkbox" => match value.trim().to_lowercase().as_str() {
            "true" => Ok(NewValue::Raw("true".into())),
            "false" => Ok(NewValue::Raw("false".into())),
            _ => Err(format!(
                "Error: Invalid checkbox value \"{value}\". Use true or false."
            )),
        },
        "date" => match Date::parse_ymd(value) {
            Some(d) => Ok(NewValue::Raw(d.ymd())),
            None => Err(format!("Error: Invalid date \"{value}\". Use YYYY-MM-DD.")),
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
                Err(format!(
                    "Error: Invalid datetime \"{value}\". Use YYYY-MM-DDTHH:mm[:ss]."
                ))
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

pub fn set(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let name = require(inv, "property:set", "name", "name")?;
    let value = require(inv, "property:set", "value", "value")?;
    let new_value = parse_value(name, value, inv.get("type"))?;
    let path = markdown_target(ctx, inv)?;
    let content = read_note(ctx, &path)?;
    let updated = frontmatter::set_property(&content, name, &new_value);
    ctx.vault
        .write(&path, &updated)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("Property \"{name}\" set on {path}"))
}

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
