//! Parsing Bases expressions ("Bases syntax", "Operators"): literals,
//! names, `a.b`, `a["b"]`, `a[0]`, calls, `[lists]`, `{objects}`, the
//! arithmetic, comparison and boolean operators with JavaScript's precedence.
//! Regular expression literals (`/…/`) are recognised only to refuse them.

use super::base_value::Val;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(f64),
    Op(&'static str),
}

const OPS2: [&str; 6] = ["==", "!=", ">=", "<=", "&&", "||"];
const OPS1: &str = "><!(),.[]{}:+-*/%";

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
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            // A fraction only when a digit follows the dot (`1.5`, not `5.isEmpty()`).
            if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let s: String = chars[start..i].iter().collect();
            out.push(Tok::Num(s.parse().map_err(|_| format!("bad number {s}"))?));
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || chars[i] == '_'
                    || chars[i] == '-'
                    || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if let Some(op) = OPS2.into_iter().find(|o| *o == two) {
                out.push(Tok::Op(op));
                i += 2;
            } else if let Some(at) = OPS1.find(c) {
                out.push(Tok::Op(&OPS1[at..at + c.len_utf8()]));
                i += 1;
            } else {
                return Err(format!("unexpected character {c:?}"));
            }
        }
    }
    Ok(out)
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Lit(Val),
    /// A bare name: a property, `file`, `note`, `formula`, `this`, or a
    /// variable of `filter`/`map`/`reduce` (`value`, `index`, `acc`).
    Name(String),
    Member(Box<Expr>, String),
    Index(Box<Expr>, Box<Expr>),
    /// A global function (`callee` a `Name`) or a method (`callee` a `Member`).
    Call(Box<Expr>, Vec<Expr>),
    List(Vec<Expr>),
    Object(Vec<(String, Expr)>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
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

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(format!("expected {op}"))
        }
    }

    /// One level of left-associative binary operators.
    fn binary(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Parser) -> Result<Expr, String>,
    ) -> Result<Expr, String> {
        let mut left = next(self)?;
        'more: loop {
            for op in ops {
                if self.eat(op) {
                    left = Expr::Binary(op, Box::new(left), Box::new(next(self)?));
                    continue 'more;
                }
            }
            return Ok(left);
        }
    }

    fn or(&mut self) -> Result<Expr, String> {
        self.binary(&["||"], Parser::and)
    }

    fn and(&mut self) -> Result<Expr, String> {
        self.binary(&["&&"], Parser::equality)
    }

    fn equality(&mut self) -> Result<Expr, String> {
        self.binary(&["==", "!="], Parser::comparison)
    }

    fn comparison(&mut self) -> Result<Expr, String> {
        self.binary(&[">=", "<=", ">", "<"], Parser::additive)
    }

    fn additive(&mut self) -> Result<Expr, String> {
        self.binary(&["+", "-"], Parser::multiplicative)
    }

    fn multiplicative(&mut self) -> Result<Expr, String> {
        self.binary(&["*", "/", "%"], Parser::unary)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        for op in ["!", "-"] {
            if self.eat(op) {
                return Ok(Expr::Unary(op, Box::new(self.unary()?)));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, String> {
        let mut e = self.primary()?;
        loop {
            if self.eat(".") {
                match self.peek().cloned() {
                    Some(Tok::Ident(n)) => {
                        self.pos += 1;
                        e = Expr::Member(Box::new(e), n);
                    }
                    _ => return Err("expected a name after .".into()),
                }
            } else if self.eat("[") {
                let index = self.or()?;
                self.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(index));
            } else if self.eat("(") {
                let args = self.list_of(")")?;
                e = Expr::Call(Box::new(e), args);
            } else {
                return Ok(e);
            }
        }
    }

    /// Comma-separated expressions up to `close`.
    fn list_of(&mut self, close: &str) -> Result<Vec<Expr>, String> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Ok(items);
        }
        loop {
            items.push(self.or()?);
            if self.eat(close) {
                return Ok(items);
            }
            self.expect(",")?;
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
                self.expect(")")?;
                Ok(e)
            }
            Tok::Op("[") => Ok(Expr::List(self.list_of("]")?)),
            Tok::Op("{") => {
                let mut fields = Vec::new();
                if !self.eat("}") {
                    loop {
                        let key = match self.peek().cloned() {
                            Some(Tok::Str(k) | Tok::Ident(k)) => k,
                            _ => return Err("expected a key in { }".into()),
                        };
                        self.pos += 1;
                        self.expect(":")?;
                        fields.push((key, self.or()?));
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Object(fields))
            }
            Tok::Op("/") => {
                Err("regular expression literals (/…/) are not supported by the emulator".into())
            }
            Tok::Ident(name) => Ok(match name.as_str() {
                "true" => Expr::Lit(Val::Bool(true)),
                "false" => Expr::Lit(Val::Bool(false)),
                "null" => Expr::Lit(Val::Null),
                _ => Expr::Name(name),
            }),
            Tok::Op(o) => Err(format!("unexpected {o}")),
        }
    }
}

/// Parse one expression.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_postfix_forms() {
        let e = parse("!a.b(1, 'x')[0].c && d + 2 * 3 >= 4 || e").unwrap();
        let Expr::Binary("||", left, _) = e else {
            panic!("{e:?}")
        };
        let Expr::Binary("&&", not, cmp) = *left else {
            panic!()
        };
        assert!(matches!(*not, Expr::Unary("!", _)));
        let Expr::Binary(">=", sum, _) = *cmp else {
            panic!()
        };
        assert!(
            matches!(*sum, Expr::Binary("+", _, ref r) if matches!(**r, Expr::Binary("*", _, _)))
        );
        assert!(
            parse("5.isEmpty()").is_ok(),
            "a number's method, not a fraction"
        );
        assert!(parse("{\"a\": [1, 2.5], b: -x}").is_ok());
        assert!(parse("status ==").is_err());
        assert!(parse("/x/.matches(a)")
            .unwrap_err()
            .contains("regular expression"));
    }
}
