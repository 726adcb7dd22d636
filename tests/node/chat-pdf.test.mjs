// PDFs in the chat through the BUILT main.js, against scripted model servers
// on localhost (real HTTP). The PDFs are real files written in the test; the
// test double's `loadPdfJs` gives the real PDF.js (pdfjs-dist, its build for
// Node: tests/support/pdf-double.mjs). A 3-page PDF
// attached with `[[` reaches an OpenAI-compatible server page by page with
// page numbers; a PDF larger than the context is cut with the page range the
// model may read, and its obsidianNotes `pdf` read returns those pages; an
// Anthropic profile with "Send PDFs as documents" sends a `document` block;
// a PDF without text is refused with the message, nothing sent.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, settle } from "../support/harness.mjs";
import { anthropicStream, openaiStream, startModelServer } from "../support/model-servers.mjs";
import { pdfjsDouble, simplePdf } from "../support/pdf-double.mjs";

const THREE = simplePdf([["Alpha results", "grew by 4%"], ["Beta methods"], ["Gamma conclusion"]]);
/** 40 pages of about 900 characters each: far more than a 8192-token window leaves. */
const BIG = simplePdf(Array.from({ length: 40 }, (_, i) => Array.from({ length: 12 }, (_, l) => `Page ${i + 1} line ${l + 1}: ${"words of the report ".repeat(3)}`)));
const SCAN = simplePdf([[], []]);

describe("PDFs in the chat (the built main.js, real model servers on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(profile) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		mkdirSync(join(vault, "Papers"), { recursive: true });
		writeFileSync(join(vault, "Papers", "Three.pdf"), THREE);
		writeFileSync(join(vault, "Papers", "Big.pdf"), BIG);
		writeFileSync(join(vault, "Papers", "Scan.pdf"), SCAN);
		const base = profile.provider === "anthropic" ? server.url : `${server.url}/v1`;
		const chat = { profiles: [{ id: "p", baseUrl: base, model: "test-model", contextWindow: 32000, apiKeySecret: "", ...profile }], activeProfile: "p" };
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
		if (profile.provider === "anthropic") app.secretStorage.setSecret("anthropic-key", "sk-ant-test");
		const view = await plugin.openChat();
		return { server, plugin, view, input: view.inputEl };
	}

	/** `[[name` typed, the PDF's suggestion picked, then the message sent. */
	async function sendWith({ server, view, input }, name, replies) {
		input.value = `[[${name}`;
		input.setSelectionRange(input.value.length, input.value.length);
		input.dispatchEvent(new Event("input", { bubbles: true }));
		await settle();
		const item = [...document.querySelectorAll(".suggestion-item")].find((el) => el.textContent.includes(`Papers/${name}.pdf`));
		assert.ok(item, `the PDF is suggested: ${[...document.querySelectorAll(".suggestion-item")].map((e) => e.textContent).join(" | ")}`);
		item.click();
		await settle();
		const chip = [...view.contentEl.querySelectorAll(".vault-agent-attachments .vault-agent-chip")].find((c) => c.dataset.path === `Papers/${name}.pdf`);
		assert.ok(chip, "the PDF is a chip");
		assert.equal(chip.querySelector(".vault-agent-chip-icon svg")?.dataset.icon, "book-open");
		for (const reply of replies) server.script({ stream: reply });
		input.value = `What does it say? [[${name}.pdf]]`;
		await view.send();
		return server.requests.filter((r) => r.method === "POST");
	}

	it("sends a 3-page PDF's text to an OpenAI-compatible server page by page, with page numbers", async () => {
		const s = await setup({ provider: "openAi" });
		const requests = await sendWith(s, "Three", [openaiStream({ text: "It reports results." })]);
		assert.equal(requests.length, 1);
		const text = requests[0].body.messages.at(-1).content;
		assert.equal(typeof text, "string");
		assert.match(text, /^What does it say\?/);
		assert.match(text, /\[The PDF Papers\/Three\.pdf the user attached \(3 pages\)/);
		assert.match(text, /--- Page 1 ---\nAlpha results\ngrew by 4%\n--- Page 2 ---\nBeta methods\n--- Page 3 ---\nGamma conclusion\n/);
		assert.doesNotMatch(text, /left out/);
		assert.doesNotMatch(text, /Notes the user attached/, "a PDF is not listed as a note to read");
		const sent = s.view.contentEl.querySelector(".vault-agent-msg.is-user .vault-agent-msg-attachment.is-pdf");
		assert.equal(sent?.textContent, "Papers/Three.pdf", `the sent message shows the PDF: ${s.view.contentEl.querySelector(".vault-agent-msg.is-user")?.outerHTML}`);
		// Stored by reference only.
		const [summary] = await s.plugin.conversations.list();
		const stored = JSON.stringify(await s.plugin.conversations.load(summary.id));
		assert.match(stored, /"path":"Papers\/Three\.pdf"/);
		assert.doesNotMatch(stored, /Gamma conclusion/, "no PDF text in the chat file");
	});

	it("reads an attached PDF once a turn, however many rounds it takes, and again at the next turn", async () => {
		const s = await setup({ provider: "openAi" });
		const before = pdfjsDouble.opened;
		const requests = await sendWith(s, "Three", [openaiStream({ toolCalls: [["obsidianNotes", { command: "read", path: "Welcome.md" }]] }), openaiStream({ text: "It reports results." })]);
		assert.equal(requests.length, 2, "two rounds");
		for (const request of requests) assert.match(JSON.stringify(request.body.messages), /Gamma conclusion/, "each round carries the pages");
		assert.equal(pdfjsDouble.opened - before, 1, "the check at Send and both rounds share one reading");
		s.server.script({ stream: openaiStream({ text: "Still results." }) });
		s.input.value = "And now?";
		await s.view.send();
		assert.equal(pdfjsDouble.opened - before, 2, "the next turn reads it again, so a changed PDF counts");
	});

	it("cuts a PDF larger than the context with the page range the model may read, and its pdf read returns those pages", async () => {
		const s = await setup({ provider: "openAi", contextWindow: 8192 });
		const requests = await sendWith(s, "Big", [
			openaiStream({ toolCalls: [["obsidianNotes", { command: "pdf", path: "Papers/Big.pdf", pages: "39-40" }]] }),
			openaiStream({ text: "The last pages conclude." }),
		]);
		assert.equal(requests.length, 2);
		const text = requests[0].body.messages.at(-1).content;
		assert.match(text, /--- Page 1 ---\nPage 1 line 1/);
		const kept = Number(/Pages (\d+)-40 of Papers\/Big\.pdf were left out to fit the model's context: read them with obsidianNotes `pdf` \(path "Papers\/Big\.pdf", pages "\1-40"\)/.exec(text)?.[1]);
		assert.ok(kept > 1 && kept < 40, `some pages kept, the rest named: ${text.slice(-400)}`);
		assert.match(text, new RegExp(`--- Page ${kept - 1} ---`));
		assert.doesNotMatch(text, new RegExp(`--- Page ${kept} ---`));
		const result = requests[1].body.messages.find((m) => m.role === "tool").content;
		assert.match(result, /Papers\/Big\.pdf, pages 39-40 of 40:\n--- Page 39 ---\nPage 39 line 1[\s\S]*--- Page 40 ---\nPage 40 line 1:[\s\S]*Page 40 line 12:/);
		assert.doesNotMatch(result, /--- Page 38 ---/);
	});

	it("sends the PDF as an Anthropic document block when the profile's setting is on, and as text when it is off", async () => {
		const on = await setup({ provider: "anthropic", model: "claude-sonnet-4-5", apiKeySecret: "anthropic-key", pdfDocuments: true });
		const [request] = await sendWith(on, "Three", [anthropicStream({ text: "Read." })]);
		const content = request.body.messages.at(-1).content;
		assert.deepEqual(content[0], { type: "document", source: { type: "base64", media_type: "application/pdf", data: Buffer.from(THREE).toString("base64") } });
		assert.equal(content.at(-1).type, "text");
		assert.match(content.at(-1).text, /sent as a document \(3 pages\)/);
		assert.doesNotMatch(content.at(-1).text, /--- Page 1 ---/);

		const off = await setup({ provider: "anthropic", model: "claude-sonnet-4-5", apiKeySecret: "anthropic-key" });
		const [plain] = await sendWith(off, "Three", [anthropicStream({ text: "Read." })]);
		const blocks = plain.body.messages.at(-1).content;
		assert.ok(blocks.every((b) => b.type === "text"), JSON.stringify(blocks.map((b) => b.type)));
		assert.match(blocks.at(-1).text, /--- Page 2 ---\nBeta methods/);
	});

	it("refuses a PDF without text before sending: the message says so, nothing is sent, the words and chip stay", async () => {
		const s = await setup({ provider: "openAi" });
		const requests = await sendWith(s, "Scan", [openaiStream({ text: "never" })]);
		assert.equal(requests.length, 0, "nothing reached the server");
		const banner = s.view.contentEl.querySelector(".vault-agent-banner").textContent;
		assert.match(banner, /Papers\/Scan\.pdf has no text to read: it looks like a scanned PDF/);
		assert.match(banner, /Send PDFs as documents/);
		assert.equal(s.input.value, "What does it say? [[Scan.pdf]]", "the words are back in the input");
		assert.ok(s.view.contentEl.querySelector('.vault-agent-attachments .vault-agent-chip[data-path="Papers/Scan.pdf"]'), "and the PDF as a chip");
	});
});
