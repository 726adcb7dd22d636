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

	/** A small real PNG in the vault and a note embedding it, as Obsidian's metadata cache would index them. */
	async function noteWithChart() {
		await page.evaluate(async () => {
			const { app } = window.__harness;
			const canvas = document.createElement("canvas");
			canvas.width = 320;
			canvas.height = 200;
			const g = canvas.getContext("2d");
			g.fillStyle = "#2f855a";
			g.fillRect(0, 0, 320, 200);
			const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
			if (!app.vault.getAbstractFileByPath("Attachments/chart.png")) {
				await app.vault.createBinary("Attachments/chart.png", await blob.arrayBuffer());
				await app.vault.createBinary("Projects/Q3 review.md", new TextEncoder().encode("# Q3 review\n\n![[chart.png|400]]\n\nSee the chart.\n").buffer);
			}
			// Obsidian's cache of the note: one embed, its link without the size.
			app.metadataCache.setCache__("Projects/Q3 review.md", {
				embeds: [{ link: "chart.png", original: "![[chart.png|400]]", displayText: "400", position: { start: { line: 2, col: 0, offset: 13 }, end: { line: 2, col: 18, offset: 31 } } }],
			});
		});
	}

	it("a note's chip offers the images the note embeds: one click attaches one, and it reaches the model", async () => {
		await noteWithChart();
		const input = page.locator(".vault-agent-input");
		await input.click();
		await input.pressSequentially("Explain [[Q3 rev");
		const item = page.locator(".suggestion-container .suggestion-item", { hasText: "Q3 review" });
		await item.waitFor({ state: "visible", timeout: 5_000 });
		await item.click();
		const noteChip = page.locator(".vault-agent-chip[data-path='Projects/Q3 review.md']");
		const offer = noteChip.locator(".vault-agent-chip-images");
		assert.equal(await offer.getAttribute("aria-label"), "Attach an image from this note (1)");
		await offer.click();
		const choice = page.locator(".vault-agent-embedded-images .vault-agent-embedded-image");
		assert.equal(await choice.count(), 1);
		assert.equal(await choice.getAttribute("aria-label"), "Attach Attachments/chart.png");
		await choice.locator("img").waitFor({ state: "visible", timeout: 5_000 });
		await session.screenshot("chat-image-from-note", { fit: ".vault-agent-composer" });
		await choice.click();
		assert.equal(await page.locator(".vault-agent-embedded-images").count(), 0, "the row closes");
		const imageChip = page.locator(".vault-agent-chip[data-path='Attachments/chart.png']");
		assert.ok(await imageChip.locator("img.vault-agent-chip-thumb").evaluate((img) => img.complete && img.naturalWidth === 320), "its chip shows the image");
		assert.equal(await noteChip.locator(".vault-agent-chip-images").count(), 0, "an attached image is not offered again");

		const before = server.requests.length;
		server.script({ stream: openaiStream({ text: "A green chart." }) });
		await page.locator(".vault-agent-send").click();
		await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running"), null, { timeout: 15_000 });
		const request = server.requests.slice(before).find((r) => r.url.endsWith("/chat/completions"));
		const content = request.body.messages.at(-1).content;
		assert.ok(Array.isArray(content) && content.some((part) => part.type === "image_url" && part.image_url.url.startsWith("data:image/")), JSON.stringify(content).slice(0, 300));
		assert.match(JSON.stringify(content), /Projects\/Q3 review\.md/, "the note went too");
	});

	it("a note and an image dragged from Obsidian's file explorer attach as chips, not as link text", async () => {
		await noteWithChart();
		const dropped = await page.evaluate(() => {
			const { app } = window.__harness;
			const composer = document.querySelector(".vault-agent-composer");
			const input = document.querySelector(".vault-agent-input");
			input.value = "";
			const drop = (text) => {
				const data = new DataTransfer();
				data.setData("text/plain", text);
				const over = new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true });
				input.dispatchEvent(over);
				const event = new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
				input.dispatchEvent(event);
				return { over: over.defaultPrevented, drop: event.defaultPrevented };
			};
			// Obsidian's drag manager holds the file while it is dragged from its explorer.
			app.dragManager = { draggable: { type: "file", file: app.vault.getAbstractFileByPath("Projects/Roadmap.md"), title: "Roadmap", icon: "document" } };
			const fromExplorer = drop(`obsidian://open?vault=${encodeURIComponent(app.vault.getName())}&file=Projects%2FRoadmap`);
			// Without it, the obsidian:// link in the drag's text names the file.
			app.dragManager = { draggable: null };
			const fromLink = drop(`obsidian://open?vault=${encodeURIComponent(app.vault.getName())}&file=Attachments%2Fchart.png`);
			const otherVault = drop("obsidian://open?vault=Someone%20else&file=Projects%2FLaunch%20plan");
			delete app.dragManager;
			return { fromExplorer, fromLink, otherVault, chips: [...composer.querySelectorAll(".vault-agent-chip")].map((c) => c.dataset.path), text: input.value };
		});
		assert.deepEqual(dropped.fromExplorer, { over: true, drop: true });
		assert.equal(dropped.fromLink.drop, true);
		assert.equal(dropped.otherVault.drop, false, "a link to another vault is left to the text box");
		assert.ok(dropped.chips.includes("Projects/Roadmap.md") && dropped.chips.includes("Attachments/chart.png"), JSON.stringify(dropped.chips));
		assert.ok(!dropped.chips.includes("Projects/Launch plan.md"), JSON.stringify(dropped.chips));
		assert.equal(dropped.text, "", "no link text was typed");
		await session.screenshot("chat-dropped-from-explorer", { fit: ".vault-agent-composer" });
	});
});
