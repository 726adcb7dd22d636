//! "Check this model": what the probes found (`Findings`), and what that
//! means for the user: a short table (passed, failed, not applicable, with
//! the figure), what to do in words, and the settings that fix it in one
//! click. Only decisions live here; `model_check.rs` runs the probes.

use serde::Serialize;
use serde_json::{json, Value};

use super::model::ChatError;
use crate::settings::{ModelCheckRecord, ProviderKind};

/// How one probe came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum CheckStatus {
    Passed,
    Failed,
    NotApplicable,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CheckRow {
    /// Stable name (kept in the profile's record): `reachable`, `toolCall` …
    pub probe: String,
    /// What the user reads, in sentence case.
    pub name: String,
    pub status: CheckStatus,
    /// The measured figure, or why it did not apply.
    pub figure: String,
}

/// A setting change that fixes what the check found: the shim applies
/// `patch` to the checked profile as it is, then the check may run again.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CheckFix {
    /// The button's words.
    pub label: String,
    #[cfg_attr(test, ts(type = "Partial<ModelProfile>"))]
    pub patch: Value,
}

/// The answer of "Check this model".
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ModelCheckReport {
    /// The checked profile's id and model.
    pub profile: String,
    pub model: String,
    pub rows: Vec<CheckRow>,
    /// What to do, most important first; never empty.
    pub advice: Vec<String>,
    pub fixes: Vec<CheckFix>,
    /// What the profile keeps; `None` when the check was stopped (half a
    /// check says nothing about the model).
    pub record: Option<ModelCheckRecord>,
    pub stopped: bool,
    /// The table and the advice as plain text (the CLI prints it).
    pub text: String,
}

/// How a request with the made-up tool came out.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// The model called the tool natively.
    Called,
    /// It answered in text; `shape` names the written call in it, and
    /// `parsed` says whether the chat reads that shape.
    Text {
        shape: Option<&'static str>,
        parsed: bool,
    },
    /// The request failed (refused, timed out, cut).
    Failed(ChatError),
}

/// What the model did once the tool had answered.
#[derive(Clone, Debug, PartialEq)]
pub enum AnswerOutcome {
    /// It repeated the tool's random word.
    Repeated,
    /// It answered without the word.
    Missed,
    /// It called the tool again although it had the answer.
    CalledAgain,
    Failed(ChatError),
}

/// What the image probe found.
#[derive(Clone, Debug, PartialEq)]
pub enum ImageOutcome {
    /// The profile does not say the model reads images: not asked.
    NotClaimed,
    /// It named the colour.
    Read,
    Missed,
    Failed(ChatError),
}

/// The streaming probe's measures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamFacts {
    /// From the request to the first piece of the answer.
    pub first_token_ms: f64,
    /// From the first piece to the end.
    pub generation_ms: f64,
    /// The server's usage figures, when it reports them.
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// The answer's text, for an estimate without usage.
    pub text_chars: usize,
}

/// The context window as the server and the profile see it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WindowFacts {
    /// What the server says, and where it said it.
    pub server: Option<(u32, &'static str)>,
    /// The profile's setting; 0: ask the server.
    pub profile: u32,
    /// What the chat plans with (`ChatDoor::context_window`).
    pub planned: usize,
    /// The system prompt, the tools and the answer's room, for `planned`.
    pub needed: usize,
}

/// Everything the probes found, and what the check needs to know of the profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Findings {
    pub profile: String,
    pub kind: Option<ProviderKind>,
    pub model: String,
    pub base_url: String,
    pub text_tool_calls: bool,
    pub images_setting: Option<bool>,
    pub first_token_timeout_ms: u32,
    /// The listing: `Ok(models)` (empty: the server lists none), or why it failed.
    pub listing: Option<Result<Vec<String>, ChatError>>,
    pub stream: Option<Result<StreamFacts, ChatError>>,
    pub window: WindowFacts,
    /// The made-up tool, unasked and with `tool_choice`.
    pub native: Option<CallOutcome>,
    pub forced: Option<CallOutcome>,
    pub answer: Option<AnswerOutcome>,
    /// With the text-form rule in the prompt, when native calls failed.
    pub text_form: Option<CallOutcome>,
    pub images: Option<ImageOutcome>,
    /// Ollama's `capabilities` said `tools` is not among them.
    pub server_says_no_tools: bool,
    pub stopped: bool,
    /// The check's minute was up before every probe ran.
    pub out_of_time: bool,
    pub at_ms: f64,
}

/// Below these the advice speaks of speed.
const SLOW_OUTPUT_PER_S: f64 = 5.0;

fn row(probe: &str, name: &str, status: CheckStatus, figure: impl Into<String>) -> CheckRow {
    CheckRow {
        probe: probe.into(),
        name: name.into(),
        status,
        figure: figure.into(),
    }
}

fn seconds(ms: f64) -> String {
    if ms < 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else {
        format!("{:.0} s", ms / 1000.0)
    }
}

/// A failed request in a few words for the table.
fn short_error(error: &ChatError) -> String {
    match error {
        ChatError::NoFirstToken { seconds } => format!("no answer within {seconds} s"),
        ChatError::Stalled { seconds } => format!("stalled for {seconds} s"),
        ChatError::NoToolSupport { .. } => "the server refused the tools".into(),
        ChatError::Connection { detail, .. } => detail.clone(),
        ChatError::Unauthorized { status, .. } | ChatError::NoKeySent { status } => {
            format!("refused ({status})")
        }
        ChatError::BadRequest { status, detail } | ChatError::ServerError { status, detail } => {
            format!("{status}: {}", detail.chars().take(80).collect::<String>())
        }
        other => other.code().replace('_', " "),
    }
}

impl Findings {
    fn not_run(&self) -> &'static str {
        if self.stopped {
            "not run: stopped"
        } else if self.out_of_time {
            "not run: the check's time was up"
        } else {
            "not run"
        }
    }

    /// Tool calls work with the profile as it is: natively, or written as
    /// text with the switch on.
    fn tools_work(&self) -> bool {
        let called = |o: &Option<CallOutcome>| matches!(o, Some(CallOutcome::Called));
        let written =
            |o: &Option<CallOutcome>| matches!(o, Some(CallOutcome::Text { parsed: true, .. }));
        called(&self.native)
            || called(&self.forced)
            || (self.text_tool_calls && (written(&self.native) || written(&self.text_form)))
    }

    /// The table, the advice and the fixes.
    pub fn report(&self) -> ModelCheckReport {
        let mut rows = Vec::new();
        let mut advice = Vec::new();
        let mut fixes = Vec::new();
        let na = CheckStatus::NotApplicable;
        let (passed, failed) = (CheckStatus::Passed, CheckStatus::Failed);

        // Reachable, key, listed.
        let mut reached = false;
        match &self.listing {
            None => {
                rows.push(row("reachable", "Server reachable", na, self.not_run()));
                rows.push(row("key", "API key accepted", na, self.not_run()));
                rows.push(row("listed", "Model listed", na, self.not_run()));
            }
            Some(Err(error @ (ChatError::Connection { .. } | ChatError::LocalOnly { .. }))) => {
                rows.push(row(
                    "reachable",
                    "Server reachable",
                    failed,
                    short_error(error),
                ));
                rows.push(row("key", "API key accepted", na, "not reached"));
                rows.push(row("listed", "Model listed", na, "not reached"));
                advice.push(format!(
                    "Vault Agent cannot reach the server at {}. {} Then check again.",
                    self.base_url, error
                ));
            }
            Some(Err(
                error @ (ChatError::Unauthorized { .. }
                | ChatError::NoKeySent { .. }
                | ChatError::MissingApiKey { .. }),
            )) => {
                reached = !matches!(error, ChatError::MissingApiKey { .. });
                let figure = if reached { "answered" } else { "not asked" };
                rows.push(row(
                    "reachable",
                    "Server reachable",
                    if reached { passed } else { na },
                    figure,
                ));
                rows.push(row("key", "API key accepted", failed, short_error(error)));
                rows.push(row("listed", "Model listed", na, "not asked"));
                advice.push(format!("{error} Then check again."));
            }
            Some(Err(error)) => {
                // It answered, but not with a listing: the chat may still work.
                reached = true;
                rows.push(row("reachable", "Server reachable", passed, "answered"));
                rows.push(row("key", "API key accepted", na, "not asked"));
                rows.push(row("listed", "Model listed", na, short_error(error)));
            }
            Some(Ok(models)) => {
                reached = true;
                rows.push(row("reachable", "Server reachable", passed, "answered"));
                rows.push(row("key", "API key accepted", passed, "accepted"));
                if models.is_empty() {
                    rows.push(row(
                        "listed",
                        "Model listed",
                        na,
                        "the server lists no models",
                    ));
                } else if models.contains(&self.model) {
                    rows.push(row(
                        "listed",
                        "Model listed",
                        passed,
                        format!("{} models", models.len()),
                    ));
                } else {
                    rows.push(row(
                        "listed",
                        "Model listed",
                        failed,
                        format!("not among {} models", models.len()),
                    ));
                    advice.push(format!(
                        "The server does not list the model \"{}\". Check its name in Settings → Vault Agent → Model (\"Test connection\" lists the models the server has){}.",
                        self.model,
                        if self.base_url.contains(":11434") {
                            format!(", or run `ollama pull {}`", self.model)
                        } else {
                            String::new()
                        }
                    ));
                }
            }
        }

        // Streaming and speed.
        match &self.stream {
            None => {
                let why = if reached {
                    self.not_run()
                } else {
                    "not reached"
                };
                rows.push(row("streaming", "Streaming answer", na, why));
                rows.push(row("speed", "Speed", na, why));
            }
            Some(Err(error)) => {
                rows.push(row(
                    "streaming",
                    "Streaming answer",
                    failed,
                    short_error(error),
                ));
                rows.push(row("speed", "Speed", na, "no answer"));
                advice.push(match error {
                    ChatError::NoFirstToken { seconds } => format!(
                        "The model sent nothing within {seconds} s to a short question. Check that the server is running and has memory for the model (a model being loaded may need a minute: check again then)."
                    ),
                    other => other.to_string(),
                });
            }
            Some(Ok(stream)) => {
                rows.push(row(
                    "streaming",
                    "Streaming answer",
                    passed,
                    format!("first token after {}", seconds(stream.first_token_ms)),
                ));
                let output = stream
                    .output_tokens
                    .map(|n| (n as f64, ""))
                    .unwrap_or(((stream.text_chars as f64 / 4.0).max(1.0), "about "));
                let out_rate = output.0 / (stream.generation_ms.max(1.0) / 1000.0);
                let prompt_rate = stream
                    .input_tokens
                    .filter(|_| stream.first_token_ms > 0.0)
                    .map(|n| n as f64 / (stream.first_token_ms / 1000.0));
                let mut figure = format!("{}{out_rate:.0} tokens/s out", output.1);
                if let Some(rate) = prompt_rate {
                    figure.push_str(&format!(", {rate:.0} tokens/s reading"));
                }
                let slow = out_rate < SLOW_OUTPUT_PER_S;
                rows.push(row(
                    "speed",
                    "Speed",
                    if slow { failed } else { passed },
                    figure,
                ));
                if slow {
                    advice.push(format!(
                        "This model writes about {out_rate:.0} tokens a second: a long answer takes minutes. A smaller model, or one that fits the GPU's memory, is faster."
                    ));
                }
                if let Some(rate) = prompt_rate.filter(|r| *r > 0.0) {
                    let first = self.window.needed as f64 / rate;
                    if first * 1000.0 > self.first_token_timeout_ms as f64 {
                        advice.push(format!(
                            "This model reads about {rate:.0} tokens a second: a first answer, with Vault Agent's prompt of about {} tokens, takes about {first:.0} s, longer than \"Wait for the first token\" ({} s). Raise it in Settings → Vault Agent → Advanced, or use a smaller model.",
                            self.window.needed,
                            self.first_token_timeout_ms / 1000
                        ));
                    }
                }
            }
        }

        // The context window.
        let window = &self.window;
        match window.server {
            None => rows.push(row(
                "window",
                "Context window",
                na,
                if window.profile > 0 {
                    format!(
                        "the server does not say; the profile is set to {}",
                        window.profile
                    )
                } else {
                    format!("the server does not say; planning with {}", window.planned)
                },
            )),
            Some((size, source)) if window.profile > size => {
                rows.push(row(
                    "window",
                    "Context window",
                    failed,
                    format!("{source}: {size}; the profile is set to {}", window.profile),
                ));
                advice.push(format!(
                    "The profile is set to a context window of {} tokens, but the server runs this model with {size}: a longer conversation would be cut without warning. Set the window to {size} (one click), or raise the server's own (OLLAMA_CONTEXT_LENGTH, LM Studio's context length, llama.cpp -c, vLLM --max-model-len) and check again.",
                    window.profile
                ));
                fixes.push(CheckFix {
                    label: format!("Set the context window to {size}"),
                    patch: json!({ "contextWindow": size }),
                });
            }
            Some((size, source)) => rows.push(row(
                "window",
                "Context window",
                passed,
                if window.profile > 0 {
                    format!("{source}: {size}; the profile is set to {}", window.profile)
                } else {
                    format!("{source}: {size}")
                },
            )),
        }
        if window.planned == 0 || !reached {
            rows.push(row("fits", "Prompt and tools fit", na, "not reached"));
        } else if window.needed >= window.planned {
            rows.push(row(
                "fits",
                "Prompt and tools fit",
                failed,
                format!("about {} of {} tokens", window.needed, window.planned),
            ));
            advice.push(format!(
                "Vault Agent's instructions and tools need about {} tokens with room for the answer, more than the model reads at once ({}). Raise the server's context size and the profile's window, or turn off tools you do not need (Settings → Vault Agent → Tools).",
                window.needed, window.planned
            ));
        } else {
            rows.push(row(
                "fits",
                "Prompt and tools fit",
                passed,
                format!("about {} of {} tokens", window.needed, window.planned),
            ));
        }

        // Tool calls.
        let call_row =
            |probe: &str, name: &str, outcome: &Option<CallOutcome>, skipped: &str| match outcome {
                None => row(probe, name, na, skipped),
                Some(CallOutcome::Called) => row(probe, name, passed, "called the tool"),
                Some(CallOutcome::Text {
                    shape: Some(shape), ..
                }) => row(
                    probe,
                    name,
                    failed,
                    format!("wrote the call as text ({shape})"),
                ),
                Some(CallOutcome::Text { shape: None, .. }) => {
                    row(probe, name, failed, "answered without calling it")
                }
                Some(CallOutcome::Failed(error)) => row(probe, name, failed, short_error(error)),
            };
        let skipped = if self.stream.as_ref().is_some_and(|s| s.is_ok()) {
            self.not_run()
        } else {
            "not run: no answer"
        };
        rows.push(call_row("toolCall", "Calls a tool", &self.native, skipped));
        let native_ok = matches!(self.native, Some(CallOutcome::Called));
        rows.push(if native_ok {
            row(
                "toolChoice",
                "Calls a tool when told to (tool_choice)",
                na,
                "not needed",
            )
        } else {
            call_row(
                "toolChoice",
                "Calls a tool when told to (tool_choice)",
                &self.forced,
                skipped,
            )
        });
        rows.push(match &self.answer {
            None => row(
                "usesAnswer",
                "Uses the tool's answer",
                na,
                "no call to answer",
            ),
            Some(AnswerOutcome::Repeated) => row(
                "usesAnswer",
                "Uses the tool's answer",
                passed,
                "repeated the word",
            ),
            Some(AnswerOutcome::CalledAgain) => row(
                "usesAnswer",
                "Uses the tool's answer",
                na,
                "called again instead",
            ),
            Some(AnswerOutcome::Missed) => row(
                "usesAnswer",
                "Uses the tool's answer",
                failed,
                "answered without the word",
            ),
            Some(AnswerOutcome::Failed(error)) => row(
                "usesAnswer",
                "Uses the tool's answer",
                failed,
                short_error(error),
            ),
        });
        rows.push(match &self.answer {
            None | Some(AnswerOutcome::Failed(_)) => row(
                "stops",
                "Stops calling once it has the answer",
                na,
                "no call to answer",
            ),
            Some(AnswerOutcome::CalledAgain) => row(
                "stops",
                "Stops calling once it has the answer",
                failed,
                "called the tool again",
            ),
            Some(_) => row(
                "stops",
                "Stops calling once it has the answer",
                passed,
                "answered",
            ),
        });
        let text_outcome = match (&self.native, &self.text_form) {
            (Some(CallOutcome::Text { shape: Some(_), .. }), None) => self.native.clone(),
            _ => self.text_form.clone(),
        };
        rows.push(match &text_outcome {
            _ if native_ok || matches!(self.forced, Some(CallOutcome::Called)) => {
                row("textForm", "Tool calls written as text", na, "not needed")
            }
            None => row("textForm", "Tool calls written as text", na, skipped),
            Some(CallOutcome::Text {
                shape: Some(shape),
                parsed: true,
            }) => row(
                "textForm",
                "Tool calls written as text",
                passed,
                format!("{shape}, which the chat reads"),
            ),
            Some(CallOutcome::Text {
                shape: Some(shape),
                parsed: false,
            }) => row(
                "textForm",
                "Tool calls written as text",
                failed,
                format!("{shape}, which the chat does not read"),
            ),
            Some(CallOutcome::Called) => row(
                "textForm",
                "Tool calls written as text",
                na,
                "called natively",
            ),
            Some(CallOutcome::Text { shape: None, .. }) => row(
                "textForm",
                "Tool calls written as text",
                failed,
                "no call in the answer",
            ),
            Some(CallOutcome::Failed(error)) => row(
                "textForm",
                "Tool calls written as text",
                failed,
                short_error(error),
            ),
        });

        // Advice on tools: the one that matters most for an agent.
        let tried_tools = self.native.is_some();
        let forced_ok = matches!(self.forced, Some(CallOutcome::Called));
        let text_ok = matches!(text_outcome, Some(CallOutcome::Text { parsed: true, .. }));
        if tried_tools && !native_ok {
            let refused = [&self.native, &self.forced].iter().find_map(|o| match o {
                Some(CallOutcome::Failed(
                    e @ (ChatError::NoToolSupport { .. } | ChatError::BadRequest { .. }),
                )) => Some(e.clone()),
                _ => None,
            });
            let auto_flag = matches!(&refused, Some(ChatError::BadRequest { detail, .. }) if detail.contains("auto") && detail.contains("tool"));
            if forced_ok {
                advice.push(if auto_flag {
                    "This server calls tools only when made to: vLLM needs --enable-auto-tool-choice and --tool-call-parser (hermes for Qwen and Hermes models, llama3_json, mistral …) to let the model choose. Restart it with them and check again.".to_string()
                } else {
                    "This model calls a tool only when made to, not when it may choose. Try a larger or newer model; llama.cpp needs --jinja to let the model choose.".to_string()
                });
            } else if text_ok && self.text_tool_calls {
                advice.push("This model writes its tool calls as text, and text-form tool calls are on for this profile: the chat runs them (a change always waits for your approval).".into());
            } else if text_ok {
                let shape = match &text_outcome {
                    Some(CallOutcome::Text {
                        shape: Some(shape), ..
                    }) => *shape,
                    _ => "text",
                };
                advice.push(format!(
                    "This model writes its tool calls as text ({shape}) instead of calling tools. Text-form calls work: turn them on (one click)."
                ));
                fixes.push(text_calls_fix());
            } else if matches!(
                self.native,
                Some(CallOutcome::Failed(
                    ChatError::NoFirstToken { .. } | ChatError::Stalled { .. }
                ))
            ) {
                advice.push("The model did not answer the tool question in time, so whether it calls tools is not known. Check again when the server is less busy.".into());
            } else {
                let why = match &refused {
                    Some(ChatError::NoToolSupport { .. }) => {
                        " (the server says this model has no tool support)"
                    }
                    _ if self.server_says_no_tools => {
                        " (its server does not list tools among its capabilities)"
                    }
                    _ => "",
                };
                let server_hint = if self.base_url.contains(":8080") {
                    " A llama.cpp server calls tools only when started with --jinja."
                } else {
                    ""
                };
                if self.text_tool_calls {
                    advice.push(format!(
                        "This model does not call tools{why}, not even as text.{server_hint} Pick a model that calls tools (for Ollama, e.g. qwen2.5, llama3.1 or mistral-nemo)."
                    ));
                } else {
                    advice.push(format!(
                        "This model does not call tools{why}.{server_hint} Turn on text-form tool calls (one click), or pick a model that calls tools (for Ollama, e.g. qwen2.5, llama3.1 or mistral-nemo)."
                    ));
                    fixes.push(text_calls_fix());
                }
            }
        }
        match &self.answer {
            Some(AnswerOutcome::CalledAgain) => advice.push("This model kept calling the tool after it had the answer. The chat stops a call repeated with the same arguments, but answers take longer and may end at the round limit: a larger model, or a newer one, stops by itself.".into()),
            Some(AnswerOutcome::Missed) => advice.push("This model called the tool but did not use what it returned: its answers about your notes may not rest on what it read. A larger model does better.".into()),
            _ => {}
        }

        // Images.
        rows.push(match &self.images {
            None => row("images", "Reads images", na, skipped),
            Some(ImageOutcome::NotClaimed) => row(
                "images",
                "Reads images",
                na,
                "the profile does not send images",
            ),
            Some(ImageOutcome::Read) => row("images", "Reads images", passed, "named the colour"),
            Some(ImageOutcome::Missed) => {
                row("images", "Reads images", failed, "did not name the colour")
            }
            Some(ImageOutcome::Failed(error)) => {
                row("images", "Reads images", failed, short_error(error))
            }
        });
        if matches!(
            self.images,
            Some(ImageOutcome::Missed | ImageOutcome::Failed(_))
        ) {
            advice.push("This model did not read a small picture although the profile sends it images. Set \"Model accepts images\" to No (one click), or pick a model that reads images.".into());
            fixes.push(CheckFix {
                label: "Stop sending images to this model".into(),
                patch: json!({ "images": false }),
            });
        }

        if self.stopped {
            advice.insert(0, "The check was stopped; what ran is shown.".into());
        } else if self.out_of_time {
            advice.push("The check's minute was up before every probe ran: the server is slow. Check again once the model is loaded.".into());
        }
        if advice.is_empty() {
            advice.push("This model does everything Vault Agent needs.".into());
        }
        let record = (!self.stopped).then(|| ModelCheckRecord {
            at_ms: self.at_ms,
            model: self.model.clone(),
            passed: names(&rows, CheckStatus::Passed),
            failed: names(&rows, CheckStatus::Failed),
            tools: self.tools_work(),
            advice: advice.first().cloned().unwrap_or_default(),
        });
        let text = text_table(&rows, &advice, &fixes);
        ModelCheckReport {
            profile: self.profile.clone(),
            model: self.model.clone(),
            rows,
            advice,
            fixes,
            record,
            stopped: self.stopped,
            text,
        }
    }
}

fn text_calls_fix() -> CheckFix {
    CheckFix {
        label: "Turn on text-form tool calls".into(),
        patch: json!({ "textToolCalls": true }),
    }
}

fn names(rows: &[CheckRow], status: CheckStatus) -> Vec<String> {
    rows.iter()
        .filter(|r| r.status == status)
        .map(|r| r.probe.clone())
        .collect()
}

/// The report as the CLI prints it.
fn text_table(rows: &[CheckRow], advice: &[String], fixes: &[CheckFix]) -> String {
    let mut out = String::new();
    for r in rows {
        let status = match r.status {
            CheckStatus::Passed => "passed",
            CheckStatus::Failed => "FAILED",
            CheckStatus::NotApplicable => "n/a",
        };
        out.push_str(&format!("{status:<7} {}: {}\n", r.name, r.figure));
    }
    out.push('\n');
    for line in advice {
        out.push_str(line);
        out.push('\n');
    }
    for fix in fixes {
        out.push_str(&format!("Fix: {} ({})\n", fix.label, fix.patch));
    }
    out
}

/// What the chat's empty state says of the profile's check: nothing when
/// its model passed the tool probe, else when it failed and what to do, or
/// that it was never checked.
pub fn empty_state_hint(model: &str, record: Option<&ModelCheckRecord>) -> Option<String> {
    match record.filter(|r| r.model == model) {
        None => Some(format!(
            "The model \"{model}\" has not been checked. Settings → Vault Agent → Model → Check this model tells in a minute whether it calls tools and fits its window."
        )),
        Some(r) if !r.tools => Some(format!(
            "The last check of \"{model}\" found that its tool calls do not work. {}",
            r.advice
        )),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> Findings {
        Findings {
            profile: "p".into(),
            kind: Some(ProviderKind::OpenAi),
            model: "m".into(),
            base_url: "http://127.0.0.1:9/v1".into(),
            first_token_timeout_ms: 120_000,
            listing: Some(Ok(vec!["m".into(), "n".into()])),
            stream: Some(Ok(StreamFacts {
                first_token_ms: 200.0,
                generation_ms: 1000.0,
                input_tokens: Some(40),
                output_tokens: Some(30),
                text_chars: 100,
            })),
            window: WindowFacts {
                server: Some((32_768, "the server")),
                profile: 0,
                planned: 32_768,
                needed: 6_000,
            },
            native: Some(CallOutcome::Called),
            answer: Some(AnswerOutcome::Repeated),
            images: Some(ImageOutcome::NotClaimed),
            ..Findings::default()
        }
    }

    fn status(report: &ModelCheckReport, probe: &str) -> CheckStatus {
        report
            .rows
            .iter()
            .find(|r| r.probe == probe)
            .unwrap()
            .status
    }

    #[test]
    fn a_model_that_does_everything_passes_with_nothing_to_do() {
        let report = good().report();
        assert!(
            report.rows.iter().all(|r| r.status != CheckStatus::Failed),
            "{:?}",
            report.rows
        );
        assert_eq!(
            report.advice,
            vec!["This model does everything Vault Agent needs."]
        );
        assert!(report.fixes.is_empty());
        let record = report.record.unwrap();
        assert!(record.tools);
        assert!(record.failed.is_empty());
        assert!(record.passed.contains(&"toolCall".to_string()));
        let speed = report.rows.iter().find(|r| r.probe == "speed").unwrap();
        assert_eq!(speed.figure, "30 tokens/s out, 200 tokens/s reading");
    }

    #[test]
    fn a_model_that_ignores_tools_gets_the_text_form_fix() {
        let report = Findings {
            native: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            forced: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            text_form: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            answer: None,
            ..good()
        }
        .report();
        assert_eq!(status(&report, "toolCall"), CheckStatus::Failed);
        assert_eq!(status(&report, "toolChoice"), CheckStatus::Failed);
        assert!(report.advice[0].starts_with("This model does not call tools. Turn on text-form tool calls (one click), or pick a model that calls tools"), "{:?}", report.advice);
        assert_eq!(report.fixes, vec![text_calls_fix()]);
        assert!(!report.record.unwrap().tools);
    }

    #[test]
    fn with_text_form_already_on_a_model_without_tools_is_told_to_pick_another() {
        let report = Findings {
            text_tool_calls: true,
            native: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            forced: Some(CallOutcome::Failed(ChatError::NoToolSupport {
                model: "m".into(),
                detail: "does not support tools".into(),
            })),
            text_form: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            answer: None,
            ..good()
        }
        .report();
        assert!(
            report.advice[0].contains("not even as text"),
            "{:?}",
            report.advice
        );
        assert!(report.advice[0].contains("has no tool support"));
        assert!(report.fixes.is_empty());
    }

    #[test]
    fn a_hermes_text_model_is_told_to_turn_text_form_on_and_then_passes() {
        let hermes = Findings {
            native: Some(CallOutcome::Text {
                shape: Some("<tool_call> tags (Hermes, Qwen)"),
                parsed: true,
            }),
            forced: Some(CallOutcome::Text {
                shape: Some("<tool_call> tags (Hermes, Qwen)"),
                parsed: true,
            }),
            ..good()
        };
        let report = hermes.report();
        assert_eq!(status(&report, "textForm"), CheckStatus::Passed);
        assert!(
            report.advice[0].contains("Text-form calls work: turn them on (one click)"),
            "{:?}",
            report.advice
        );
        assert_eq!(report.fixes, vec![text_calls_fix()]);
        assert!(
            !report.record.unwrap().tools,
            "off: the chat would not run them"
        );
        let on = Findings {
            text_tool_calls: true,
            ..hermes
        }
        .report();
        assert!(on.fixes.is_empty());
        assert!(on.record.unwrap().tools);
    }

    #[test]
    fn a_model_that_loops_gets_the_loop_verdict() {
        let report = Findings {
            answer: Some(AnswerOutcome::CalledAgain),
            ..good()
        }
        .report();
        assert_eq!(status(&report, "stops"), CheckStatus::Failed);
        assert!(report
            .advice
            .iter()
            .any(|a| a.contains("kept calling the tool after it had the answer")));
        let missed = Findings {
            answer: Some(AnswerOutcome::Missed),
            ..good()
        }
        .report();
        assert_eq!(status(&missed, "usesAnswer"), CheckStatus::Failed);
        assert_eq!(status(&missed, "stops"), CheckStatus::Passed);
    }

    #[test]
    fn a_profile_larger_than_the_servers_window_gets_the_window_fix() {
        let report = Findings {
            window: WindowFacts {
                server: Some((4_096, "max_model_len")),
                profile: 32_768,
                planned: 32_768,
                needed: 6_000,
            },
            ..good()
        }
        .report();
        assert_eq!(status(&report, "window"), CheckStatus::Failed);
        assert!(
            report.advice[0].contains("runs this model with 4096"),
            "{:?}",
            report.advice
        );
        assert_eq!(report.fixes[0].patch, json!({"contextWindow": 4096}));
        // Planned at the server's 4096, the prompt does not fit.
        let tight = Findings {
            window: WindowFacts {
                server: Some((4_096, "max_model_len")),
                profile: 0,
                planned: 4_096,
                needed: 5_000,
            },
            ..good()
        }
        .report();
        assert_eq!(status(&tight, "window"), CheckStatus::Passed);
        assert_eq!(status(&tight, "fits"), CheckStatus::Failed);
    }

    #[test]
    fn unreachable_and_refused_keys_are_said_plainly() {
        let unreachable = Findings {
            listing: Some(Err(ChatError::Connection {
                url: "http://127.0.0.1:9/v1/models".into(),
                detail: "ECONNREFUSED".into(),
                fix: "Is the server running?".into(),
            })),
            stream: None,
            native: None,
            answer: None,
            images: None,
            window: WindowFacts::default(),
            ..good()
        }
        .report();
        assert_eq!(status(&unreachable, "reachable"), CheckStatus::Failed);
        assert!(
            unreachable.advice[0]
                .starts_with("Vault Agent cannot reach the server at http://127.0.0.1:9/v1."),
            "{:?}",
            unreachable.advice
        );
        assert!(unreachable
            .rows
            .iter()
            .all(|r| r.status != CheckStatus::Passed));
        let refused = Findings {
            listing: Some(Err(ChatError::Unauthorized {
                status: 401,
                detail: "bad key".into(),
            })),
            stream: None,
            native: None,
            answer: None,
            ..good()
        }
        .report();
        assert_eq!(status(&refused, "reachable"), CheckStatus::Passed);
        assert_eq!(status(&refused, "key"), CheckStatus::Failed);
        assert!(
            refused.advice[0].starts_with("The model server refused the API key (401)"),
            "{:?}",
            refused.advice
        );
    }

    #[test]
    fn a_silent_model_and_a_stopped_check() {
        let silent = Findings {
            stream: Some(Err(ChatError::NoFirstToken { seconds: 20 })),
            native: None,
            answer: None,
            images: None,
            out_of_time: false,
            ..good()
        }
        .report();
        assert_eq!(status(&silent, "streaming"), CheckStatus::Failed);
        assert!(silent.advice[0].contains("sent nothing within 20 s"));
        let stopped = Findings {
            stopped: true,
            native: None,
            answer: None,
            ..good()
        }
        .report();
        assert!(stopped.record.is_none());
        assert_eq!(
            stopped.advice[0],
            "The check was stopped; what ran is shown."
        );
        assert_eq!(
            stopped
                .rows
                .iter()
                .find(|r| r.probe == "toolCall")
                .unwrap()
                .figure,
            "not run: stopped"
        );
    }

    #[test]
    fn images_and_slow_models() {
        let blind = Findings {
            images_setting: Some(true),
            images: Some(ImageOutcome::Missed),
            ..good()
        }
        .report();
        assert_eq!(status(&blind, "images"), CheckStatus::Failed);
        assert_eq!(blind.fixes[0].patch, json!({"images": false}));
        let slow = Findings {
            first_token_timeout_ms: 30_000,
            stream: Some(Ok(StreamFacts {
                first_token_ms: 2_000.0,
                generation_ms: 10_000.0,
                input_tokens: Some(80),
                output_tokens: Some(20),
                text_chars: 80,
            })),
            ..good()
        }
        .report();
        assert_eq!(status(&slow, "speed"), CheckStatus::Failed);
        // 40 tokens a second for a 6000-token prompt: 150 s, past the 30 s wait.
        assert!(
            slow.advice.iter().any(|a| a.contains("takes about 150 s")),
            "{:?}",
            slow.advice
        );
    }

    #[test]
    fn the_empty_state_hint() {
        assert!(empty_state_hint("m", None)
            .unwrap()
            .contains("has not been checked"));
        let record = good().report().record.unwrap();
        assert_eq!(empty_state_hint("m", Some(&record)), None);
        assert!(empty_state_hint("other", Some(&record))
            .unwrap()
            .contains("has not been checked"));
        let failed = Findings {
            native: Some(CallOutcome::Text {
                shape: None,
                parsed: false,
            }),
            forced: None,
            text_form: None,
            answer: None,
            ..good()
        }
        .report()
        .record
        .unwrap();
        let hint = empty_state_hint("m", Some(&failed)).unwrap();
        assert!(
            hint.contains("tool calls do not work. This model does not call tools"),
            "{hint}"
        );
    }
}
