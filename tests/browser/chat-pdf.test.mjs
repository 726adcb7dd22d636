// A PDF in the chat in Chromium from the built main.js, at a 320 px wide
// window (a phone, or a narrow sidebar): `[[` suggests the vault's PDF, the
// chosen one is a chip with the PDF's icon in the input and, sent, in the
// message; the scripted model server on localhost receives its pages with
// their numbers, read by the real PDF.js in its Web Worker, as Obsidian's
// `loadPdfJs` gives it (tests/support/pdf-double.mjs). Screenshots go to test-output/.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openChat, startBrowserPlugin, turnEnded } from "../support/browser.mjs";
import { emulator, emulatorEnv } from "../support/harness.mjs";
import { openaiStream, startModelServer } from "../support/model-servers.mjs";
import { simplePdf } from "../support/pdf-double.mjs";

describe("a PDF in the chat in Chromium", () => {
	let server;
	let session;
	let page;

	before(async () => {
		server = await startModelServer();
		session = await startBrowserPlugin({
			data: {
				cliPath: emulator,
				chat: { profiles: [{ id: "p", provider: "openAi", baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "", contextWindow: 32000 }], activeProfile: "p" },
			},
			env: (vault) => {
				mkdirSync(join(vault, "Papers"), { recursive: true });
				writeFileSync(join(vault, "Papers", "Quarterly report.pdf"), simplePdf([["Revenue grew 4%"], ["Costs fell"], ["Outlook: steady"]]));
				return emulatorEnv(vault);
			},
			viewport: { width: 320, height: 640 },
		});
		({ page } = session);
		await openChat(page);
	});

	after(async () => {
		await session?.close();
		await server?.close();
	});

	it("attaches a vault PDF with [[: a chip in the input, then in the sent message, its pages sent with their numbers", async () => {
		const input = page.locator(".vault-agent-input");
		await input.click();
		await input.pressSequentially("Summarise [[Quarterly");
		const item = page.locator(".suggestion-container .suggestion-item", { hasText: "Quarterly report" });
		await item.waitFor({ state: "visible", timeout: 5_000 });
		assert.equal(await item.locator(".suggestion-note").textContent(), "Papers/Quarterly report.pdf");
		await item.click();
		assert.equal(await input.inputValue(), "Summarise [[Quarterly report.pdf]]");
		const chip = page.locator(".vault-agent-chip[data-path='Papers/Quarterly report.pdf']");
		assert.equal(await chip.locator(".vault-agent-chip-path").textContent(), "Papers/Quarterly report.pdf");
		assert.equal(await chip.locator(".vault-agent-chip-icon svg").count(), 1, "the chip shows an icon");
		const box = await chip.boundingBox();
		assert.ok(box && box.x >= 0 && box.x + box.width <= 320, `the chip fits the 320 px window: ${JSON.stringify(box)}`);
		await session.screenshot("chat-pdf-chip", { fit: ".vault-agent-composer" });

		server.script({ stream: openaiStream({ text: "Revenue grew 4%, costs fell, and the outlook is steady." }) });
		await page.locator(".vault-agent-send").click();
		await turnEnded(page);
		const sent = page.locator(".vault-agent-msg.is-user .vault-agent-msg-attachment.is-pdf");
		assert.equal(await sent.textContent(), "Papers/Quarterly report.pdf");
		assert.equal(await sent.locator("svg").count(), 1, "with the PDF's icon");
		assert.equal(await page.locator(".vault-agent-attachments .vault-agent-chip[data-path='Papers/Quarterly report.pdf']").count(), 0, "the chip went with the message");
		const request = server.requests.find((r) => r.url.endsWith("/chat/completions"));
		const text = request.body.messages.at(-1).content;
		assert.match(text, /--- Page 1 ---\nRevenue grew 4%\n--- Page 2 ---\nCosts fell\n--- Page 3 ---\nOutlook: steady/);
		await session.screenshot("chat-pdf-sent", { fit: ".vault-agent-messages" });
	});
});
