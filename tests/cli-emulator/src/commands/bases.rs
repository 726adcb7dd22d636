//! Bases: `bases`, `base:views`, `base:query`, `base:create`.

use super::base_eval::Scope;
use super::base_filter::{self, Requirements};
use super::base_value::{self as value, Val};
use super::notes::free_name;
use super::{active, csv_row, format_param, json, read_note, tsv_row, Ctx, Out};
use crate::args::Invocation;
use crate::frontmatter::{self, NewValue};
use crate::vault;
use yaml_rust2::{Yaml, YamlLoader};

struct View {
    name: String,
    /// `table`, `cards` or `list`.
    kind: String,
    filters: Option<Yaml>,
    order: Vec<String>,
    sort: Vec<(String, bool)>,
    limit: Option<usize>,
}

struct Base {
    filters: Option<Yaml>,
    /// `formulas:` name → expression.
    formulas: Vec<(String, String)>,
    views: Vec<View>,
    /// property id -> displayName
    display: Vec<(String, String)>,
}

fn strings(y: &Yaml) -> Vec<String> {
    match y {
        Yaml::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        Yaml::String(s) => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn parse_base(text: &str) -> Result<Base, String> {
    let docs =
        YamlLoader::load_from_str(text).map_err(|e| format!("Error: Invalid base file: {e}"))?;
    let root = docs.into_iter().next().unwrap_or(Yaml::Null);
    let get = |k: &str| match &root {
        Yaml::Hash(h) => h.get(&Yaml::String(k.to_string())).cloned(),
        _ => None,
    };
    let mut views = Vec::new();
    if let Some(Yaml::Array(items)) = get("views") {
        for (i, v) in items.iter().enumerate() {
            let field = |k: &str| v[k].clone();
            let name = field("name")
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| format!("View {}", i + 1));
            let sort = match field("sort") {
                Yaml::Array(a) => a
                    .iter()
                    .filter_map(|s| {
                        let prop = s["property"].as_str()?.to_string();
                        let asc = !s["direction"]
                            .as_str()
                            .is_some_and(|d| d.eq_ignore_ascii_case("desc"));
                        Some((prop, asc))
                    })
                    .collect(),
                _ => Vec::new(),
            };
            views.push(View {
                name,
                // guess: a view without `type` is a table.
                kind: field("type").as_str().unwrap_or("table").to_string(),
                filters: match field("filters") {
                    Yaml::BadValue | Yaml::Null => None,
                    f => Some(f),
                },
                order: strings(&field("order")),
                sort,
                limit: field("limit")
                    .as_i64()
                    .and_then(|n| usize::try_from(n).ok()),
            });
        }
    }
    let mut display = Vec::new();
    if let Some(Yaml::Hash(props)) = get("properties") {
        for (k, v) in props {
            if let (Some(id), Some(d)) = (k.as_str(), v["displayName"].as_str()) {
                display.push((id.to_string(), d.to_string()));
            }
        }
    }
    let formulas = match get("formulas") {
        Some(Yaml::Hash(h)) => h
            .iter()
            .filter_map(|(k, v)| {
                let text = match v {
                    Yaml::String(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Real(r) => r.clone(),
                    Yaml::Boolean(b) => b.to_string(),
                    _ => return None,
                };
                Some((k.as_str()?.to_string(), text))
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(Base {
        filters: get("filters"),
        formulas,
        views,
        display,
    })
}

/// `.base` paths, one per line (misiekhardcore/claude-obsidian
/// tests/spike-results/bases-list---.out; marwansaab/obsidian-cli-mcp
/// specs/065-fix-empty-bases/contracts/t0-evidence.md P2); none →
/// `No base files found in vault`, no full stop (065). `total` is a guess
/// (054 found no count mode).
pub fn list(ctx: &Ctx, inv: &Invocation) -> Out {
    let found: Vec<&String> = ctx
        .vault
        .files()
        .iter()
        .filter(|f| vault::extension(f).eq_ignore_ascii_case("base"))
        .collect();
    if inv.has("total") {
        return Ok(found.len().to_string());
    }
    if found.is_empty() {
        return Ok("No base files found in vault".to_string());
    }
    Ok(found
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// The base a command works on. `path=`/`file=` that match no base →
/// `Error: Base file not found: <value>` with exit code 1 (marwansaab
/// specs/054-add-bases-surface/research.md, `base:create`, 1.12.7; the same
/// for `base:query` and `base:views` is a guess). Without them, the active
/// file, which must be a base: `Error: Active file is not a base file:
/// <path>` (054; jackal092927/obsidian-official-cli-skills
/// reports/raw/cov_005_direct_base_views.stdout.txt).
///
/// Known difference: in 1.12.7 `base:views` ignores `file=`/`path=` and
/// always reads the active file (marwansaab specs/064-fix-views-base,
/// contracts/t0-probe-findings.md P2); the emulator honours them.
fn load(ctx: &Ctx, inv: &Invocation) -> Result<(String, Base), String> {
    let given = inv.get("path").or_else(|| inv.get("file"));
    let path = match given {
        Some(value) => {
            let found = match inv.get("path") {
                Some(p) => ctx.vault.resolve_path(p),
                None => ctx.vault.resolve_name(value, "base"),
            };
            match found.filter(|p| vault::extension(p).eq_ignore_ascii_case("base")) {
                Some(p) => p,
                None => {
                    ctx.exit_code.set(1);
                    return Err(format!("Error: Base file not found: {value}"));
                }
            }
        }
        None => {
            let path = active(ctx)?;
            if !vault::extension(&path).eq_ignore_ascii_case("base") {
                return Err(format!("Error: Active file is not a base file: {path}"));
            }
            path
        }
    };
    let text = read_note(ctx, &path)?;
    Ok((path, parse_base(&text)?))
}

/// `<name>\t<type>` per view, in file order (marwansaab/obsidian-cli-mcp
/// specs/064-fix-views-base/contracts/t0-probe-findings.md P1, Windows,
/// 1.12.7). No views: guess (the app makes a default view; here a message).
pub fn views(ctx: &Ctx, inv: &Invocation) -> Out {
    let (_, base) = load(ctx, inv)?;
    if base.views.is_empty() {
        return Ok("No views found.".to_string());
    }
    Ok(base
        .views
        .iter()
        .map(|v| tsv_row(&[v.name.as_str(), v.kind.as_str()]))
        .collect::<Vec<_>>()
        .join("\n"))
}

fn pick_view<'a>(base: &'a Base, inv: &Invocation) -> Result<Option<&'a View>, String> {
    match inv.get("view") {
        Some(name) => base
            .views
            .iter()
            .find(|v| v.name == name)
            .map(Some)
            // `Error: View not found: <name>`, exit 0 (marwansaab
            // specs/041-reconcile-cohort-doc-drift/quickstart.md §2.1, T0).
            .ok_or_else(|| format!("Error: View not found: {name}")),
        None => Ok(base.views.first()),
    }
}

/// Rows of a view. Errors and the empty `[]` of `format=json`: see `load`,
/// `pick_view` and the shared reference. The row shape and the other formats
/// are guesses (no capture shows them).
pub fn query(ctx: &Ctx, inv: &Invocation) -> Out {
    let format = format_param(inv, &["json", "csv", "tsv", "md", "paths"])?.unwrap_or("json");
    let (base_path, base) = load(ctx, inv)?;
    let view = pick_view(&base, inv)?;
    let scope = Scope::new(ctx, &base_path, &base.formulas);
    let unsupported = |e: String| format!("Error: Unsupported base filter: {e}");
    let mut rows: Vec<&str> = Vec::new();
    for f in ctx.vault.files() {
        if vault::extension(f).eq_ignore_ascii_case("base") {
            continue;
        }
        let mut keep = true;
        for node in [base.filters.as_ref(), view.and_then(|v| v.filters.as_ref())]
            .into_iter()
            .flatten()
        {
            keep = keep && base_filter::matches(&scope, f, node).map_err(unsupported)?;
        }
        if keep {
            rows.push(f);
        }
    }
    let cell = |row: &str, id: &str| -> Result<Val, String> {
        scope
            .column(row, id)
            .map_err(|e| format!("Error: Unsupported base formula: {id}: {e}"))
    };
    if let Some(v) = view {
        if !v.sort.is_empty() {
            let mut keyed: Vec<(&str, Vec<Val>)> = Vec::new();
            for row in rows {
                let keys = v
                    .sort
                    .iter()
                    .map(|(prop, _)| cell(row, prop))
                    .collect::<Result<_, _>>()?;
                keyed.push((row, keys));
            }
            keyed.sort_by(|a, b| {
                for (i, (_, asc)) in v.sort.iter().enumerate() {
                    let o = value::compare(&a.1[i], &b.1[i]);
                    let o = if *asc { o } else { o.reverse() };
                    if o.is_ne() {
                        return o;
                    }
                }
                std::cmp::Ordering::Equal
            });
            rows = keyed.into_iter().map(|(row, _)| row).collect();
        }
        if let Some(n) = v.limit {
            rows.truncate(n);
        }
    }
    if inv.has("total") {
        return Ok(rows.len().to_string());
    }
    if rows.is_empty() && format == "json" {
        return Ok("[]".to_string());
    }
    if rows.is_empty() && format == "paths" {
        // guess: no paths, no output.
        return Ok(String::new());
    }
    let columns: Vec<String> = match view {
        Some(v) if !v.order.is_empty() => v.order.clone(),
        _ => vec!["file.name".to_string()],
    };
    let header: Vec<String> = columns
        .iter()
        .map(|c| {
            base.display
                .iter()
                .find(|(id, _)| id == c || id.strip_prefix("note.") == Some(c.as_str()))
                .map_or_else(|| c.clone(), |(_, d)| d.clone())
        })
        .collect();
    let mut table: Vec<Vec<Val>> = Vec::new();
    for row in &rows {
        table.push(
            columns
                .iter()
                .map(|c| cell(row, c))
                .collect::<Result<_, _>>()?,
        );
    }
    let texts = |cells: &[Val]| cells.iter().map(Val::text).collect::<Vec<_>>();
    Ok(match format {
        "paths" => rows.join("\n"),
        "csv" => {
            let mut out = vec![csv_row(&header)];
            out.extend(table.iter().map(|r| csv_row(&texts(r))));
            out.join("\n")
        }
        "tsv" => {
            let mut out = vec![tsv_row(&header)];
            out.extend(table.iter().map(|r| tsv_row(&texts(r))));
            out.join("\n")
        }
        "md" => {
            let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
            let line = |v: &[String]| {
                format!(
                    "| {} |",
                    v.iter().map(|s| esc(s)).collect::<Vec<_>>().join(" | ")
                )
            };
            let mut out = vec![line(&header), line(&vec!["---".to_string(); header.len()])];
            out.extend(table.iter().map(|r| line(&texts(r))));
            out.join("\n")
        }
        _ => json(&serde_json::Value::Array(
            rows.iter()
                .zip(&table)
                .map(|(path, cells)| {
                    let mut o = serde_json::Map::new();
                    o.insert("path".into(), (*path).into());
                    let fm = &scope.file(path).fm;
                    for (c, v) in columns.iter().zip(cells) {
                        let v = match c.as_str() {
                            id if id.starts_with("file.") || id.starts_with("formula.") => v.json(),
                            // A note property as the YAML holds it.
                            id => frontmatter::get(fm, id.strip_prefix("note.").unwrap_or(id))
                                .map_or(serde_json::Value::Null, frontmatter::to_json),
                        };
                        o.insert(c.clone(), v);
                    }
                    serde_json::Value::Object(o)
                })
                .collect(),
        )),
    })
}

fn valid_name(name: &str) -> bool {
    let n = name.trim();
    !n.is_empty()
        && n != "."
        && n != ".."
        && !n.starts_with('.')
        && !n.contains(['/', '\\', '\0', ':'])
}

/// `base:create`: prints `Created: <file name>.md` (the file name only), a
/// taken name gets ` 1`, ` 2`, … and exit 0, an unknown `view=` is not an
/// error (marwansaab/obsidian-cli-mcp specs/054-add-bases-surface/research.md,
/// 1.12.7). Guesses: the note goes into the folder named by
/// `file.inFolder(...)`, with `tags` from `file.hasTag(...)` and properties
/// from `prop == literal` filters, then `content`.
pub fn create(ctx: &mut Ctx, inv: &Invocation) -> Out {
    let (_, base) = load(ctx, inv)?;
    let view = pick_view(&base, inv).unwrap_or(None);
    let mut req = Requirements::default();
    if let Some(f) = &base.filters {
        base_filter::requirements(f, &mut req);
    }
    if let Some(f) = view.and_then(|v| v.filters.as_ref()) {
        base_filter::requirements(f, &mut req);
    }
    let folder = req
        .folder
        .as_deref()
        .and_then(vault::safe_folder)
        .unwrap_or_default();
    let prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    let name = match inv.get_nonempty("name") {
        Some(name) => {
            let name = name.trim().strip_suffix(".md").unwrap_or(name.trim());
            if !valid_name(name) {
                // guess: the wording for an unusable name.
                return Err(format!("Error: Invalid file name \"{name}\"."));
            }
            name.to_string()
        }
        None => "Untitled".to_string(),
    };
    let path = free_name(ctx, &format!("{prefix}{name}.md"));
    let mut text = inv.get("content").unwrap_or("").to_string();
    for (k, v) in &req.props {
        let nv = match v {
            Val::Str(s) => NewValue::Text(s.clone()),
            Val::Null => NewValue::Raw("null".into()),
            other => NewValue::Raw(other.text()),
        };
        text = frontmatter::set_property(&text, k, &nv);
    }
    if !req.tags.is_empty() {
        text = frontmatter::set_property(&text, "tags", &NewValue::List(req.tags.clone()));
    }
    ctx.vault
        .write(&path, &text)
        .map_err(|e| format!("Error: {e}"))?;
    Ok(format!("Created: {}", vault::file_name(&path)))
}
