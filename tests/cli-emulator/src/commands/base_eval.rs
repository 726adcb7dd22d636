//! Evaluating Bases expressions over the vault's files: names (`file`,
//! `note`, `formula`, `this`, properties), operators with date arithmetic,
//! and the global functions of the help vault's "Functions" page. Methods of
//! each type are in `base_methods.rs`. When the CLI queries a base, `this` is
//! the base file itself ("Bases syntax": a base opened in the main area).

use super::base_expr::{parse, Expr};
use super::base_value::{self as value, Val};
use super::Ctx;
use crate::dates;
use crate::frontmatter;
use crate::markdown;
use crate::vault;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use yaml_rust2::yaml::Hash;

/// What an expression can see of one file.
pub struct FileData {
    pub fm: Hash,
    /// Tags without `#`, lower case.
    pub tags: Vec<String>,
    pub links: Vec<Val>,
    pub embeds: Vec<Val>,
    pub size: f64,
    pub ctime: f64,
    pub mtime: f64,
}

/// Everything one query evaluates against.
pub struct Scope<'a> {
    pub ctx: &'a Ctx,
    /// The file `this` names.
    pub this: String,
    formulas: HashMap<String, Result<Expr, String>>,
    files: RefCell<HashMap<String, Rc<FileData>>>,
    backlinks: OnceCell<HashMap<String, Vec<String>>>,
    /// Property types from `.obsidian/types.json` (`date`, `datetime`, …).
    types: HashMap<String, String>,
}

/// The variables of one evaluation: the row's file and, inside
/// `filter`/`map`/`reduce`, `value`, `index` and `acc`.
#[derive(Clone)]
pub struct Env<'e> {
    pub row: &'e str,
    pub vars: Vec<(&'static str, Val)>,
    /// Formulas being evaluated (a circular reference is an error).
    pub formulas: Vec<String>,
}

impl<'e> Env<'e> {
    pub fn new(row: &'e str) -> Env<'e> {
        Env {
            row,
            vars: Vec::new(),
            formulas: Vec::new(),
        }
    }

    pub fn with(&self, vars: Vec<(&'static str, Val)>) -> Env<'e> {
        let mut env = self.clone();
        env.vars.retain(|(n, _)| !vars.iter().any(|(m, _)| m == n));
        env.vars.extend(vars);
        env
    }
}

pub type Res = Result<Val, String>;

impl<'a> Scope<'a> {
    pub fn new(ctx: &'a Ctx, this: &str, formulas: &[(String, String)]) -> Scope<'a> {
        let types = ctx
            .vault
            .config_json("types.json")
            .and_then(|v| v.get("types").cloned())
            .and_then(|t| t.as_object().cloned())
            .map(|t| {
                t.into_iter()
                    .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        Scope {
            ctx,
            this: this.to_string(),
            formulas: formulas
                .iter()
                .map(|(name, src)| (name.clone(), parse(src).map_err(|e| format!("{src}: {e}"))))
                .collect(),
            files: RefCell::new(HashMap::new()),
            backlinks: OnceCell::new(),
            types,
        }
    }

    /// The file's data, read once per query.
    pub fn file(&self, path: &str) -> Rc<FileData> {
        if let Some(f) = self.files.borrow().get(path) {
            return f.clone();
        }
        let data = Rc::new(self.read_file(path));
        self.files
            .borrow_mut()
            .insert(path.to_string(), data.clone());
        data
    }

    fn read_file(&self, path: &str) -> FileData {
        let content = if vault::is_markdown(path) {
            self.ctx.vault.read(path).unwrap_or_default()
        } else {
            String::new()
        };
        let fm = markdown::frontmatter(&content).unwrap_or_default();
        let mut tags: Vec<String> = markdown::tags(&content)
            .into_iter()
            .map(|(t, _)| t.to_lowercase())
            .collect();
        tags.dedup();
        let (mut links, mut embeds) = (Vec::new(), Vec::new());
        for l in markdown::links(&content) {
            let link = Val::Link {
                path: self.ctx.vault.resolve_link(&l.target, path),
                text: l.target,
                display: None,
            };
            if l.embed {
                embeds.push(link);
            } else {
                links.push(link);
            }
        }
        let meta = std::fs::metadata(self.ctx.vault.abs(path)).ok();
        let time = |t: Option<std::io::Result<std::time::SystemTime>>| {
            t.and_then(Result::ok)
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0.0, |d| d.as_millis() as f64)
        };
        let mtime = time(meta.as_ref().map(|m| m.modified()));
        let ctime = time(meta.as_ref().map(|m| m.created()));
        FileData {
            fm,
            tags,
            links,
            embeds,
            size: meta.as_ref().map_or(0.0, |m| m.len() as f64),
            ctime: if ctime == 0.0 { mtime } else { ctime },
            mtime,
        }
    }

    /// A note property of `path` (`note.x`, or a bare `x`).
    pub fn property(&self, path: &str, name: &str) -> Val {
        let data = self.file(path);
        let Some(y) = frontmatter::get(&data.fm, name) else {
            return Val::Null;
        };
        let v = Val::from_yaml(y, &|t| self.ctx.vault.resolve_link(t, path));
        match self.types.get(name).map(String::as_str) {
            Some("date" | "datetime") => v.as_date().unwrap_or(v),
            _ => v,
        }
    }

    /// The files that link to `path`.
    fn backlinks(&self, path: &str) -> Vec<Val> {
        let all = self.backlinks.get_or_init(|| {
            let mut map: HashMap<String, Vec<String>> = HashMap::new();
            for source in self.ctx.vault.notes() {
                let data = self.file(source);
                for l in data.links.iter().chain(&data.embeds) {
                    if let Val::Link { path: Some(p), .. } = l {
                        let from = map.entry(p.clone()).or_default();
                        if !from.contains(source) {
                            from.push(source.clone());
                        }
                    }
                }
            }
            map
        });
        all.get(path)
            .map(|v| v.iter().cloned().map(Val::File).collect())
            .unwrap_or_default()
    }

    /// A field of a file (`file.name`, `file.links`, …).
    pub fn file_field(&self, path: &str, field: &str) -> Option<Val> {
        let data = || self.file(path);
        Some(match field {
            "name" => Val::Str(vault::file_name(path).to_string()),
            "basename" => Val::Str(vault::stem(path).to_string()),
            "path" => Val::Str(path.to_string()),
            "folder" => Val::Str(vault::parent_folder(path)),
            "ext" => Val::Str(vault::extension(path).to_string()),
            "size" => Val::Num(data().size),
            "ctime" => Val::Date {
                ms: data().ctime,
                time: true,
            },
            "mtime" => Val::Date {
                ms: data().mtime,
                time: true,
            },
            "tags" => Val::List(
                data()
                    .tags
                    .iter()
                    .map(|t| Val::Str(format!("#{t}")))
                    .collect(),
            ),
            "links" => Val::List(data().links.clone()),
            "embeds" => Val::List(data().embeds.clone()),
            "backlinks" => Val::List(self.backlinks(path)),
            "properties" => {
                let fm = data().fm.clone();
                let keys: Vec<String> = fm
                    .keys()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect();
                Val::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), self.property(path, &k)))
                        .collect(),
                )
            }
            "file" => Val::File(path.to_string()),
            _ => return None,
        })
    }

    /// A filter statement or formula, evaluated for the file at `row`.
    pub fn eval_source(&self, row: &str, src: &str) -> Res {
        let e = parse(src).map_err(|e| format!("{src}: {e}"))?;
        self.eval(&Env::new(row), &e)
            .map_err(|e| format!("{src}: {e}"))
    }

    /// A column or sort key: `file.name`, `note.x`, `formula.y` or a
    /// property name (which may hold spaces).
    pub fn column(&self, row: &str, id: &str) -> Res {
        match parse(id) {
            Ok(e @ (Expr::Name(_) | Expr::Member(..))) => self.eval(&Env::new(row), &e),
            _ => Ok(self.property(row, id.strip_prefix("note.").unwrap_or(id))),
        }
    }

    fn formula(&self, env: &Env, name: &str) -> Res {
        let Some(parsed) = self.formulas.get(name) else {
            return Ok(Val::Null);
        };
        let e = parsed.as_ref().map_err(Clone::clone)?;
        if env.formulas.iter().any(|f| f == name) {
            return Err(format!("formula.{name} refers to itself"));
        }
        let mut inner = Env::new(env.row);
        inner.formulas = env.formulas.clone();
        inner.formulas.push(name.to_string());
        self.eval(&inner, e)
    }

    pub fn eval(&self, env: &Env, e: &Expr) -> Res {
        Ok(match e {
            Expr::Lit(v) => v.clone(),
            Expr::Name(n) => self.name(env, n),
            Expr::Member(obj, field) => self.member(env, obj, field)?,
            Expr::Index(obj, index) => {
                let target = self.eval(env, obj)?;
                let index = self.eval(env, index)?;
                match (&target, &index) {
                    (Val::List(items), _) => index
                        .as_num()
                        .and_then(|i| {
                            let i = if i < 0.0 { items.len() as f64 + i } else { i };
                            items.get(i as usize).cloned()
                        })
                        .unwrap_or(Val::Null),
                    (_, Val::Str(key)) => self.field(env, &target, key)?,
                    _ => Val::Null,
                }
            }
            Expr::Call(callee, args) => match callee.as_ref() {
                Expr::Name(f) => self.global(env, f, args)?,
                Expr::Member(obj, method) => {
                    let receiver = self.eval(env, obj)?;
                    super::base_methods::call(self, env, &receiver, method, args)?
                }
                _ => return Err("only functions and methods can be called".into()),
            },
            Expr::List(items) => Val::List(
                items
                    .iter()
                    .map(|i| self.eval(env, i))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Object(fields) => Val::Object(
                fields
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), self.eval(env, v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Expr::Unary("!", x) => Val::Bool(!self.eval(env, x)?.truthy()),
            Expr::Unary(_, x) => match self.eval(env, x)? {
                Val::Duration { months, ms } => Val::Duration {
                    months: -months,
                    ms: -ms,
                },
                v => v.as_num().map_or(Val::Null, |n| Val::Num(-n)),
            },
            Expr::Binary("&&", a, b) => {
                let left = self.eval(env, a)?;
                if left.truthy() {
                    self.eval(env, b)?
                } else {
                    left
                }
            }
            Expr::Binary("||", a, b) => {
                let left = self.eval(env, a)?;
                if left.truthy() {
                    left
                } else {
                    self.eval(env, b)?
                }
            }
            Expr::Binary(op, a, b) => binary(op, self.eval(env, a)?, self.eval(env, b)?),
        })
    }

    fn name(&self, env: &Env, n: &str) -> Val {
        if let Some((_, v)) = env.vars.iter().rev().find(|(name, _)| *name == n) {
            return v.clone();
        }
        match n {
            "file" => Val::File(env.row.to_string()),
            "this" => Val::File(self.this.clone()),
            "note" => self.file_field(env.row, "properties").unwrap_or(Val::Null),
            _ => self.property(env.row, n),
        }
    }

    fn member(&self, env: &Env, obj: &Expr, field: &str) -> Res {
        if let Expr::Name(n) = obj {
            let bound = env.vars.iter().any(|(name, _)| name == n);
            match n.as_str() {
                "formula" if !bound => return self.formula(env, field),
                "note" if !bound => return Ok(self.property(env.row, field)),
                // `this.file` is the file; `this.x` its property x.
                "this" if !bound && field != "file" => return Ok(self.property(&self.this, field)),
                _ => {}
            }
        }
        let target = self.eval(env, obj)?;
        self.field(env, &target, field)
    }

    /// `value.field`, by the value's type.
    pub fn field(&self, _env: &Env, target: &Val, field: &str) -> Res {
        Ok(match target {
            Val::File(path) => match self.file_field(path, field) {
                Some(v) => v,
                None => return Err(format!("file.{field} is not a file property")),
            },
            Val::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == field)
                .map_or(Val::Null, |(_, v)| v.clone()),
            Val::List(items) if field == "length" => Val::Num(items.len() as f64),
            Val::Str(s) if field == "length" => Val::Num(s.chars().count() as f64),
            Val::Duration { .. } => {
                value::duration_field(target, field).map_or(Val::Null, Val::Num)
            }
            Val::Date { .. } | Val::Str(_) => match target.as_date() {
                Some(Val::Date { ms, .. }) => {
                    let (d, t, frac) = value::civil(ms);
                    match field {
                        "year" => Val::Num(f64::from(d.year)),
                        "month" => Val::Num(f64::from(d.month)),
                        "day" => Val::Num(f64::from(d.day)),
                        "hour" => Val::Num(f64::from(t.hour)),
                        "minute" => Val::Num(f64::from(t.minute)),
                        "second" => Val::Num(f64::from(t.second)),
                        "millisecond" => Val::Num(frac),
                        _ => Val::Null,
                    }
                }
                _ => Val::Null,
            },
            _ => Val::Null,
        })
    }

    /// Now and today in the emulated clock (`OBSIDIAN_EMULATOR_TODAY`/`_TIME`).
    fn now(&self, with_time: bool) -> Val {
        let time = if with_time {
            self.ctx.now
        } else {
            dates::Time::default()
        };
        Val::Date {
            ms: value::millis(self.ctx.today, time),
            time: with_time,
        }
    }

    /// A link from a path, a `[[link]]` string or a file.
    pub fn link_to(&self, env: &Env, target: &Val, display: Option<String>) -> Val {
        match target {
            Val::File(path) => Val::Link {
                text: vault::stem(path).to_string(),
                path: Some(path.clone()),
                display,
            },
            Val::Link { text, path, .. } => Val::Link {
                text: text.clone(),
                path: path.clone(),
                display,
            },
            other => {
                let raw = other.text();
                let text = value::wikilink(&raw).map_or(raw, |(t, _)| t);
                let text = text.split(['#', '|']).next().unwrap_or("").to_string();
                let external = text.contains("://");
                Val::Link {
                    path: if external {
                        None
                    } else {
                        self.ctx.vault.resolve_link(&text, env.row)
                    },
                    text,
                    display,
                }
            }
        }
    }

    fn global(&self, env: &Env, f: &str, args: &[Expr]) -> Res {
        let arg = |i: usize| -> Res { args.get(i).map_or(Ok(Val::Null), |a| self.eval(env, a)) };
        Ok(match f {
            "if" => {
                if arg(0)?.truthy() {
                    arg(1)?
                } else {
                    arg(2)?
                }
            }
            "now" => self.now(true),
            "today" => self.now(false),
            "date" => arg(0)?.as_date().unwrap_or(Val::Null),
            "duration" => match arg(0)? {
                d @ Val::Duration { .. } => d,
                v => value::parse_duration(&v.text()).ok_or_else(|| {
                    format!(
                        "duration({:?}) is not a duration such as \"1d\" or \"2 hours\"",
                        v.text()
                    )
                })?,
            },
            "link" => {
                let display = match arg(1)? {
                    Val::Null => None,
                    d => Some(d.text()),
                };
                self.link_to(env, &arg(0)?, display)
            }
            "file" => match self.link_to(env, &arg(0)?, None) {
                Val::Link { path: Some(p), .. } => Val::File(p),
                _ => Val::Null,
            },
            "list" => match arg(0)? {
                l @ Val::List(_) => l,
                Val::Null => Val::List(Vec::new()),
                v => Val::List(vec![v]),
            },
            "number" => {
                let v = arg(0)?;
                v.as_num()
                    .map(Val::Num)
                    .ok_or_else(|| format!("number({:?}) is not a number", v.text()))?
            }
            "max" | "min" => {
                let nums: Vec<f64> = args
                    .iter()
                    .map(|a| self.eval(env, a))
                    .collect::<Result<Vec<_>, _>>()?
                    .iter()
                    .filter_map(Val::as_num)
                    .collect();
                let pick = if f == "max" { f64::max } else { f64::min };
                nums.into_iter().reduce(pick).map_or(Val::Null, Val::Num)
            }
            // Rendering helpers: the emulator has no view, so their text.
            "escapeHTML" => Val::Str(
                arg(0)?
                    .text()
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
                    .replace('"', "&quot;")
                    .replace('\'', "&#39;"),
            ),
            "html" | "image" | "icon" => Val::Str(arg(0)?.text()),
            // guess: a fixed number keeps queries reproducible.
            "random" => Val::Num(0.5),
            // Release notes 1.9.2: functions became methods and operators.
            "not" | "empty" | "contains" | "dateBefore" | "dateAfter" => {
                return Err(format!(
                    "{f}() is the formula syntax before Obsidian 1.9.2, which replaced it with methods and operators (`!x`, `x.isEmpty()`, `x.contains(y)`, `a < b`)"
                ))
            }
            other => {
                return Err(format!(
                    "{other}() is not one of the functions on the help page \"Functions\""
                ))
            }
        })
    }
}

/// `a op b` for the arithmetic and comparison operators.
fn binary(op: &str, a: Val, b: Val) -> Val {
    use std::cmp::Ordering;
    match op {
        "==" => return Val::Bool(value::equals(&a, &b)),
        "!=" => return Val::Bool(!value::equals(&a, &b)),
        ">" | "<" | ">=" | "<=" => {
            if a == Val::Null || b == Val::Null {
                return Val::Bool(false);
            }
            let o = value::compare(&a, &b);
            return Val::Bool(match op {
                ">" => o == Ordering::Greater,
                "<" => o == Ordering::Less,
                ">=" => o != Ordering::Less,
                _ => o != Ordering::Greater,
            });
        }
        _ => {}
    }
    // Dates move by durations ("Date arithmetic"); two dates give a duration.
    let as_duration = |v: &Val| match v {
        Val::Duration { months, ms } => Some((*months, *ms)),
        Val::Str(s) => match value::parse_duration(s) {
            Some(Val::Duration { months, ms }) => Some((months, ms)),
            _ => None,
        },
        _ => None,
    };
    if let Val::Date { ms, time } = a {
        match (op, &b, as_duration(&b)) {
            ("+", _, Some((m, d))) => return value::shift(ms, time, m, d),
            ("-", _, Some((m, d))) => return value::shift(ms, time, -m, -d),
            ("-", other, None) => {
                return match other.as_date() {
                    Some(Val::Date { ms: other, .. }) => Val::Duration {
                        months: 0.0,
                        ms: ms - other,
                    },
                    _ => Val::Null,
                }
            }
            _ => {}
        }
    }
    if let (Val::Str(_), Some(Val::Date { .. })) = (&a, b.as_date()) {
        if op == "-" {
            if let Some(date) = a.as_date() {
                return binary(op, date, b);
            }
        }
    }
    if let (Val::Duration { months, ms }, Some(n)) = (&a, b.as_num()) {
        match op {
            "*" => {
                return Val::Duration {
                    months: months * n,
                    ms: ms * n,
                }
            }
            "/" if n != 0.0 => {
                return Val::Duration {
                    months: months / n,
                    ms: ms / n,
                }
            }
            "+" | "-" if matches!(b, Val::Duration { .. }) => {
                let (m2, d2) = as_duration(&b).unwrap_or_default();
                let sign = if op == "+" { 1.0 } else { -1.0 };
                return Val::Duration {
                    months: months + sign * m2,
                    ms: ms + sign * d2,
                };
            }
            _ => {}
        }
    }
    if op == "+" && (matches!(a, Val::Str(_)) || matches!(b, Val::Str(_))) {
        return Val::Str(format!("{}{}", a.text(), b.text()));
    }
    match (a.as_num(), b.as_num()) {
        (Some(x), Some(y)) => Val::Num(match op {
            "+" => x + y,
            "-" => x - y,
            "*" => x * y,
            "/" => x / y,
            _ => x % y,
        }),
        _ => Val::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope_over(files: &[(&str, &str)], test: impl FnOnce(&Scope)) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let ctx = Ctx {
            vault: crate::vault::Vault::open(dir.path()).unwrap(),
            today: dates::Date::parse_ymd("2026-03-03").unwrap(),
            now: dates::Time {
                hour: 9,
                minute: 30,
                second: 0,
            },
            active: None,
            exit_code: std::cell::Cell::new(0),
        };
        let formulas = [("Double".to_string(), "priority * 2".to_string())];
        test(&Scope::new(&ctx, "Views.base", &formulas));
    }

    #[test]
    fn expressions() {
        let note = "---\nstatus: active\npriority: 2\nlist: [a, b]\n---\n#project/web\n";
        scope_over(&[("Projects/A.md", note), ("Views.base", "")], |scope| {
            let t = |s: &str| scope.eval_source("Projects/A.md", s).unwrap().truthy();
            assert!(t("file.inFolder(\"Projects\")"));
            assert!(!t("file.inFolder(\"Proj\")"));
            assert!(t("file.hasTag(\"project\")"));
            assert!(t("status == \"active\" && priority <= 2"));
            assert!(t("note.status != 'done' || false"));
            assert!(t("!(priority > 2)"));
            assert!(t("list.contains(\"b\")"));
            assert!(t("file.name == \"A.md\" && file.basename == \"A\""));
            assert!(t("formula.Double == 4 && this.file.name == \"Views.base\""));
            assert!(t(
                "[1, 2, 3, 4].filter(value > 2).map(value + index) == [3, 5]"
            ));
            assert!(t("[1, 2, 3].reduce(acc + value, 0) == 6 && \"a,b,c\".split(\",\", 2).join(\"-\") == \"a-b\""));
            assert!(t("(2.5).round() == 3 && (2.3333).round(2) == 2.33 && (3.14159).toFixed(2) == \"3.14\""));
            assert!(t(
                "date(\"2024-12-01\") + \"1M\" + \"4h\" == date(\"2025-01-01 04:00:00\")"
            ));
            assert!(t("(now() + \"1d\") - now() == 86400000"));
            assert!(t(
                "today().format(\"YYYY-MM-DD\") == \"2026-03-03\" && now().hour == 9"
            ));
            assert!(scope.eval_source("Projects/A.md", "status ==").is_err());
        });
    }
}
