// Images in the chat in Chromium from the built main.js: a screenshot-sized
// PNG pasted into the chat's input becomes a chip with its thumbnail, and,
// sent, a thumbnail in the message; the model server (scripted, on
// localhost) receives it scaled down on the page's canvas to the 2048 pixels
// OpenAI-compatible servers take. Screenshots go to test-output/.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";

describe("images in the chat in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				chat: { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32000, images: true }], activeProfile: "p" },
			},
			env: (vault) => emulatorEnv(vault),
			viewport: { width: 1100, height: 900 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("pastes a screenshot into the input: a chip with its thumbnail, then a thumbnail in the message, sent scaled to 2048 px", async () => {
		// A 3000×1500 "screenshot" drawn on a canvas, pasted as the clipboard delivers it.
		await page.evaluate(async () => {
			const canvas = document.createElement("canvas");
			canvas.width = 3000;
			canvas.height = 1500;
			const g = canvas.getContext("2d");
			const gradient = g.createLinearGradient(0, 0, 3000, 1500);
			gradient.addColorStop(0, "#2b6cb0");
			gradient.addColorStop(1, "#d69e2e");
			g.fillStyle = gradient;
			g.fillRect(0, 0, 3000, 1500);
			g.fillStyle = "#fff";
			g.font = "bold 220px sans-serif";
			g.fillText("Q3 roadmap", 300, 800);
			const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
			const data = new DataTransfer();
			data.items.add(new File([blob], "image.png", { type: "image/png" }));
			const input = document.querySelector(".vault-agent-input");
			input.focus();
			input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
		});
		const thumb = page.locator(".vault-agent-attachments .vault-agent-chip img.vault-agent-chip-thumb");
		await thumb.waitFor({ state: "visible", timeout: 10_000 });
		assert.ok(await thumb.evaluate((img) => img.complete && img.naturalWidth === 3000), "the chip's thumbnail shows the pasted image");
		assert.equal(await page.locator(".vault-agent-attachments .vault-agent-chip .vault-agent-chip-path").last().textContent(), "Pasted image");
		await page.locator(".vault-agent-input").fill("What does this screenshot say?");
		await session.screenshot("chat-image-pasted", { fit: ".vault-agent-composer" });

		server.script({ stream: openaiStream({ text: "It says **Q3 roadmap**, in white on a blue-to-gold background." }) });
		await page.locator(".vault-agent-send").click();
		await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running") && document.querySelector(".vault-agent-msg.is-assistant"), null, { timeout: 15_000 });
		const sent = page.locator(".vault-agent-msg.is-user img.vault-agent-msg-image");
		await sent.waitFor({ state: "visible", timeout: 5_000 });
		assert.ok(await sent.evaluate((img) => img.complete && img.naturalWidth > 0), "the message's thumbnail loads");
		assert.equal(await page.locator(".vault-agent-attachments .vault-agent-chip img").count(), 0, "the chip went with the message");

		const request = server.requests.find((r) => r.url.endsWith("/chat/completions"));
		const content = request.body.messages.at(-1).content;
		assert.ok(Array.isArray(content), `the image went with the text: ${JSON.stringify(content).slice(0, 400)}; ${await page.locator(".vault-agent-messages").textContent()}`);
		const image = content.find((part) => part.type === "image_url");
		assert.match(image.image_url.url, /^data:image\/jpeg;base64,/, "scaled on the canvas, as a JPEG");
		const size = await page.evaluate(async (url) => {
			const img = new Image();
			img.src = url;
			await img.decode();
			return [img.naturalWidth, img.naturalHeight];
		}, image.image_url.url);
		assert.deepEqual(size, [2048, 1024], "the longest side is OpenAI's 2048 px");
		await session.screenshot("chat-image-sent", { fit: ".vault-agent-messages" });
	});
});
