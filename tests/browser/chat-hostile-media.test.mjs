// Hostile images and PDFs in Chromium from the built main.js (issue 36,
// item 5), where the page has a real image decoder: a 20 000 × 20 000 PNG,
// a PNG cut short and text named .png pasted into the chat are refused with
// the reason before the decoder sees them (no chip, the page alive); a vault
// PNG whose header is right but whose pixels are noise goes to the decoder,
// which gives up, and the message is sent without it, the chat saying why;
// a PDF with a password is refused at Send. Frame times and memory for the
// same files are scripts/bench-hostile-media.mjs (BENCHMARKS.md).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { encryptedPdf, HUGE_PNG, png, TEXT_AS_PNG, truncated, undecodablePng } from "../support/hostile-media.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("hostile images and PDFs in the chat in Chromium", () => {
	let server;
	let session;
	let page;
	const errors = [];

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				chat: { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32000, images: true }], activeProfile: "p" },
			},
			env: (vault) => {
				mkdirSync(join(vault, "Attachments"), { recursive: true });
				writeFileSync(join(vault, "Attachments", "noise.png"), undecodablePng());
				writeFileSync(join(vault, "Attachments", "fine.png"), png(32, 32));
				mkdirSync(join(vault, "Papers"), { recursive: true });
				writeFileSync(join(vault, "Papers", "Locked.pdf"), encryptedPdf());
				return emulatorEnv(vault);
			},
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		page.on("pageerror", (error) => errors.push(error.message));
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	/** A paste of `bytes` into the input as the clipboard delivers it; the banner's text once it shows. */
	async function paste(bytes, type) {
		await page.evaluate(
			({ bytes, type }) => {
				document.querySelector(".vault-agent-banner")?.remove();
				const data = new DataTransfer();
				data.items.add(new File([new Uint8Array(bytes)], "image.png", { type }));
				document.querySelector(".vault-agent-input").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
			},
			{ bytes: [...bytes], type },
		);
		const banner = page.locator(".vault-agent-banner");
		await banner.waitFor({ state: "visible", timeout: 10_000 });
		return banner.textContent();
	}

	for (const [what, bytes, message] of [
		["a PNG whose header says 20000 × 20000", HUGE_PNG, /^The pasted image was not attached: it is 20000 × 20000 pixels, more than the chat decodes.*scale it down/],
		["a PNG cut short", truncated(png(64, 64)), /^The pasted image was not attached: it is cut short.*Save or copy it again/],
		["text named .png", TEXT_AS_PNG, /^The pasted image was not attached: it is not a PNG, JPEG, GIF or WebP image: it holds text/],
	]) {
		it(`refuses ${what} pasted into the chat, before it is decoded`, async () => {
			assert.match(await paste(bytes, "image/png"), message);
			assert.equal(await page.locator(".vault-agent-attachments .vault-agent-chip img").count(), 0, "no chip");
			assert.ok(await page.locator(".vault-agent-input").isEditable(), "the chat still takes input");
			assert.deepEqual(errors, []);
		});
	}

	it("sends a message without a vault image the decoder cannot read, and says why", async () => {
		const input = page.locator(".vault-agent-input");
		for (const name of ["noise", "fine"]) {
			await input.click();
			await input.pressSequentially(`[[${name}`);
			const item = page.locator(".suggestion-container .suggestion-item", { hasText: `Attachments/${name}.png` });
			await item.waitFor({ state: "visible", timeout: 5_000 });
			await item.click();
		}
		await input.fill("What do these show?");
		server.script({ stream: openaiStream({ text: "One small grey square." }) });
		await page.locator(".vault-agent-send").click();
		await turnEnded(page);
		const request = server.requests.find((r) => r.url.endsWith("/chat/completions"));
		const content = request.body.messages.at(-1).content;
		assert.equal(content.filter((part) => part.type === "image_url").length, 1, "only the image that decodes is sent");
		assert.match(content[0].text, /\[The user attached images that could not be sent: Attachments\/noise\.png\.\]/);
		assert.match(await page.locator(".vault-agent-messages").textContent(), /The image Attachments\/noise\.png could not be sent: it cannot be decoded: it is damaged.*Save it again as PNG or JPEG/);
		assert.deepEqual(errors, []);
	});

	it("refuses a PDF with a password at Send: the message says what to do, nothing is sent", async () => {
		const sent = server.requests.length;
		const input = page.locator(".vault-agent-input");
		await input.click();
		await input.pressSequentially("Summarise [[Locked");
		const item = page.locator(".suggestion-container .suggestion-item", { hasText: "Papers/Locked.pdf" });
		await item.waitFor({ state: "visible", timeout: 5_000 });
		await item.click();
		await page.locator(".vault-agent-send").click();
		const banner = page.locator(".vault-agent-banner", { hasText: "Locked.pdf" });
		await banner.waitFor({ state: "visible", timeout: 10_000 });
		assert.match(await banner.textContent(), /Papers\/Locked\.pdf could not be read as a PDF: it is protected by a password\. Open it in a PDF reader, save a copy without the password, and attach that\./);
		assert.equal(server.requests.length, sent, "nothing reached the server");
		assert.deepEqual(errors, []);
	});
});
