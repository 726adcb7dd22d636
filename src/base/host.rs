//! The `Host` trait: every contact the core has with the outside world.
//!
//! The core decides; the host acts. In Obsidian the host is the TypeScript shim
//! (`child_process.spawn` without a shell, `fs`, `Date.now`, Obsidian's `Platform`), reached
//! through `src/wasm/`. In native tests it is a fake (see `crate::testing`).

use serde::{Deserialize, Serialize};

/// The operating system the plugin runs on, as Obsidian's `Platform` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Os {
    Macos,
    Windows,
    Linux,
    /// Anything Obsidian's `Platform` does not flag (should not happen on desktop).
    Other,
}

/// Facts about the running app that do not change while the plugin is loaded.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct PlatformFacts {
    pub os: Option<Os>,
    /// `Platform.isDesktopApp`: the CLI tools exist only there.
    pub is_desktop_app: bool,
    /// Electron's `process.resourcesPath` (the app's `resources` folder).
    pub resources_path: Option<String>,
    /// Electron's `process.execPath` (the app's own executable).
    pub exec_path: Option<String>,
    /// Absolute path of the open vault's folder (working directory for the CLI).
    pub vault_path: Option<String>,
    /// The user's home folder.
    pub home_dir: Option<String>,
    /// The vault's configuration folder, `app.vault.configDir` (usually
    /// `.obsidian`): never the target of a change.
    pub config_dir: Option<String>,
    /// Obsidian's app language, as `getLanguage()` gives it (`en`, `de`,
    /// `zh-TW` …): the language a note is read in unless its text or its
    /// `lang` property plainly says another.
    pub app_language: Option<String>,
}

impl PlatformFacts {
    pub fn os(&self) -> Os {
        self.os.unwrap_or(Os::Other)
    }

    pub fn config_dir(&self) -> &str {
        self.config_dir
            .as_deref()
            .filter(|d| !d.trim().is_empty())
            .unwrap_or(".obsidian")
    }
}

/// Where and when the user is, for the system prompt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LocalContext {
    /// The user's local date and time, e.g. "Monday, 30 November 2026, 15:25".
    pub date_time: String,
    /// The same day as `YYYY-MM-DD`, what a saved prompt's `{{date}}` is.
    pub date: String,
    /// The time zone, e.g. "Central European Standard Time (UTC+01:00)".
    pub time_zone: String,
    /// The vault path of the note open in Obsidian, if any.
    pub open_note: Option<String>,
}

/// How the host stops a process and everything it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ProcessTree {
    /// POSIX: the program leads its own process group, and signals go to
    /// the whole group (SIGTERM, then SIGKILL after the grace).
    #[default]
    ProcessGroup,
    /// Windows: `taskkill /T /F` ends the program and its descendants.
    Taskkill,
}

impl ProcessTree {
    pub fn for_os(os: Os) -> Self {
        if os == Os::Windows {
            ProcessTree::Taskkill
        } else {
            ProcessTree::ProcessGroup
        }
    }
}

/// One program to run, without a shell. Built only by `crate::cli`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProcessRequest {
    pub program: String,
    pub args: Vec<String>,
    pub cwd: Option<String>,
    /// After this the host sends SIGTERM, then SIGKILL after `kill_grace_ms`.
    pub timeout_ms: u32,
    pub kill_grace_ms: u32,
    /// The host keeps at most this many bytes of each stream but counts them all.
    pub max_output_bytes: u32,
    /// How to stop it with its descendants at the timeout or on Stop.
    #[serde(default)]
    pub tree: ProcessTree,
    /// The door's tag for the call that started it (`Host::cancel_processes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub tag: Option<String>,
}

/// Why a process could not be started at all.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpawnFailure {
    /// The system error code, such as `ENOENT` or `EACCES`.
    pub code: String,
    pub message: String,
}

/// What happened to a `ProcessRequest`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProcessOutcome {
    pub spawn_failure: Option<SpawnFailure>,
    pub exit_code: Option<i32>,
    /// The signal that ended the process, such as `SIGKILL`.
    pub signal: Option<String>,
    /// The host killed the process because `timeout_ms` passed.
    pub timed_out: bool,
    /// At most `max_output_bytes` of standard output.
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// How many bytes the process wrote in all, kept or not.
    pub stdout_total_bytes: u64,
    pub stderr_total_bytes: u64,
    /// The output went so far past the cap that the host stopped the process;
    /// the totals are then lower bounds.
    pub output_overflow: bool,
}

/// What the host knows about a path without opening it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct FileStatus {
    pub exists: bool,
    pub is_file: bool,
    pub executable: bool,
}

/// One HTTP request to a model server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "HttpRequestSpec"))]
#[serde(rename_all = "camelCase")]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// Until the response starts (the stream itself may run longer).
    pub timeout_ms: u32,
    /// Once the headers came: the longest wait for the first piece of the
    /// body (0: `idle_timeout_ms`). A model on a CPU sends its headers, then
    /// nothing while it reads the prompt.
    #[serde(default)]
    pub first_byte_timeout_ms: u32,
    /// Once it has started: the longest silence between two pieces of the
    /// body before the host ends it with `STALLED` (0: no limit).
    #[serde(default)]
    pub idle_timeout_ms: u32,
    /// The address to connect to instead of looking the host up again: the
    /// one Local only checked (`policy::network`). The URL's host still
    /// names the server (TLS, the Host header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_address: Option<String>,
    /// The host the core read from `url` (`Engine::http_open` sets it): the
    /// host refuses to connect when its own reading of `url` names another.
    #[serde(default)]
    pub expected_host: String,
    /// The chat's conversation the request answers, so Stop in one chat
    /// view ends its own request and no other (`abortHttp(tag)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub tag: Option<String>,
}

/// An HTTP response whose body is read chunk by chunk with `http_read`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpResponseHead {
    /// Handle for `http_read` / `http_close`.
    pub id: u32,
    pub status: u16,
    /// The `Content-Type` header, if any (a server may answer a streamed
    /// request with one JSON body).
    #[serde(default)]
    pub content_type: Option<String>,
    /// The `Retry-After` header of a 429 or 503, if any.
    #[serde(default)]
    pub retry_after: Option<String>,
    /// The address the socket connected to, for the connection log.
    #[serde(default)]
    pub remote_address: Option<String>,
    /// The `Location` header of a redirect, which the core follows itself
    /// (each hop held to Local only); the host never follows one.
    #[serde(default)]
    pub location: Option<String>,
}

/// Why an HTTP exchange failed before or while the body arrived.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct HttpFailure {
    /// `ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, `ABORTED` (the user pressed
    /// Stop), `STALLED` (nothing arrived for `idle_timeout_ms`), `CERT_…`, or
    /// another system code.
    pub code: String,
    pub message: String,
}

/// Why the vault could not read or change a note.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VaultFailure {
    /// `not_found`, `not_a_file`, or the error the app reported.
    pub code: String,
    pub message: String,
}

/// An image as the host hands it over for one model request: its MIME type
/// and its bytes in base64.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ImageData {
    pub mime: String,
    pub base64: String,
}

/// Pages of a PDF as the host read them (`Host::pdf_text`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdfText {
    /// How many pages the PDF has.
    pub total: usize,
    /// The text of the pages asked for, from the first of them.
    pub pages: Vec<String>,
}

/// The image files a message can carry, by extension, with their MIME type
/// (what both providers accept).
pub const IMAGE_TYPES: [(&str, &str); 5] = [
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
];

/// The most images one message carries.
pub const MAX_IMAGES_PER_MESSAGE: usize = 5;
/// How large an image may be sent: its longest side in pixels and its size
/// in bytes (before base64). The host scales an image down to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageLimits {
    pub max_side: u32,
    pub max_bytes: usize,
}

/// Anthropic scales anything over 1 568 pixels down itself and refuses an
/// image over 5 MB of base64 (3.75 MB of bytes).
pub const ANTHROPIC_IMAGE_LIMITS: ImageLimits = ImageLimits {
    max_side: 1_568,
    max_bytes: 3_750_000,
};
/// OpenAI scales to 2 048 pixels and takes up to 20 MB; Ollama and LM
/// Studio take what OpenAI takes, and a smaller image costs them less time.
pub const OPENAI_IMAGE_LIMITS: ImageLimits = ImageLimits {
    max_side: 2_048,
    max_bytes: 20 * 1024 * 1024,
};

/// The vault's Markdown notes as Obsidian lists them
/// (`app.vault.getMarkdownFiles()`), and the user's Settings → Files and
/// links → Excluded files (`userIgnoreFilters`), for the ranked search's index.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct VaultNotes {
    pub paths: Vec<String>,
    pub excluded: Vec<String>,
}

/// A symbolic link under the vault's folder, as the host found it on disk.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default)]
pub struct VaultLink {
    /// Its path from the vault's top folder, with `/`.
    pub path: String,
    /// Where it leads, every link followed (absolute); `None` when nothing
    /// is there.
    #[cfg_attr(test, ts(optional))]
    pub real: Option<String>,
}

/// What `vault_process` did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum VaultProcessed {
    /// The note held exactly the expected text and now holds the new text.
    Written,
    /// The note held something else; it was left as it is.
    Changed { now: String },
}

/// Everything the core may ask of the outside world.
///
/// The futures are not `Send`: in WebAssembly everything runs on the one
/// JavaScript thread, and native tests drive them with a single-threaded executor.
#[allow(async_fn_in_trait)]
pub trait Host {
    /// Runs a program directly (never through a shell) and waits for it to end.
    async fn run_process(&self, request: &ProcessRequest) -> ProcessOutcome;
    /// Stops (SIGTERM, then SIGKILL after the grace) every process still
    /// running whose request carried `tag`: a cancelled MCP call.
    fn cancel_processes(&self, tag: &str);
    /// Looks at a path: does it exist, is it a file, may we execute it.
    async fn file_status(&self, path: &str) -> FileStatus;
    /// Reads one environment variable of the app's process.
    fn env_var(&self, name: &str) -> Option<String>;
    fn platform(&self) -> &PlatformFacts;
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
    /// Sends a request; resolves when the response head arrives. Doors go
    /// through `Engine::http_open`, which checks Local only and logs it.
    async fn http_open(&self, request: &HttpRequest) -> Result<HttpResponseHead, HttpFailure>;
    /// Every address a host name has (`dns.lookup`, all of them), for Local only.
    async fn resolve_host(&self, host: &str) -> Result<Vec<String>, HttpFailure>;
    /// The next piece of the body, `None` at its end.
    async fn http_read(&self, id: u32) -> Result<Option<Vec<u8>>, HttpFailure>;
    /// Drops a response the core no longer reads.
    fn http_close(&self, id: u32);
    /// Waits `ms` milliseconds (a retry's backoff); 0 gives the app one
    /// turn of its event loop (drawing, input) and no more.
    async fn sleep(&self, ms: u32);
    /// The user's local date, time zone and open note (empty when unknown).
    fn local_context(&self) -> LocalContext;
    /// A secret from Obsidian's secret storage (API keys), by its name.
    fn secret(&self, name: &str) -> Option<String>;
    /// A web page's HTML as readable text (Markdown), by Obsidian's own
    /// `htmlToMarkdown` on an inert document (nothing in it runs or loads),
    /// its page furniture (scripts, navigation, forms) left out; `url` is
    /// where it came from, for its relative links.
    fn page_text(&self, html: &str, url: &str) -> String;
    /// Whether the JavaScript regular expression `pattern` (no flags)
    /// matches `text`, as Obsidian tests a `/regex/` Excluded files filter;
    /// `None` when it is not a valid one. The engine's own: the plugin
    /// carries no regular-expression engine of its own.
    fn pattern_matches(&self, pattern: &str, text: &str) -> Option<bool>;
    /// The exact text of the note at `path` (vault-relative), through
    /// Obsidian's vault (`app.vault.read`): the CLI's output is not byte-exact.
    async fn vault_read(&self, path: &str) -> Result<String, VaultFailure>;
    /// The text of many notes in one call (`app.vault.cachedRead`), for the
    /// checks over the whole vault: one host call per batch instead of one
    /// CLI process per note. One answer per path, in order: `None` for a note
    /// that cannot be read or is longer than `max_bytes` (UTF-8).
    async fn vault_read_many(&self, paths: &[String], max_bytes: usize) -> Vec<Option<String>>;
    /// Every Markdown note the vault holds, and the user's excluded files.
    fn vault_notes(&self) -> VaultNotes;
    /// Replaces the note's text with `replacement` only if it is exactly
    /// `expected`, in one step (`app.vault.process`): the stale check and the
    /// write cannot be separated by a keystroke or a sync.
    async fn vault_process(
        &self,
        path: &str,
        expected: &str,
        replacement: &str,
    ) -> Result<VaultProcessed, VaultFailure>;
    /// Moves the note at `path` to the trash the user chose in Obsidian
    /// (`app.fileManager.trashFile`): undoing a note the agent created.
    async fn vault_trash(&self, path: &str) -> Result<(), VaultFailure>;
    /// Moves or renames the note at `from` to `to` through Obsidian's file
    /// manager (`app.fileManager.renameFile`), which updates links to it as
    /// the user's "Automatically update internal links" setting says; a
    /// missing folder is made first. Fails if `to` exists.
    async fn vault_move(&self, from: &str, to: &str) -> Result<(), VaultFailure>;
    /// The exact bytes of the file at `path` (`app.vault.readBinary`):
    /// what a deletion keeps for its undo, and how an edit tells a note that
    /// is not UTF-8. Fails with `too_large` for a file over `max_bytes`.
    async fn vault_read_bytes(&self, path: &str, max_bytes: usize)
        -> Result<Vec<u8>, VaultFailure>;
    /// An image for a model request, in base64: the vault file at `path`,
    /// or (`pasted`) the file of that name in the plugin's image folder,
    /// scaled down by the host where it can (a canvas) to at most `max_side`
    /// pixels on its longest side and `max_bytes` bytes. Fails with
    /// `too_large` when it cannot get it within them.
    async fn image_data(
        &self,
        path: &str,
        pasted: bool,
        max_side: u32,
        max_bytes: usize,
    ) -> Result<ImageData, VaultFailure>;
    /// The text of pages `first` to `last` (from 1; cut at the PDF's end)
    /// of the PDF at `path`, as Obsidian's own PDF.js reads it
    /// (`loadPdfJs`): one string per page, in order, empty for a page
    /// without text (a scan), and how many pages it has; no other page is
    /// read. Fails with `not_found`, `too_large` (a file over `max_bytes`),
    /// `encrypted` (it needs a password) or `damaged` (PDF.js cannot open
    /// it or read a page; the message is PDF.js's).
    async fn pdf_text(
        &self,
        path: &str,
        max_bytes: usize,
        first: usize,
        last: usize,
    ) -> Result<PdfText, VaultFailure>;
    /// Makes a file at `path` holding exactly `bytes`
    /// (`app.vault.createBinary`); fails if one is there. Undoing a deletion.
    async fn vault_create(&self, path: &str, bytes: &[u8]) -> Result<(), VaultFailure>;
    /// The real path of `path` (absolute, on disk), every symbolic link in
    /// it followed (`fs.realpath`); `not_found` when nothing is there.
    /// Before a write, so no write follows a link out of the vault.
    async fn real_path(&self, path: &str) -> Result<String, VaultFailure>;
    /// Every symbolic link under the vault's folder `vault` (absolute) and
    /// where it leads, without following one to look inside: one call, so
    /// a listing or a search is checked against links once, not per note.
    async fn vault_links(&self, vault: &str) -> Vec<VaultLink>;
    /// Whether Obsidian updates links when a note moves (Settings → Files and
    /// links → Automatically update internal links); `None` if unknown.
    fn links_update_on_move(&self) -> Option<bool>;
    /// Shows the note at `path` to the user in the current tab
    /// (`app.workspace.openLinkText`), scrolled to `heading` if given: one
    /// tab at most, never a new one.
    async fn open_note(&self, path: &str, heading: Option<&str>) -> Result<(), VaultFailure>;
    /// Keeps the undo journal (`json`) where it survives a restart, in the
    /// plugin's folder. `dropped`: how many of the oldest entries were let go
    /// to stay within the bound, for the host to tell the user.
    async fn save_journal(&self, json: &str, dropped: usize);
    /// The vectors of search by meaning as last saved (`embeddings.bin` in
    /// the plugin's folder); `None` when there are none or they cannot be read.
    async fn load_vectors(&self) -> Option<Vec<u8>>;
    /// Keeps them there, replacing what was saved.
    async fn save_vectors(&self, bytes: &[u8]);
    /// Connects to one of the user's MCP servers (a stdio server is started
    /// on first use, in a process group of its own) and lists its tools; the
    /// host keeps the client, and the listing until the server says its
    /// tools changed or `server.digest` does.
    async fn outside_list(
        &self,
        server: &crate::base::outside::OutsideConnect,
    ) -> crate::base::outside::OutsideListing;
    /// Calls one tool of such a server; Stop cancels it.
    async fn outside_call(
        &self,
        call: &crate::base::outside::OutsideCall,
    ) -> crate::base::outside::OutsideOutcome;
}

/// Runs futures together on the one thread until every one is done; the
/// outputs come back in the order given.
pub async fn join_all<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut futures: Vec<std::pin::Pin<Box<F>>> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|context| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(context) {
                    std::task::Poll::Ready(value) => *output = Some(value),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    outputs
        .into_iter()
        .map(|o| o.expect("every future finished"))
        .collect()
}
