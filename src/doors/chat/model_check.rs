//! "Check this model": a fixed set of probes against the chosen profile's
//! server, each with its own time bound and all of them within about a
//! minute, stopped by Stop (`ChatDoor::stop(Some(CHECK_TAG))`, and the shim
//! aborts the requests tagged `CHECK_TAG`). Every request goes through
//! `Engine::http_open` (Local only applies, the connection log shows it).
//! What is sent is `check_probes`'s made-up text and tool only; what the
//! findings mean is `check_verdict`'s.

use super::check_probes as probes;
use super::check_verdict::{
    AnswerOutcome, CallOutcome, Findings, ImageOutcome, ModelCheckReport, StreamFacts, WindowFacts,
};
use super::conversation::{Attachment, ChatMessage, ToolCallRecord};
use super::model::{ChatError, ModelReply, ModelRequest, ModelTool};
use super::provider::{
    assembler, build_request, connection_error, models_request, parse_models, parse_whole_reply,
    status_error,
};
use super::sse::SseParser;
use super::window::{self, Server};
use super::{budget, ChatDoor};
use crate::base::host::{Host, HttpRequest, ImageData, LocalContext};
use crate::base::result::ToolResult;
use crate::settings::{ProviderKind, ProviderSettings};

/// The tag of the check's requests and its entry among the running turns.
pub const CHECK_TAG: &str = "model-check";
/// The whole check's bound.
const TOTAL_MS: f64 = 60_000.0;
/// Each probe's own bound.
const LISTING_MS: u32 = 5_000;
const WINDOW_MS: u32 = 3_000;
/// A model being loaded answers its first request late.
const STREAM_MS: u32 = 20_000;
const TOOL_MS: u32 = 15_000;
const FOLLOW_UP_MS: u32 = 12_000;
const IMAGE_MS: u32 = 15_000;
/// A probe with less time than this left is not started.
const MIN_PROBE_MS: f64 = 2_000.0;
/// Room for a probe's answer (a thinking model thinks first).
const ANSWER_TOKENS: u32 = 1_024;

/// Why a probe gave no answer.
enum ProbeError {
    Stopped,
    Failed(ChatError),
}

/// A model's answer to one probe, timed.
struct Answer {
    reply: ModelReply,
    first_ms: f64,
    end_ms: f64,
}

/// What the probes share: the profile, the key and the clock.
struct Run<'a> {
    kind: ProviderKind,
    provider: &'a ProviderSettings,
    api_key: Option<String>,
    start: f64,
}

impl<H: Host> ChatDoor<H> {
    /// Runs the check on the profile in use; `progress` gets a line as each
    /// probe starts. Never fails: what went wrong is in the report.
    pub async fn check_model(&self, progress: &dyn Fn(&str)) -> ModelCheckReport {
        let settings = self.engine.settings_snapshot();
        let profile = settings.chat.profile().clone();
        let provider = &profile.server;
        let kind = profile.provider;
        let now = self.engine.host().now_ms();
        let mut f = Findings {
            profile: profile.id.clone(),
            kind: Some(kind),
            model: provider.model.clone(),
            base_url: provider.base_url.clone(),
            text_tool_calls: provider.text_tool_calls,
            images_setting: provider.images,
            first_token_timeout_ms: settings.chat.first_token_timeout_ms,
            at_ms: now,
            ..Findings::default()
        };
        let Ok(_hold) = self.open.begin(CHECK_TAG) else {
            let mut report = f.report();
            report.record = None;
            report.advice = vec!["A check is already running: wait for it, or stop it.".into()];
            report.text = report.advice[0].clone();
            return report;
        };
        let api_key = match self.api_key(&settings) {
            Ok(key) => key,
            Err(error) => {
                f.listing = Some(Err(error));
                return f.report();
            }
        };
        let run = Run {
            kind,
            provider,
            api_key,
            start: now,
        };
        if let Err(ProbeError::Stopped) = self.run_probes(&run, &mut f, progress).await {
            f.stopped = true;
        }
        progress("");
        f.report()
    }

    /// Stop for a running check.
    pub fn check_stop(&self) {
        self.stop(Some(CHECK_TAG));
    }

    async fn run_probes(
        &self,
        run: &Run<'_>,
        f: &mut Findings,
        progress: &dyn Fn(&str),
    ) -> Result<(), ProbeError> {
        // Reachable, key, listed.
        progress("Asking the server for its models…");
        let listing = models_request(run.kind, run.provider, run.api_key.clone());
        let key_sent = listing.headers.iter().any(|(name, _)| {
            name.eq_ignore_ascii_case("authorization") || name.eq_ignore_ascii_case("x-api-key")
        });
        let listing_body = match self.fetch(run, listing, LISTING_MS).await? {
            Ok((200, body)) => {
                f.listing = Some(Ok(parse_models(&body)));
                body
            }
            Ok((status, body)) => {
                let url = format!("{}/models", run.provider.base_url);
                f.listing = Some(Err(status_error(
                    status,
                    &body,
                    &run.provider.model,
                    &url,
                    key_sent,
                )));
                String::new()
            }
            Err(error) => {
                f.listing = Some(Err(error));
                String::new()
            }
        };
        if matches!(
            f.listing,
            Some(Err(ChatError::Connection { .. }
                | ChatError::LocalOnly { .. }
                | ChatError::Unauthorized { .. }
                | ChatError::NoKeySent { .. }))
        ) {
            return Ok(());
        }

        // The context window, and whether our prompt and tools fit it.
        progress("Asking about the context window…");
        let show = self.window_facts(run, f, &listing_body).await?;

        // Streaming and speed.
        progress("Streaming a short answer…");
        let question = [user(probes::STREAM_QUESTION)];
        match self
            .ask(
                run,
                probes::SYSTEM,
                &question,
                &[],
                false,
                true,
                STREAM_MS,
                f,
            )
            .await?
        {
            Some(Ok(answer)) => {
                let usage = answer.reply.usage;
                f.stream = Some(Ok(StreamFacts {
                    first_token_ms: answer.first_ms,
                    generation_ms: answer.end_ms - answer.first_ms,
                    input_tokens: usage.map(|u| u.input_tokens).filter(|n| *n > 0),
                    output_tokens: usage.map(|u| u.output_tokens).filter(|n| *n > 0),
                    text_chars: answer.reply.text.chars().count(),
                }));
            }
            Some(Err(error)) => {
                f.stream = Some(Err(error));
                return Ok(());
            }
            None => return Ok(()),
        }
        if window::server(&run.provider.base_url) == Some(Server::Ollama) {
            self.allocated_window(run, f).await?;
        }

        // Tool calls: unasked, with tool_choice, as text.
        let tools = [probes::tool()];
        let ask_tool = [user(probes::TOOL_QUESTION)];
        progress("Asking for a tool call…");
        let mut call = None;
        f.native = self
            .tool_probe(
                run,
                probes::SYSTEM,
                &ask_tool,
                &tools,
                false,
                TOOL_MS,
                f,
                &mut call,
            )
            .await?;
        if f.native.as_ref().is_some_and(|o| *o != CallOutcome::Called) {
            progress("Asking for a tool call with tool_choice…");
            f.forced = self
                .tool_probe(
                    run,
                    probes::SYSTEM,
                    &ask_tool,
                    &tools,
                    true,
                    FOLLOW_UP_MS,
                    f,
                    &mut call,
                )
                .await?;
        }
        let native_works = [&f.native, &f.forced]
            .iter()
            .any(|o| matches!(o, Some(CallOutcome::Called)));
        let written = matches!(f.native, Some(CallOutcome::Text { shape: Some(_), .. }));
        if f.native.is_some() && !native_works && !written {
            progress("Asking for a tool call written as text…");
            let system = format!("{}{}", probes::SYSTEM, super::text_calls::PROMPT_RULE);
            f.text_form = self
                .tool_probe(
                    run,
                    &system,
                    &ask_tool,
                    &tools,
                    false,
                    FOLLOW_UP_MS,
                    f,
                    &mut call,
                )
                .await?;
        }
        if let Some(call) = call {
            progress("Giving the tool's answer back…");
            f.answer = self.answer_probe(run, &ask_tool, call, f).await?;
        }

        // Images, where the profile sends them.
        let reported = show.as_deref().and_then(super::images::vision_reported);
        if !super::images::accepted(run.provider.images, run.kind, &run.provider.model, reported) {
            f.images = Some(ImageOutcome::NotClaimed);
        } else {
            progress("Showing the model a small picture…");
            let picture = ChatMessage::User {
                text: probes::IMAGE_QUESTION.into(),
                attachments: Some(vec![Attachment {
                    pasted: true,
                    image: Some(ImageData {
                        mime: "image/png".into(),
                        base64: probes::solid_png(probes::IMAGE_COLOUR),
                    }),
                    ..Attachment::note("model-check.png")
                }]),
            };
            f.images = match self
                .ask(
                    run,
                    probes::SYSTEM,
                    &[picture],
                    &[],
                    false,
                    false,
                    IMAGE_MS,
                    f,
                )
                .await?
            {
                Some(Ok(answer)) if probes::names_colour(&answer.reply.text) => {
                    Some(ImageOutcome::Read)
                }
                Some(Ok(_)) => Some(ImageOutcome::Missed),
                Some(Err(error)) => Some(ImageOutcome::Failed(error)),
                None => None,
            };
        }
        Ok(())
    }

    /// The window the server says, the one the chat plans with, and what
    /// our prompt and tools need of it. Returns Ollama's `/api/show` answer.
    async fn window_facts(
        &self,
        run: &Run<'_>,
        f: &mut Findings,
        listing: &str,
    ) -> Result<Option<String>, ProbeError> {
        let provider = run.provider;
        let mut said: Option<(u32, &'static str)> = None;
        let mut show = None;
        if let Some(n) = window::known(run.kind, &provider.base_url, &provider.model) {
            said = Some((n, "known size"));
        } else if let Some(n) = probes::listing_window(listing, &provider.model) {
            said = Some((n, "the server's model list"));
        } else if run.kind == ProviderKind::OpenAi {
            let server = window::server(&provider.base_url);
            let request = match server {
                Some(server) => window::probe(server, provider, run.api_key.as_deref()),
                None => {
                    // llama.cpp's `llama-server` tells its window at /props.
                    let base = provider.base_url.trim_end_matches('/');
                    let root = base.strip_suffix("/v1").unwrap_or(base);
                    HttpRequest {
                        url: format!("{root}/props"),
                        ..window::probe(Server::LmStudio, provider, run.api_key.as_deref())
                    }
                }
            };
            if let Ok((200, body)) = self.fetch(run, request, WINDOW_MS).await? {
                said = match server {
                    Some(server) => window::read(server, &body, &provider.model).map(|n| {
                        let source = match server {
                            Server::Ollama => "Ollama /api/show",
                            Server::LmStudio => "LM Studio's model list",
                            Server::OpenRouter => "OpenRouter's model list",
                        };
                        (n, source)
                    }),
                    None => probes::props_window(&body).map(|n| (n, "llama.cpp /props")),
                };
                if server == Some(Server::Ollama) {
                    f.server_says_no_tools = probes::capabilities_lack_tools(&body);
                    show = Some(body);
                }
            }
        }
        let planned = if provider.context_window > 0 {
            provider.context_window as usize
        } else {
            said.map_or_else(
                || budget::context_window(run.kind, provider),
                |(n, _)| n as usize,
            )
        };
        f.window = WindowFacts {
            server: said,
            profile: provider.context_window,
            planned,
            needed: self.prompt_needs(planned, provider.text_tool_calls),
        };
        Ok(show)
    }

    /// Ollama's `/api/ps`, once the model is loaded: the window it was
    /// actually given, which wins over what `/api/show` let us guess.
    async fn allocated_window(&self, run: &Run<'_>, f: &mut Findings) -> Result<(), ProbeError> {
        let base = run.provider.base_url.trim_end_matches('/');
        let root = base.strip_suffix("/v1").unwrap_or(base);
        let request = HttpRequest {
            url: format!("{root}/api/ps"),
            ..window::probe(Server::LmStudio, run.provider, run.api_key.as_deref())
        };
        if let Ok((200, body)) = self.fetch(run, request, WINDOW_MS).await? {
            if let Some(n) = probes::ps_window(&body, &run.provider.model) {
                f.window.server = Some((n, "Ollama /api/ps"));
            }
        }
        Ok(())
    }

    /// The chat's fixed prompt, tools and answer room for a window of
    /// `planned` tokens, as `ask_model` counts them (with nothing of the
    /// user's: no open note, no instructions).
    fn prompt_needs(&self, planned: usize, text_calls: bool) -> usize {
        let descriptors = self.engine.list_tools();
        let compact = planned <= budget::COMPACT_WINDOW;
        let settings = self.engine.settings_snapshot();
        let tools: Vec<ModelTool> = self.offered_tools(compact, &settings, &descriptors);
        let mut system = super::prompt::system_prompt(
            &descriptors,
            self.engine.host().now_ms(),
            &LocalContext::default(),
            None,
            compact,
        );
        if text_calls {
            system.push_str(super::text_calls::PROMPT_RULE);
        }
        let tools_tokens: usize = tools
            .iter()
            .map(|t| {
                budget::estimate(&t.name)
                    + budget::estimate(&t.description)
                    + budget::estimate(&t.input_schema.to_string())
            })
            .sum();
        budget::estimate(&system) + tools_tokens + budget::answer_reserve(planned)
    }

    /// One request with the made-up tool: whether the model called it
    /// (natively, or written as text), and the call, for the answer probe.
    #[allow(clippy::too_many_arguments)]
    async fn tool_probe(
        &self,
        run: &Run<'_>,
        system: &str,
        messages: &[ChatMessage],
        tools: &[ModelTool],
        force: bool,
        bound: u32,
        f: &mut Findings,
        call: &mut Option<ToolCallRecord>,
    ) -> Result<Option<CallOutcome>, ProbeError> {
        let answer = match self
            .ask(run, system, messages, tools, force, false, bound, f)
            .await?
        {
            Some(Ok(answer)) => answer,
            Some(Err(error)) => return Ok(Some(CallOutcome::Failed(error))),
            None => return Ok(None),
        };
        if let Some(native) = answer
            .reply
            .tool_calls
            .iter()
            .find(|c| c.name == probes::TOOL_NAME)
        {
            call.get_or_insert_with(|| native.clone());
            return Ok(Some(CallOutcome::Called));
        }
        let Some((shape, parsed)) = probes::written_shape(&answer.reply.text) else {
            return Ok(Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }));
        };
        // Read as the chat reads it with the switch on.
        let read = super::text_calls::read(
            &answer.reply.text,
            &[probes::TOOL_NAME],
            true,
            &[],
            "text_call_1",
        );
        let parsed = parsed && matches!(read, super::text_calls::Reading::Calls(_));
        if let super::text_calls::Reading::Calls(calls) = read {
            if call.is_none() {
                *call = calls.into_iter().next();
            }
        }
        Ok(Some(CallOutcome::Text {
            shape: Some(shape),
            parsed,
        }))
    }

    /// The tool answers with the secret word: does the model repeat it, or
    /// call again?
    async fn answer_probe(
        &self,
        run: &Run<'_>,
        question: &[ChatMessage],
        call: ToolCallRecord,
        f: &mut Findings,
    ) -> Result<Option<AnswerOutcome>, ProbeError> {
        let word = probes::secret_word(self.engine.host().now_ms());
        let system = if call.as_text {
            format!("{}{}", probes::SYSTEM, super::text_calls::PROMPT_RULE)
        } else {
            probes::SYSTEM.to_string()
        };
        let mut messages = question.to_vec();
        messages.push(ChatMessage::Assistant {
            text: String::new(),
            tool_calls: vec![call.clone()],
            reasoning: String::new(),
            thinking: Vec::new(),
            usage: None,
            sources: Vec::new(),
        });
        messages.push(ChatMessage::Tool {
            call_id: call.id.clone(),
            tool: probes::TOOL_NAME.into(),
            content: word.clone(),
            is_error: false,
            result: Box::new(ToolResult::success(word.clone())),
            table: None,
        });
        let answer = match self
            .ask(
                run,
                &system,
                &messages,
                &[probes::tool()],
                false,
                false,
                FOLLOW_UP_MS,
                f,
            )
            .await?
        {
            Some(Ok(answer)) => answer,
            Some(Err(error)) => return Ok(Some(AnswerOutcome::Failed(error))),
            None => return Ok(None),
        };
        let text = &answer.reply.text;
        Ok(Some(
            if !answer.reply.tool_calls.is_empty()
                || probes::written_shape(text).is_some_and(|(_, parsed)| parsed)
            {
                AnswerOutcome::CalledAgain
            } else if probes::repeats(text, &word) {
                AnswerOutcome::Repeated
            } else {
                AnswerOutcome::Missed
            },
        ))
    }

    /// The time left for a probe of `bound` ms, or `None` when the check's
    /// minute is (nearly) up.
    fn time_for(&self, run: &Run<'_>, bound: u32, f: &mut Findings) -> Option<u32> {
        let left = TOTAL_MS - (self.engine.host().now_ms() - run.start);
        if left < MIN_PROBE_MS {
            f.out_of_time = true;
            return None;
        }
        Some((bound as f64).min(left) as u32)
    }

    /// A short request whose whole body is read: `Ok(Err)` when it failed
    /// before an answer, `Ok(Ok((status, body)))` otherwise.
    async fn fetch(
        &self,
        run: &Run<'_>,
        request: HttpRequest,
        bound: u32,
    ) -> Result<Result<(u16, String), ChatError>, ProbeError> {
        let left = TOTAL_MS - (self.engine.host().now_ms() - run.start);
        let bound = (bound as f64).min(left.max(1.0)) as u32;
        let request = HttpRequest {
            timeout_ms: bound,
            first_byte_timeout_ms: 0,
            idle_timeout_ms: bound,
            tag: Some(CHECK_TAG.into()),
            ..request
        };
        let opened = self.engine.http_open(&request, "model check").await;
        if self.stop_requested(CHECK_TAG) {
            if let Ok(head) = &opened {
                self.engine.host().http_close(head.id);
            }
            return Err(ProbeError::Stopped);
        }
        let head = match opened {
            Ok(head) => head,
            Err(failure) => return Ok(Err(connection_error(&request.url, &failure))),
        };
        // OpenRouter lists hundreds of models.
        let body = self.read_body(head.id, 8 * 1024 * 1024).await;
        if self.stop_requested(CHECK_TAG) {
            return Err(ProbeError::Stopped);
        }
        Ok(Ok((head.status, body)))
    }

    /// One model request of the check, streamed and timed. `Ok(None)`: not
    /// run, the check's time was up.
    #[allow(clippy::too_many_arguments)]
    async fn ask(
        &self,
        run: &Run<'_>,
        system: &str,
        messages: &[ChatMessage],
        tools: &[ModelTool],
        force: bool,
        usage: bool,
        bound: u32,
        f: &mut Findings,
    ) -> Result<Option<Result<Answer, ChatError>>, ProbeError> {
        let Some(bound) = self.time_for(run, bound, f) else {
            return Ok(None);
        };
        let start = self.engine.host().now_ms();
        let deadline = start + bound as f64;
        let mut stream_usage = usage && run.kind == ProviderKind::OpenAi;
        loop {
            let mut request = build_request(
                run.kind,
                &ModelRequest {
                    settings: run.provider,
                    api_key: run.api_key.clone(),
                    system,
                    messages,
                    tools,
                    first_token_timeout_ms: bound,
                    timeout_ms: bound,
                    answer_tokens: ANSWER_TOKENS,
                    stream_usage,
                    thinking_budget: 0,
                },
            );
            if force {
                request.body = request.body.map(|body| probes::force_tool(run.kind, &body));
            }
            let request = HttpRequest {
                tag: Some(CHECK_TAG.into()),
                ..request
            };
            let opened = self.engine.http_open(&request, "model check").await;
            if self.stop_requested(CHECK_TAG) {
                if let Ok(head) = &opened {
                    self.engine.host().http_close(head.id);
                }
                return Err(ProbeError::Stopped);
            }
            let head = match opened {
                Ok(head) => head,
                Err(failure) if failure.code == "ETIMEDOUT" => {
                    return Ok(Some(Err(ChatError::NoFirstToken {
                        seconds: bound.div_ceil(1000),
                    })))
                }
                Err(failure) => return Ok(Some(Err(connection_error(&request.url, &failure)))),
            };
            if head.status != 200 {
                let body = self.read_error_body(head.id).await;
                if head.status == 400
                    && stream_usage
                    && body.to_ascii_lowercase().contains("stream_options")
                {
                    stream_usage = false;
                    continue;
                }
                let key_sent = request.headers.iter().any(|(name, _)| {
                    name.eq_ignore_ascii_case("authorization")
                        || name.eq_ignore_ascii_case("x-api-key")
                });
                return Ok(Some(Err(status_error(
                    head.status,
                    &body,
                    &run.provider.model,
                    &request.url,
                    key_sent,
                ))));
            }
            let read = self
                .read_timed(run.kind, head, start, deadline, bound)
                .await;
            return match read {
                Err(ProbeError::Stopped) => Err(ProbeError::Stopped),
                Err(ProbeError::Failed(error)) => Ok(Some(Err(error))),
                Ok(answer) => Ok(Some(Ok(answer))),
            };
        }
    }

    /// Reads a model's answer to its end, noting when the first piece came,
    /// and never past `deadline`.
    async fn read_timed(
        &self,
        kind: ProviderKind,
        head: crate::base::host::HttpResponseHead,
        start: f64,
        deadline: f64,
        bound: u32,
    ) -> Result<Answer, ProbeError> {
        let whole = head.content_type.as_deref().is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t.contains("json") && !t.contains("event-stream")
        });
        let host = self.engine.host();
        let mut parser = SseParser::new();
        let mut stream = assembler(kind);
        let mut raw: Vec<u8> = Vec::new();
        let mut first: Option<f64> = None;
        let mut events = 0usize;
        let result = loop {
            let chunk = match host.http_read(head.id).await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break Ok(()),
                Err(failure) => {
                    break Err(
                        if self.stop_requested(CHECK_TAG) || failure.code == "ABORTED" {
                            ProbeError::Stopped
                        } else if failure.code == "STALLED" && events == 0 {
                            ProbeError::Failed(ChatError::NoFirstToken {
                                seconds: bound.div_ceil(1000),
                            })
                        } else if failure.code == "STALLED" {
                            ProbeError::Failed(ChatError::Stalled {
                                seconds: bound.div_ceil(1000),
                            })
                        } else {
                            ProbeError::Failed(ChatError::Cut {
                                detail: failure.code,
                            })
                        },
                    );
                }
            };
            let now = host.now_ms();
            if self.stop_requested(CHECK_TAG) {
                break Err(ProbeError::Stopped);
            }
            if raw.len() < 1024 * 1024 {
                raw.extend_from_slice(&chunk);
            }
            if !whole {
                for event in parser.push(&chunk) {
                    events += 1;
                    match stream.on_event(&event) {
                        Ok(pieces) if !pieces.is_empty() => {
                            first.get_or_insert(now);
                        }
                        Ok(_) => {}
                        Err(error) => {
                            host.http_close(head.id);
                            return Err(ProbeError::Failed(error));
                        }
                    }
                }
            }
            if now > deadline {
                break Err(ProbeError::Failed(if first.is_none() {
                    ChatError::NoFirstToken {
                        seconds: bound.div_ceil(1000),
                    }
                } else {
                    ChatError::Stalled {
                        seconds: bound.div_ceil(1000),
                    }
                }));
            }
        };
        host.http_close(head.id);
        result?;
        let end = host.now_ms();
        let body = String::from_utf8_lossy(&raw);
        let reply = if whole || (events == 0 && body.trim_start().starts_with('{')) {
            parse_whole_reply(kind, &body).map_err(ProbeError::Failed)?
        } else {
            for event in parser.finish() {
                stream.on_event(&event).map_err(ProbeError::Failed)?;
            }
            stream.flush();
            stream.finish()
        };
        // A reply of tool calls only has no text piece: its first event counts.
        let first = first.unwrap_or(end);
        Ok(Answer {
            reply,
            first_ms: first - start,
            end_ms: end - start,
        })
    }
}

fn user(text: &str) -> ChatMessage {
    ChatMessage::User {
        text: text.into(),
        attachments: None,
    }
}
