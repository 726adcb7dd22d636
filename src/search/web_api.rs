//! The web search providers' protocols, and what a page's answer may be:
//! SearXNG's JSON API (`/search?q=…&format=json`, which the user enables in
//! its settings.yml) and Brave Search API's web search; redirects resolved
//! one hop at a time (the engine holds every hop to Local only). Pure: the
//! engine sends the requests and hands back the answers.

use serde_json::Value;
use url::Url;

use crate::base::host::HttpRequest;
use crate::base::text::clipped;
use crate::settings::web::{WebProvider, WebSettings, BRAVE_SEARCH_URL};

/// Every request's wait for its answer to start, and the longest silence
/// in its body: a page that takes longer is not worth the turn.
pub const WEB_TIMEOUT_MS: u32 = 15_000;
/// Redirects followed before a read gives up.
pub const MAX_REDIRECTS: usize = 5;
/// The most bytes of a page read; the rest is never downloaded.
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;
/// The most bytes of a provider's answer read.
pub const MAX_SEARCH_BYTES: usize = 1024 * 1024;
/// The most characters of a page's text handed on (the chat caps again).
pub const MAX_PAGE_CHARS: usize = 40_000;
/// Results a search asks for unless the model says otherwise, and the most.
pub const DEFAULT_RESULTS: u32 = 5;
pub const MAX_RESULTS: u32 = 10;
/// The longest query sent.
pub const MAX_QUERY_CHARS: usize = 400;
/// The longest snippet kept of a result.
const MAX_SNIPPET_CHARS: usize = 300;

/// One search result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebHit {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

/// A GET of `url` with `headers`: no body, no cookies (none are ever sent
/// or kept), the waits above.
pub fn get(url: String, headers: Vec<(String, String)>, tag: Option<String>) -> HttpRequest {
    HttpRequest {
        method: "GET".into(),
        url,
        headers,
        body: None,
        timeout_ms: WEB_TIMEOUT_MS,
        first_byte_timeout_ms: WEB_TIMEOUT_MS,
        idle_timeout_ms: WEB_TIMEOUT_MS,
        connect_address: None,
        expected_host: String::new(),
        tag,
    }
}

/// The provider's request for `query`, or why there is none (no key).
pub fn search_request(
    web: &WebSettings,
    key: Option<String>,
    query: &str,
    count: u32,
) -> Result<(String, Vec<(String, String)>), String> {
    let query: String = url::form_urlencoded::byte_serialize(query.as_bytes()).collect();
    let accept = ("Accept".to_string(), "application/json".to_string());
    match web.provider {
        WebProvider::Searxng => Ok((
            format!(
                "{}/search?q={query}&format=json",
                web.searxng_url.trim_end_matches('/')
            ),
            vec![accept],
        )),
        WebProvider::Brave => {
            let key = key.filter(|k| !k.trim().is_empty()).ok_or(
                "Brave Search needs an API key: set it in Settings → Vault Agent → Web → Brave Search API key (Brave's free plan gives one at api-dashboard.search.brave.com)",
            )?;
            Ok((
                format!("{BRAVE_SEARCH_URL}?q={query}&count={count}"),
                vec![accept, ("X-Subscription-Token".into(), key)],
            ))
        }
    }
}

/// Why a provider's answer with `status` is not results, with the fix.
pub fn search_status_problem(provider: WebProvider, status: u16, address: &str) -> String {
    match (provider, status) {
        (WebProvider::Searxng, 403) => format!(
            "SearXNG at {address} answered 403 Forbidden: its JSON API is off. Add `json` to `search.formats` in SearXNG's settings.yml (formats: [html, json]) and restart it"
        ),
        (WebProvider::Searxng, 404) => format!(
            "{address} answered 404 to /search: it is not a SearXNG address. Set SearXNG's own address in Settings → Vault Agent → Web"
        ),
        (WebProvider::Brave, 401 | 403 | 422) => format!(
            "Brave Search refused the API key (HTTP {status}). Check the key in Settings → Vault Agent → Web"
        ),
        (_, 429) => format!(
            "{} answered 429: too many searches for now (a plan's limit or a rate limit). Wait a minute, then search again",
            provider.label()
        ),
        _ => format!("{} answered HTTP {status}", provider.label()),
    }
}

/// The results in a provider's JSON answer, at most `count`.
pub fn parse_results(
    provider: WebProvider,
    body: &str,
    count: usize,
) -> Result<Vec<WebHit>, String> {
    let value: Value = serde_json::from_str(body).map_err(|error| {
        format!(
            "{} answered with something that is not its JSON ({error}); check the address",
            provider.label()
        )
    })?;
    let items = match provider {
        WebProvider::Searxng => value.get("results"),
        WebProvider::Brave => value.get("web").and_then(|web| web.get("results")),
    };
    let Some(items) = items else {
        // Brave answers a query without web results with no `web` at all.
        return match provider {
            WebProvider::Brave if value.get("type").is_some() => Ok(Vec::new()),
            _ => Err(format!(
                "{}'s answer has no results list; check the address",
                provider.label()
            )),
        };
    };
    let text = |item: &Value, key: &str| {
        item.get(key)
            .and_then(Value::as_str)
            .map(plain_text)
            .unwrap_or_default()
    };
    let mut hits = Vec::new();
    for item in items.as_array().into_iter().flatten() {
        let url = text(item, "url");
        // Only links a reader can follow: a provider's odd entries are dropped.
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            continue;
        }
        let snippet = match provider {
            WebProvider::Searxng => text(item, "content"),
            WebProvider::Brave => text(item, "description"),
        };
        hits.push(WebHit {
            title: clipped(&text(item, "title"), 200),
            url,
            snippet: clipped(&snippet, MAX_SNIPPET_CHARS),
        });
        if hits.len() == count {
            break;
        }
    }
    Ok(hits)
}

/// The results as the model reads them: numbered, each a Markdown link
/// with its snippet, ready to cite.
pub fn results_text(query: &str, hits: &[WebHit]) -> String {
    if hits.is_empty() {
        return format!("No web results for {query:?}. Try other words.");
    }
    let mut text = format!("Web results for {query:?}:\n");
    for (n, hit) in hits.iter().enumerate() {
        let title = match hit.title.is_empty() {
            true => hit.url.as_str(),
            false => hit.title.as_str(),
        };
        text.push_str(&format!(
            "{}. [{}]({})\n",
            n + 1,
            title.replace(['[', ']'], ""),
            hit.url.replace(' ', "%20").replace(')', "%29")
        ));
        if !hit.snippet.is_empty() {
            text.push_str(&format!("   {}\n", hit.snippet));
        }
    }
    text
}

/// Whether `status` sends the reader elsewhere.
pub fn is_redirect(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// Where a redirect from `current` to `location` leads, as an http(s)
/// address, or why it is not followed.
pub fn next_hop(current: &str, location: Option<&str>) -> Result<String, String> {
    let location = location
        .filter(|l| !l.trim().is_empty())
        .ok_or_else(|| format!("{} redirected without saying where", clipped(current, 120)))?;
    let base = Url::parse(current).map_err(|e| format!("{current:?}: {e}"))?;
    let next = base.join(location.trim()).map_err(|e| {
        format!(
            "the redirect to {:?} is not an address ({e})",
            clipped(location, 120)
        )
    })?;
    if !matches!(next.scheme(), "http" | "https") {
        return Err(format!(
            "the page redirected to a {}: address, which is not read",
            next.scheme()
        ));
    }
    Ok(next.into())
}

/// What a page's `Content-Type` is, as the reader treats it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    /// Turned into readable text by the host (Obsidian's `htmlToMarkdown`).
    Html,
    /// Text as it is (plain text, Markdown, JSON, XML feeds).
    Text,
}

/// How a page of `content_type` is read, or why it is not.
pub fn page_kind(content_type: Option<&str>) -> Result<PageKind, String> {
    let mime = content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match mime.as_str() {
        // A server that names no type mostly serves HTML.
        "" | "text/html" | "application/xhtml+xml" => Ok(PageKind::Html),
        "application/json" | "application/xml" | "application/rss+xml" | "application/atom+xml" => {
            Ok(PageKind::Text)
        }
        other if other.starts_with("text/") || other.ends_with("+json") => Ok(PageKind::Text),
        other => Err(format!(
            "it is {other}, not a page of text; only HTML and text pages are read"
        )),
    }
}

/// A snippet or title as plain text: Brave marks the query's words with
/// `<strong>`, and both providers may carry entities.
pub fn plain_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(if c.is_control() { ' ' } else { c }),
            _ => {}
        }
    }
    let out = out
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn searxng(address: &str) -> WebSettings {
        WebSettings {
            enabled: true,
            searxng_url: address.into(),
            ..WebSettings::default()
        }
    }

    #[test]
    fn searxng_is_asked_for_json_at_the_users_address() {
        let (url, headers) =
            search_request(&searxng("http://nas.lan:8888/"), None, "rust & wasm?", 5).unwrap();
        assert_eq!(
            url,
            "http://nas.lan:8888/search?q=rust+%26+wasm%3F&format=json"
        );
        assert!(headers.iter().all(|(name, _)| name != "Cookie"));
    }

    #[test]
    fn brave_needs_its_key_and_sends_it_in_its_header() {
        let brave = WebSettings {
            provider: WebProvider::Brave,
            ..searxng("http://unused")
        };
        let why = search_request(&brave, None, "x", 5).unwrap_err();
        assert!(why.contains("Settings → Vault Agent → Web"), "{why}");
        let (url, headers) = search_request(&brave, Some("k1".into()), "obsidian", 3).unwrap();
        assert_eq!(url, format!("{BRAVE_SEARCH_URL}?q=obsidian&count=3"));
        assert!(headers.contains(&("X-Subscription-Token".into(), "k1".into())));
    }

    #[test]
    fn a_403_from_searxng_says_how_to_turn_its_json_on() {
        let why = search_status_problem(WebProvider::Searxng, 403, "localhost:8888");
        assert!(why.contains("search.formats"), "{why}");
        assert!(why.contains("settings.yml"), "{why}");
        let key = search_status_problem(WebProvider::Brave, 401, "api.search.brave.com");
        assert!(key.contains("API key"), "{key}");
    }

    #[test]
    fn results_of_each_provider_become_links_with_snippets() {
        let body = r#"{"query":"q","results":[
            {"title":"Obsidian","url":"https://obsidian.md/","content":"A <b>second</b> brain &amp; more"},
            {"title":"Bad","url":"javascript:alert(1)","content":"x"},
            {"title":"Help","url":"https://help.obsidian.md/","content":""}]}"#;
        let hits = parse_results(WebProvider::Searxng, body, 5).unwrap();
        assert_eq!(hits.len(), 2, "the javascript: link is dropped");
        assert_eq!(hits[0].snippet, "A second brain & more");
        let text = results_text("q", &hits);
        assert!(
            text.contains("1. [Obsidian](https://obsidian.md/)\n   A second brain & more\n"),
            "{text}"
        );
        assert!(
            text.contains("2. [Help](https://help.obsidian.md/)\n"),
            "{text}"
        );
        let brave = r#"{"type":"search","web":{"results":[
            {"title":"Rust","url":"https://rust-lang.org/","description":"A <strong>language</strong> empowering everyone"}]}}"#;
        let hits = parse_results(WebProvider::Brave, brave, 5).unwrap();
        assert_eq!(hits[0].snippet, "A language empowering everyone");
        assert_eq!(
            parse_results(WebProvider::Brave, r#"{"type":"search"}"#, 5),
            Ok(vec![])
        );
        assert!(parse_results(WebProvider::Searxng, "<html>", 5).is_err());
        assert!(parse_results(WebProvider::Searxng, "{}", 5).is_err());
        let many = format!(
            r#"{{"results":[{}]}}"#,
            vec![r#"{"title":"t","url":"https://a.example/"}"#; 20].join(",")
        );
        assert_eq!(
            parse_results(WebProvider::Searxng, &many, 3).unwrap().len(),
            3
        );
    }

    #[test]
    fn a_redirect_is_resolved_against_the_page_and_only_to_http() {
        assert_eq!(
            next_hop("http://127.0.0.1:9/a/b", Some("/c?d=1")),
            Ok("http://127.0.0.1:9/c?d=1".into())
        );
        assert_eq!(
            next_hop("http://127.0.0.1:9/a/", Some("https://example.com/x")),
            Ok("https://example.com/x".into())
        );
        assert!(next_hop("http://127.0.0.1:9/", Some("file:///etc/passwd")).is_err());
        assert!(next_hop("http://127.0.0.1:9/", None).is_err());
        assert!(is_redirect(302) && is_redirect(308) && !is_redirect(304) && !is_redirect(200));
    }

    #[test]
    fn html_and_text_pages_are_read_and_other_kinds_refused() {
        assert_eq!(
            page_kind(Some("text/html; charset=utf-8")),
            Ok(PageKind::Html)
        );
        assert_eq!(page_kind(None), Ok(PageKind::Html));
        assert_eq!(page_kind(Some("text/plain")), Ok(PageKind::Text));
        assert_eq!(page_kind(Some("application/ld+json")), Ok(PageKind::Text));
        let why = page_kind(Some("application/pdf")).unwrap_err();
        assert!(why.contains("application/pdf"), "{why}");
        assert!(page_kind(Some("image/png")).is_err());
    }
}
