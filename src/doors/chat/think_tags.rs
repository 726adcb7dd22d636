//! Reasoning printed into the answer text. DeepSeek R1, Qwen 3 and their
//! distills, served by a server that does not separate it (older LM Studio,
//! llama.cpp without `--reasoning-format`, many proxies), start the reply with
//! `<think>…</think>`. It is the model's reasoning, not its answer: shown
//! folded, never stored or sent back as answer text. Only a reply that
//! *starts* with the tag is split, so an answer that talks about `<think>`
//! stays as written.

use crate::doors::chat::model::StreamPiece;

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

#[derive(Default, Debug, PartialEq)]
enum State {
    /// Nothing but whitespace (which streams as text) or part of `<think>` seen yet.
    #[default]
    Start,
    Thinking,
    /// After `</think>`: the whitespace models put before the answer is dropped.
    AnswerStarting,
    Answer,
}

/// Splits streamed answer text into reasoning and answer. Tags may arrive cut
/// across chunks; a piece that could still be the start of a tag is held
/// back until the next chunk says what it is.
#[derive(Default, Debug)]
pub struct ThinkTags {
    state: State,
    held: String,
}

impl ThinkTags {
    /// The pieces `text` makes, in order.
    pub fn push(&mut self, text: &str) -> Vec<StreamPiece> {
        let mut pieces = Vec::new();
        self.held.push_str(text);
        loop {
            match self.state {
                State::Start => {
                    let trimmed = self.held.trim_start();
                    if trimmed.is_empty() {
                        // Whitespace is answer text either way: it streams at
                        // once, and a `<think>` may still follow it.
                        push_piece(
                            &mut pieces,
                            StreamPiece::Text(std::mem::take(&mut self.held)),
                        );
                        return pieces;
                    }
                    if OPEN.starts_with(trimmed) && trimmed != OPEN {
                        return pieces;
                    }
                    if let Some(rest) = trimmed.strip_prefix(OPEN) {
                        let before = self.held.len() - trimmed.len();
                        push_piece(&mut pieces, StreamPiece::Text(self.held[..before].into()));
                        self.held = rest.to_string();
                        self.state = State::Thinking;
                    } else {
                        self.state = State::Answer;
                    }
                }
                State::Thinking => {
                    if let Some(at) = self.held.find(CLOSE) {
                        push_piece(&mut pieces, StreamPiece::Reasoning(self.held[..at].into()));
                        self.held = self.held[at + CLOSE.len()..].to_string();
                        self.state = State::AnswerStarting;
                        continue;
                    }
                    // Keep back a tail that may be the start of `</think>`.
                    let keep = (1..CLOSE.len())
                        .rev()
                        .find(|&n| self.held.ends_with(&CLOSE[..n]))
                        .unwrap_or(0);
                    let cut = self.held.len() - keep;
                    push_piece(&mut pieces, StreamPiece::Reasoning(self.held[..cut].into()));
                    self.held = self.held[cut..].to_string();
                    return pieces;
                }
                State::AnswerStarting => {
                    let trimmed = self.held.trim_start();
                    if trimmed.is_empty() {
                        self.held.clear();
                        return pieces;
                    }
                    self.held = trimmed.to_string();
                    self.state = State::Answer;
                }
                State::Answer => {
                    push_piece(
                        &mut pieces,
                        StreamPiece::Text(std::mem::take(&mut self.held)),
                    );
                    return pieces;
                }
            }
        }
    }

    /// What was held back when the reply ends: text that only looked like
    /// the start of a tag, or reasoning whose `</think>` never came.
    pub fn finish(&mut self) -> Vec<StreamPiece> {
        let held = std::mem::take(&mut self.held);
        let mut pieces = Vec::new();
        match self.state {
            State::Thinking => push_piece(&mut pieces, StreamPiece::Reasoning(held)),
            State::AnswerStarting => {}
            State::Start | State::Answer => push_piece(&mut pieces, StreamPiece::Text(held)),
        }
        pieces
    }

    /// A whole reply's text split into (reasoning, answer).
    pub fn split(text: &str) -> (String, String) {
        let mut tags = ThinkTags::default();
        let mut pieces = tags.push(text);
        pieces.extend(tags.finish());
        joined(pieces)
    }
}

/// Pieces put back together as (reasoning, answer).
fn joined(pieces: Vec<StreamPiece>) -> (String, String) {
    let (mut reasoning, mut answer) = (String::new(), String::new());
    for piece in pieces {
        match piece {
            StreamPiece::Reasoning(r) => reasoning.push_str(&r),
            StreamPiece::Text(t) => answer.push_str(&t),
        }
    }
    (reasoning, answer)
}

fn push_piece(pieces: &mut Vec<StreamPiece>, piece: StreamPiece) {
    let empty = match &piece {
        StreamPiece::Text(t) | StreamPiece::Reasoning(t) => t.is_empty(),
    };
    if !empty {
        pieces.push(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const REPLY: &str = "\n<think>\nThe user wants tasks.\nCall </thin k tasks.\n</think>\n\nYou have **two** open tasks.";

    #[test]
    fn a_reply_that_starts_thinking_is_split() {
        assert_eq!(
            ThinkTags::split(REPLY),
            (
                "\nThe user wants tasks.\nCall </thin k tasks.\n".to_string(),
                "\nYou have **two** open tasks.".to_string()
            )
        );
    }

    #[test]
    fn text_about_the_tag_is_left_alone() {
        for text in [
            "Use <think> tags to reason.",
            "<thin",
            "  <thinking>deep</thinking>",
            "Answer first. <think>no</think>",
        ] {
            assert_eq!(ThinkTags::split(text), (String::new(), text.to_string()));
        }
    }

    #[test]
    fn unterminated_reasoning_stays_reasoning() {
        assert_eq!(
            ThinkTags::split("<think>still going"),
            ("still going".to_string(), String::new())
        );
    }

    proptest! {
        // A fixed seed: the test command draws the same cases every time.
        #![proptest_config(ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(26),
            ..ProptestConfig::default()
        })]
        // However the stream is cut, the pieces are those of the whole.
        #[test]
        fn any_chunking_gives_the_same_split(cuts in proptest::collection::vec(0usize..REPLY.len(), 0..12)) {
            let mut cuts: Vec<usize> = cuts.into_iter().filter(|&c| REPLY.is_char_boundary(c)).collect();
            cuts.sort_unstable();
            let mut tags = ThinkTags::default();
            let mut pieces = Vec::new();
            let mut from = 0;
            for cut in cuts.into_iter().chain([REPLY.len()]) {
                pieces.extend(tags.push(&REPLY[from..cut]));
                from = cut;
            }
            pieces.extend(tags.finish());
            prop_assert_eq!(joined(pieces), ThinkTags::split(REPLY));
        }
    }
}
