//! Scheduled saved prompts: a prompt note's `schedule` property
//! (`daily 08:30`, `weekdays 08:30`, `weekly mon 09:00`), and which slots are
//! due given the time now, the schedule and the last slot run.
//!
//! Times are local wall-clock minutes (the shim hands over the time and the
//! offset of its time zone), so `daily 08:30` stays at 08:30 across a change
//! to or from summer time. A slot is stored as its local time,
//! `YYYY-MM-DD HH:MM`, which sorts as it counts.
//!
//! The rules (docs/chat.md says them to the user):
//! - a slot runs once: the last slot run is kept per prompt in the plugin's
//!   data, written before the turn starts, so a reload or a crash during the
//!   turn never runs it again;
//! - slots missed while Obsidian was closed or asleep: the latest one runs
//!   once, as soon as Obsidian runs again (a morning summary is still wanted
//!   at 10:00; a week away gives one run, not seven);
//! - a prompt seen for the first time (just written, or just given a
//!   schedule) starts from its next slot: writing `daily 08:30` at 14:00
//!   does not run it at once;
//! - a stored slot later than the latest one (the clock or the time zone was
//!   moved back) waits until that time has passed again.

const DAY: i64 = 24 * 60;
/// A day is written as the start of its name, three letters at least.
const FULL_DAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];
/// A slot found this many minutes after its time still counts as on time
/// (the shim looks once a minute), also for a prompt seen for the first time.
const ON_TIME_MINUTES: i64 = 2;

/// Which days a schedule runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Days {
    Every,
    Weekdays,
    /// One day of the week, 0 = Monday.
    One(u8),
}

/// When a saved prompt runs: the days and the minute of the day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub days: Days,
    pub minute: u16,
}

impl Schedule {
    /// `daily 08:30`, `weekdays 08:30` or `weekly mon 09:00` (any case; a
    /// full day name too), or what is wrong with the value.
    pub fn parse(value: &str) -> Result<Schedule, String> {
        let lower = value.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let (days, time) = match words.as_slice() {
            ["daily", time] => (Days::Every, *time),
            ["weekdays", time] => (Days::Weekdays, *time),
            ["weekly", day, time] => {
                let Some(at) = FULL_DAYS
                    .iter()
                    .position(|full| day.len() >= 3 && full.starts_with(day))
                else {
                    return Err(format!("\"{day}\" is not a day of the week (mon to sun)"));
                };
                (Days::One(at as u8), *time)
            }
            _ => return Err("it must start with daily, weekdays or weekly".into()),
        };
        let minute = time
            .split_once(':')
            .and_then(|(h, m)| {
                let (h, m) = (h.parse::<u16>().ok()?, m.parse::<u16>().ok()?);
                (h < 24 && m < 60 && time.len() <= 5).then_some(h * 60 + m)
            })
            .ok_or_else(|| format!("\"{time}\" is not a time of day (24-hour HH:MM)"))?;
        Ok(Schedule { days, minute })
    }

    /// The schedule as the user wrote it, normalised: `weekly mon 09:00`.
    pub fn label(&self) -> String {
        let time = format!("{:02}:{:02}", self.minute / 60, self.minute % 60);
        match self.days {
            Days::Every => format!("daily {time}"),
            Days::Weekdays => format!("weekdays {time}"),
            Days::One(day) => format!("weekly {} {time}", &FULL_DAYS[day as usize][..3]),
        }
    }

    fn runs_on(&self, day: i64) -> bool {
        let weekday = weekday(day);
        match self.days {
            Days::Every => true,
            Days::Weekdays => weekday < 5,
            Days::One(d) => weekday == d,
        }
    }

    /// The latest slot at or before `now` (local minutes since 1970).
    pub fn latest_slot(&self, now: i64) -> i64 {
        let today = now.div_euclid(DAY);
        (0..=7)
            .map(|back| (today - back) * DAY + i64::from(self.minute))
            .find(|slot| *slot <= now && self.runs_on(slot.div_euclid(DAY)))
            .unwrap_or(i64::MIN)
    }
}

/// 0 = Monday; 1970-01-01 was a Thursday.
fn weekday(day: i64) -> u8 {
    (day + 3).rem_euclid(7) as u8
}

/// What to do for one prompt now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Nothing new since the last slot run.
    Nothing,
    /// Seen for the first time: remember the latest slot, run nothing.
    Start(i64),
    /// Run this slot; `late` when it is past its time (missed while closed).
    Run { slot: i64, late: bool },
}

/// Which slot of `schedule` is due at `now` after `last` (local minutes).
pub fn decide(schedule: &Schedule, now: i64, last: Option<i64>) -> Due {
    let latest = schedule.latest_slot(now);
    let late = now - latest > ON_TIME_MINUTES;
    match last {
        Some(last) if last >= latest => Due::Nothing,
        None if late => Due::Start(latest),
        _ => Due::Run { slot: latest, late },
    }
}

/// Local minutes since 1970 as `YYYY-MM-DD HH:MM`.
pub fn slot_text(slot: i64) -> String {
    let (y, m, d) = civil(slot.div_euclid(DAY));
    let minute = slot.rem_euclid(DAY);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}", minute / 60, minute % 60)
}

/// `YYYY-MM-DD HH:MM` back to local minutes; `None` for anything else.
pub fn parse_slot(text: &str) -> Option<i64> {
    let (date, time) = text.split_once(' ')?;
    let mut parts = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, d) = (parts.next()??, parts.next()??, parts.next()??);
    let (h, min) = time.split_once(':')?;
    let (h, min) = (h.parse::<i64>().ok()?, min.parse::<i64>().ok()?);
    let valid =
        (1..=12).contains(&m) && (1..=31).contains(&d) && h < 24 && min < 60 && h >= 0 && min >= 0;
    let slot = days_from_civil(y, m, d) * DAY + h * 60 + min;
    (valid && slot_text(slot) == text).then_some(slot)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// algorithm, written out from its description).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01.
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// The time now as local minutes since 1970: the shim's `Date.now()` and
/// its time zone's offset east of UTC, in minutes.
pub fn local_minutes(now_ms: f64, offset_minutes: i32) -> i64 {
    (now_ms / 60_000.0).floor() as i64 + i64::from(offset_minutes)
}

/// What the chat says first in a scheduled run's conversation.
pub fn notice(name: &str, schedule: &Schedule, slot: &str, late: bool) -> String {
    let when = if late {
        " It ran late: Obsidian was not running at that time, and a missed slot runs once, as soon as Obsidian runs again."
    } else {
        ""
    };
    format!(
        "Scheduled: the saved prompt “{name}” ran for its slot {slot} ({}).{when}",
        schedule.label()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        parse_slot(text).unwrap()
    }

    fn schedule(value: &str) -> Schedule {
        Schedule::parse(value).unwrap()
    }

    #[test]
    fn schedules_parse_in_any_case_and_say_what_is_wrong() {
        assert_eq!(
            schedule("daily 08:30"),
            Schedule {
                days: Days::Every,
                minute: 510
            }
        );
        assert_eq!(
            schedule("  Weekly Monday 9:05 ").label(),
            "weekly mon 09:05"
        );
        assert_eq!(schedule("weekly SUN 23:59").days, Days::One(6));
        assert_eq!(schedule("weekdays 07:00").label(), "weekdays 07:00");
        for (bad, says) in [
            ("hourly", "start with daily, weekdays or weekly"),
            ("daily", "start with daily"),
            ("daily 24:00", "\"24:00\" is not a time of day"),
            ("daily 8.30", "not a time of day"),
            ("daily 08:300", "not a time of day"),
            ("weekly funday 09:00", "\"funday\" is not a day of the week"),
            ("weekly mo 09:00", "\"mo\" is not a day"),
            ("weekly 09:00", "start with daily"),
        ] {
            let error = Schedule::parse(bad).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn slots_are_local_dates_that_read_back() {
        assert_eq!(slot_text(0), "1970-01-01 00:00");
        for text in [
            "2026-12-02 08:30",
            "2028-02-29 23:59",
            "2000-03-01 00:00",
            "1969-12-31 23:59",
        ] {
            assert_eq!(slot_text(at(text)), text);
        }
        assert_eq!(
            weekday(at("2026-12-07 00:00").div_euclid(DAY)),
            0,
            "7 December 2026 is a Monday"
        );
        for bad in [
            "2026-02-30 08:00",
            "2026-12-02 8:30",
            "2026-12-02T08:30",
            "tomorrow",
            "",
        ] {
            assert_eq!(parse_slot(bad), None, "{bad}");
        }
        // Berlin in winter is UTC+1: 07:30 UTC is 08:30 there.
        let utc = 1_796_196_600_000.0; // 2026-12-02 07:30 UTC
        assert_eq!(slot_text(local_minutes(utc, 60)), "2026-12-02 08:30");
        assert_eq!(slot_text(local_minutes(utc, -300)), "2026-12-02 02:30");
    }

    #[test]
    fn a_daily_slot_is_due_once_at_its_time_and_not_before() {
        let daily = schedule("daily 08:30");
        let yesterday = at("2026-12-01 08:30");
        assert_eq!(
            decide(&daily, at("2026-12-02 08:29"), Some(yesterday)),
            Due::Nothing
        );
        assert_eq!(
            decide(&daily, at("2026-12-02 08:30"), Some(yesterday)),
            Due::Run {
                slot: at("2026-12-02 08:30"),
                late: false
            }
        );
        // Once run (the slot stored), the same slot is never due again that day.
        let today = at("2026-12-02 08:30");
        for now in [
            "2026-12-02 08:30",
            "2026-12-02 08:31",
            "2026-12-02 23:59",
            "2026-12-03 08:29",
        ] {
            assert_eq!(decide(&daily, at(now), Some(today)), Due::Nothing, "{now}");
        }
    }

    #[test]
    fn day_boundaries_midnight_and_the_turn_of_the_year() {
        let midnight = schedule("daily 00:00");
        assert_eq!(
            decide(
                &midnight,
                at("2027-01-01 00:00"),
                Some(at("2026-12-31 00:00"))
            ),
            Due::Run {
                slot: at("2027-01-01 00:00"),
                late: false
            }
        );
        assert_eq!(
            decide(
                &midnight,
                at("2026-12-31 23:59"),
                Some(at("2026-12-31 00:00"))
            ),
            Due::Nothing
        );
        let late_night = schedule("daily 23:59");
        assert_eq!(
            late_night.latest_slot(at("2027-01-01 00:01")),
            at("2026-12-31 23:59")
        );
        assert_eq!(
            decide(
                &late_night,
                at("2027-01-01 00:01"),
                Some(at("2026-12-30 23:59"))
            ),
            Due::Run {
                slot: at("2026-12-31 23:59"),
                late: false
            },
            "two minutes after, across midnight, is still on time"
        );
    }

    #[test]
    fn weekly_and_weekday_slots_fall_on_their_days() {
        let monday = schedule("weekly mon 09:00");
        // Wednesday 2 December 2026: the latest Monday slot is 30 November.
        assert_eq!(
            monday.latest_slot(at("2026-12-02 12:00")),
            at("2026-11-30 09:00")
        );
        assert_eq!(
            monday.latest_slot(at("2026-12-07 08:59")),
            at("2026-11-30 09:00")
        );
        assert_eq!(
            monday.latest_slot(at("2026-12-07 09:00")),
            at("2026-12-07 09:00")
        );
        assert_eq!(
            decide(
                &monday,
                at("2026-12-06 09:00"),
                Some(at("2026-11-30 09:00"))
            ),
            Due::Nothing,
            "a Sunday"
        );
        let weekdays = schedule("weekdays 08:00");
        // Saturday 5 and Sunday 6 December: still Friday's slot.
        assert_eq!(
            weekdays.latest_slot(at("2026-12-06 20:00")),
            at("2026-12-04 08:00")
        );
        assert_eq!(
            weekdays.latest_slot(at("2026-12-07 08:00")),
            at("2026-12-07 08:00")
        );
    }

    #[test]
    fn missed_slots_run_once_late_and_only_the_latest() {
        let daily = schedule("daily 08:30");
        // Closed from Monday evening to Thursday 10:00: one run, for Thursday's slot.
        assert_eq!(
            decide(&daily, at("2026-12-03 10:00"), Some(at("2026-11-30 08:30"))),
            Due::Run {
                slot: at("2026-12-03 08:30"),
                late: true
            }
        );
        // Back at 07:00: Wednesday's slot, missed, runs then.
        assert_eq!(
            decide(&daily, at("2026-12-03 07:00"), Some(at("2026-11-30 08:30"))),
            Due::Run {
                slot: at("2026-12-02 08:30"),
                late: true
            }
        );
    }

    #[test]
    fn a_restart_with_the_last_slot_stored_runs_nothing_again() {
        let daily = schedule("daily 08:30");
        let stored = slot_text(at("2026-12-02 08:30"));
        // The plugin reloads a minute after the run: the stored slot reads back.
        assert_eq!(
            decide(&daily, at("2026-12-02 08:31"), parse_slot(&stored)),
            Due::Nothing
        );
        // A clock moved back an hour (or a time zone further west): wait.
        assert_eq!(
            decide(&daily, at("2026-12-02 07:40"), parse_slot(&stored)),
            Due::Nothing
        );
    }

    #[test]
    fn a_prompt_seen_first_starts_from_its_next_slot() {
        let daily = schedule("daily 08:30");
        // Written at 14:00: today's 08:30 is remembered, not run.
        assert_eq!(
            decide(&daily, at("2026-12-02 14:00"), None),
            Due::Start(at("2026-12-02 08:30"))
        );
        // Seen within the minute of its slot: it runs.
        assert_eq!(
            decide(&daily, at("2026-12-02 08:31"), None),
            Due::Run {
                slot: at("2026-12-02 08:30"),
                late: false
            }
        );
    }
}
