// One scripted ten-turn conversation, shared by the test that asserts what
// is sent never exceeds the context window and the benchmark that records
// how much is sent per turn. Each turn: a question, a tool call (reading a
// note, then the tasks, alternately), and a long answer.
import { openaiStream } from "./model-servers.mjs";

export const TURNS = 10;

const NOTES = ["Roadmap", "Launch plan", "Website Redesign"];

/** Queues turn `n`'s two model replies on `server`. */
export function scriptTurn(server, n) {
	const call = n % 2 === 0 ? ["obsidianNotes", { command: "read", file: NOTES[(n / 2) % NOTES.length] }] : ["obsidianTasks", { command: "tasks", all: true, todo: true }];
	server.script({ stream: openaiStream({ toolCalls: [call] }) }, { stream: openaiStream({ text: `Answer ${n}: ${"Here is what the note says, in more words than needed. ".repeat(12)}` }) });
}

export function question(n) {
	return `Question ${n}: ${"what does this note say about the plan, and what is still open? ".repeat(3)}`;
}

/** Tokens a chat request sends, estimated as the core's budget does (three ASCII characters or one other character a token). */
export function tokensSent(body) {
	let ascii = 0;
	let other = 0;
	for (const c of JSON.stringify(body.messages) + JSON.stringify(body.tools ?? [])) {
		if (c.codePointAt(0) < 128) ascii += 1;
		else other += 1;
	}
	return Math.ceil(ascii / 3) + other;
}
