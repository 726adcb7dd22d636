//! Small text helpers every layer may use.

/// A size as people read it: "512 bytes", "4.0 KiB", "1.5 MiB".
pub fn human_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b >= KIB * KIB {
        format!("{:.1} MiB", b / (KIB * KIB))
    } else if b >= KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// `defuse_tags` for the element `name`.
pub fn defuse_named(text: &str, name: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_start = after.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        let is_tag = name_start
            .get(..name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name));
        out.push_str(if is_tag { "&lt;" } else { "<" });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A value safe inside a double-quoted attribute.
pub fn attribute(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| match c {
            '"' => "&quot;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// The first `max` characters, and how many were left out.
pub fn cap(text: &str, max: usize) -> (&str, usize) {
    match text.char_indices().nth(max) {
        Some((byte, _)) => (&text[..byte], text[byte..].chars().count()),
        None => (text, 0),
    }
}

/// `text` cut to its first `max` characters, with "…" when some were left
/// out: how an answer repeats what it was given (a pasted page is not
/// repeated whole).
pub fn clipped(text: &str, max: usize) -> String {
    match cap(text, max) {
        (kept, 0) => kept.to_string(),
        (kept, _) => format!("{kept}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::clipped;

    #[test]
    fn clipped_cuts_at_characters_and_says_so() {
        assert_eq!(clipped("harbor", 6), "harbor");
        assert_eq!(clipped("harbors", 6), "harbor…");
        assert_eq!(clipped("été à la mer", 3), "été…");
        assert_eq!(clipped("", 3), "");
    }
}
