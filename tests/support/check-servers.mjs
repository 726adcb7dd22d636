// Model servers for "Check this model": real HTTP on localhost, streaming
// OpenAI Chat Completions (SSE) as the servers our users run do, each
// behaving like one kind of model. Every request body is kept, so a test can
// say what the check sent.
//
// Personas:
// - good: calls the tool natively, repeats the tool's answer, reads images;
// - ignores: answers in prose whatever it is offered (a model without tools);
// - hermes: writes the call as Hermes/Qwen `<tool_call>` text, then repeats the answer;
// - loops: calls the tool again and again;
// - hang: lists its models, then never answers a chat request.
// Options: `window` (vLLM's `max_model_len` in the listing), `key` (a 401 without it).
import { createServer } from "node:http";
import { openaiStream } from "./model-servers.mjs";

const CALL = { name: "get_secret_word", arguments: {} };

/** The last message's text, whatever its shape. */
function textOf(message) {
	if (typeof message?.content === "string") return message.content;
	if (Array.isArray(message?.content)) return message.content.map((part) => part.text ?? "").join(" ");
	return "";
}

/** What `persona` answers to one chat request, as an SSE body. */
function reply(persona, body) {
	const messages = body.messages ?? [];
	const last = messages[messages.length - 1];
	const offered = (body.tools ?? []).some((t) => t.function?.name === CALL.name);
	const usage = body.stream_options?.include_usage ? { input: 60, output: 20 } : null;
	const hasImage = Array.isArray(last?.content) && last.content.some((part) => part.type === "image_url");
	if (hasImage) return openaiStream({ text: persona === "good" ? "Red." : "I see nothing.", usage });
	if (!offered) return openaiStream({ text: "one two three four five six seven eight nine ten", usage });
	const answered = last?.role === "tool";
	switch (persona) {
		case "good":
			return answered ? openaiStream({ text: `The word is ${last.content}.`, usage }) : openaiStream({ toolCalls: [[CALL.name, CALL.arguments]], usage });
		case "hermes":
			return answered ? openaiStream({ text: `${last.content}`, usage }) : openaiStream({ text: `<tool_call>\n${JSON.stringify(CALL)}\n</tool_call>`, usage });
		case "loops":
			return openaiStream({ toolCalls: [[CALL.name, CALL.arguments]], usage });
		default:
			return openaiStream({ text: `I cannot look that up. ${textOf(last).length > 0 ? "Sorry." : ""}`, usage });
	}
}

/** Starts `persona` on a free port; `close()` ends it and any hanging request. */
export async function startCheckServer(persona, { window = null, key = null, models = ["check-model"] } = {}) {
	const bodies = [];
	const sockets = new Set();
	const server = createServer((req, res) => {
		let raw = "";
		req.on("data", (chunk) => (raw += chunk));
		req.on("end", () => {
			bodies.push({ method: req.method, url: req.url, body: raw });
			if (key !== null && req.headers.authorization !== `Bearer ${key}`) {
				res.writeHead(401, { "Content-Type": "application/json" });
				res.end(JSON.stringify({ error: { message: "Incorrect API key provided." } }));
				return;
			}
			if (req.method === "GET" && req.url === "/v1/models") {
				res.writeHead(200, { "Content-Type": "application/json" });
				res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", ...(window ? { max_model_len: window } : {}) })) }));
				return;
			}
			if (req.method === "POST" && req.url === "/v1/chat/completions") {
				if (persona === "hang") return; // headers never come
				res.writeHead(200, { "Content-Type": "text/event-stream" });
				res.end(reply(persona, JSON.parse(raw)));
				return;
			}
			res.writeHead(404, { "Content-Type": "application/json" });
			res.end(JSON.stringify({ error: "not found" }));
		});
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}`,
		bodies,
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** An address where nothing listens (a port that was free a moment ago). */
export async function unusedAddress() {
	const server = createServer();
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}
