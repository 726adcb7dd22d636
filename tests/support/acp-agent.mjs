#!/usr/bin/env node
// A scripted coding agent for the tests, written with the official ACP SDK's
// agent side and run as a real process over stdio. What it does in a turn is
// chosen by the prompt's first word:
//   stream              thoughts, then text in several chunks
//   tool <file>         reads <file> through the MCP server the session was given
//   tool-set <path>     sets a property through the MCP server (a card in the ask modes)
//   call <name> <json>  calls any tool the MCP server lists; says the outside ones listed
//   permission-edit     the same for an edit of its own (kind "edit")
//   permission          asks permission (allow once, always, reject) and says what it got
//   model               says the model its session runs (a session setting the client may change)
//   faster              reports a new model as a config_option_update
//   write <path>|<text> fs/write_text_file, then says whether it worked
//   read <path>         fs/read_text_file, then says what it read or the refusal
//   slow                streams, then waits for session/cancel
//   ignore-cancel       streams, then ignores session/cancel
//   crash               streams, writes to stderr and exits mid-turn
//   spawn               starts a child process of its own (it runs until killed) and says its pid
//   spawn-crash         the same, then exits mid-turn (the child stays behind)
//   flood <MiB>         streams <MiB> of text and as much of thoughts, in 64 KiB chunks, and a plan of 10 000 entries
//   permission-allow-only  asks permission to edit, offering only allow options
//   later <what> <arg>  ends the turn, then (50 ms later) does <what> outside any turn:
//                       write <path>|<text>, read <path>, tool-set <path> (over MCP), or permission;
//                       the outcome goes to ACP_AGENT_LOG
// ACP_AGENT_NO_HTTP=1: it says it has no HTTP MCP, and starts the stdio server it is given.
// ACP_AGENT_LOG, when set, is a file that gets one JSON line per request it received.
// ACP_AGENT_SIGN_IN=gemini: it signs in as Gemini CLI does in ACP mode (2026): it offers
// Google's login, a Gemini API key (marked `_meta["api-key"]`), Vertex AI and a gateway;
// `session/new` answers auth_required until `authenticate` chose a method, and the key
// method fails without GEMINI_API_KEY in its environment (or with the value "rejected").
import * as acp from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const log = (entry) => {
	if (process.env.ACP_AGENT_LOG) appendFileSync(process.env.ACP_AGENT_LOG, `${JSON.stringify(entry)}\n`);
};
const sessions = new Map();
const MODELS = [
	{ value: "scripted-large", name: "Scripted large" },
	{ value: "scripted-small", name: "Scripted small" },
	// Listed, but refused when picked (as a model the account lost access to).
	{ value: "scripted-retired", name: "Scripted retired" },
];
/** The session's settings (ACP configOptions): a model, grouped as agents do, and a switch. */
function configOptions(session) {
	return [
		{ id: "model", name: "Model", category: "model", type: "select", currentValue: session.model, options: [{ group: "scripted", name: "Scripted", options: MODELS }] },
		{ id: "brief", name: "Brief answers", type: "boolean", currentValue: session.brief },
	];
}
let nextSession = 1;
const SIGN_IN = process.env.ACP_AGENT_SIGN_IN === "gemini";
let signedIn = null;
const GEMINI_METHODS = [
	{ id: "oauth-personal", name: "Log in with Google", description: "Log in with your Google account" },
	{ id: "gemini-api-key", name: "Gemini API key", description: "Use an API key with Gemini Developer API", _meta: { "api-key": { provider: "google" } } },
	{ id: "vertex-ai", name: "Vertex AI", description: "Use an API key with Vertex AI GenAI API" },
	{ id: "gateway", name: "AI API Gateway", description: "Use a custom AI API Gateway", _meta: { gateway: { protocol: "google" } } },
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function say(client, sessionId, text, kind = "agent_message_chunk") {
	await client.notify("session/update", { sessionId, update: { sessionUpdate: kind, content: { type: "text", text } } });
}

/** Asks the client's permission (allow once, always, reject) and says what it answered. */
async function askPermission(client, sessionId, toolCall) {
	const answer = await client.request("session/request_permission", {
		sessionId,
		toolCall: { ...toolCall, status: "pending" },
		options: [
			{ optionId: "once", name: "Allow once", kind: "allow_once" },
			{ optionId: "always", name: "Always allow", kind: "allow_always" },
			{ optionId: "no", name: "Reject", kind: "reject_once" },
		],
	});
	await say(client, sessionId, `Permission: ${answer.outcome.outcome === "selected" ? answer.outcome.optionId : "cancelled"}`);
}

async function mcpClient(session) {
	const mcp = new Client({ name: "scripted-acp-agent", version: "1.0.0" });
	const stdio = session.mcpServers.find((s) => s.command);
	if (process.env.ACP_AGENT_NO_HTTP === "1") {
		if (!stdio) throw new Error("no stdio MCP server was given");
		await mcp.connect(new StdioClientTransport({ command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) }));
		return mcp;
	}
	const server = session.mcpServers.find((s) => s.type === "http");
	if (!server) throw new Error("no HTTP MCP server was given");
	const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
	await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
	return mcp;
}

async function mcpCall(client, sessionId, session, title, name, args) {
	const toolCallId = `call-${Math.random().toString(36).slice(2)}`;
	await client.notify("session/update", { sessionId, update: { sessionUpdate: "tool_call", toolCallId, title, kind: "read", status: "in_progress", rawInput: { name, args } } });
	const mcp = await mcpClient(session);
	const tools = await mcp.listTools();
	const result = await mcp.callTool({ name, arguments: args });
	await mcp.close();
	const text = result.content.map((c) => c.text ?? "").join("");
	await client.notify("session/update", {
		sessionId,
		update: { sessionUpdate: "tool_call_update", toolCallId, status: result.isError ? "failed" : "completed", content: [{ type: "content", content: { type: "text", text } }] },
	});
	return { text, isError: result.isError, tools: tools.tools.map((t) => t.name) };
}

/** A request made after the turn ended; what came back goes to the log. */
async function outsideTurn(client, sessionId, what, arg) {
	try {
		let answer;
		if (what === "tool-set") {
			const session = sessions.get(sessionId);
			answer = await mcpCall(client, sessionId, session, "Set a property", "obsidianProperties", { command: "property:set", path: arg, name: "status", value: "done" });
			if (answer.isError) throw new Error(answer.text);
		} else if (what === "write") {
			const [path, content] = arg.split("|");
			answer = await client.request("fs/write_text_file", { sessionId, path, content });
		} else if (what === "read") answer = await client.request("fs/read_text_file", { sessionId, path: arg });
		else {
			answer = await client.request("session/request_permission", {
				sessionId,
				toolCall: { toolCallId: "perm-late", title: "Run the formatter", kind: "execute", status: "pending" },
				options: [
					{ optionId: "once", name: "Allow once", kind: "allow_once" },
					{ optionId: "no", name: "Reject", kind: "reject_once" },
				],
			});
		}
		log({ method: "outside-turn", what, ok: true, answer });
	} catch (error) {
		log({ method: "outside-turn", what, ok: false, error: error.message, data: error.data ?? null });
	}
}

const app = acp
	.agent({ name: "scripted-acp-agent" })
	.onRequest("initialize", ({ params }) => {
		log({ method: "initialize", params });
		return {
			protocolVersion: acp.PROTOCOL_VERSION,
			agentInfo: { name: "scripted-acp-agent", title: "Scripted agent", version: "9.9.9" },
			...(SIGN_IN ? { authMethods: GEMINI_METHODS } : {}),
			agentCapabilities: { loadSession: true, mcpCapabilities: { http: process.env.ACP_AGENT_NO_HTTP !== "1" }, promptCapabilities: process.env.ACP_AGENT_IMAGES === "1" ? { image: true } : {} },
		};
	})
	.onRequest("authenticate", ({ params }) => {
		log({ method: "authenticate", params });
		if (params.methodId !== "gemini-api-key") throw new acp.RequestError(-32000, `${params.methodId}: this account is not supported any more`);
		const key = process.env.GEMINI_API_KEY;
		if (!key) throw new acp.RequestError(-32000, "Gemini API key is missing or not configured.");
		if (key === "rejected") throw new acp.RequestError(-32000, "API key not valid. Please pass a valid API key.");
		signedIn = params.methodId;
		return {};
	})
	.onRequest("session/new", async ({ params, client }) => {
		log({ method: "session/new", params });
		if (SIGN_IN && !signedIn) throw acp.RequestError.authRequired();
		const sessionId = `scripted-${process.pid}-${nextSession++}`;
		const session = { mcpServers: params.mcpServers, cancelled: false, model: "scripted-large", brief: false };
		sessions.set(sessionId, session);
		// Reported after the answer, as real agents do.
		setTimeout(() => {
			void client.notify("session/update", {
				sessionId,
				update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "summarise", description: "Summarise a note" }] },
			});
		}, 10);
		return { sessionId, modes: { currentModeId: "ask", availableModes: [{ id: "ask", name: "Ask" }, { id: "code", name: "Code" }] }, configOptions: configOptions(session) };
	})
	.onRequest("session/load", ({ params }) => {
		log({ method: "session/load", params });
		const session = { mcpServers: params.mcpServers, cancelled: false, model: "scripted-large", brief: false };
		sessions.set(params.sessionId, session);
		return { configOptions: configOptions(session) };
	})
	.onRequest("session/set_mode", ({ params }) => {
		log({ method: "session/set_mode", params });
		return {};
	})
	.onRequest("session/set_config_option", ({ params }) => {
		log({ method: "session/set_config_option", params });
		const session = sessions.get(params.sessionId);
		if (params.configId === "model") {
			if (!MODELS.some((m) => m.value === params.value)) throw acp.RequestError.invalidParams({ value: params.value }, `no model ${params.value}`);
			if (params.value === "scripted-retired") throw acp.RequestError.invalidParams({ value: params.value }, "scripted-retired is retired");
			session.model = params.value;
		} else if (params.configId === "brief") session.brief = params.value === true;
		return { configOptions: configOptions(session) };
	})
	.onNotification("session/cancel", ({ params }) => {
		log({ method: "session/cancel", params });
		const session = sessions.get(params.sessionId);
		if (session) session.cancelled = true;
	})
	.onRequest("session/prompt", async ({ params, client }) => {
		const sessionId = params.sessionId;
		const session = sessions.get(sessionId);
		session.cancelled = false;
		// The user's message is the last text block; a client may put context (the vault's skills) before it.
		const texts = params.prompt.filter((b) => b.type === "text").map((b) => b.text);
		const text = texts.at(-1) ?? "";
		log({ method: "session/prompt", sessionId, text, texts, images: params.prompt.filter((b) => b.type === "image") });
		const [word, ...rest] = text.split(" ");
		switch (word) {
			case "stream":
				await say(client, sessionId, "Let me think about the vault.", "agent_thought_chunk");
				await client.notify("session/update", { sessionId, update: { sessionUpdate: "plan", entries: [{ content: "Read the note", priority: "high", status: "in_progress" }] } });
				for (const chunk of ["Hello ", "from the ", "scripted agent."]) await say(client, sessionId, chunk);
				await client.notify("session/update", { sessionId, update: { sessionUpdate: "usage_update", used: 1200, size: 200000 } });
				break;
			case "tool": {
				const { text: read, isError, tools } = await mcpCall(client, sessionId, session, "Read a note", "obsidianNotes", { command: "read", file: rest.join(" ") });
				await say(client, sessionId, `Tools: ${tools.length}. ${isError ? "Refused" : "Read"}: ${read}`);
				break;
			}
			case "call": {
				// Any tool our MCP server lists, by name, with JSON arguments.
				const [name, ...json] = rest;
				const { text: answer, isError, tools } = await mcpCall(client, sessionId, session, `Call ${name}`, name, JSON.parse(json.join(" ") || "{}"));
				await say(client, sessionId, `Listed: ${tools.filter((t) => t.startsWith("mcp_")).join(",")}. ${isError ? "Refused" : "Called"}: ${answer}`);
				break;
			}
			case "tool-set": {
				const { text: answer, isError } = await mcpCall(client, sessionId, session, "Set a property", "obsidianProperties", { command: "property:set", path: rest.join(" "), name: "status", value: "done" });
				await say(client, sessionId, `${isError ? "Refused" : "Set"}: ${answer}`);
				break;
			}
			case "permission":
				await askPermission(client, sessionId, { toolCallId: "perm-1", title: "Run the linter", kind: "execute" });
				break;
			case "model":
				await say(client, sessionId, `Model: ${session.model}${session.brief ? " (brief)" : ""}`);
				break;
			case "faster":
				session.model = "scripted-small";
				await client.notify("session/update", { sessionId, update: { sessionUpdate: "config_option_update", configOptions: configOptions(session) } });
				await say(client, sessionId, "Switched to the small model");
				break;
			case "permission-edit":
				await askPermission(client, sessionId, { toolCallId: "perm-2", title: "Edit Roadmap.md", kind: "edit" });
				break;
			case "write": {
				const [path, content] = rest.join(" ").split("|");
				try {
					await client.request("fs/write_text_file", { sessionId, path, content });
					await say(client, sessionId, `Wrote ${path}`);
				} catch (error) {
					await say(client, sessionId, `Write refused: ${error.message}`);
				}
				break;
			}
			case "read": {
				try {
					const { content } = await client.request("fs/read_text_file", { sessionId, path: rest.join(" ") });
					await say(client, sessionId, `Read: ${content}`);
				} catch (error) {
					await say(client, sessionId, `Read refused: ${error.message}`);
				}
				break;
			}
			case "slow":
				await say(client, sessionId, "Working…");
				while (!session.cancelled) await sleep(20);
				return { stopReason: "cancelled" };
			case "ignore-cancel":
				await say(client, sessionId, "Not stopping…");
				await new Promise(() => {});
				break;
			case "spawn":
			case "spawn-crash": {
				// A helper of the agent's own (a language server, a shell), in the agent's process group.
				const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
				await say(client, sessionId, `Child: ${child.pid}`);
				if (word === "spawn-crash") process.exit(3);
				break;
			}
			case "flood": {
				const total = Number(rest[0] ?? 1) * 1024 * 1024;
				const chunk = "x".repeat(64 * 1024);
				for (let sent = 0; sent < total; sent += chunk.length) await say(client, sessionId, chunk, "agent_thought_chunk");
				const entries = Array.from({ length: 10000 }, (_, i) => ({ content: `Step ${i} ${"y".repeat(1000)}`, priority: "low", status: "pending" }));
				await client.notify("session/update", { sessionId, update: { sessionUpdate: "plan", entries } });
				for (let sent = 0; sent < total; sent += chunk.length) await say(client, sessionId, chunk);
				break;
			}
			case "permission-allow-only": {
				const answer = await client.request("session/request_permission", {
					sessionId,
					toolCall: { toolCallId: "perm-3", title: "Edit Roadmap.md", kind: "edit", status: "pending" },
					options: [
						{ optionId: "once", name: "Allow once", kind: "allow_once" },
						{ optionId: "always", name: "Always allow", kind: "allow_always" },
					],
				});
				await say(client, sessionId, `Permission: ${answer.outcome.outcome === "selected" ? answer.outcome.optionId : "cancelled"}`);
				break;
			}
			case "later": {
				const [what, ...more] = rest;
				const arg = more.join(" ");
				setTimeout(() => void outsideTurn(client, sessionId, what, arg), 50);
				await say(client, sessionId, `Later: ${what}`);
				break;
			}
			case "crash":
				await say(client, sessionId, "About to fail");
				process.stderr.write("scripted agent: out of tokens (simulated crash)\n");
				process.exit(3);
				break;
			default:
				await say(client, sessionId, `Echo: ${text}`);
		}
		return { stopReason: "end_turn" };
	});

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const connection = app.connect(stream);
await connection.closed;
process.exit(0);
