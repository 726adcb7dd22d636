//! Several chats at once: which conversation each open chat view shows,
//! the model profile a view picked, and the turns running now, each with
//! its own Stop. One conversation is shown by one view and driven by one
//! turn at a time: a second is refused (fail closed), never interleaved,
//! since two turns appending to one conversation would each save a copy
//! without the other's messages.
//!
//! A handful of entries at most: lists, which cost less code in wasm than
//! maps.

use std::cell::RefCell;

/// One open chat view (the shim names it; the id lives as long as the view).
struct OpenView {
    view: String,
    conversation: Option<String>,
    /// The model profile (or `agent:<id>`) picked in this view; `None`:
    /// the saved default.
    profile: Option<String>,
}

/// A turn running now, by its conversation.
struct RunningTurn {
    conversation: String,
    /// The answer's turn id, whose tool processes carry it as their tag.
    turn: String,
    stopped: bool,
}

/// What `show` answers when the conversation is on screen elsewhere.
#[derive(Debug, PartialEq)]
pub struct OpenElsewhere {
    pub view: String,
}

#[derive(Default)]
pub struct OpenChats {
    views: RefCell<Vec<OpenView>>,
    turns: RefCell<Vec<RunningTurn>>,
}

/// Held while a turn runs; dropping it (however the turn ends) frees the conversation.
pub struct TurnHold<'a> {
    chats: &'a OpenChats,
    conversation: String,
}

impl Drop for TurnHold<'_> {
    fn drop(&mut self) {
        self.chats
            .turns
            .borrow_mut()
            .retain(|t| t.conversation != self.conversation);
    }
}

impl OpenChats {
    /// `view` shows `conversation` from now on, unless another view shows
    /// it already: then that view is named, and nothing changes.
    pub fn show(&self, view: &str, conversation: &str) -> Result<(), OpenElsewhere> {
        let mut views = self.views.borrow_mut();
        if let Some(other) = views
            .iter()
            .find(|v| v.view != view && v.conversation.as_deref() == Some(conversation))
        {
            return Err(OpenElsewhere {
                view: other.view.clone(),
            });
        }
        match views.iter_mut().find(|v| v.view == view) {
            Some(open) => open.conversation = Some(conversation.to_string()),
            None => views.push(OpenView {
                view: view.to_string(),
                conversation: Some(conversation.to_string()),
                profile: None,
            }),
        }
        Ok(())
    }

    /// The view closed: its conversation may be opened elsewhere.
    pub fn close(&self, view: &str) {
        self.views.borrow_mut().retain(|v| v.view != view);
    }

    /// The conversations other views than `view` show, with the view that shows each.
    pub fn open_elsewhere(&self, view: &str) -> Vec<(String, String)> {
        self.views
            .borrow()
            .iter()
            .filter(|v| v.view != view)
            .filter_map(|v| Some((v.conversation.clone()?, v.view.clone())))
            .collect()
    }

    /// The user picked `profile` in `view` (`None`: the saved default).
    pub fn pick(&self, view: &str, profile: Option<String>) {
        let mut views = self.views.borrow_mut();
        match views.iter_mut().find(|v| v.view == view) {
            Some(open) => open.profile = profile,
            None => views.push(OpenView {
                view: view.to_string(),
                conversation: None,
                profile,
            }),
        }
    }

    /// What `view` picked, if it picked anything.
    pub fn picked(&self, view: &str) -> Option<String> {
        let views = self.views.borrow();
        views.iter().find(|v| v.view == view)?.profile.clone()
    }

    /// The profile picked in the view that shows `conversation`.
    pub fn profile_of(&self, conversation: &str) -> Option<String> {
        let views = self.views.borrow();
        let open = views
            .iter()
            .find(|v| v.conversation.as_deref() == Some(conversation))?;
        open.profile.clone()
    }

    /// A turn of `conversation` starts; refused while another one runs.
    pub fn begin(&self, conversation: &str) -> Result<TurnHold<'_>, String> {
        let mut turns = self.turns.borrow_mut();
        if turns.iter().any(|t| t.conversation == conversation) {
            return Err("This chat is already answering (in another view, or through another door). Wait for that answer, or stop it there, before sending here.".into());
        }
        turns.push(RunningTurn {
            conversation: conversation.to_string(),
            turn: String::new(),
            stopped: false,
        });
        Ok(TurnHold {
            chats: self,
            conversation: conversation.to_string(),
        })
    }

    /// The running turn of `conversation` answers the message numbered in `turn`.
    pub fn set_turn(&self, conversation: &str, turn: String) {
        if let Some(t) = self
            .turns
            .borrow_mut()
            .iter_mut()
            .find(|t| t.conversation == conversation)
        {
            t.turn = turn;
        }
    }

    /// Stop for `conversation` (`None`: every turn). Returns the turn ids
    /// stopped (their tool processes are ended by tag).
    pub fn stop(&self, conversation: Option<&str>) -> Vec<String> {
        let mut turns = self.turns.borrow_mut();
        let mut stopped = Vec::new();
        for t in turns
            .iter_mut()
            .filter(|t| conversation.is_none_or(|c| c == t.conversation))
        {
            t.stopped = true;
            stopped.push(t.turn.clone());
        }
        stopped
    }

    /// Whether Stop was pressed for the turn of `conversation`.
    pub fn stopped(&self, conversation: &str) -> bool {
        self.turns
            .borrow()
            .iter()
            .any(|t| t.conversation == conversation && t.stopped)
    }

    /// How many turns run now and were not stopped.
    pub fn running(&self) -> usize {
        self.turns.borrow().iter().filter(|t| !t.stopped).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_is_shown_by_one_view() {
        let chats = OpenChats::default();
        assert_eq!(chats.show("a", "chat-1"), Ok(()));
        assert_eq!(
            chats.show("b", "chat-1"),
            Err(OpenElsewhere { view: "a".into() })
        );
        assert_eq!(chats.show("b", "chat-2"), Ok(()));
        assert_eq!(
            chats.open_elsewhere("b"),
            vec![("chat-1".to_string(), "a".to_string())]
        );
        // The same view may show it again (a redraw), and another once it moved on.
        assert_eq!(chats.show("a", "chat-1"), Ok(()));
        assert_eq!(chats.show("a", "chat-3"), Ok(()));
        assert_eq!(chats.show("b", "chat-1"), Ok(()));
        chats.close("b");
        assert!(chats.open_elsewhere("a").is_empty());
        assert_eq!(chats.show("c", "chat-1"), Ok(()));
    }

    #[test]
    fn each_view_keeps_its_profile() {
        let chats = OpenChats::default();
        chats.pick("a", Some("small".into()));
        chats.show("a", "chat-1").unwrap();
        chats.show("b", "chat-2").unwrap();
        assert_eq!(chats.profile_of("chat-1").as_deref(), Some("small"));
        assert_eq!(chats.profile_of("chat-2"), None);
        assert_eq!(chats.picked("a").as_deref(), Some("small"));
        chats.pick("a", None);
        assert_eq!(chats.profile_of("chat-1"), None);
    }

    #[test]
    fn one_turn_per_conversation_and_stop_stops_only_its_own() {
        let chats = OpenChats::default();
        let one = chats.begin("chat-1").unwrap();
        chats.set_turn("chat-1", "chat-1#1".into());
        let two = chats.begin("chat-2").unwrap();
        assert!(chats
            .begin("chat-1")
            .err()
            .is_some_and(|e| e.contains("already answering")));
        assert_eq!(chats.stop(Some("chat-1")), vec!["chat-1#1".to_string()]);
        assert!(chats.stopped("chat-1"));
        assert!(!chats.stopped("chat-2"));
        assert_eq!(chats.running(), 1);
        drop(one);
        // Free again, and a new turn starts without the old Stop.
        let again = chats.begin("chat-1").unwrap();
        assert!(!chats.stopped("chat-1"));
        assert_eq!(chats.stop(None).len(), 2);
        drop((two, again));
        assert_eq!(chats.running(), 0);
    }
}
