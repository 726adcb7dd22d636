//! `bookmarks` (list) and `bookmark` (add), over `.obsidian/bookmarks.json`
//! in Obsidian's format: `{"items":[{"type":"file","ctime":…,"path":…}, …]}`
//! with types `file` (+`subpath`), `folder`, `search` (`query`), `url`
//! (`url`) and `group` (`title`, nested `items`); any item may have `title`.

use super::{csv_row, format_param, json, not_found, tsv_row, Ctx, Out};
use crate::args::Invocation;
use crate::dates;
use crate::vault;
use serde_json::{json as j, Map, Value};

const FILE: &str = "bookmarks.json";

/// The bookmark's target as text: `path#subpath`, folder path, search
/// query or URL.
fn target_of(item: &Value) -> String {
    let s = |k: &str| {
        item.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    match s("type").as_str() {
        "file" => {
            let sub = s("subpath");
            format!("{}{}", s("path"), sub)
        }
        "folder" => s("path"),
        "search" => s("query"),
        "url" => s("url"),
        _ => s("title"),
    }
}

/// Flatten: (type, target, title, group title) for every item, groups
/// included (their target is their title).
fn flatten(items: &[Value], group: &str, out: &mut Vec<(String, String, String, String)>) {
    for item in items {
        let ty = item
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let title = item
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        out.push((
            ty.clone(),
            target_of(item),
            title.clone(),
            group.to_string(),
        ));
        if ty == "group" {
            if let Some(children) = item.get("items").and_then(Value::as_array) {
                let path = if group.is_empty() {
                    title
                } else {
                    format!("{group}/{title}")
                };
                flatten(children, &path, out);
            }
        }
    }
}

fn strip_ctime(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "ctime")
                .map(|(k, v)| (k.clone(), strip_ctime(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip_ctime).collect()),
        other => other.clone(),
    }
}

/// guess: no capture shows `bookmarks` (shared reference).
pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["json", "tsv", "csv"])?.unwrap_or("tsv");
    let items: Vec<Value> = ctx
        .vault
        .config_json(FILE)
        .and_then(|v| v.get("items").and_then(Value::as_array).cloned())
        .unwrap_or_default();
    let mut flat = Vec::new();
    flatten(&items, "", &mut flat);
    let leaves: Vec<_> = flat.iter().filter(|(t, ..)| t != "group").collect();
    if inv.has("total") {
        return Ok(leaves.len().to_string());
    }
    if leaves.is_empty() {
        return Ok("No bookmarks found.".to_string());
    }
    let verbose = inv.has("verbose");
    Ok(match format {
        "json" => json(&strip_ctime(&Value::Array(items))),
        "csv" => {
            let mut rows = vec![csv_row(&["type", "target", "title", "group"])];
            rows.extend(flat.iter().map(|(t, tg, ti, g)| csv_row(&[t, tg, ti, g])));
            rows.join("\n")
        }
        _ if verbose => flat
            .iter()
            .map(|(t, tg, ti, g)| {
                let mut r = vec![t.clone(), tg.clone()];
                if !ti.is_empty() && t != "group" {
                    r.push(ti.clone());
                }
                let row = tsv_row(&r);
                if g.is_empty() {
                    row
                } else {
                    format!("  {row}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => leaves
            .iter()
            .map(|(_, tg, ..)| tg.clone())
            .collect::<Vec<_>>()
            .join("\n"),
    })
}

/// guess: no capture shows `bookmark` (shared reference).
pub fn add(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let mut item = Map::new();
    let given: Vec<&str> = ["file", "folder", "search", "url"]
        .into_iter()
        .filter(|k| inv.get_nonempty(k).is_some())
        .collect();
    if given.len() != 1 {
        // guess: no capture shows `bookmark`; the usage line has the
        // captured shape (no `obsidian ` prefix).
        return Err(format!(
            "Error: Give exactly one of file=<path>, folder=<path>, search=<query>, url=<url>.\nUsage: {}",
            "bookmark [file=<path>] [subpath=<subpath>] [folder=<path>] [search=<query>] [url=<url>] [title=<title>]"
        ));
    }
    let kind = given[0];
    let value = inv.get_nonempty(kind).unwrap_or_default();
    item.insert("type".into(), kind.into());
    item.insert("ctime".into(), dates::now_millis().into());
    match kind {
        "file" => {
            let path = ctx
                .vault
                .resolve_path(value)
                .or_else(|| ctx.vault.resolve_name(value, "md"))
                .ok_or_else(|| not_found(value))?;
            item.insert("path".into(), path.into());
            if let Some(sub) = inv.get_nonempty("subpath") {
                let sub = if sub.starts_with('#') {
                    sub.to_string()
                } else {
                    format!("#{sub}")
                };
                item.insert("subpath".into(), sub.into());
            }
        }
        "folder" => {
            let folder = vault::safe_folder(value)
                .filter(|f| !f.is_empty() && ctx.vault.has_folder(f))
                .ok_or_else(|| format!("Error: Folder \"{value}\" not found."))?;
            item.insert("path".into(), folder.into());
        }
        "search" => {
            item.insert("query".into(), value.into());
        }
        _ => {
            item.insert("url".into(), value.into());
        }
    }
    if let Some(t) = inv.get_nonempty("title") {
        item.insert("title".into(), t.into());
    }
    let item = Value::Object(item);
    let shown = target_of(&item);
    let mut doc = ctx
        .vault
        .config_json(FILE)
        .unwrap_or_else(|| j!({"items": []}));
    if !doc.is_object() {
        doc = j!({"items": []});
    }
    let obj = doc.as_object_mut().expect("object");
    let items = obj.entry("items").or_insert_with(|| Value::Array(vec![]));
    if !items.is_array() {
        *items = Value::Array(vec![]);
    }
    items.as_array_mut().expect("array").push(item);
    ctx.vault
        .write_config_json(FILE, &doc)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("Bookmarked: {shown}"))
}
