//! Filter nodes of a base (`and`, `or`, `not` lists of statements, nested
//! freely; "Bases syntax", "Filters"), and what a new note needs to pass
//! them (for `base:create`). Statements are evaluated by `base_eval`.

use super::base_eval::Scope;
use super::base_expr::{parse, Expr};
use super::base_value::Val;
use yaml_rust2::Yaml;

/// Whether the file at `row` passes a filter node: a statement, or a mapping
/// with `and`, `or` or `not` lists.
pub fn matches(scope: &Scope, row: &str, node: &Yaml) -> Result<bool, String> {
    match node {
        Yaml::String(s) => Ok(scope.eval_source(row, s)?.truthy()),
        Yaml::Boolean(b) => Ok(*b),
        Yaml::Hash(h) => {
            let mut ok = true;
            for (k, v) in h {
                let items: Vec<&Yaml> = match v {
                    Yaml::Array(a) => a.iter().collect(),
                    other => vec![other],
                };
                let results: Vec<bool> = items
                    .into_iter()
                    .map(|i| matches(scope, row, i))
                    .collect::<Result<_, _>>()?;
                ok &= match k.as_str() {
                    Some("and") => results.iter().all(|r| *r),
                    Some("or") => results.iter().any(|r| *r),
                    Some("not") => !results.iter().any(|r| *r),
                    other => return Err(format!("unknown filter key {other:?}")),
                };
            }
            Ok(ok)
        }
        Yaml::Null => Ok(true),
        other => Err(format!("unsupported filter {other:?}")),
    }
}

/// What a new note needs to satisfy a filter, as far as it can be read off
/// the `and`-chains: a folder, a tag and `property == literal` pairs.
#[derive(Debug, Default)]
pub struct Requirements {
    pub folder: Option<String>,
    pub tags: Vec<String>,
    pub props: Vec<(String, Val)>,
}

fn property_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) if !matches!(n.as_str(), "file" | "this" | "note" | "formula") => {
            Some(n.clone())
        }
        Expr::Member(obj, field) if matches!(obj.as_ref(), Expr::Name(n) if n == "note") => {
            Some(field.clone())
        }
        _ => None,
    }
}

fn collect_expr(e: &Expr, req: &mut Requirements) {
    match e {
        Expr::Binary("&&", a, b) => {
            collect_expr(a, req);
            collect_expr(b, req);
        }
        Expr::Call(callee, args) => {
            let Expr::Member(obj, method) = callee.as_ref() else {
                return;
            };
            if !matches!(obj.as_ref(), Expr::Name(n) if n == "file") {
                return;
            }
            let first = match args.first() {
                Some(Expr::Lit(v)) => v.text(),
                _ => return,
            };
            match method.as_str() {
                "inFolder" if req.folder.is_none() => {
                    req.folder = Some(first.trim_matches('/').to_string())
                }
                "hasTag" => {
                    let t = first.trim_start_matches('#').to_string();
                    if !req.tags.contains(&t) {
                        req.tags.push(t);
                    }
                }
                _ => {}
            }
        }
        Expr::Binary("==", a, b) => {
            let pair = match (a.as_ref(), b.as_ref()) {
                (p, Expr::Lit(v)) | (Expr::Lit(v), p) => property_name(p).map(|k| (k, v)),
                _ => None,
            };
            if let Some((key, v)) = pair {
                req.props.retain(|(k, _)| *k != key);
                req.props.push((key, v.clone()));
            }
        }
        _ => {}
    }
}

/// Read the requirements off a filter node (only `and` branches and plain
/// statements are followed).
pub fn requirements(node: &Yaml, req: &mut Requirements) {
    match node {
        Yaml::String(s) => {
            if let Ok(e) = parse(s) {
                collect_expr(&e, req);
            }
        }
        Yaml::Hash(h) => {
            for (k, v) in h {
                if k.as_str() == Some("and") {
                    if let Yaml::Array(items) = v {
                        items.iter().for_each(|i| requirements(i, req));
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yaml_rust2::YamlLoader;

    #[test]
    fn requirements_of_an_and_chain() {
        let y = &YamlLoader::load_from_str(
            "and:\n  - file.inFolder(\"Projects\")\n  - or:\n      - status == \"active\"\n      - status == \"planning\"\n  - 'status == \"active\" && note.owner == \"Alice\"'\n  - file.hasTag(\"project\")\n",
        )
        .unwrap()[0];
        let mut req = Requirements::default();
        requirements(y, &mut req);
        assert_eq!(req.folder.as_deref(), Some("Projects"));
        assert_eq!(req.tags, ["project"]);
        let props: Vec<(&str, String)> = req
            .props
            .iter()
            .map(|(k, v)| (k.as_str(), v.text()))
            .collect();
        assert_eq!(
            props,
            [("status", "active".into()), ("owner", "Alice".into())]
        );
    }
}
