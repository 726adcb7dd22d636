// Scripted model servers that behave like real model families, for the task
// benchmark (scripts/eval-agent/) and the model check: real HTTP servers on
// localhost that stream as the real formats do (OpenAI `chat.completions`
// chunks with `tool_calls` deltas; Anthropic Messages with `tool_use` blocks).
//
// A persona reads the task from a script keyed by the user's message: the
// calls a careful model makes, in order, and the answer it gives from what the
// tools returned. Each persona then has one documented flaw:
//
//   perfect        native OpenAI tool calls, does the right thing
//   anthropic      the same through Anthropic's Messages API (`tool_use`)
//   hermes         writes calls as `<tool_call>{…}</tool_call>` text (Qwen, Hermes
//                  behind a server without tool parsing: llama.cpp without --jinja)
//   json           writes one call as a bare JSON object with `parameters` (Llama 3.x)
//   ignores-tools  never calls a tool; answers from "what it knows"
//   repeater       calls the same tool with the same arguments, forever
//   small-window   perfect, but with a 4 096-token window: a longer prompt is refused
//                  with llama.cpp's error (or, `overflow: "truncate"`, cut from the
//                  front as Ollama does, so the tools and system prompt are lost)
import { createServer } from "node:http";
import { anthropicStream, isSummaryRequest, openaiStream } from "./model-servers.mjs";

export const PERSONAS = ["perfect", "anthropic", "hermes", "json", "ignores-tools", "repeater", "small-window"];

/** What a persona says when it has no tools or nothing to go on. */
export const IGNORANT_ANSWER = "I'm sorry, I can't see your notes. In general, you can look this up in your vault.";
/** What the careful personas say when the tools did not return what the script's answer rests on. */
export const NOT_FOUND_ANSWER = "I could not find that in your vault.";
/**
 * What every persona answers when the chat asks it to summarise earlier
 * turns: what a model that follows the request's rules writes (the changes
 * left to the plugin's own record, so only that record can tell them).
 */
export const PERSONA_SUMMARY = "Earlier, the user asked for several general briefs on working practices and got long ones.";
/** The call the repeater makes when its script has none. */
const REPEATED_FALLBACK = ["obsidianNotes", { command: "files" }];

/** llama.cpp's answer to a prompt longer than the context (`exceed_context_size_error`). */
function llamaCppOverflow(promptTokens, window) {
	return {
		error: {
			code: 400,
			message: `the request exceeds the available context size (${promptTokens} tokens > ${window}), try increasing it`,
			type: "exceed_context_size_error",
			n_prompt_tokens: promptTokens,
			n_ctx: window,
		},
	};
}

/**
 * Starts a persona's server on 127.0.0.1, port 0.
 * `scripts`: `{ [prompt]: steps }`, where a step is `{ calls: [[tool, args], …] }`
 * (or a function of the tool results so far and what it was given that
 * returns the calls) or `{ answer, from, inPrompt }`: the final answer, given
 * only when every string of `from` is in what the tools returned or what it
 * was given, and every string of `inPrompt` in what the request holds (else
 * NOT_FOUND_ANSWER); a summary request (the chat compacting) is answered
 * with PERSONA_SUMMARY; `answer` may be a function of the tool results'
 * texts and what it was given (a probe's random word repeated). What it was
 * given is the memory section of the system prompt (`<memory>…</memory>`):
 * what a careful model knows from earlier chats. A message matches the
 * script whose prompt it contains.
 * Returns `{ url, provider, model, requests, close() }`: `url` is the base
 * address a profile takes (`…/v1` for OpenAI-compatible servers).
 */
export async function startPersona(persona, { scripts = {}, window = 4096, overflow = "refuse", model = null, chunkSize = 9 } = {}) {
	if (!PERSONAS.includes(persona)) throw new Error(`unknown persona ${persona}: one of ${PERSONAS.join(", ")}`);
	const anthropic = persona === "anthropic";
	const name = model ?? `${persona}-model`;
	const requests = [];
	const server = createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (part) => (body += part));
		req.on("end", async () => {
			let json = null;
			try {
				json = body ? JSON.parse(body) : null;
			} catch {
				json = null;
			}
			requests.push({ method: req.method, url: req.url, body: json });
			const answer = (status, value) => {
				res.writeHead(status, { "content-type": "application/json" });
				res.end(JSON.stringify(value));
			};
			const path = req.url.split("?")[0];
			if (req.method === "GET" && path.endsWith("/models")) {
				const entry = anthropic ? { id: name, type: "model", display_name: name } : { id: name, object: "model", owned_by: "persona" };
				return answer(200, { object: "list", data: [entry] });
			}
			// llama.cpp's server properties: the window each slot has.
			if (req.method === "GET" && path === "/props" && persona === "small-window") {
				return answer(200, { default_generation_settings: { n_ctx: window }, total_slots: 1 });
			}
			const chat = anthropic ? path === "/v1/messages" : path.endsWith("/chat/completions");
			if (req.method !== "POST" || !chat || !json) return answer(404, { error: { message: `no route for ${req.method} ${req.url}` } });
			const reply = replyFor(persona, json, scripts, { window, overflow, anthropic });
			if (reply.status) return answer(reply.status, reply.json);
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			const stream = anthropic ? anthropicStream(reply) : openaiStream(reply);
			const bytes = Buffer.from(stream, "utf8");
			for (let at = 0; at < bytes.length; at += chunkSize) {
				if (res.destroyed) return;
				res.write(bytes.subarray(at, at + chunkSize));
				await new Promise((resolve) => setImmediate(resolve));
			}
			res.end();
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const root = `http://127.0.0.1:${server.address().port}`;
	return {
		url: anthropic ? root : `${root}/v1`,
		provider: anthropic ? "anthropic" : "openai",
		model: name,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(resolve);
			}),
	};
}

/** What the persona answers to one request: `{ text, toolCalls, usage }` for the stream, or `{ status, json }`. */
function replyFor(persona, body, scripts, { window, overflow, anthropic }) {
	const turn = anthropic ? readAnthropic(body) : readOpenAi(body);
	const promptTokens = estimateTokens(body);
	const usage = { input: Math.min(promptTokens, window * 64), output: 20 };
	if (persona === "small-window" && promptTokens > window) {
		if (overflow === "refuse") return { status: 400, json: llamaCppOverflow(promptTokens, window) };
		// Ollama keeps the end of the prompt: the system prompt and the tools are gone.
		return { text: IGNORANT_ANSWER, usage: { input: window, output: 20 } };
	}
	if (isSummaryRequest(body)) return { text: PERSONA_SUMMARY, usage };
	if (persona === "ignores-tools") return { text: IGNORANT_ANSWER, usage };
	const script = scriptFor(scripts, turn.prompt);
	if (persona === "repeater") {
		const first = script?.flatMap((step) => (Array.isArray(step.calls) ? step.calls : []))[0] ?? REPEATED_FALLBACK;
		return { toolCalls: [first], usage };
	}
	const next = nextMove(script, turn);
	if (next.text !== undefined) return { text: next.text, usage };
	switch (persona) {
		case "hermes":
			return { text: next.calls.map(([tool, args]) => `<tool_call>\n${JSON.stringify({ name: tool, arguments: args })}\n</tool_call>`).join("\n"), usage };
		case "json":
			// One call a reply: Llama 3.x writes a single JSON object.
			return { text: JSON.stringify({ name: next.calls[0][0], parameters: next.calls[0][1] }), usage };
		default:
			return { toolCalls: next.calls, usage };
	}
}

function scriptFor(scripts, prompt) {
	if (!prompt) return null;
	const key = Object.keys(scripts).find((p) => prompt.includes(p));
	return key === undefined ? null : scripts[key];
}

/** The script's next step given the calls already made since the prompt: `{ calls }` or `{ text }`. */
function nextMove(script, turn) {
	if (!script) return { text: IGNORANT_ANSWER };
	const made = [...turn.made];
	for (const step of script) {
		if (step.calls) {
			const calls = typeof step.calls === "function" ? step.calls(turn.results, turn.given) : step.calls;
			const pending = calls.filter(([tool, args]) => {
				const at = made.findIndex((m) => m.tool === tool && sameJson(m.args, args));
				if (at === -1) return true;
				made.splice(at, 1);
				return false;
			});
			if (pending.length) return { calls: pending };
			continue;
		}
		if (typeof step.answer === "function") return { text: step.answer(turn.results, turn.given) };
		const seen = [...turn.results, turn.given].join("\n").toLowerCase();
		// `inPrompt`: facts the answer rests on that must be in what the model was sent.
		const sent = turn.sent.toLowerCase();
		const grounded = (step.from ?? []).every((fact) => seen.includes(fact.toLowerCase())) && (step.inPrompt ?? []).every((fact) => sent.includes(fact.toLowerCase()));
		return { text: grounded ? step.answer : NOT_FOUND_ANSWER };
	}
	return { text: NOT_FOUND_ANSWER };
}

function sameJson(a, b) {
	return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

function sorted(value) {
	if (Array.isArray(value)) return value.map(sorted);
	if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
	return value;
}

/** The memory the plugin gave in the system prompt (its `<memory>` section), or "". */
function memoryOf(system) {
	return system.match(/<memory>\n([\s\S]*?)<\/memory>/)?.[1] ?? "";
}

/** The last user message with text, the calls made and results read since, and the memory given. */
function readOpenAi(body) {
	const messages = body.messages ?? [];
	const textOf = (content) => (typeof content === "string" ? content : Array.isArray(content) ? content.filter((p) => p.type === "text").map((p) => p.text).join("\n") : "");
	const at = messages.findLastIndex((m) => m.role === "user" && textOf(m.content).trim() && !messages[messages.indexOf(m) - 1]?.role?.startsWith("tool"));
	const since = at === -1 ? [] : messages.slice(at + 1);
	const made = since.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : [])).map((c) => ({ tool: c.function.name, args: parseArgs(c.function.arguments) }));
	const results = since.filter((m) => m.role === "tool").map((m) => textOf(m.content));
	const system = messages.filter((m) => m.role === "system").map((m) => textOf(m.content)).join("\n");
	return { prompt: at === -1 ? "" : textOf(messages[at].content), made, results, sent: messages.map((m) => textOf(m.content)).join("\n"), given: memoryOf(system) };
}

function readAnthropic(body) {
	const messages = body.messages ?? [];
	const blocks = (m) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content ?? []));
	const at = messages.findLastIndex((m) => m.role === "user" && blocks(m).some((b) => b.type === "text" && b.text.trim()) && !blocks(m).some((b) => b.type === "tool_result"));
	const since = at === -1 ? [] : messages.slice(at + 1);
	const made = since.flatMap((m) => (m.role === "assistant" ? blocks(m).filter((b) => b.type === "tool_use") : [])).map((b) => ({ tool: b.name, args: b.input ?? {} }));
	const resultText = (b) => (typeof b.content === "string" ? b.content : (b.content ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\n"));
	const results = since.flatMap((m) => (m.role === "user" ? blocks(m).filter((b) => b.type === "tool_result").map(resultText) : []));
	const prompt = at === -1 ? "" : blocks(messages[at]).filter((b) => b.type === "text").map((b) => b.text).join("\n");
	const sent = messages.flatMap((m) => blocks(m).map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? resultText(b) : ""))).join("\n");
	const system = typeof body.system === "string" ? body.system : (body.system ?? []).map((b) => b.text ?? "").join("\n");
	return { prompt, made, results, sent, given: memoryOf(system) };
}

function parseArgs(text) {
	try {
		return JSON.parse(text || "{}");
	} catch {
		return { unparsable: text };
	}
}

/**
 * Tokens in a request, as a server's tokenizer would count them, roughly:
 * four characters a token over the system prompt, the messages and the tools.
 */
export function estimateTokens(body) {
	// The words a tokenizer reads: every string value of the prompt (not the
	// JSON quoting around them, which would count a tool result's escapes
	// twice), and the tools as the template writes them.
	const words = [];
	const add = (value) => {
		if (typeof value === "string") words.push(value);
		else if (Array.isArray(value)) value.forEach(add);
		else if (value && typeof value === "object") Object.values(value).forEach(add);
	};
	add(body.system ?? "");
	add(body.messages ?? []);
	const text = words.join(" ") + JSON.stringify(body.tools ?? []);
	return Math.ceil(text.length / 4);
}
