// Hostile images and PDFs through the doors a user has, in the BUILT main.js
// against a scripted model server on localhost (issue 36, item 5): an image
// pasted into the chat or attached with `[[` that is cut short, is text or a
// PDF under a .png name, or whose header says 20 000 × 20 000 pixels; a PDF
// attached with `[[` that has a password, is damaged, or has 10 000 pages.
// For each: the chat says what is wrong and what to do, the model is sent
// nothing it cannot use, and the vault is as it was. The files are written
// here (tests/support/hostile-media.mjs). How long the page's main thread is
// busy with them and what memory they leave is scripts/bench-hostile-media.mjs.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, settle } from "../support/harness.mjs";
import { cutPdf, encryptedPdf, garbagePdf, HUGE_PNG, manyPagesPdf, PDF_AS_PNG, png, TEXT_AS_PNG, truncated, truncatedJpeg } from "../support/hostile-media.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";
import { pdfjsDouble, simplePdf } from "../support/pdf-double.mjs";

/** Every file of the vault but the app's folder, with a hash of its bytes. */
function snapshot(vault) {
	const files = {};
	const walk = (dir) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (relative(vault, path) === ".obsidian") continue;
			if (statSync(path).isDirectory()) walk(path);
			else files[relative(vault, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
		}
	};
	walk(vault);
	return files;
}

const VAULT_FILES = {
	"Attachments/notes.png": TEXT_AS_PNG,
	"Attachments/report.png": PDF_AS_PNG,
	"Attachments/poster.png": HUGE_PNG,
	"Attachments/cut.png": truncated(png(64, 64)),
	"Attachments/cut.jpg": truncatedJpeg(),
	"Attachments/fine.png": png(8, 8),
	"Papers/Locked.pdf": encryptedPdf(),
	"Papers/Noise.pdf": garbagePdf(),
	"Papers/Cut.pdf": cutPdf(),
	"Papers/Empty.pdf": simplePdf([]),
	"Papers/Long.pdf": manyPagesPdf(10_000),
};

describe("hostile images and PDFs in the chat (the built main.js, a real model server on localhost)", () => {
	const vaults = [];
	const servers = [];
	after(async () => {
		for (const server of servers) await server.close();
		for (const vault of vaults) removeVault(vault);
	});

	async function setup(profile = {}) {
		const server = await startModelServer();
		servers.push(server);
		const vault = copySampleVault();
		vaults.push(vault);
		for (const [path, bytes] of Object.entries(VAULT_FILES)) {
			mkdirSync(join(vault, path, ".."), { recursive: true });
			writeFileSync(join(vault, path), bytes);
		}
		const chat = { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", contextWindow: 32000, apiKeySecret: "", images: true, ...profile }], activeProfile: "p" };
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
		const view = await plugin.openChat();
		const before = snapshot(vault);
		return {
			server,
			plugin,
			view,
			input: view.inputEl,
			imagesDir: join(vault, app.vault.configDir, "plugins", "vault-agent", "chat-images"),
			posts: () => server.requests.filter((r) => r.method === "POST" && !r.url.endsWith("/api/show")),
			banner: () => view.contentEl.querySelector(".vault-agent-banner")?.textContent ?? "",
			vaultUnchanged: () => assert.deepEqual(snapshot(vault), before, "nothing in the vault changed"),
		};
	}

	/** A paste of one file into the input, as the clipboard delivers it; waits for the chip or the banner. */
	async function paste(s, bytes, type, name) {
		const event = new Event("paste", { bubbles: true, cancelable: true });
		Object.defineProperty(event, "clipboardData", { value: { files: [new File([bytes], name, { type })] } });
		s.input.dispatchEvent(event);
		for (let i = 0; i < 50 && !s.view.contentEl.querySelector(".vault-agent-attachments .vault-agent-chip img") && !s.banner(); i++) await settle();
	}

	/** `[[name` typed and the file's suggestion picked. */
	async function attach(s, path) {
		const name = path.split("/").pop();
		s.input.value = `[[${name.replace(/\.\w+$/, "")}`;
		s.input.setSelectionRange(s.input.value.length, s.input.value.length);
		s.input.dispatchEvent(new Event("input", { bubbles: true }));
		await settle();
		const item = [...document.querySelectorAll(".suggestion-item")].find((el) => el.textContent.includes(path));
		assert.ok(item, `${path} is suggested`);
		item.click();
		await settle();
	}

	const pastes = [
		["text under a .png name", TEXT_AS_PNG, "image/png", /not a PNG, JPEG, GIF or WebP image: it holds text/],
		["a PDF under a .png name", PDF_AS_PNG, "image/png", /is a PDF, not an image: attach the PDF from the vault with \[\[/],
		["a PNG cut short", truncated(png(64, 64)), "image/png", /cut short.*Save or copy it again/],
		["a JPEG cut short", truncatedJpeg(), "image/jpeg", /cut short.*Save or copy it again/],
		["a PNG whose header says 20000 × 20000", HUGE_PNG, "image/png", /20000 × 20000 pixels.*more than the chat decodes.*scale it down/],
	];
	for (const [what, bytes, type, message] of pastes) {
		it(`refuses ${what} pasted into the chat: the message says why and what to do, no chip, no file kept`, async () => {
			const s = await setup();
			await paste(s, bytes, type, type === "image/png" ? "image.png" : "photo.jpg");
			assert.match(s.banner(), /^The pasted image was not attached: /);
			assert.match(s.banner(), message);
			assert.equal(s.view.contentEl.querySelectorAll(".vault-agent-attachments .vault-agent-chip img").length, 0, "no chip");
			assert.deepEqual(existsSync(s.imagesDir) ? readdirSync(s.imagesDir) : [], [], "no file kept");
			assert.equal(s.posts().length, 0);
			s.vaultUnchanged();
		});
	}

	it("sends a message whose vault images are hostile without them: the model is told which could not be sent, the chat says why", async () => {
		const s = await setup();
		for (const path of ["Attachments/notes.png", "Attachments/report.png", "Attachments/poster.png", "Attachments/cut.png", "Attachments/fine.png"]) await attach(s, path);
		s.server.script({ stream: openaiStream({ text: "I see one image." }) });
		s.input.value = "What do these show?";
		await s.view.send();
		const [request, ...more] = s.posts();
		assert.equal(more.length, 0);
		const content = request.body.messages.at(-1).content;
		assert.ok(Array.isArray(content), `the good image went with the text: ${JSON.stringify(content).slice(0, 100)}; ${s.view.contentEl.textContent.slice(-700)}`);
		const images = content.filter((part) => part.type === "image_url");
		assert.equal(images.length, 1, "only the good image is sent");
		assert.match(images[0].image_url.url, /^data:image\/png;base64,/);
		assert.match(content[0].text, /\[The user attached images that could not be sent: Attachments\/notes\.png, Attachments\/report\.png, Attachments\/poster\.png, Attachments\/cut\.png\.\]/);
		const shown = s.view.contentEl.querySelector(".vault-agent-messages").textContent;
		assert.match(shown, /The image Attachments\/notes\.png could not be sent: it is not a PNG, JPEG, GIF or WebP image: it holds text/);
		assert.match(shown, /The image Attachments\/report\.png could not be sent: it is a PDF, not an image/);
		assert.match(shown, /The image Attachments\/poster\.png could not be sent: it is 20000 × 20000 pixels/);
		assert.match(shown, /The image Attachments\/cut\.png could not be sent: it is cut short/);
		s.vaultUnchanged();
	});

	const refusedPdfs = [
		["Locked", /Papers\/Locked\.pdf could not be read as a PDF: it is protected by a password\. Open it in a PDF reader, save a copy without the password, and attach that\./],
		["Noise", /Papers\/Noise\.pdf could not be read as a PDF: it is damaged or not a PDF \(PDF\.js: Invalid PDF structure[^)]*\)\. Open it in a PDF reader to check it, or save or export it again, and attach the new copy\./],
		// PDF.js finds no page tree where the file was cut: damaged, as it says.
		["Cut", /Papers\/Cut\.pdf could not be read as a PDF: it is damaged or not a PDF \(PDF\.js: Invalid PDF structure[^)]*\)\. Open it in a PDF reader to check it, or save or export it again, and attach the new copy\./],
		["Empty", /Papers\/Empty\.pdf could not be read as a PDF: it has no pages[^.]*\. Open it in a PDF reader to check it, or save or export it again, and attach the new copy\./],
	];
	for (const [name, message] of refusedPdfs) {
		it(`refuses ${name}.pdf before sending: the message names the problem and the fix, nothing is sent`, async () => {
			const s = await setup();
			const live = pdfjsDouble.live;
			await attach(s, `Papers/${name}.pdf`);
			s.server.script({ stream: openaiStream({ text: "never" }) });
			s.input.value = `What does it say? [[${name}.pdf]]`;
			await s.view.send();
			assert.equal(s.posts().length, 0, "nothing reached the server");
			assert.match(s.banner(), message);
			assert.equal(pdfjsDouble.live, live, "every PDF.js loading task (and its worker) is destroyed, the refused one too");
			assert.equal(s.input.value, `What does it say? [[${name}.pdf]]`, "the words are back in the input");
			s.vaultUnchanged();
		});
	}

	it("reads a bounded number of a 10 000-page PDF's pages, names the rest, and its pdf read reads only the pages asked for", async () => {
		const s = await setup({ contextWindow: 8192 });
		const before = pdfjsDouble.pagesRead;
		const live = pdfjsDouble.live;
		await attach(s, "Papers/Long.pdf");
		s.server.script({ stream: openaiStream({ toolCalls: [["obsidianNotes", { command: "pdf", path: "Papers/Long.pdf", pages: "9999-10000" }]] }) });
		s.server.script({ stream: openaiStream({ text: "The last page is 10000." }) });
		s.input.value = "What is on the last page? [[Long.pdf]]";
		await s.view.send();
		const [first, second] = s.posts();
		const text = first.body.messages.at(-1).content;
		assert.match(text, /\[The PDF Papers\/Long\.pdf the user attached \(10000 pages\)/);
		assert.match(text, /--- Page 1 ---\nPage 1\n/);
		assert.match(text, /Pages \d+-10000 of Papers\/Long\.pdf were left out to fit the model's context: read them with obsidianNotes `pdf`/);
		const read = pdfjsDouble.pagesRead - before;
		assert.ok(read <= 500 + 2, `at most 500 pages read at Send, and the 2 the tool asked for; read ${read}`);
		const result = second.body.messages.find((m) => m.role === "tool").content;
		assert.match(result, /Papers\/Long\.pdf, pages 9999-10000 of 10000:\n--- Page 9999 ---\nPage 9999\n--- Page 10000 ---\nPage 10000\n/);
		assert.equal(pdfjsDouble.live, live, "each reading's PDF.js task (and its worker) is destroyed");
		s.vaultUnchanged();
	});
});
