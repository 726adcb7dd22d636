//! A small subset of the Bases filter language: enough for `and`/`or`/`not`
//! filter lists whose entries are expressions such as
//! `file.inFolder("Projects")`, `file.hasTag("project")`,
//! `status == "active"`, `priority <= 2`, `!done`, `a && (b || c)`.

use crate::frontmatter;
use crate::vault;
use yaml_rust2::yaml::Hash;
use yaml_rust2::Yaml;

/// A value during evaluation.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<Val>),
}

impl Val {
    pub fn from_yaml(y: &Yaml) -> Val {
        match y {
            Yaml::String(s) => Val::Str(s.clone()),
            Yaml::Integer(i) => Val::Num(*i as f64),
            Yaml::Real(r) => r.parse().map_or_else(|_| Val::Str(r.clone()), Val::Num),
            Yaml::Boolean(b) => Val::Bool(*b),
            Yaml::Array(a) => Val::List(a.iter().map(Val::from_yaml).collect()),
            Yaml::Hash(_) => Val::Str(frontmatter::display(y)),
            _ => Val::Null,
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Num(n) => *n != 0.0,
            Val::Str(s) => !s.is_empty(),
            Val::List(l) => !l.is_empty(),
        }
    }

    /// Plain text for table cells.
    pub fn text(&self) -> String {
        match self {
            Val::Null => String::new(),
            Val::Bool(b) => b.to_string(),
            Val::Num(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
            Val::Num(n) => n.to_string(),
            Val::Str(s) => s.clone(),
            Val::List(l) => l.iter().map(Val::text).collect::<Vec<_>>().join(", "),
        }
    }

    fn as_num(&self) -> Option<f64> {
        match self {
            Val::Num(n) => Some(*n),
            Val::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }
}

/// Compare two values loosely: numbers numerically (a numeric string counts
/// as a number), otherwise as text.
pub fn compare(a: &Val, b: &Val) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Val::Null, Val::Null) => Ordering::Equal,
        (Val::Null, _) => Ordering::Greater,
        (_, Val::Null) => Ordering::Less,
        _ => match (a.as_num(), b.as_num()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => a.text().to_lowercase().cmp(&b.text().to_lowercase()),
        },
    }
}

fn equals(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Null, _) | (_, Val::Null) => false,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equals(p, q))
        }
        (Val::List(_), _) | (_, Val::List(_)) => false,
        _ => match (a.as_num(), b.as_num()) {
            (Some(x), Some(y)) => x == y,
            _ => a.text() == b.text(),
        },
    }
}

/// What a filter can see of one file.
pub struct Row<'a> {
    pub path: &'a str,
    pub fm: Hash,
    /// Tags without `#`, lower case.
    pub tags: Vec<String>,
    /// Outgoing links: resolved paths and link texts.
    pub links: Vec<String>,
}

impl Row<'_> {
    /// A column or property value: `file.name`, `file.basename`,
    /// `file.path`, `file.folder`, `file.ext`, `file.tags`, `note.x` or `x`.
    pub fn get(&self, id: &str) -> Val {
        match id {
            "file.name" => Val::Str(vault::file_name(self.path).to_string()),
            "file.basename" => Val::Str(vault::stem(self.path).to_string()),
            "file.path" => Val::Str(self.path.to_string()),
            "file.folder" => Val::Str(vault::parent_folder(self.path)),
            "file.ext" => Val::Str(vault::extension(self.path).to_string()),
            "file.tags" => Val::List(
                self.tags
                    .iter()
                    .map(|t| Val::Str(format!("#{t}")))
                    .collect(),
            ),
            _ if id.starts_with("formula.") || id.starts_with("file.") => Val::Null,
            _ => {
                let key = id.strip_prefix("note.").unwrap_or(id);
                frontmatter::get(&self.fm, key).map_or(Val::Null, Val::from_yaml)
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(f64),
    Op(&'static str),
}

fn tokenize(src: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' || c == '\'' {
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                }
                s.push(chars[i]);
                i += 1;
            }
            if i >= chars.len() {
                return Err("unterminated string".into());
            }
            i += 1;
            out.push(Tok::Str(s));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            out.push(Tok::Num(s.parse().map_err(|_| format!("bad number {s}"))?));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '-')
            {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let op = ["==", "!=", ">=", "<=", "&&", "||"]
                .into_iter()
                .find(|o| *o == two);
            if let Some(op) = op {
                out.push(Tok::Op(op));
                i += 2;
            } else {
                let op = match c {
                    '>' => ">",
                    '<' => "<",
                    '!' => "!",
                    '(' => "(",
                    ')' => ")",
                    ',' => ",",
                    '.' => ".",
                    _ => return Err(format!("unexpected character {c:?}")),
                };
                out.push(Tok::Op(op));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Lit(Val),
    Prop(String),
    Call {
        receiver: String,
        method: String,
        args: Vec<Expr>,
    },
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(&'static str, Box<Expr>, Box<Expr>),
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut left = self.and()?;
        while self.eat("||") {
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while self.eat("&&") {
            left = Expr::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        let left = self.primary()?;
        for op in ["==", "!=", ">=", "<=", ">", "<"] {
            if self.eat(op) {
                return Ok(Expr::Cmp(op, Box::new(left), Box::new(self.primary()?)));
            }
        }
        Ok(left)
    }

    fn args(&mut self) -> Result<Vec<Expr>, String> {
        let mut args = Vec::new();
        if self.eat(")") {
            return Ok(args);
        }
        loop {
            args.push(self.or()?);
            if self.eat(")") {
                return Ok(args);
            }
            if !self.eat(",") {
                return Err("expected , or )".into());
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let tok = self.peek().cloned().ok_or("unexpected end")?;
        self.pos += 1;
        match tok {
            Tok::Str(s) => Ok(Expr::Lit(Val::Str(s))),
            Tok::Num(n) => Ok(Expr::Lit(Val::Num(n))),
            Tok::Op("(") => {
                let e = self.or()?;
                if !self.eat(")") {
                    return Err("expected )".into());
                }
                Ok(e)
            }
            Tok::Ident(first) => {
                match first.as_str() {
                    "true" => return Ok(Expr::Lit(Val::Bool(true))),
                    "false" => return Ok(Expr::Lit(Val::Bool(false))),
                    "null" => return Ok(Expr::Lit(Val::Null)),
                    _ => {}
                }
                let mut parts = vec![first];
                while self.eat(".") {
                    match self.peek().cloned() {
                        Some(Tok::Ident(n)) => {
                            self.pos += 1;
                            parts.push(n);
                        }
                        _ => return Err("expected a name after .".into()),
                    }
                }
                if self.eat("(") {
                    let method = parts.pop().unwrap_or_default();
                    let args = self.args()?;
                    return Ok(Expr::Call {
                        receiver: parts.join("."),
                        method,
                        args,
                    });
                }
                Ok(Expr::Prop(parts.join(".")))
            }
            Tok::Op(o) => Err(format!("unexpected {o}")),
        }
    }
}

/// Parse one filter expression.
pub fn parse(src: &str) -> Result<Expr, String> {
    let mut p = Parser {
        toks: tokenize(src)?,
        pos: 0,
    };
    let e = p.or()?;
    if p.pos != p.toks.len() {
        return Err("unexpected trailing input".into());
    }
    Ok(e)
}

fn string_args(row: &Row, args: &[Expr]) -> Result<Vec<String>, String> {
    args.iter()
        .map(|a| eval(row, a).map(|v| v.text()))
        .collect()
}

/// Evaluate an expression against one file.
pub fn eval(row: &Row, e: &Expr) -> Result<Val, String> {
    Ok(match e {
        Expr::Lit(v) => v.clone(),
        Expr::Prop(id) => row.get(id),
        Expr::Not(x) => Val::Bool(!eval(row, x)?.truthy()),
        Expr::And(a, b) => Val::Bool(eval(row, a)?.truthy() && eval(row, b)?.truthy()),
        Expr::Or(a, b) => Val::Bool(eval(row, a)?.truthy() || eval(row, b)?.truthy()),
        Expr::Cmp(op, a, b) => {
            let (x, y) = (eval(row, a)?, eval(row, b)?);
            let ord = compare(&x, &y);
            Val::Bool(match *op {
                "==" => equals(&x, &y),
                "!=" => !equals(&x, &y),
                _ if x == Val::Null || y == Val::Null => false,
                ">" => ord.is_gt(),
                "<" => ord.is_lt(),
                ">=" => ord.is_ge(),
                _ => ord.is_le(),
            })
        }
        Expr::Call {
            receiver,
            method,
            args,
        } if receiver == "file" => {
            let a = string_args(row, args)?;
            match method.as_str() {
                "inFolder" => {
                    let folder = a.first().map(|f| f.trim_matches('/')).unwrap_or("");
                    Val::Bool(vault::in_folder(row.path, folder))
                }
                "hasTag" => Val::Bool(a.iter().any(|t| {
                    let t = t.trim_start_matches('#').to_lowercase();
                    row.tags
                        .iter()
                        .any(|have| *have == t || have.starts_with(&format!("{t}/")))
                })),
                "hasLink" => Val::Bool(a.iter().any(|l| {
                    let l = l
                        .trim_start_matches("[[")
                        .trim_end_matches("]]")
                        .to_lowercase();
                    row.links.iter().any(|have| {
                        let have = have.to_lowercase();
                        have == l
                            || vault::stem(&have) == l
                            || have.strip_suffix(".md") == Some(l.as_str())
                    })
                })),
                "hasProperty" => Val::Bool(a.iter().any(|p| {
                    frontmatter::get(&row.fm, p.strip_prefix("note.").unwrap_or(p)).is_some()
                })),
                other => return Err(format!("file.{other}() is not supported")),
            }
        }
        Expr::Call {
            receiver,
            method,
            args,
        } => {
            if receiver.is_empty() {
                return Err(format!("{method}() is not supported"));
            }
            let value = row.get(receiver);
            let a: Vec<Val> = args
                .iter()
                .map(|x| eval(row, x))
                .collect::<Result<_, _>>()?;
            let contains = |needle: &Val| match &value {
                Val::List(items) => items.iter().any(|i| equals(i, needle)),
                other => other.text().contains(&needle.text()),
            };
            match method.as_str() {
                "contains" => Val::Bool(a.first().is_some_and(contains)),
                "containsAny" => Val::Bool(a.iter().any(contains)),
                "containsAll" => Val::Bool(a.iter().all(contains)),
                "isEmpty" => Val::Bool(!value.truthy()),
                "startsWith" => Val::Bool(
                    a.first()
                        .is_some_and(|p| value.text().starts_with(&p.text())),
                ),
                "endsWith" => {
                    Val::Bool(a.first().is_some_and(|p| value.text().ends_with(&p.text())))
                }
                other => return Err(format!("{receiver}.{other}() is not supported")),
            }
        }
    })
}

/// Evaluate a filter node: an expression string, or a mapping with `and`,
/// `or` or `not` lists.
pub fn matches(row: &Row, node: &Yaml) -> Result<bool, String> {
    match node {
        Yaml::String(s) => Ok(eval(row, &parse(s).map_err(|e| format!("{s}: {e}"))?)?.truthy()),
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
                    .map(|i| matches(row, i))
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

fn collect_expr(e: &Expr, req: &mut Requirements) {
    match e {
        Expr::And(a, b) => {
            collect_expr(a, req);
            collect_expr(b, req);
        }
        Expr::Call {
            receiver,
            method,
            args,
        } if receiver == "file" => {
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
        Expr::Cmp("==", a, b) => {
            let pair = match (a.as_ref(), b.as_ref()) {
                (Expr::Prop(p), Expr::Lit(v)) | (Expr::Lit(v), Expr::Prop(p)) => Some((p, v)),
                _ => None,
            };
            if let Some((p, v)) = pair {
                if !p.starts_with("file.") && !p.starts_with("formula.") {
                    let key = p.strip_prefix("note.").unwrap_or(p).to_string();
                    req.props.retain(|(k, _)| *k != key);
                    req.props.push((key, v.clone()));
                }
            }
        }
        _ => {}
    }
}

/// Read the requirements off a filter node (only `and` branches and plain
/// expressions are followed).
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

    fn row(path: &str, fm: &str, tags: &[&str]) -> Row<'static> {
        let docs = YamlLoader::load_from_str(fm).unwrap();
        let fm = match docs.into_iter().next() {
            Some(Yaml::Hash(h)) => h,
            _ => Hash::new(),
        };
        Row {
            path: Box::leak(path.to_string().into_boxed_str()),
            fm,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            links: vec![],
        }
    }

    #[test]
    fn expressions() {
        let r = row(
            "Projects/A.md",
            "status: active\npriority: 2\nlist: [a, b]",
            &["project/web"],
        );
        let t = |s: &str| eval(&r, &parse(s).unwrap()).unwrap().truthy();
        assert!(t("file.inFolder(\"Projects\")"));
        assert!(!t("file.inFolder(\"Proj\")"));
        assert!(t("file.hasTag(\"project\")"));
        assert!(t("status == \"active\" && priority <= 2"));
        assert!(t("note.status != 'done' || false"));
        assert!(t("!(priority > 2)"));
        assert!(t("list.contains(\"b\")"));
        assert!(t("file.name == \"A.md\" && file.basename == \"A\""));
        assert!(parse("status ==").is_err());
    }

    #[test]
    fn filter_nodes_and_requirements() {
        let y = &YamlLoader::load_from_str(
            "and:\n  - file.inFolder(\"Projects\")\n  - or:\n      - status == \"active\"\n      - status == \"planning\"\n  - 'status == \"active\" && owner == \"Alice\"'\n",
        )
        .unwrap()[0];
        let r = row("Projects/A.md", "status: active\nowner: Alice", &[]);
        assert!(matches(&r, y).unwrap());
        let mut req = Requirements::default();
        requirements(y, &mut req);
        assert_eq!(req.folder.as_deref(), Some("Projects"));
        assert_eq!(req.props.len(), 2);
    }
}
