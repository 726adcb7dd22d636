//! The hygiene checks as the core runs them: the CLI's listings, the notes'
//! text in batches through the host, the folder scopes applied to every
//! input before anything is computed, and the report the model reads.

use std::collections::BTreeMap;

use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::ToolResult;
use crate::base::vault_path::in_config_dir;
use crate::cli::argv::CliInvocation;
use crate::engine::Engine;
use crate::hygiene::page::Page;
use crate::hygiene::suggest::{candidates, suggest, Subject};
use crate::hygiene::text::{body, title_of};
use crate::hygiene::titles::find_duplicates;
use crate::hygiene::{
    HygieneRequest, DEFAULT_THRESHOLD, MAX_NOTES, MAX_NOTE_BYTES, MAX_READ_BYTES, READ_BATCH,
};
use crate::policy::filter::is_empty_answer;
use crate::policy::scope::FolderScope;
use crate::search::related::titles_like;
use crate::search::text::Analyzer;
use crate::search::TitleMatch;
use crate::settings::Settings;

/// Notes listed by the CLI, limited to the read scope.
pub(crate) struct Listed {
    pub paths: Vec<String>,
    /// Listed notes outside the folders the agent may read.
    pub withheld: usize,
    /// More notes than [`MAX_NOTES`] were listed; the rest were left out.
    pub truncated: bool,
}

/// How reading the notes through the vault went.
pub(crate) struct Read {
    /// Notes read.
    pub notes: usize,
    /// Notes that could not be read (gone, or longer than [`MAX_NOTE_BYTES`]).
    pub unread: Vec<String>,
    /// [`MAX_READ_BYTES`] was reached; the remaining notes were not read.
    pub truncated: bool,
}

impl<H: Host> Engine<H> {
    /// Runs one hygiene check to its report.
    pub(crate) async fn run_hygiene(
        &self,
        request: &HygieneRequest,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        match request {
            HygieneRequest::Duplicates {
                folder,
                threshold,
                budget,
                page,
            } => {
                let listed = self.list_notes(folder.as_deref(), settings).await?;
                let found = find_duplicates(&listed.paths, *threshold, *budget);
                let mut text = format!(
                    "Duplicate titles among {} notes{}. Source: titles from the CLI's `files ext=md` listing; no note was read.\n",
                    listed.paths.len(),
                    in_folder_text(folder)
                );
                text.push_str(&format!(
                    "\nSame title after ignoring case, accents and punctuation: {} group{}\n",
                    found.exact.len(),
                    plural(found.exact.len())
                ));
                for group in page.of(&found.exact) {
                    text.push_str(&format!(
                        "- \"{}\": {}\n",
                        title_of(&group[0]),
                        group.join(" | ")
                    ));
                }
                page_line(&mut text, page, found.exact.len(), "groups");
                text.push_str(&format!(
                    "\nSimilar titles (normalized Levenshtein similarity at least {threshold:.2}; titles that differ only in digits, like dated notes, are not counted): {} pair{}\n",
                    found.similar.len(),
                    plural(found.similar.len())
                ));
                for pair in page.of(&found.similar) {
                    text.push_str(&format!("- {:.2}: {} ~ {}\n", pair.score, pair.a, pair.b));
                }
                page_line(&mut text, page, found.similar.len(), "pairs");
                text.push_str(&format!(
                    "\nCompared {} pairs of {} distinct titles (budget {budget}).",
                    found.comparisons, found.titles
                ));
                if found.truncated {
                    text.push_str(" truncated: the budget ran out before every likely pair was compared, so more similar titles may exist; give a larger `maxComparisons` or a `folder`.");
                }
                Ok(finish(text, found.truncated || listed.truncated, &listed))
            }
            HygieneRequest::Empty { folder, page } => {
                let listed = self.list_notes(folder.as_deref(), settings).await?;
                // Each batch's text is dropped once it is checked: the check
                // holds one batch and the paths it found, never the vault.
                let mut no_text = Vec::new();
                let mut only_properties = Vec::new();
                let read = self
                    .read_each(&listed.paths, |path, note| {
                        if note.trim().is_empty() {
                            no_text.push(path.to_string());
                        } else if body(note).trim().is_empty() {
                            only_properties.push(path.to_string());
                        }
                        true
                    })
                    .await;
                let found = no_text.len() + only_properties.len();
                let mut text = format!(
                    "Empty notes among {} notes{}: {found}. Source: the CLI's `files ext=md` listing, then each note's text through Obsidian's vault (cachedRead, {} notes a batch).\n",
                    listed.paths.len(),
                    in_folder_text(folder),
                    READ_BATCH
                );
                // One list, page by page: the notes with no text, then those
                // with only properties.
                let first_with_properties = no_text.len();
                let all: Vec<String> = no_text.into_iter().chain(only_properties).collect();
                let start = page.offset.min(all.len());
                let mut heading = None;
                for (i, path) in page.of(&all).iter().enumerate() {
                    let (label, count) = if start + i < first_with_properties {
                        ("No text at all", first_with_properties)
                    } else {
                        ("Only properties, no text", found - first_with_properties)
                    };
                    if heading != Some(label) {
                        text.push_str(&format!("\n{label} ({count}):\n"));
                        heading = Some(label);
                    }
                    text.push_str(&format!("- {path}\n"));
                }
                page_line(&mut text, page, found, "empty notes");
                unread_and_cut(&mut text, &read);
                Ok(finish(text, read.truncated || listed.truncated, &listed))
            }
            HygieneRequest::Missing { page } => self.missing_links(page, settings).await,
            HygieneRequest::Suggest {
                note,
                topic,
                folder,
                limit,
            } => {
                self.suggest_links(note.as_ref(), topic.as_deref(), folder, *limit, settings)
                    .await
            }
        }
    }

    /// `unresolved verbose`, grouped by the missing note, sources limited to
    /// the read scope.
    async fn missing_links(
        &self,
        page: &Page,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let output = self
            .read_text(&CliInvocation::new("unresolved").flag("verbose"), settings)
            .await?;
        let scope = FolderScope::read(settings, self.host().platform().os());
        let config_dir = self.host().platform().config_dir().to_string();
        let mut links: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut withheld = 0;
        let lines = match is_empty_answer("unresolved", &output) {
            true => "",
            false => output.as_str(),
        };
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            // `link<TAB>source`, nothing trimmed: a folder may be named
            // ` Projects`. While reading is limited, a second tab leaves open
            // where the link ends and the path begins (either may hold one),
            // so that line is withheld.
            let source = match line.split('\t').collect::<Vec<_>>()[..] {
                [link, source] => Some((link, source)),
                _ if scope.is_whole_vault() => line.split_once('\t'),
                _ => None,
            };
            let Some((link, source)) = source.filter(|(_, s)| scope.contains(s)) else {
                withheld += 1;
                continue;
            };
            if in_config_dir(source, &config_dir) {
                withheld += 1;
                continue;
            }
            let sources = links.entry(link.trim().to_string()).or_default();
            if !sources.iter().any(|s| s == source) {
                sources.push(source.to_string());
            }
        }
        let mut ranked: Vec<(String, Vec<String>)> = links.into_iter().collect();
        ranked.sort_by(|a, b| {
            b.1.len()
                .cmp(&a.1.len())
                .then_with(|| a.0.to_lowercase().cmp(&b.0.to_lowercase()))
        });
        let mut text = format!(
            "Links to missing notes: {} missing note{}, linked {} times in all. Source: the CLI's `unresolved verbose` (`link<TAB>source`); no note was read.\n",
            ranked.len(),
            plural(ranked.len()),
            ranked.iter().map(|(_, s)| s.len()).sum::<usize>()
        );
        for (link, sources) in page.of(&ranked) {
            let shown: Vec<&str> = sources.iter().take(10).map(String::as_str).collect();
            let rest = sources.len().saturating_sub(shown.len());
            text.push_str(&format!(
                "- [[{link}]] ← {}{} ({} note{})\n",
                shown.join(", "),
                if rest > 0 {
                    format!(" and {rest} more")
                } else {
                    String::new()
                },
                sources.len(),
                plural(sources.len())
            ));
        }
        page_line(&mut text, page, ranked.len(), "missing notes");
        let mut result = ToolResult::success(text.trim_end().to_string());
        if withheld > 0 {
            result.withheld = Some(withheld);
        }
        Ok(result)
    }

    /// The Markdown notes the CLI lists (in `folder`, or the whole vault),
    /// only those the agent may read.
    pub(crate) async fn list_notes(
        &self,
        folder: Option<&str>,
        settings: &Settings,
    ) -> Result<Listed, ToolError> {
        let mut listing = CliInvocation::new("files");
        if let Some(folder) = folder {
            listing = listing.parameter("folder", folder);
        }
        let output = self
            .read_text(&listing.parameter("ext", "md"), settings)
            .await?;
        let scope = FolderScope::read(settings, self.host().platform().os());
        let config_dir = self.host().platform().config_dir().to_string();
        let mut listed = Listed {
            paths: Vec::new(),
            withheld: 0,
            truncated: false,
        };
        for path in output.lines() {
            // The whole line, untrimmed: ` Projects/x.md` is not in `Projects`.
            if !path.ends_with(".md") {
                continue;
            }
            if !scope.contains(path) || in_config_dir(path, &config_dir) {
                listed.withheld += 1;
                continue;
            }
            if listed.paths.len() == MAX_NOTES {
                listed.truncated = true;
                break;
            }
            listed.paths.push(path.to_string());
        }
        Ok(listed)
    }

    /// The notes' text through the vault, [`READ_BATCH`] at a time, each
    /// note handed to `visit` and dropped after it; `visit` answers false to
    /// stop (the rest are left unread and `truncated` says so). What is
    /// held at once is one batch.
    pub(crate) async fn read_each(
        &self,
        paths: &[String],
        mut visit: impl FnMut(&str, &str) -> bool,
    ) -> Read {
        let mut read = Read {
            notes: 0,
            unread: Vec::new(),
            truncated: false,
        };
        for batch in paths.chunks(READ_BATCH) {
            let texts = self.host().vault_read_many(batch, MAX_NOTE_BYTES).await;
            for (i, path) in batch.iter().enumerate() {
                match texts.get(i).and_then(Option::as_deref) {
                    Some(text) if text.len() <= MAX_NOTE_BYTES => {
                        read.notes += 1;
                        if !visit(path, text) {
                            read.truncated = true;
                            return read;
                        }
                    }
                    _ => read.unread.push(path.clone()),
                }
            }
        }
        read
    }

    /// The notes' text kept whole, until [`MAX_READ_BYTES`] of it.
    pub(crate) async fn read_notes(&self, paths: &[String]) -> (Vec<(String, String)>, Read) {
        let mut notes = Vec::with_capacity(paths.len());
        let mut bytes = 0usize;
        let read = self
            .read_each(paths, |path, text| {
                bytes += text.len();
                notes.push((path.to_string(), text.to_string()));
                bytes < MAX_READ_BYTES
            })
            .await;
        (notes, read)
    }

    /// Backlink suggestions, ranked by the search's index (its words and
    /// weights, `hygiene::suggest`); only the candidates it picks are read.
    /// An index never built is built first; one being built is waited for
    /// (the report is the user's or the model's question about the whole
    /// vault, and the build reads each note once, as this check used to).
    async fn suggest_links(
        &self,
        note: Option<&crate::base::call::NoteLocator>,
        topic: Option<&str>,
        folder: &Option<String>,
        limit: usize,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let (subject_path, subject_text) = match note {
            Some(locate) => {
                let path = self.resolve_note(locate, settings).await?;
                let text = self.read_exact(&path).await?;
                (Some(path), text)
            }
            None => (None, String::new()),
        };
        let subject = match (&subject_path, topic) {
            (Some(path), _) => Subject::Note {
                path,
                text: &subject_text,
            },
            (None, Some(topic)) => Subject::Topic(topic),
            (None, None) => {
                return Err(ToolError::invalid(
                    "obsidianHygiene",
                    "suggest: give `path` or `file` (a note) or `topic` (words)",
                ))
            }
        };
        let building = self.settled_search_index().await;
        let scope = FolderScope::read(settings, self.host().platform().os());
        let in_folder = |path: &str| {
            folder.as_deref().is_none_or(|f| {
                let f = f.trim_end_matches('/');
                path.strip_prefix(f)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
        };
        let visible = |path: &str| in_folder(path) && scope.contains(path);
        let (picked, considered, withheld) = {
            let state = self.search.borrow();
            let Some(index) = state.index() else {
                return Err(ToolError::invalid(
                    "obsidianHygiene",
                    "suggest: the search index is not available; try again once the vault has loaded",
                ));
            };
            let picked = candidates(&subject, index, &visible);
            let own = subject_path.as_deref();
            let considered = index
                .paths()
                .filter(|p| visible(p) && Some(*p) != own)
                .count();
            let withheld = index
                .paths()
                .filter(|p| in_folder(p) && !scope.contains(p))
                .count();
            (picked, considered, withheld)
        };
        let paths: Vec<String> = picked.iter().map(|r| r.path.clone()).collect();
        let (notes, read) = self.read_notes(&paths).await;
        let found = {
            let state = self.search.borrow();
            let index = state.index().expect("checked above");
            suggest(&subject, index, &picked, &notes, limit)
        };
        let about = match &subject {
            Subject::Note { path, .. } => format!("notes that could link to \"{path}\""),
            Subject::Topic(topic) => format!("notes about \"{topic}\""),
        };
        let mut text = format!(
            "Backlink suggestions: {about}, from {considered} notes{}: {} (at most {limit}). Ranked by the title mentioned in the text, shared tags, links to the same notes and rare shared words (stemmed and folded as the ranked search has them; CJK by character bigrams); notes that already link to it are left out. Source: the ranked search's index, then the text of the {} notes it picked through Obsidian's vault (cachedRead).\n",
            in_folder_text(folder),
            found.len(),
            read.notes
        );
        for (rank, s) in found.iter().enumerate() {
            text.push_str(&format!(
                "{}. {} (score {}): {}\n",
                rank + 1,
                s.path,
                s.score,
                s.why.join("; ")
            ));
        }
        unread_and_cut(&mut text, &read);
        if let Some((read, total)) = building {
            text.push_str(&format!(
                "\n[The search index is still being built: {read} of {total} notes read so far, so a note may be missing; run it again shortly.]\n"
            ));
        }
        let listed = Listed {
            paths: Vec::new(),
            withheld,
            truncated: false,
        };
        Ok(finish(text, read.truncated || building.is_some(), &listed))
    }

    /// Notes whose title is the same as or very similar to the new note's:
    /// the check before `create`, among the notes the agent may read. From
    /// the search's index once it is built; before that (the app starting,
    /// a build under way) from the CLI's listing, with the same likeness.
    /// Never waits for a build and is never an error: a listing that fails
    /// leaves no warning.
    pub(crate) async fn similar_titles(&self, title: &str, settings: &Settings) -> Vec<TitleMatch> {
        let scope = FolderScope::read(settings, self.host().platform().os());
        {
            if let Some(index) = self.search.borrow().ready_index() {
                return index.similar_titles(title, DEFAULT_THRESHOLD, 3, &|p| scope.contains(p));
            }
        }
        match self.list_notes(None, settings).await {
            Ok(listed) => titles_like(
                &Analyzer::new(
                    super::search::languages(
                        settings,
                        self.host().platform().app_language.as_deref(),
                    )
                    .0,
                ),
                title,
                listed.paths.iter().map(String::as_str),
                DEFAULT_THRESHOLD,
                3,
            ),
            Err(_) => Vec::new(),
        }
    }
}

/// The warning a `create` carries when such notes exist.
pub fn similar_title_warning(found: &[TitleMatch]) -> Option<String> {
    let first = found.first()?;
    let kind = if first.score >= 1.0 {
        "the same"
    } else {
        "a very similar"
    };
    let list: Vec<String> = found.iter().map(|p| format!("\"{}\"", p.path)).collect();
    Some(format!(
        "A note with {kind} title exists: {}. Consider adding to it (obsidianEdit `append`) instead of a new note; ask the user which they want.",
        list.join(", ")
    ))
}

fn finish(text: String, truncated: bool, listed: &Listed) -> ToolResult {
    let mut text = text.trim_end().to_string();
    if listed.truncated {
        text.push_str(&format!(
            "\ntruncated: only the first {MAX_NOTES} listed notes were checked; give a `folder`."
        ));
    }
    let mut result = ToolResult::success(text);
    if truncated {
        result.truncated = Some(true);
    }
    if listed.withheld > 0 {
        result.withheld = Some(listed.withheld);
    }
    result
}

fn unread_and_cut(text: &mut String, read: &Read) {
    if !read.unread.is_empty() {
        text.push_str(&format!(
            "\n{} note{} could not be read (gone, or longer than {} MiB) and {} not counted: {}\n",
            read.unread.len(),
            plural(read.unread.len()),
            MAX_NOTE_BYTES / (1024 * 1024),
            if read.unread.len() == 1 { "is" } else { "are" },
            read.unread
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if read.truncated {
        text.push_str(&format!(
            "\ntruncated: reading stopped after {} MiB of note text; {} notes were read. Give a `folder` to check the rest.\n",
            MAX_READ_BYTES / (1024 * 1024),
            read.notes
        ));
    }
}

fn in_folder_text(folder: &Option<String>) -> String {
    folder
        .as_ref()
        .map(|f| format!(" in \"{f}\""))
        .unwrap_or_default()
}

/// Where a report's page lies in its list and what to send for the next.
fn page_line(text: &mut String, page: &Page, total: usize, what: &str) {
    if let Some(note) = page.note(total, what) {
        text.push_str(&note);
        text.push('\n');
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
