//! `obsidianWeb` as the engine runs it: a search through the user's
//! provider, or a page read, each request through `http_open` (Local only
//! checked and the attempt logged before any socket), redirects followed
//! one hop at a time so every hop is checked again, the body cut at its
//! cap, no cookie sent or kept. A page's HTML becomes text in the host
//! (Obsidian's `htmlToMarkdown`).

use super::Engine;
use crate::base::error::ToolError;
use crate::base::host::Host;
use crate::base::result::{Ran, ToolResult};
use crate::base::text::cap;
use crate::search::web_api::{
    get, is_redirect, next_hop, page_kind, parse_results, results_text, search_request,
    search_status_problem, PageKind, MAX_PAGE_BYTES, MAX_PAGE_CHARS, MAX_REDIRECTS,
    MAX_SEARCH_BYTES,
};
use crate::settings::Settings;
use crate::tools::web::WebRequest;

/// A response read to its end or its cap, after every redirect.
struct Fetched {
    /// Where it came from in the end.
    url: String,
    status: u16,
    content_type: Option<String>,
    body: Vec<u8>,
    /// The body went on past the cap and was not read further.
    cut: bool,
}

impl<H: Host> Engine<H> {
    pub(super) async fn run_web(
        &self,
        request: &WebRequest,
        settings: &Settings,
    ) -> Result<ToolResult, ToolError> {
        let failed = |detail: String| ToolError::WebFailed { detail };
        let web = &settings.web;
        let words = |command: &str, value: &str| vec![command.to_string(), value.to_string()];
        match request {
            WebRequest::Search { query, count } => {
                let key = (!web.api_key_secret.is_empty())
                    .then(|| self.host().secret(&web.api_key_secret))
                    .flatten();
                let (url, headers) = search_request(web, key, query, *count).map_err(failed)?;
                let fetched = self
                    .web_get(&url, headers, "web search", MAX_SEARCH_BYTES, settings)
                    .await
                    .map_err(failed)?;
                if fetched.status != 200 {
                    let address = crate::settings::host_of(&url);
                    return Err(failed(search_status_problem(
                        web.provider,
                        fetched.status,
                        &address,
                    )));
                }
                let body = String::from_utf8_lossy(&fetched.body);
                let hits = parse_results(web.provider, &body, *count as usize).map_err(failed)?;
                Ok(
                    ToolResult::success(results_text(query, &hits)).ran_by(Ran::new(
                        "Web",
                        web.provider.label(),
                        words("search", query),
                    )),
                )
            }
            WebRequest::Read { url } => {
                let fetched = self
                    .web_get(url, Vec::new(), "web page", MAX_PAGE_BYTES, settings)
                    .await
                    .map_err(failed)?;
                if !(200..300).contains(&fetched.status) {
                    return Err(failed(format!(
                        "{} answered HTTP {}",
                        fetched.url, fetched.status
                    )));
                }
                let kind = page_kind(fetched.content_type.as_deref())
                    .map_err(|why| failed(format!("{} was not read: {why}", fetched.url)))?;
                let body = String::from_utf8_lossy(&fetched.body);
                let text = match kind {
                    PageKind::Html => self.host().page_text(&body, &fetched.url),
                    PageKind::Text => body.into_owned(),
                };
                Ok(
                    ToolResult::success(page_text_for_model(&fetched, &text)).ran_by(Ran::new(
                        "Web",
                        "the page's server",
                        words("read", &fetched.url),
                    )),
                )
            }
        }
    }

    /// GETs `url`, following at most `MAX_REDIRECTS` redirects, each hop
    /// through the network gate, and reads at most `max_bytes` of the body.
    async fn web_get(
        &self,
        url: &str,
        mut headers: Vec<(String, String)>,
        purpose: &str,
        max_bytes: usize,
        settings: &Settings,
    ) -> Result<Fetched, String> {
        let mut url = url.to_string();
        for _ in 0..=MAX_REDIRECTS {
            let request = get(url.clone(), headers.clone(), settings.process_tag.clone());
            let head = self
                .http_open(&request, purpose)
                .await
                .map_err(|failure| match failure.code.as_str() {
                    "LOCAL_ONLY" | "BAD_ADDRESS" => failure.message,
                    code => format!("{url} could not be reached ({code}: {})", failure.message),
                })?;
            if is_redirect(head.status) {
                self.host().http_close(head.id);
                let next = next_hop(&url, head.location.as_deref())?;
                // A provider's key is for the provider, never for a hop elsewhere.
                if label(&next) != label(&url) {
                    headers.retain(|(name, _)| name.eq_ignore_ascii_case("accept"));
                }
                url = next;
                continue;
            }
            let mut body = Vec::new();
            let mut cut = false;
            loop {
                match self.host().http_read(head.id).await {
                    Ok(Some(chunk)) => {
                        body.extend_from_slice(&chunk);
                        if body.len() > max_bytes {
                            body.truncate(max_bytes);
                            cut = true;
                            self.host().http_close(head.id);
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(failure) => {
                        self.host().http_close(head.id);
                        return Err(format!(
                            "{url} stopped answering ({}: {})",
                            failure.code, failure.message
                        ));
                    }
                }
            }
            return Ok(Fetched {
                url,
                status: head.status,
                content_type: head.content_type,
                body,
                cut,
            });
        }
        Err(format!(
            "{url} redirected more than {MAX_REDIRECTS} times, so it was not read"
        ))
    }
}

/// `host:port` of an address, as the connection log names it.
fn label(url: &str) -> Option<String> {
    crate::base::address::destination(url)
        .ok()
        .map(|d| d.label())
}

/// A page's text as the tool answers it: where it came from, then the
/// text, cut at `MAX_PAGE_CHARS` with the cut said.
fn page_text_for_model(fetched: &Fetched, text: &str) -> String {
    let text = text.trim();
    let (kept, left) = cap(text, MAX_PAGE_CHARS);
    let mut out = format!("Page: {}\n\n{kept}", fetched.url);
    if left > 0 || fetched.cut {
        out.push_str(&format!(
            "\n\n[The page was longer: only its first part was read ({} of text). Cite what it says with its link; do not guess the rest.]",
            crate::base::text::human_bytes(kept.len() as u64)
        ));
    }
    if kept.trim().is_empty() {
        out.push_str(
            "\n\n[The page has no readable text (it may need JavaScript to show anything).]",
        );
    }
    out
}
