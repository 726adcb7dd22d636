//! Values of the Bases expression language ("Bases syntax", "Types"):
//! strings, numbers, booleans, null, lists, objects, dates, durations, links
//! and files; how they compare, print and turn into JSON.

use crate::dates::{self, Date, Time};
use crate::frontmatter;
use yaml_rust2::Yaml;

const DAY_MS: f64 = 86_400_000.0;
/// moment.js's average month and year, which `duration` fields follow.
const MONTH_DAYS: f64 = 30.436_875;
const YEAR_DAYS: f64 = 365.242_5;

/// A value during evaluation.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    List(Vec<Val>),
    Object(Vec<(String, Val)>),
    /// Milliseconds since 1970 in the emulated (UTC) clock; `time` is false
    /// for a date without a time of day.
    Date {
        ms: f64,
        time: bool,
    },
    /// Whole calendar months plus milliseconds (`"1M"` is a month, `"30d"`
    /// 30 days), so that adding a month to a date follows the calendar.
    Duration {
        months: f64,
        ms: f64,
    },
    /// A link as written (`Books` for `[[Books]]`) and the file it resolves
    /// to, if any.
    Link {
        text: String,
        path: Option<String>,
        display: Option<String>,
    },
    /// A file of the vault, by path (`file`, `this`, `link.asFile()`).
    File(String),
}

impl Val {
    /// A frontmatter value; `resolve` turns a `[[wikilink]]` string into the
    /// path it links to (Obsidian reads wikilinks in properties as links).
    pub fn from_yaml(y: &Yaml, resolve: &dyn Fn(&str) -> Option<String>) -> Val {
        match y {
            Yaml::String(s) => match wikilink(s) {
                Some((text, display)) => Val::Link {
                    path: resolve(&text),
                    text,
                    display,
                },
                None => Val::Str(s.clone()),
            },
            Yaml::Integer(i) => Val::Num(*i as f64),
            Yaml::Real(r) => r.parse().map_or_else(|_| Val::Str(r.clone()), Val::Num),
            Yaml::Boolean(b) => Val::Bool(*b),
            Yaml::Array(a) => Val::List(a.iter().map(|v| Val::from_yaml(v, resolve)).collect()),
            Yaml::Hash(h) => Val::Object(
                h.iter()
                    .map(|(k, v)| {
                        (
                            k.as_str()
                                .map_or_else(|| frontmatter::display(k), str::to_string),
                            Val::from_yaml(v, resolve),
                        )
                    })
                    .collect(),
            ),
            _ => Val::Null,
        }
    }

    /// JavaScript's truthiness (Bases functions "follow JavaScript behavior").
    pub fn truthy(&self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Num(n) => *n != 0.0 && !n.is_nan(),
            Val::Str(s) => !s.is_empty(),
            Val::List(_) | Val::Object(_) | Val::Link { .. } | Val::File(_) => true,
            Val::Date { ms, .. } => !ms.is_nan(),
            Val::Duration { .. } => self.as_num().is_some_and(|n| n != 0.0),
        }
    }

    /// Empty as `isEmpty()` means it: nothing there, or no characters,
    /// elements or keys.
    pub fn is_empty(&self) -> bool {
        match self {
            Val::Null => true,
            Val::Str(s) => s.is_empty(),
            Val::List(l) => l.is_empty(),
            Val::Object(o) => o.is_empty(),
            _ => false,
        }
    }

    /// Plain text for table cells and `toString()`.
    pub fn text(&self) -> String {
        match self {
            Val::Null => String::new(),
            Val::Bool(b) => b.to_string(),
            Val::Num(n) => number_text(*n),
            Val::Str(s) => s.clone(),
            Val::List(l) => l.iter().map(Val::text).collect::<Vec<_>>().join(", "),
            Val::Object(_) => "[object Object]".to_string(),
            Val::Date { ms, time } => date_text(*ms, *time),
            Val::Duration { .. } => number_text(self.as_num().unwrap_or(0.0)),
            // As written in a note (**guess** for cells and `toString()`).
            Val::Link { text, display, .. } => match display {
                Some(d) => format!("[[{text}|{d}]]"),
                None => format!("[[{text}]]"),
            },
            Val::File(path) => path.clone(),
        }
    }

    /// The value as a number, if it is one: numbers, numeric strings,
    /// booleans, dates (milliseconds) and durations (milliseconds).
    pub fn as_num(&self) -> Option<f64> {
        match self {
            Val::Num(n) => Some(*n),
            Val::Str(s) => s.trim().parse().ok(),
            Val::Bool(b) => Some(f64::from(u8::from(*b))),
            Val::Date { ms, .. } => Some(*ms),
            Val::Duration { months, ms } => Some(months * MONTH_DAYS * DAY_MS + ms),
            _ => None,
        }
    }

    /// The value as a date: a date, or a string in a date format.
    pub fn as_date(&self) -> Option<Val> {
        match self {
            Val::Date { .. } => Some(self.clone()),
            Val::Str(s) => parse_date(s),
            _ => None,
        }
    }

    /// The type name `isType()` compares with.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Null => "null",
            Val::Bool(_) => "boolean",
            Val::Num(_) => "number",
            Val::Str(_) => "string",
            Val::List(_) => "list",
            Val::Object(_) => "object",
            Val::Date { .. } => "date",
            Val::Duration { .. } => "duration",
            Val::Link { .. } => "link",
            Val::File(_) => "file",
        }
    }

    pub fn json(&self) -> serde_json::Value {
        match self {
            Val::Null => serde_json::Value::Null,
            Val::Bool(b) => (*b).into(),
            // Whole numbers as JSON integers, as JavaScript writes them.
            Val::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => (*n as i64).into(),
            Val::Num(n) => {
                serde_json::Number::from_f64(*n).map_or(serde_json::Value::Null, Into::into)
            }
            Val::List(l) => serde_json::Value::Array(l.iter().map(Val::json).collect()),
            Val::Object(o) => {
                serde_json::Value::Object(o.iter().map(|(k, v)| (k.clone(), v.json())).collect())
            }
            Val::Duration { .. } => Val::Num(self.as_num().unwrap_or(0.0)).json(),
            other => other.text().into(),
        }
    }
}

/// `[[Target|display]]` when the whole string is one wikilink.
pub fn wikilink(s: &str) -> Option<(String, Option<String>)> {
    let inner = s.trim().strip_prefix("[[")?.strip_suffix("]]")?;
    if inner.contains("[[") || inner.contains("]]") {
        return None;
    }
    let (target, display) = match inner.split_once('|') {
        Some((t, d)) => (t, Some(d.to_string())),
        None => (inner, None),
    };
    Some((target.trim().to_string(), display))
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

/// Splits milliseconds into a calendar date and the time of day.
pub fn civil(ms: f64) -> (Date, Time, f64) {
    let days = (ms / DAY_MS).floor();
    let rest = ms - days * DAY_MS;
    let seconds = (rest / 1000.0).floor() as u32;
    let time = Time {
        hour: seconds / 3600,
        minute: seconds / 60 % 60,
        second: seconds % 60,
    };
    (Date::from_days(days as i64), time, rest % 1000.0)
}

pub fn millis(date: Date, time: Time) -> f64 {
    date.to_days() as f64 * DAY_MS
        + f64::from(time.hour * 3600 + time.minute * 60 + time.second) * 1000.0
}

/// `YYYY-MM-DD`, with ` HH:mm:ss` for a date with a time (**guess**: the
/// form `date()` reads back).
fn date_text(ms: f64, time: bool) -> String {
    let (d, t, _) = civil(ms);
    if time {
        dates::format("YYYY-MM-DD HH:mm:ss", d, t)
    } else {
        d.ymd()
    }
}

/// `YYYY-MM-DD`, optionally followed by ` ` or `T` and `HH:mm[:ss[.sss]]`
/// (a trailing `Z` or offset is ignored: the emulator's clock has no zone).
pub fn parse_date(s: &str) -> Option<Val> {
    let s = s.trim();
    let date = Date::parse_ymd(s.get(..10)?)?;
    let rest = &s[10..];
    if rest.is_empty() {
        return Some(Val::Date {
            ms: millis(date, Time::default()),
            time: false,
        });
    }
    let clock = rest.strip_prefix([' ', 'T'])?;
    let clock = clock.trim_end_matches('Z');
    let clock = clock.split(['+', '.']).next()?;
    let parts: Vec<u32> = clock
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let (hour, minute, second) = match parts.as_slice() {
        [h, m] => (*h, *m, 0),
        [h, m, s] => (*h, *m, *s),
        _ => return None,
    };
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    Some(Val::Date {
        ms: millis(
            date,
            Time {
                hour,
                minute,
                second,
            },
        ),
        time: true,
    })
}

/// A duration string ("Date arithmetic"): one or more `<number><unit>`
/// with optional spaces, units `y year years M month months d day days w
/// week weeks h hour hours m minute minutes s second seconds`.
pub fn parse_duration(s: &str) -> Option<Val> {
    let mut rest = s.trim();
    let (mut months, mut ms) = (0.0, 0.0);
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let sign = if let Some(r) = rest.strip_prefix('-') {
            rest = r;
            -1.0
        } else {
            1.0
        };
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let n: f64 = rest[..digits].parse().ok()?;
        rest = rest[digits..].trim_start();
        let unit_len = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = rest[unit_len..]
            .trim_start()
            .trim_start_matches(',')
            .trim_start();
        let n = n * sign;
        match unit {
            "y" | "year" | "years" => months += 12.0 * n,
            "M" | "month" | "months" => months += n,
            "w" | "week" | "weeks" => ms += 7.0 * DAY_MS * n,
            "d" | "day" | "days" => ms += DAY_MS * n,
            "h" | "hour" | "hours" => ms += 3_600_000.0 * n,
            "m" | "minute" | "minutes" => ms += 60_000.0 * n,
            "s" | "second" | "seconds" => ms += 1000.0 * n,
            _ => return None,
        }
    }
    Some(Val::Duration { months, ms })
}

/// A date moved by a duration: whole months on the calendar (the day kept,
/// or the month's last day), then the milliseconds.
pub fn shift(ms: f64, time: bool, months: f64, plus_ms: f64) -> Val {
    let (d, t, frac) = civil(ms);
    let total = i64::from(d.year) * 12 + i64::from(d.month) - 1 + months.trunc() as i64;
    let (year, month) = (total.div_euclid(12) as i32, total.rem_euclid(12) as u32 + 1);
    let mut day = d.day;
    while Date::parse_ymd(&format!("{year:04}-{month:02}-{day:02}")).is_none() && day > 28 {
        day -= 1;
    }
    let moved = Date { year, month, day };
    let fixed = plus_ms + months.fract() * MONTH_DAYS * DAY_MS;
    Val::Date {
        ms: millis(moved, t) + frac + fixed,
        time: time || (fixed % DAY_MS) != 0.0,
    }
}

/// A field of a duration (`.days`, `.years`): the whole duration in that
/// unit, with a fraction, as moment.js's `as()` counts it.
pub fn duration_field(value: &Val, field: &str) -> Option<f64> {
    let total = value.as_num()?;
    let per = match field {
        "years" | "year" => YEAR_DAYS * DAY_MS,
        "months" | "month" => MONTH_DAYS * DAY_MS,
        "weeks" | "week" => 7.0 * DAY_MS,
        "days" | "day" => DAY_MS,
        "hours" | "hour" => 3_600_000.0,
        "minutes" | "minute" => 60_000.0,
        "seconds" | "second" => 1000.0,
        "milliseconds" | "millisecond" => 1.0,
        _ => return None,
    };
    Some(total / per)
}

/// Equality as `==` sees it: numbers numerically (a numeric string counts),
/// dates by their time, links and files by the file they are (a link to a
/// missing file by its text), lists element by element, else as text.
pub fn equals(a: &Val, b: &Val) -> bool {
    match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Null, _) | (_, Val::Null) => false,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equals(p, q))
        }
        (Val::List(_), _) | (_, Val::List(_)) => false,
        (Val::Link { .. } | Val::File(_), Val::Link { .. } | Val::File(_)) => {
            match (target(a), target(b)) {
                (Some(x), Some(y)) => x == y,
                _ => link_text(a).eq_ignore_ascii_case(&link_text(b)),
            }
        }
        // guess: a link equals the string of its text ("Books" or "[[Books]]").
        (Val::Link { text, .. }, Val::Str(s)) | (Val::Str(s), Val::Link { text, .. }) => {
            wikilink(s).map_or(s.clone(), |(t, _)| t) == *text
        }
        (Val::Date { .. }, _) | (_, Val::Date { .. }) => match (a.as_date(), b.as_date()) {
            (Some(x), Some(y)) => x.as_num() == y.as_num(),
            _ => false,
        },
        _ => match (a.as_num(), b.as_num()) {
            (Some(x), Some(y)) => x == y,
            _ => a.text() == b.text(),
        },
    }
}

fn target(v: &Val) -> Option<&str> {
    match v {
        Val::Link { path, .. } => path.as_deref(),
        Val::File(path) => Some(path),
        _ => None,
    }
}

fn link_text(v: &Val) -> String {
    match v {
        Val::Link { text, .. } => text.clone(),
        Val::File(path) => crate::vault::stem(path).to_string(),
        other => other.text(),
    }
}

/// Order for `<`, `>` and sorting: numbers and dates numerically (a string
/// that reads as a date or number counts), otherwise as text ignoring case;
/// null sorts last.
pub fn compare(a: &Val, b: &Val) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Val::Null, Val::Null) => Ordering::Equal,
        (Val::Null, _) => Ordering::Greater,
        (_, Val::Null) => Ordering::Less,
        (Val::Date { .. }, _) | (_, Val::Date { .. }) => match (a.as_date(), b.as_date()) {
            (Some(x), Some(y)) => x
                .as_num()
                .partial_cmp(&y.as_num())
                .unwrap_or(Ordering::Equal),
            _ => a.text().to_lowercase().cmp(&b.text().to_lowercase()),
        },
        _ => match (a.as_num(), b.as_num()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            _ => a.text().to_lowercase().cmp(&b.text().to_lowercase()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_durations_follow_the_calendar() {
        let day = |s: &str| parse_date(s).unwrap();
        let Val::Date { ms, .. } = day("2024-12-01") else {
            panic!()
        };
        let Some(Val::Duration { months, ms: plus }) = parse_duration("1M 4h 3m") else {
            panic!()
        };
        assert_eq!(shift(ms, false, months, plus).text(), "2025-01-01 04:03:00");
        assert_eq!(
            day("2024-01-31")
                .as_num()
                .map(|m| shift(m, false, 1.0, 0.0).text()),
            Some("2024-02-29".to_string())
        );
        assert_eq!(
            parse_duration("60d").and_then(|d| duration_field(&d, "days")),
            Some(60.0)
        );
        assert!(parse_duration("3 fortnights").is_none());
        assert_eq!(day("2026-03-03T09:30:00Z").text(), "2026-03-03 09:30:00");
        assert!(equals(&day("2026-03-03"), &Val::Str("2026-03-03".into())));
    }

    #[test]
    fn links_equal_the_file_they_point_to() {
        let link = Val::Link {
            text: "Books".into(),
            path: Some("Categories/Books.md".into()),
            display: None,
        };
        assert!(equals(&link, &Val::File("Categories/Books.md".into())));
        let missing = |t: &str| Val::Link {
            text: t.into(),
            path: None,
            display: None,
        };
        assert!(equals(&missing("Nowhere"), &missing("nowhere")));
        assert!(!equals(&missing("Nowhere"), &link));
        assert_eq!(wikilink("[[A|b]]"), Some(("A".into(), Some("b".into()))));
        assert_eq!(wikilink("see [[A]]"), None);
    }
}
