//! Settings → Web: search and page reading through a provider the user
//! picks, off until the user turns it on. SearXNG at the user's own address
//! first (its JSON API), or Brave Search by key; the key lives in
//! Obsidian's secret storage like the model keys.

use serde::Serialize;

/// The web tool's id (`tools::web`), switched by `web.enabled`.
pub const WEB_TOOL: &str = "obsidianWeb";
/// Where a new SearXNG setting points: its usual local port.
pub const DEFAULT_SEARXNG_URL: &str = "http://localhost:8888";
/// Brave Search API's web search endpoint.
pub const BRAVE_SEARCH_URL: &str = "https://api.search.brave.com/res/v1/web/search";

/// Which search provider answers `search`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum WebProvider {
    /// The user's own SearXNG, by address (its `format=json` API).
    #[default]
    Searxng,
    /// Brave Search API, with the user's key.
    Brave,
}

impl WebProvider {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "searxng" => Some(WebProvider::Searxng),
            "brave" => Some(WebProvider::Brave),
            _ => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            WebProvider::Searxng => "SearXNG",
            WebProvider::Brave => "Brave Search",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WebSettings {
    /// Off by default: the web tool is neither offered nor run.
    pub enabled: bool,
    pub provider: WebProvider,
    /// SearXNG's base address (`/search` is added).
    pub searxng_url: String,
    /// The secret (Obsidian's secret storage) holding the Brave key; empty: none.
    pub api_key_secret: String,
}

impl Default for WebSettings {
    fn default() -> Self {
        WebSettings {
            enabled: false,
            provider: WebProvider::Searxng,
            searxng_url: DEFAULT_SEARXNG_URL.to_string(),
            api_key_secret: String::new(),
        }
    }
}
