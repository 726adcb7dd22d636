//! A fake `Host` for native tests: a scripted CLI, an in-memory file table,
//! a fixed environment and a clock the test moves by hand.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use crate::base::host::{
    FileStatus, Host, HttpFailure, HttpRequest, HttpResponseHead, Os, PlatformFacts,
    ProcessOutcome, ProcessRequest, VaultFailure, VaultProcessed,
};

/// A scripted answer of the fake model server.
#[derive(Clone, Debug)]
pub enum ScriptedHttp {
    /// A status and the body in these chunks.
    Response { status: u16, chunks: Vec<Vec<u8>> },
    /// The connection failed before a response.
    Failure(HttpFailure),
    /// The body breaks off with this failure after the chunks.
    BrokenAfter {
        chunks: Vec<Vec<u8>>,
        failure: HttpFailure,
    },
    /// A status with its `Content-Type` and `Location` headers and a body.
    Headed {
        status: u16,
        content_type: Option<String>,
        location: Option<String>,
        body: Vec<u8>,
    },
}

type Responder = Box<dyn Fn(&ProcessRequest) -> ProcessOutcome>;
/// Changes the notes from outside the core (a keystroke, a sync).
pub type NotesHook = Box<dyn Fn(&mut HashMap<String, String>)>;
/// The chunks still to send, then an optional failure.
type ScriptedBody = (VecDeque<Vec<u8>>, Option<HttpFailure>);

/// A note the fake showed to the user: its path and the heading, if any.
pub type OpenedNote = (String, Option<String>);

/// Responses answered by a route have ids above this.
const ROUTED_IDS: u32 = 1_000_000;

/// A host whose every effect is recorded and scripted.
pub struct FakeHost {
    pub facts: PlatformFacts,
    pub env: HashMap<String, String>,
    pub files: HashMap<String, FileStatus>,
    /// Every process the core asked to run, in order.
    pub requests: Rc<RefCell<Vec<ProcessRequest>>>,
    /// Every path the core looked at, in order.
    pub looked_at: RefCell<Vec<String>>,
    responder: Responder,
    clock_ms: Rc<Cell<f64>>,
    /// Added to the clock by every process run (simulated duration).
    pub process_ms: f64,
    /// Answers for HTTP requests, in order.
    pub http_script: RefCell<VecDeque<ScriptedHttp>>,
    /// Every HTTP request the core made.
    pub http_requests: RefCell<Vec<HttpRequest>>,
    /// What `resolve_host` answers, by host name; a name not here has no address.
    pub dns: RefCell<HashMap<String, Vec<String>>>,
    /// Every name `resolve_host` was asked for.
    pub resolved: RefCell<Vec<String>>,
    http_bodies: RefCell<HashMap<u32, ScriptedBody>>,
    pub secrets: HashMap<String, String>,
    /// Notes as the vault API sees them, by path (shared with a responder).
    pub notes: Rc<RefCell<HashMap<String, String>>>,
    /// Runs just before `vault_process` compares (a keystroke, a sync).
    pub before_process: RefCell<Option<NotesHook>>,
    /// Files that are not UTF-8 text (an image, a Latin-1 note), by path:
    /// `vault_read` decodes them lossily, as Obsidian's `read` does.
    pub binary: Rc<RefCell<HashMap<String, Vec<u8>>>>,
    /// Paths where `vault_create` and `vault_move` (as the destination)
    /// fail, as on a full disk or a folder made read-only.
    pub refuse_writes_to: RefCell<Vec<String>>,
    /// Symbolic links on disk: (absolute link path, absolute real target).
    pub links: RefCell<Vec<(String, String)>>,
    /// Notes moved to the trash, with the text they had.
    pub trash: Rc<RefCell<Vec<(String, String)>>>,
    /// Responses the core closed, by id.
    pub http_closed: RefCell<Vec<u32>>,
    /// Every image the core asked for: (path, pasted, max side, max bytes).
    /// A pasted one is read from `binary` under `chat-images/<name>`.
    pub images_asked: RefCell<Vec<(String, bool, u32, usize)>>,
    /// PDFs by path, as their pages' text (what PDF.js would read).
    pub pdfs: RefCell<HashMap<String, Vec<String>>>,
    /// How many HTML pages `page_text` turned into text.
    pub pages_converted: std::cell::Cell<usize>,
    /// How many PDF pages `pdf_text` handed over, for tests of how much is read.
    pub pdf_pages_read: std::cell::Cell<usize>,
    /// Answers by URL ending, for every request to it, checked before the
    /// queue: the servers' side endpoints (the context window probes). By
    /// default they answer 404, as a server without them does.
    pub http_routes: RefCell<Vec<(String, ScriptedHttp)>>,
    /// Answers a request from what it asks (an embedding server's vectors
    /// for its inputs) before the script is consulted; `None` passes.
    #[allow(clippy::type_complexity)]
    pub http_answerer: RefCell<Option<Rc<dyn Fn(&HttpRequest) -> Option<ScriptedHttp>>>>,
    /// The requests a route answered (not in `http_requests`), and which of
    /// their responses were closed.
    pub routed_requests: RefCell<Vec<HttpRequest>>,
    pub routed_closed: RefCell<Vec<u32>>,
    /// Every `sleep`, in milliseconds (the clock moves on by as much).
    pub slept: RefCell<Vec<u32>>,
    /// What `local_context` answers.
    pub local: crate::base::host::LocalContext,
    /// The `Retry-After` header of the next scripted response.
    pub retry_after: RefCell<Option<String>>,
    /// What `links_update_on_move` answers.
    pub links_update: Option<bool>,
    /// Notes shown to the user (`open`), with the heading.
    pub opened: Rc<RefCell<Vec<OpenedNote>>>,
    /// Every journal the core saved, with how many entries it dropped.
    pub journal_saves: RefCell<Vec<(String, usize)>>,
    /// What `save_vectors` last kept (and `load_vectors` gives back).
    pub saved_vectors: RefCell<Option<Vec<u8>>>,
    /// Settings → Files and links → Excluded files, as `vault_notes` reports them.
    pub excluded: RefCell<Vec<String>>,
    /// The size of every batch `vault_read_many` was asked for.
    pub read_batches: RefCell<Vec<usize>>,
    /// Every tag `cancel_processes` was asked to stop.
    pub cancelled_tags: RefCell<Vec<String>>,
    /// When set, `sleep` suspends once, so two calls can take turns (see `join`).
    pub yield_on_sleep: bool,
    /// When set, a process suspends once between its start and its end, so
    /// calls run together show it in `process_log`.
    pub yield_in_process: bool,
    /// `start <command>` and `end <command>` of every process, in order.
    pub process_log: RefCell<Vec<String>>,
    /// What `outside_list` answers, by server id (not here: unreachable).
    pub outside_servers: RefCell<Vec<(String, crate::base::outside::OutsideListing)>>,
    /// Every outside call made, in order.
    pub outside_calls: RefCell<Vec<crate::base::outside::OutsideCall>>,
    /// The answers of outside calls, in order (none left: an empty text result).
    pub outside_outcomes: RefCell<VecDeque<crate::base::outside::OutsideOutcome>>,
}

impl FakeHost {
    /// A Linux desktop with the CLI at `/usr/bin/obsidian` printing `stdout`.
    pub fn linux_with_cli(stdout: &str) -> Self {
        let text = stdout.to_string();
        let mut host = FakeHost::new(Os::Linux, move |_| ProcessOutcome::success(&text));
        host.env.insert("PATH".into(), "/usr/bin".into());
        host.add_executable("/usr/bin/obsidian");
        host
    }

    pub fn new(os: Os, responder: impl Fn(&ProcessRequest) -> ProcessOutcome + 'static) -> Self {
        FakeHost {
            facts: PlatformFacts {
                os: Some(os),
                is_desktop_app: true,
                vault_path: Some("/vault".into()),
                home_dir: Some(match os {
                    Os::Windows => "C:\\Users\\ada".into(),
                    Os::Macos => "/Users/ada".into(),
                    _ => "/home/ada".into(),
                }),
                ..PlatformFacts::default()
            },
            env: HashMap::new(),
            files: HashMap::new(),
            requests: Rc::new(RefCell::new(Vec::new())),
            looked_at: RefCell::new(Vec::new()),
            responder: Box::new(responder),
            clock_ms: Rc::new(Cell::new(1_700_000_000_000.0)),
            process_ms: 5.0,
            http_script: RefCell::new(VecDeque::new()),
            http_requests: RefCell::new(Vec::new()),
            dns: RefCell::new(HashMap::from([(
                "localhost".to_string(),
                vec!["127.0.0.1".to_string()],
            )])),
            resolved: RefCell::new(Vec::new()),
            http_bodies: RefCell::new(HashMap::new()),
            secrets: HashMap::new(),
            notes: Rc::new(RefCell::new(HashMap::new())),
            before_process: RefCell::new(None),
            excluded: RefCell::new(Vec::new()),
            binary: Rc::new(RefCell::new(HashMap::new())),
            refuse_writes_to: RefCell::new(Vec::new()),
            links: RefCell::new(Vec::new()),
            trash: Rc::new(RefCell::new(Vec::new())),
            opened: Rc::new(RefCell::new(Vec::new())),
            links_update: Some(true),
            http_closed: RefCell::new(Vec::new()),
            images_asked: RefCell::new(Vec::new()),
            pdfs: RefCell::new(HashMap::new()),
            pdf_pages_read: std::cell::Cell::new(0),
            pages_converted: std::cell::Cell::new(0),
            http_answerer: RefCell::new(None),
            http_routes: RefCell::new(
                ["/api/show", "/api/v0/models"]
                    .into_iter()
                    .map(|end| {
                        (
                            end.to_string(),
                            ScriptedHttp::Response {
                                status: 404,
                                chunks: vec![b"404 page not found".to_vec()],
                            },
                        )
                    })
                    .collect(),
            ),
            routed_requests: RefCell::new(Vec::new()),
            routed_closed: RefCell::new(Vec::new()),
            slept: RefCell::new(Vec::new()),
            retry_after: RefCell::new(None),
            // The day alone, as the shim gives it; no date and time text, so
            // prompts say no local time unless a test sets one.
            local: crate::base::host::LocalContext {
                date: "2026-11-30".into(),
                ..Default::default()
            },
            journal_saves: RefCell::new(Vec::new()),
            saved_vectors: RefCell::new(None),
            read_batches: RefCell::new(Vec::new()),
            cancelled_tags: RefCell::new(Vec::new()),
            yield_on_sleep: false,
            yield_in_process: false,
            process_log: RefCell::new(Vec::new()),
            outside_servers: RefCell::new(Vec::new()),
            outside_calls: RefCell::new(Vec::new()),
            outside_outcomes: RefCell::new(VecDeque::new()),
        }
    }

    /// Moves the fake clock on (time passing between two calls).
    pub fn advance_ms(&self, ms: f64) {
        self.clock_ms.set(self.clock_ms.get() + ms);
    }

    /// Answers every request whose URL ends with `end` (before older routes).
    pub fn route_http(&self, end: &str, answer: ScriptedHttp) {
        self.http_routes
            .borrow_mut()
            .insert(0, (end.to_string(), answer));
    }

    /// Queues the next HTTP answer.
    pub fn script_http(&self, answer: ScriptedHttp) {
        self.http_script.borrow_mut().push_back(answer);
    }

    pub fn respond_with(
        &mut self,
        responder: impl Fn(&ProcessRequest) -> ProcessOutcome + 'static,
    ) {
        self.responder = Box::new(responder);
    }

    pub fn add_executable(&mut self, path: &str) {
        self.files.insert(
            path.to_string(),
            FileStatus {
                exists: true,
                is_file: true,
                executable: true,
            },
        );
    }

    pub fn add_plain_file(&mut self, path: &str) {
        self.files.insert(
            path.to_string(),
            FileStatus {
                exists: true,
                is_file: true,
                executable: false,
            },
        );
    }

    /// A handle to move the clock while the core owns the host.
    pub fn clock(&self) -> Rc<Cell<f64>> {
        self.clock_ms.clone()
    }

    fn refused(&self, path: &str) -> Result<(), VaultFailure> {
        if self.refuse_writes_to.borrow().iter().any(|p| p == path) {
            return Err(VaultFailure {
                code: "write_failed".into(),
                message: format!("the disk refused {path}"),
            });
        }
        Ok(())
    }

    pub fn process_count(&self) -> usize {
        self.requests.borrow().len()
    }
}

impl ProcessOutcome {
    /// Exit 0 with `stdout`.
    pub fn success(stdout: &str) -> Self {
        ProcessOutcome {
            exit_code: Some(0),
            stdout: stdout.as_bytes().to_vec(),
            stdout_total_bytes: stdout.len() as u64,
            ..ProcessOutcome::default()
        }
    }
}

impl Host for FakeHost {
    async fn run_process(&self, request: &ProcessRequest) -> ProcessOutcome {
        self.requests.borrow_mut().push(request.clone());
        let command = request.args.first().cloned().unwrap_or_default();
        self.process_log
            .borrow_mut()
            .push(format!("start {command}"));
        if self.yield_in_process {
            yield_once().await;
        }
        self.process_log.borrow_mut().push(format!("end {command}"));
        self.clock_ms.set(self.clock_ms.get() + self.process_ms);
        let mut outcome = (self.responder)(request);
        // Behave like the shim: keep at most the cap, count everything.
        let cap = request.max_output_bytes as usize;
        if outcome.stdout.len() > cap {
            outcome.stdout_total_bytes = outcome.stdout.len() as u64;
            outcome.stdout.truncate(cap);
        }
        outcome
    }

    fn cancel_processes(&self, tag: &str) {
        self.cancelled_tags.borrow_mut().push(tag.to_string());
    }

    async fn file_status(&self, path: &str) -> FileStatus {
        self.looked_at.borrow_mut().push(path.to_string());
        self.files.get(path).copied().unwrap_or_default()
    }

    fn env_var(&self, name: &str) -> Option<String> {
        self.env.get(name).cloned()
    }

    fn platform(&self) -> &PlatformFacts {
        &self.facts
    }

    fn now_ms(&self) -> f64 {
        self.clock_ms.get()
    }

    async fn resolve_host(&self, host: &str) -> Result<Vec<String>, HttpFailure> {
        self.resolved.borrow_mut().push(host.to_string());
        self.dns
            .borrow()
            .get(host)
            .cloned()
            .ok_or_else(|| HttpFailure {
                code: "ENOTFOUND".into(),
                message: format!("getaddrinfo ENOTFOUND {host}"),
            })
    }

    async fn http_open(&self, request: &HttpRequest) -> Result<HttpResponseHead, HttpFailure> {
        let routed = self
            .http_routes
            .borrow()
            .iter()
            .find(|(end, _)| request.url.ends_with(end.as_str()))
            .map(|(_, answer)| answer.clone());
        let (id, answer) = match routed {
            Some(answer) => {
                self.routed_requests.borrow_mut().push(request.clone());
                let id = ROUTED_IDS + self.routed_requests.borrow().len() as u32;
                (id, answer)
            }
            None => {
                self.http_requests.borrow_mut().push(request.clone());
                let id = self.http_requests.borrow().len() as u32;
                let answerer = self.http_answerer.borrow().clone();
                let answered = answerer.and_then(|answer| answer(request));
                let answer = if let Some(answer) = answered {
                    answer
                } else {
                    self.http_script
                        .borrow_mut()
                        .pop_front()
                        .unwrap_or(ScriptedHttp::Failure(HttpFailure {
                            code: "ECONNREFUSED".into(),
                            message: "nothing scripted".into(),
                        }))
                };
                (id, answer)
            }
        };
        match answer {
            ScriptedHttp::Failure(failure) => Err(failure),
            ScriptedHttp::Response { status, chunks } => {
                self.http_bodies
                    .borrow_mut()
                    .insert(id, (chunks.into(), None));
                Ok(HttpResponseHead {
                    id,
                    status,
                    content_type: None,
                    retry_after: if id > ROUTED_IDS {
                        None
                    } else {
                        self.retry_after.borrow_mut().take()
                    },
                    remote_address: request.connect_address.clone(),
                    location: None,
                })
            }
            ScriptedHttp::Headed {
                status,
                content_type,
                location,
                body,
            } => {
                self.http_bodies
                    .borrow_mut()
                    .insert(id, (VecDeque::from([body]), None));
                Ok(HttpResponseHead {
                    id,
                    status,
                    content_type,
                    retry_after: None,
                    remote_address: request.connect_address.clone(),
                    location,
                })
            }
            ScriptedHttp::BrokenAfter { chunks, failure } => {
                self.http_bodies
                    .borrow_mut()
                    .insert(id, (chunks.into(), Some(failure)));
                Ok(HttpResponseHead {
                    id,
                    status: 200,
                    content_type: None,
                    retry_after: None,
                    remote_address: request.connect_address.clone(),
                    location: None,
                })
            }
        }
    }

    async fn http_read(&self, id: u32) -> Result<Option<Vec<u8>>, HttpFailure> {
        let mut bodies = self.http_bodies.borrow_mut();
        let Some((chunks, failure)) = bodies.get_mut(&id) else {
            return Ok(None);
        };
        match chunks.pop_front() {
            Some(chunk) => Ok(Some(chunk)),
            None => match failure.take() {
                Some(failure) => Err(failure),
                None => Ok(None),
            },
        }
    }

    fn http_close(&self, id: u32) {
        self.http_bodies.borrow_mut().remove(&id);
        if id > ROUTED_IDS {
            self.routed_closed.borrow_mut().push(id);
            return;
        }
        self.http_closed.borrow_mut().push(id);
    }

    fn local_context(&self) -> crate::base::host::LocalContext {
        self.local.clone()
    }

    async fn sleep(&self, ms: u32) {
        self.slept.borrow_mut().push(ms);
        self.clock_ms.set(self.clock_ms.get() + f64::from(ms));
        if self.yield_on_sleep {
            yield_once().await;
        }
    }

    fn secret(&self, name: &str) -> Option<String> {
        self.secrets.get(name).cloned()
    }

    /// The tags dropped and the text kept, enough for the tests to tell a
    /// page's text from its markup (the plugin uses Obsidian's own).
    fn page_text(&self, html: &str, _url: &str) -> String {
        self.pages_converted.set(self.pages_converted.get() + 1);
        crate::search::web_api::plain_text(html)
    }

    /// The tests' regular expressions: `^…` (a start), `…$` (an end), or
    /// text found anywhere; `(` makes one invalid. Enough for the filters
    /// the tests set; the plugin uses the JavaScript engine's.
    fn pattern_matches(&self, pattern: &str, text: &str) -> Option<bool> {
        if pattern.contains('(') {
            return None;
        }
        let unescaped = pattern.replace("\\/", "/").replace("\\.", ".");
        Some(
            match (unescaped.strip_prefix('^'), unescaped.strip_suffix('$')) {
                (Some(start), _) => text.starts_with(start),
                (_, Some(end)) => text.ends_with(end),
                _ => text.contains(unescaped.as_str()),
            },
        )
    }

    async fn vault_read(&self, path: &str) -> Result<String, VaultFailure> {
        if let Some(bytes) = self.binary.borrow().get(path) {
            return Ok(String::from_utf8_lossy(bytes).into_owned());
        }
        self.notes
            .borrow()
            .get(path)
            .cloned()
            .ok_or_else(|| VaultFailure {
                code: "not_found".into(),
                message: format!("No file at {path}"),
            })
    }

    async fn vault_read_many(&self, paths: &[String], max_bytes: usize) -> Vec<Option<String>> {
        self.read_batches.borrow_mut().push(paths.len());
        let notes = self.notes.borrow();
        paths
            .iter()
            .map(|path| notes.get(path).filter(|t| t.len() <= max_bytes).cloned())
            .collect()
    }

    fn vault_notes(&self) -> crate::base::host::VaultNotes {
        let mut paths: Vec<String> = self
            .notes
            .borrow()
            .keys()
            .filter(|p| p.ends_with(".md"))
            .cloned()
            .collect();
        paths.sort();
        crate::base::host::VaultNotes {
            paths,
            excluded: self.excluded.borrow().clone(),
        }
    }

    async fn vault_process(
        &self,
        path: &str,
        expected: &str,
        replacement: &str,
    ) -> Result<VaultProcessed, VaultFailure> {
        let mut notes = self.notes.borrow_mut();
        if let Some(hook) = self.before_process.borrow().as_ref() {
            hook(&mut notes);
        }
        let Some(now) = notes.get_mut(path) else {
            return Err(VaultFailure {
                code: "not_found".into(),
                message: format!("No file at {path}"),
            });
        };
        if now != expected {
            return Ok(VaultProcessed::Changed { now: now.clone() });
        }
        *now = replacement.to_string();
        Ok(VaultProcessed::Written)
    }

    async fn vault_read_bytes(
        &self,
        path: &str,
        max_bytes: usize,
    ) -> Result<Vec<u8>, VaultFailure> {
        let binary = self.binary.borrow().get(path).cloned();
        let bytes = match binary {
            Some(bytes) => bytes,
            None => self.vault_read(path).await?.into_bytes(),
        };
        if bytes.len() > max_bytes {
            return Err(VaultFailure {
                code: "too_large".into(),
                message: format!("{path} is larger than {max_bytes} bytes"),
            });
        }
        Ok(bytes)
    }

    async fn image_data(
        &self,
        path: &str,
        pasted: bool,
        max_side: u32,
        max_bytes: usize,
    ) -> Result<crate::base::host::ImageData, VaultFailure> {
        use base64::Engine;
        self.images_asked
            .borrow_mut()
            .push((path.to_string(), pasted, max_side, max_bytes));
        let key = match pasted {
            true => format!("chat-images/{path}"),
            false => path.to_string(),
        };
        // No canvas here: an image is sent as it is, or refused when too large.
        let bytes = self.vault_read_bytes(&key, max_bytes).await?;
        Ok(crate::base::host::ImageData {
            mime: crate::doors::chat::images::mime_of(path)
                .unwrap_or("application/octet-stream")
                .into(),
            base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        })
    }

    async fn pdf_text(
        &self,
        path: &str,
        _max_bytes: usize,
        first: usize,
        last: usize,
    ) -> Result<crate::base::host::PdfText, VaultFailure> {
        let pdfs = self.pdfs.borrow();
        let pages = pdfs.get(path).ok_or_else(|| VaultFailure {
            code: "not_found".into(),
            message: format!("{path} is not in the vault"),
        })?;
        self.pdf_pages_read
            .set(self.pdf_pages_read.get() + last.min(pages.len()).saturating_sub(first - 1));
        Ok(crate::base::host::PdfText {
            total: pages.len(),
            pages: pages.iter().take(last).skip(first - 1).cloned().collect(),
        })
    }

    async fn vault_trash(&self, path: &str) -> Result<(), VaultFailure> {
        if let Some(bytes) = self.binary.borrow_mut().remove(path) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            self.trash.borrow_mut().push((path.to_string(), text));
            return Ok(());
        }
        let text = self
            .notes
            .borrow_mut()
            .remove(path)
            .ok_or_else(|| VaultFailure {
                code: "not_found".into(),
                message: format!("No file at {path}"),
            })?;
        self.trash.borrow_mut().push((path.to_string(), text));
        Ok(())
    }

    async fn vault_move(&self, from: &str, to: &str) -> Result<(), VaultFailure> {
        self.refused(to)?;
        let mut notes = self.notes.borrow_mut();
        if notes.contains_key(to) {
            return Err(VaultFailure {
                code: "exists".into(),
                message: format!("{to} already exists"),
            });
        }
        let text = notes.remove(from).ok_or_else(|| VaultFailure {
            code: "not_found".into(),
            message: format!("No file at {from}"),
        })?;
        notes.insert(to.to_string(), text);
        Ok(())
    }

    async fn vault_create(&self, path: &str, bytes: &[u8]) -> Result<(), VaultFailure> {
        self.refused(path)?;
        let mut notes = self.notes.borrow_mut();
        if notes.contains_key(path) || self.binary.borrow().contains_key(path) {
            return Err(VaultFailure {
                code: "exists".into(),
                message: format!("{path} already exists"),
            });
        }
        match String::from_utf8(bytes.to_vec()) {
            Ok(text) => {
                notes.insert(path.to_string(), text);
            }
            Err(error) => {
                self.binary
                    .borrow_mut()
                    .insert(path.to_string(), error.into_bytes());
            }
        }
        Ok(())
    }

    async fn real_path(&self, path: &str) -> Result<String, VaultFailure> {
        for (link, target) in self.links.borrow().iter() {
            if let Some(rest) = path.strip_prefix(link.as_str()) {
                if rest.is_empty() || rest.starts_with('/') {
                    return Ok(format!("{target}{rest}"));
                }
            }
        }
        Ok(path.to_string())
    }

    async fn vault_links(&self, vault: &str) -> Vec<crate::base::host::VaultLink> {
        let prefix = format!("{}/", vault.trim_end_matches('/'));
        let mut links: Vec<crate::base::host::VaultLink> = Vec::new();
        for (link, target) in self.links.borrow().iter() {
            if let Some(path) = link.strip_prefix(&prefix) {
                links.push(crate::base::host::VaultLink {
                    path: path.to_string(),
                    real: Some(target.clone()),
                });
            }
        }
        links
    }

    fn links_update_on_move(&self) -> Option<bool> {
        self.links_update
    }

    async fn open_note(&self, path: &str, heading: Option<&str>) -> Result<(), VaultFailure> {
        if !self.notes.borrow().contains_key(path) {
            return Err(VaultFailure {
                code: "not_found".into(),
                message: format!("No file at {path}"),
            });
        }
        self.opened
            .borrow_mut()
            .push((path.to_string(), heading.map(str::to_string)));
        Ok(())
    }

    async fn save_journal(&self, json: &str, dropped: usize) {
        self.journal_saves
            .borrow_mut()
            .push((json.to_string(), dropped));
    }

    async fn load_vectors(&self) -> Option<Vec<u8>> {
        self.saved_vectors.borrow().clone()
    }

    async fn save_vectors(&self, bytes: &[u8]) {
        *self.saved_vectors.borrow_mut() = Some(bytes.to_vec());
    }

    async fn outside_list(
        &self,
        server: &crate::base::outside::OutsideConnect,
    ) -> crate::base::outside::OutsideListing {
        self.outside_servers
            .borrow()
            .iter()
            .find(|(id, _)| *id == server.id)
            .map(|(_, listing)| listing.clone())
            .unwrap_or_else(|| crate::base::outside::OutsideListing {
                error: Some("connect ECONNREFUSED".into()),
                ..Default::default()
            })
    }

    async fn outside_call(
        &self,
        call: &crate::base::outside::OutsideCall,
    ) -> crate::base::outside::OutsideOutcome {
        self.outside_calls.borrow_mut().push(call.clone());
        self.outside_outcomes.borrow_mut().pop_front().unwrap_or(
            crate::base::outside::OutsideOutcome::Answered {
                result: serde_json::json!({ "content": [] }),
            },
        )
    }
}

/// Suspends once (waking itself), so whatever runs alongside gets a turn.
async fn yield_once() {
    let mut yielded = false;
    std::future::poll_fn(|context| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            context.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await;
}

/// Runs two futures on the current thread, taking turns, until both are
/// done (tests only; with `FakeHost::yield_on_sleep`, a call that waits lets
/// the other one run).
pub fn join<A: std::future::Future, B: std::future::Future>(a: A, b: B) -> (A::Output, B::Output) {
    use std::task::{Context, Poll, Waker};
    let mut context = Context::from_waker(Waker::noop());
    let (mut a, mut b) = (std::pin::pin!(a), std::pin::pin!(b));
    let (mut out_a, mut out_b) = (None, None);
    loop {
        if out_a.is_none() {
            if let Poll::Ready(output) = a.as_mut().poll(&mut context) {
                out_a = Some(output);
            }
        }
        if out_b.is_none() {
            if let Poll::Ready(output) = b.as_mut().poll(&mut context) {
                out_b = Some(output);
            }
        }
        if let (Some(_), Some(_)) = (&out_a, &out_b) {
            return (out_a.unwrap(), out_b.unwrap());
        }
    }
}

/// Runs a future to completion on the current thread (tests only). The fake
/// host suspends only with `yield_on_sleep`, and then resumes at once.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut context = Context::from_waker(Waker::noop());
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
}
