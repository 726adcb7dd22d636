//! Calendar dates without a date library: civil-from-days arithmetic and a
//! subset of the moment.js format tokens that Obsidian uses.

use std::time::{SystemTime, UNIX_EPOCH};

/// A proleptic Gregorian calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

/// A wall-clock time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Time {
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

impl Date {
    /// Parse `YYYY-MM-DD`.
    pub fn parse_ymd(s: &str) -> Option<Date> {
        let s = s.trim();
        let mut parts = s.splitn(3, '-');
        let y = parts.next()?;
        let m = parts.next()?;
        let d = parts.next()?;
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return None;
        }
        let date = Date {
            year: y.parse().ok()?,
            month: m.parse().ok()?,
            day: d.parse().ok()?,
        };
        if date.month == 0 || date.month > 12 || date.day == 0 {
            return None;
        }
        if date.day > days_in_month(date.year, date.month) {
            return None;
        }
        Some(date)
    }

    /// The date `days` days after 1970-01-01 (Howard Hinnant's algorithm).
    pub fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let y = yoe + era * 400;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        Date {
            year: (if m <= 2 { y + 1 } else { y }) as i32,
            month: m as u32,
            day: d as u32,
        }
    }

    /// Days since 1970-01-01.
    pub fn to_days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let m = i64::from(self.month);
        let mp = if m > 2 { m - 3 } else { m + 9 };
        let doy = (153 * mp + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// 0 = Sunday … 6 = Saturday.
    pub fn weekday(self) -> usize {
        (self.to_days() + 4).rem_euclid(7) as usize
    }

    /// `YYYY-MM-DD`.
    pub fn ymd(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn is_leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// The current UTC date and time.
pub fn now_utc() -> (Date, Time) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    (
        Date::from_days(days),
        Time {
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
        },
    )
}

/// "Now" as the emulator sees it: `OBSIDIAN_EMULATOR_TODAY` (`YYYY-MM-DD`)
/// and `OBSIDIAN_EMULATOR_TIME` (`HH:MM[:SS]`) when set, else the system's
/// UTC date and time. An invalid value is a misconfigured test: a message on
/// stderr and exit 2.
pub fn configured_now() -> (Date, Time) {
    let (system_today, system_now) = now_utc();
    let today = match std::env::var("OBSIDIAN_EMULATOR_TODAY") {
        Ok(v) if !v.trim().is_empty() => Date::parse_ymd(&v).unwrap_or_else(|| {
            eprintln!("obsidian-emulator: OBSIDIAN_EMULATOR_TODAY must be YYYY-MM-DD, got {v:?}");
            std::process::exit(2)
        }),
        _ => system_today,
    };
    let now = match std::env::var("OBSIDIAN_EMULATOR_TIME") {
        Ok(v) if !v.trim().is_empty() => parse_time(&v).unwrap_or_else(|| {
            eprintln!("obsidian-emulator: OBSIDIAN_EMULATOR_TIME must be HH:MM[:SS], got {v:?}");
            std::process::exit(2)
        }),
        _ => system_now,
    };
    (today, now)
}

fn parse_time(v: &str) -> Option<Time> {
    let mut parts = v.trim().split(':');
    let hour: u32 = parts.next()?.parse().ok()?;
    let minute: u32 = parts.next()?.parse().ok()?;
    let second: u32 = parts.next().map_or(Some(0), |s| s.parse().ok())?;
    (hour < 24 && minute < 60 && second < 60).then_some(Time {
        hour,
        minute,
        second,
    })
}

/// Milliseconds since the Unix epoch, now.
pub fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Format with moment.js-style tokens: `YYYY YY MMMM MMM MM M DD D dddd ddd
/// HH H hh h mm m ss s A a` and `[literal]` text. Other characters are copied.
pub fn format(fmt: &str, date: Date, time: Time) -> String {
    const TOKENS: [&str; 21] = [
        "YYYY", "dddd", "MMMM", "MMM", "ddd", "YY", "MM", "DD", "HH", "hh", "mm", "ss", "M", "D",
        "H", "h", "m", "s", "A", "a", "Do",
    ];
    let mut out = String::new();
    let mut rest = fmt;
    'outer: while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            if let Some(end) = after.find(']') {
                out.push_str(&after[..end]);
                rest = &after[end + 1..];
                continue;
            }
        }
        // "Do" must win over "D"; check it first.
        if let Some(after) = rest.strip_prefix("Do") {
            out.push_str(&ordinal(date.day));
            rest = after;
            continue;
        }
        for tok in TOKENS {
            if let Some(after) = rest.strip_prefix(tok) {
                let h12 = match time.hour % 12 {
                    0 => 12,
                    h => h,
                };
                let piece = match tok {
                    "YYYY" => format!("{:04}", date.year),
                    "YY" => format!("{:02}", date.year.rem_euclid(100)),
                    "MMMM" => MONTHS[date.month as usize - 1].to_string(),
                    "MMM" => MONTHS[date.month as usize - 1][..3].to_string(),
                    "MM" => format!("{:02}", date.month),
                    "M" => date.month.to_string(),
                    "DD" => format!("{:02}", date.day),
                    "D" => date.day.to_string(),
                    "dddd" => WEEKDAYS[date.weekday()].to_string(),
                    "ddd" => WEEKDAYS[date.weekday()][..3].to_string(),
                    "HH" => format!("{:02}", time.hour),
                    "H" => time.hour.to_string(),
                    "hh" => format!("{h12:02}"),
                    "h" => h12.to_string(),
                    "mm" => format!("{:02}", time.minute),
                    "m" => time.minute.to_string(),
                    "ss" => format!("{:02}", time.second),
                    "s" => time.second.to_string(),
                    "A" => if time.hour < 12 { "AM" } else { "PM" }.to_string(),
                    "a" => if time.hour < 12 { "am" } else { "pm" }.to_string(),
                    _ => tok.to_string(),
                };
                out.push_str(&piece);
                rest = after;
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_days() {
        for days in [-1000, 0, 1, 19_000, 20_513, 60_000] {
            assert_eq!(Date::from_days(days).to_days(), days);
        }
        assert_eq!(Date::from_days(0).ymd(), "1970-01-01");
    }

    #[test]
    fn formats() {
        let d = Date::parse_ymd("2026-03-03").unwrap();
        let t = Time {
            hour: 14,
            minute: 5,
            second: 9,
        };
        assert_eq!(format("YYYY-MM-DD", d, t), "2026-03-03");
        assert_eq!(
            format("dddd, MMMM Do YYYY", d, t),
            "Tuesday, March 3rd 2026"
        );
        assert_eq!(format("YYYY/MM/[Week] D", d, t), "2026/03/Week 3");
        assert_eq!(format("HH:mm", d, t), "14:05");
        assert!(Date::parse_ymd("2026-02-30").is_none());
        assert!(Date::parse_ymd("2024-02-29").is_some());
    }
}
