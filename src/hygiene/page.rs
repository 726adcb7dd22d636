//! One page of a report's list: a report holds at most `limit` entries
//! from `offset`, and says where it stands and what to send for the next,
//! so a vault of 100 000 notes is read a page at a time, never as one
//! answer bigger than the model can take.

/// Which entries of a list one report shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    pub offset: usize,
    pub limit: usize,
}

impl Page {
    /// The entries of `items` on this page.
    pub fn of<'a, T>(&self, items: &'a [T]) -> &'a [T] {
        let start = self.offset.min(items.len());
        let end = start.saturating_add(self.limit).min(items.len());
        &items[start..end]
    }

    /// Where this page lies among `total` entries called `what`, and the
    /// `offset` of the next page; `None` when the page holds them all.
    pub fn note(&self, total: usize, what: &str) -> Option<String> {
        let start = self.offset.min(total);
        let end = start.saturating_add(self.limit).min(total);
        if start == 0 && end == total {
            None
        } else if start == end {
            Some(format!(
                "[No {what} from offset {}: there are {total}.]",
                self.offset
            ))
        } else if end < total {
            Some(format!(
                "[{what} {}-{end} of {total}; for the next page send offset={end}.]",
                start + 1
            ))
        } else {
            Some(format!(
                "[{what} {}-{end} of {total}; that is the last page.]",
                start + 1
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_holds_at_most_its_limit_and_names_the_next_offset() {
        let items: Vec<u32> = (0..120).collect();
        let first = Page {
            offset: 0,
            limit: 50,
        };
        assert_eq!(first.of(&items), &items[..50]);
        assert_eq!(
            first.note(items.len(), "groups").as_deref(),
            Some("[groups 1-50 of 120; for the next page send offset=50.]")
        );
        let last = Page {
            offset: 100,
            limit: 50,
        };
        assert_eq!(last.of(&items), &items[100..]);
        assert_eq!(
            last.note(items.len(), "groups").as_deref(),
            Some("[groups 101-120 of 120; that is the last page.]")
        );
        let past = Page {
            offset: 500,
            limit: 50,
        };
        assert!(past.of(&items).is_empty());
        assert_eq!(
            past.note(items.len(), "groups").as_deref(),
            Some("[No groups from offset 500: there are 120.]")
        );
        assert_eq!(first.note(10, "groups"), None, "one page holds them all");
    }
}
