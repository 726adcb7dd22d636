// A real OpenAI-compatible embedding server on localhost (`POST /v1/embeddings`)
// for the tests of search by meaning. Its "model" knows a few concepts: words of
// one concept get vectors that point the same way, so "car repairs" lands near
// "brake pads and tyres" though they share no word. Any other word gets a small
// direction of its own. It can also fail, answer garbage, answer slowly, or hold
// its answers until the test lets them go (a run that outlasts what a test does).
import { createServer } from "node:http";

const CONCEPTS = [
	["car", "cars", "vehicle", "brake", "brakes", "pads", "tyre", "tyres", "tires", "engine", "repairs", "repair", "mechanic", "oil", "drive"],
	["recipe", "cooking", "soup", "bread", "dinner", "meal", "bake", "flour", "kitchen"],
	["sleep", "tired", "rest", "insomnia", "bedtime", "nap", "night"],
];
const DIMS = 64;

function hash(word) {
	let h = 2166136261;
	for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
	return h;
}

/** The vector the stand-in model gives a text: its concepts, plus a little of every other word. */
export function embedText(text) {
	const vector = new Array(DIMS).fill(0);
	for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
		const concept = CONCEPTS.findIndex((words) => words.includes(word));
		if (concept >= 0) vector[concept] += 1;
		else vector[CONCEPTS.length + (hash(word) % (DIMS - CONCEPTS.length))] += 0.15;
	}
	const norm = Math.hypot(...vector) || 1;
	return vector.map((v) => v / norm);
}

/**
 * Starts the server. `mode`: "ok", "fail" (HTTP 500), "garbage" (200 with vectors
 * of the wrong shape); `delayMs` holds every answer; `hold` keeps every answer
 * until `release()` (`state.held` counts those waiting). All can be changed later.
 */
export async function startEmbeddingServer({ mode = "ok", delayMs = 0, hold = false } = {}) {
	const state = { mode, delayMs, hold, held: [], requests: [], inputs: 0 };
	const server = createServer((req, res) => {
		let body = "";
		req.on("data", (chunk) => (body += chunk));
		req.on("end", () => {
			if (req.method !== "POST" || req.url !== "/v1/embeddings") {
				res.writeHead(404).end();
				return;
			}
			const request = JSON.parse(body);
			const input = Array.isArray(request.input) ? request.input : [request.input];
			state.requests.push({ model: request.model, input, authorization: req.headers.authorization ?? null });
			state.inputs += input.length;
			const answer = () => {
				if (res.destroyed) return;
				if (state.mode === "fail") {
					res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "model not loaded" } }));
				} else if (state.mode === "garbage") {
					res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: index % 2 ? [1, 2] : [1, 2, 3] })) }));
				} else {
					const data = input.map((text, index) => ({ object: "embedding", index, embedding: embedText(text) }));
					res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", model: request.model, data }));
				}
			};
			if (state.hold) state.held.push(answer);
			else if (state.delayMs > 0) setTimeout(answer, state.delayMs);
			else answer();
		});
	});
	await new Promise((done) => server.listen(0, "127.0.0.1", done));
	const { port } = server.address();
	/** Stops holding and sends every answer held. */
	const release = () => {
		state.hold = false;
		for (const answer of state.held.splice(0)) answer();
	};
	return {
		state,
		baseUrl: `http://127.0.0.1:${port}/v1`,
		release,
		close: () => {
			release();
			return new Promise((done) => server.close(done));
		},
	};
}
