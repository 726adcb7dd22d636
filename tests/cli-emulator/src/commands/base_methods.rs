//! The methods of each Bases type, as the help vault's "Functions" page
//! lists them: any value, strings, numbers, lists (with `filter`, `map` and
//! `reduce` over `value`, `index` and `acc`), dates, links, files and
//! objects. A method the page does not list is an error that names it;
//! methods of a missing value (`null`) give `null` (or `false`, or "empty").

use super::base_eval::{Env, Res, Scope};
use super::base_expr::Expr;
use super::base_value::{self as value, Val};
use crate::dates;
use crate::frontmatter;
use crate::vault;

pub fn call(scope: &Scope, env: &Env, receiver: &Val, method: &str, args: &[Expr]) -> Res {
    let arg = |i: usize| -> Res { args.get(i).map_or(Ok(Val::Null), |a| scope.eval(env, a)) };
    let all = || -> Result<Vec<Val>, String> { args.iter().map(|a| scope.eval(env, a)).collect() };
    // Any type.
    match method {
        "isTruthy" => return Ok(Val::Bool(receiver.truthy())),
        "isType" => return Ok(Val::Bool(receiver.type_name() == arg(0)?.text())),
        "toString" => return Ok(Val::Str(receiver.text())),
        "isEmpty" => return Ok(Val::Bool(receiver.is_empty())),
        _ => {}
    }
    let unknown = || {
        Err(format!(
            "{method}() is not a method of a {} on the help page \"Functions\"",
            receiver.type_name()
        ))
    };
    match receiver {
        Val::Null => Ok(match method {
            "contains" | "containsAll" | "containsAny" | "startsWith" | "endsWith" | "hasLink"
            | "hasTag" | "hasProperty" | "inFolder" | "linksTo" => Val::Bool(false),
            _ => Val::Null,
        }),
        Val::List(items) => list(scope, env, items, method, args, &all),
        Val::Str(s) => match method {
            "format" | "date" | "time" | "relative" if receiver.as_date().is_some() => {
                let date = receiver.as_date().unwrap_or(Val::Null);
                call(scope, env, &date, method, args)
            }
            _ => string(s, method, &all()?).map_or_else(unknown, Ok),
        },
        Val::Num(n) => {
            let digits = arg(0)?.as_num().unwrap_or(0.0);
            Ok(match method {
                "abs" => Val::Num(n.abs()),
                "ceil" => Val::Num(n.ceil()),
                "floor" => Val::Num(n.floor()),
                // JavaScript's Math.round: halves go up.
                "round" => {
                    let scale = 10f64.powi(digits as i32);
                    Val::Num((n * scale + 0.5).floor() / scale)
                }
                "toFixed" => Val::Str(format!("{n:.*}", digits.max(0.0) as usize)),
                _ => return unknown(),
            })
        }
        Val::Duration { .. } => match method {
            "abs" | "ceil" | "floor" | "round" => {
                let n = receiver.as_num().unwrap_or(0.0);
                call(scope, env, &Val::Num(n), method, args)
            }
            _ => unknown(),
        },
        Val::Date { ms, time } => {
            let (d, t, _) = value::civil(*ms);
            Ok(match method {
                "date" => Val::Date {
                    ms: value::millis(d, dates::Time::default()),
                    time: false,
                },
                "format" => Val::Str(dates::format(&arg(0)?.text(), d, t)),
                "time" => Val::Str(dates::format("HH:mm:ss", d, t)),
                "relative" => Val::Str(relative(
                    *ms - value::millis(scope.ctx.today, scope.ctx.now),
                )),
                _ => {
                    let _ = time;
                    return unknown();
                }
            })
        }
        Val::Object(fields) => Ok(match method {
            "keys" => Val::List(fields.iter().map(|(k, _)| Val::Str(k.clone())).collect()),
            "values" => Val::List(fields.iter().map(|(_, v)| v.clone()).collect()),
            _ => return unknown(),
        }),
        Val::Link { path, .. } => match method {
            "asFile" => Ok(path.clone().map_or(Val::Null, Val::File)),
            "linksTo" => match path {
                Some(p) => file(scope, env, p, "hasLink", args),
                None => Ok(Val::Bool(false)),
            },
            // guess: a single link in a property is a list of one.
            "contains" | "containsAny" | "containsAll" => list(
                scope,
                env,
                std::slice::from_ref(receiver),
                method,
                args,
                &all,
            ),
            _ => unknown(),
        },
        Val::File(p) => file(scope, env, p, method, args),
        Val::Bool(_) => unknown(),
    }
}

fn file(scope: &Scope, env: &Env, path: &str, method: &str, args: &[Expr]) -> Res {
    let all: Vec<Val> = args
        .iter()
        .map(|a| scope.eval(env, a))
        .collect::<Result<_, _>>()?;
    let data = scope.file(path);
    Ok(match method {
        "asLink" => scope.link_to(
            env,
            &Val::File(path.to_string()),
            all.first().filter(|v| **v != Val::Null).map(Val::text),
        ),
        "inFolder" => {
            let folder = all.first().map(Val::text).unwrap_or_default();
            Val::Bool(vault::in_folder(path, folder.trim_matches('/')))
        }
        "hasTag" => Val::Bool(all.iter().any(|t| {
            let t = t.text().trim_start_matches('#').to_lowercase();
            data.tags
                .iter()
                .any(|have| *have == t || have.starts_with(&format!("{t}/")))
        })),
        "hasProperty" => Val::Bool(all.iter().any(|p| {
            let p = p.text();
            frontmatter::get(&data.fm, p.strip_prefix("note.").unwrap_or(&p)).is_some()
        })),
        "hasLink" => Val::Bool(all.iter().any(|other| {
            let wanted = scope.link_to(env, other, None);
            data.links
                .iter()
                .chain(&data.embeds)
                .any(|have| links_to(have, &wanted))
        })),
        _ => {
            return Err(format!(
                "file.{method}() is not a file function on the help page \"Functions\""
            ))
        }
    })
}

/// Whether a link of a note points where `wanted` does: the same file, or
/// (when either does not resolve) the same text, with or without `.md`.
fn links_to(have: &Val, wanted: &Val) -> bool {
    if value::equals(have, wanted) {
        return true;
    }
    let text = |v: &Val| match v {
        Val::Link { text, .. } => text.to_lowercase(),
        other => other.text().to_lowercase(),
    };
    let (a, b) = (text(have), text(wanted));
    let bare = |s: &str| s.strip_suffix(".md").unwrap_or(s).to_string();
    bare(&a) == bare(&b) || vault::stem(&a) == bare(&b)
}

fn list(
    scope: &Scope,
    env: &Env,
    items: &[Val],
    method: &str,
    args: &[Expr],
    all: &dyn Fn() -> Result<Vec<Val>, String>,
) -> Res {
    let has = |needle: &Val| items.iter().any(|i| value::equals(i, needle));
    let lambda = |i: usize, v: &Val, extra: Vec<(&'static str, Val)>| -> Res {
        let mut vars = vec![("value", v.clone()), ("index", Val::Num(i as f64))];
        vars.extend(extra);
        match args.first() {
            Some(e) => scope.eval(&env.with(vars), e),
            None => Err(format!("{method}() needs an expression over `value`")),
        }
    };
    Ok(match method {
        "contains" => Val::Bool(all()?.first().is_some_and(has)),
        "containsAny" => Val::Bool(all()?.iter().any(has)),
        "containsAll" => Val::Bool(all()?.iter().all(has)),
        "filter" => {
            let mut kept = Vec::new();
            for (i, v) in items.iter().enumerate() {
                if lambda(i, v, Vec::new())?.truthy() {
                    kept.push(v.clone());
                }
            }
            Val::List(kept)
        }
        "map" => Val::List(
            items
                .iter()
                .enumerate()
                .map(|(i, v)| lambda(i, v, Vec::new()))
                .collect::<Result<_, _>>()?,
        ),
        "reduce" => {
            let mut acc = match args.get(1) {
                Some(e) => scope.eval(env, e)?,
                None => Val::Null,
            };
            for (i, v) in items.iter().enumerate() {
                acc = lambda(i, v, vec![("acc", acc)])?;
            }
            acc
        }
        "flat" => Val::List(
            items
                .iter()
                .flat_map(|v| match v {
                    Val::List(inner) => inner.clone(),
                    other => vec![other.clone()],
                })
                .collect(),
        ),
        "join" => {
            let sep = all()?.first().map_or(",".to_string(), Val::text);
            Val::Str(items.iter().map(Val::text).collect::<Vec<_>>().join(&sep))
        }
        "reverse" => Val::List(items.iter().rev().cloned().collect()),
        "slice" => {
            let a = all()?;
            let (from, to) = slice_range(items.len(), &a);
            Val::List(items[from..to].to_vec())
        }
        "sort" => {
            let mut sorted = items.to_vec();
            sorted.sort_by(value::compare);
            Val::List(sorted)
        }
        "unique" => {
            let mut out: Vec<Val> = Vec::new();
            for v in items {
                if !out.iter().any(|o| value::equals(o, v)) {
                    out.push(v.clone());
                }
            }
            Val::List(out)
        }
        _ => {
            return Err(format!(
                "{method}() is not a method of a list on the help page \"Functions\""
            ))
        }
    })
}

/// JavaScript's `slice(start, end)` over `len` items (negative counts from the end).
fn slice_range(len: usize, args: &[Val]) -> (usize, usize) {
    let at = |v: Option<&Val>, default: usize| -> usize {
        match v.and_then(Val::as_num) {
            Some(n) if n < 0.0 => len.saturating_sub((-n) as usize),
            Some(n) => (n as usize).min(len),
            None => default,
        }
    };
    let from = at(args.first(), 0);
    let to = at(args.get(1), len);
    (from, to.max(from))
}

fn string(s: &str, method: &str, a: &[Val]) -> Option<Val> {
    let first = || a.first().map(Val::text).unwrap_or_default();
    Some(match method {
        "contains" => Val::Bool(s.contains(&first())),
        "containsAll" => Val::Bool(a.iter().all(|v| s.contains(&v.text()))),
        "containsAny" => Val::Bool(a.iter().any(|v| s.contains(&v.text()))),
        "startsWith" => Val::Bool(s.starts_with(&first())),
        "endsWith" => Val::Bool(s.ends_with(&first())),
        "lower" => Val::Str(s.to_lowercase()),
        "trim" => Val::Str(s.trim().to_string()),
        "reverse" => Val::Str(s.chars().rev().collect()),
        "repeat" => {
            Val::Str(s.repeat(a.first().and_then(Val::as_num).unwrap_or(0.0).max(0.0) as usize))
        }
        "replace" => Val::Str(s.replace(&first(), &a.get(1).map(Val::text).unwrap_or_default())),
        "title" => Val::Str(
            s.split(' ')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        "slice" => {
            let chars: Vec<char> = s.chars().collect();
            let (from, to) = slice_range(chars.len(), a);
            Val::Str(chars[from..to].iter().collect())
        }
        "split" => {
            let sep = first();
            let mut parts: Vec<Val> = if sep.is_empty() {
                s.chars().map(|c| Val::Str(c.to_string())).collect()
            } else {
                s.split(sep.as_str())
                    .map(|p| Val::Str(p.to_string()))
                    .collect()
            };
            if let Some(n) = a.get(1).and_then(Val::as_num) {
                parts.truncate(n.max(0.0) as usize);
            }
            Val::List(parts)
        }
        _ => return None,
    })
}

/// "3 days ago" / "in 2 hours", with moment.js's thresholds (**guess** at
/// the exact words Obsidian shows).
fn relative(diff_ms: f64) -> String {
    let seconds = (diff_ms / 1000.0).abs();
    let (n, unit) = match seconds {
        s if s < 45.0 => {
            return if diff_ms < 0.0 {
                "a few seconds ago"
            } else {
                "in a few seconds"
            }
            .into()
        }
        s if s < 45.0 * 60.0 => ((s / 60.0).round(), "minute"),
        s if s < 22.0 * 3600.0 => ((s / 3600.0).round(), "hour"),
        s if s < 26.0 * 86400.0 => ((s / 86400.0).round(), "day"),
        s if s < 320.0 * 86400.0 => ((s / (30.436_875 * 86400.0)).round(), "month"),
        s => ((s / (365.2425 * 86400.0)).round(), "year"),
    };
    let phrase = if n <= 1.0 {
        format!("a{} {unit}", if unit == "hour" { "n" } else { "" })
    } else {
        format!("{n} {unit}s")
    };
    if diff_ms < 0.0 {
        format!("{phrase} ago")
    } else {
        format!("in {phrase}")
    }
}
