// Images in the chat through the BUILT main.js, against scripted model
// servers on localhost (real HTTP): a PNG pasted into the chat's input and a
// vault JPEG attached with `[[` reach each provider in its own format (an
// OpenAI-compatible `image_url` data URL, an Anthropic base64 `image`
// block); a profile whose model takes no images is refused with the
// message and nothing sent, the words and chips kept; a chat stored before
// images still loads; deleting a chat removes its pasted images; a coding
// agent (ACP) gets the image as ACP image content only where it advertises
// `image` in its prompt capabilities.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, removeVault, root, settle, useEmulator } from "../support/harness.mjs";
import { anthropicStream, openaiStream, startModelServer } from "../support/model-servers.mjs";

/**
 * A 1×1 PNG and a 1×1 JPEG (whole: the chat refuses an image cut short,
 * tests/node/chat-hostile-media.test.mjs): what matters is that they
 * arrive unchanged.
 */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.from(
	"/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCeAGpH/9k=",
	"base64",
);

describe("images in the chat (the built main.js, real model servers on localhost)", () => {
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
		mkdirSync(join(vault, "Attachments"), { recursive: true });
		writeFileSync(join(vault, "Attachments", "photo.jpg"), JPEG);
		const base = profile.provider === "anthropic" ? server.url : `${server.url}/v1`;
		const chat = { profiles: [{ id: "p", baseUrl: base, model: "test-model", contextWindow: 32000, apiKeySecret: "", ...profile }], activeProfile: "p" };
		const { plugin, app } = await loadPlugin(vault, { data: { cliPath: emulator, chat } });
		if (profile.provider === "anthropic") app.secretStorage.setSecret("anthropic-key", "sk-ant-test");
		const view = await plugin.openChat();
		const input = view.inputEl;
		assert.ok(input, "the chat's input is there");
		return { server, plugin, vault, view, input, imagesDir: join(vault, app.vault.configDir, "plugins", "vault-agent", "chat-images") };
	}

	/** What a user's paste of an image delivers to the input. */
	async function paste(view, input) {
		const event = new Event("paste", { bubbles: true, cancelable: true });
		Object.defineProperty(event, "clipboardData", { value: { files: [new File([PNG], "image.png", { type: "image/png" })] } });
		input.dispatchEvent(event);
		assert.ok(event.defaultPrevented, "the paste is the chat's, not the text box's");
		for (let i = 0; i < 50 && !view.contentEl.querySelector(".vault-agent-chip img"); i++) await settle();
	}

	/** `[[photo` in the input, then the suggestion picked, as the user does. */
	async function attachFromVault(view, input) {
		input.value = "[[photo";
		input.setSelectionRange(7, 7);
		input.dispatchEvent(new Event("input", { bubbles: true }));
		await settle();
		const item = [...document.querySelectorAll(".suggestion-item")].find((el) => el.textContent.includes("Attachments/photo.jpg"));
		assert.ok(item, `the image is suggested: ${document.body.textContent.slice(0, 300)}`);
		item.click();
		await settle();
		assert.equal(input.value, "[[photo.jpg]]");
	}

	async function sendBoth({ server, view, input }, reply) {
		await paste(view, input);
		await attachFromVault(view, input);
		const chips = [...view.contentEl.querySelectorAll(".vault-agent-attachments .vault-agent-chip")].map((c) => c.textContent);
		assert.ok(chips.includes("Pasted image") && chips.some((c) => c.includes("Attachments/photo.jpg")), JSON.stringify(chips));
		server.script({ stream: reply });
		input.value = "What do these show? [[photo.jpg]]";
		await view.send();
		return server.requests.filter((r) => r.method === "POST" && !r.url.endsWith("/api/show"));
	}

	it("sends a pasted PNG and a vault JPEG to an OpenAI-compatible server as image_url data URLs, and shows their thumbnails", async () => {
		const setupDone = await setup({ provider: "openAi", images: true });
		const requests = await sendBoth(setupDone, openaiStream({ text: "A dot and a photo." }));
		assert.equal(requests.length, 1);
		const content = requests[0].body.messages.at(-1).content;
		assert.equal(content[0].type, "text");
		assert.match(content[0].text, /^What do these show\?/);
		assert.deepEqual(content.slice(1), [
			{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
			{ type: "image_url", image_url: { url: `data:image/jpeg;base64,${JPEG.toString("base64")}` } },
		]);
		const thumbs = [...setupDone.view.contentEl.querySelectorAll(".vault-agent-msg.is-user .vault-agent-msg-image")];
		assert.equal(thumbs.length, 2, "both images are thumbnails in the message");
		assert.ok(thumbs.every((img) => img.getAttribute("src").startsWith("app://")), thumbs.map((t) => t.getAttribute("src")).join());
		// Stored by reference: the pasted file in the plugin's folder, the vault path.
		const stored = setupDone.plugin.conversations;
		const [summary] = await stored.list();
		const chat = await stored.load(summary.id);
		const attachments = chat.messages[0].attachments;
		assert.deepEqual(
			attachments.filter((a) => a.pasted || a.path.endsWith(".jpg")).map((a) => (a.pasted ? "pasted" : a.path)),
			["pasted", "Attachments/photo.jpg"],
		);
		assert.doesNotMatch(JSON.stringify(chat), new RegExp(PNG.toString("base64").slice(0, 20)), "no bytes in the chat file");
		assert.deepEqual(readdirSync(setupDone.imagesDir), [attachments.find((a) => a.pasted).path]);
	});

	it("sends them to Anthropic as base64 image blocks before the text", async () => {
		const setupDone = await setup({ provider: "anthropic", model: "claude-sonnet-4-5", apiKeySecret: "anthropic-key" });
		const requests = await sendBoth(setupDone, anthropicStream({ text: "A dot and a photo." }));
		assert.equal(requests.length, 1);
		const content = requests[0].body.messages.at(-1).content;
		assert.deepEqual(content.slice(0, 2), [
			{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
			{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG.toString("base64") } },
		]);
		assert.equal(content[2].type, "text");
	});

	it("refuses a message with images for a profile whose model takes none: the message says so, nothing is sent, the words and chips stay", async () => {
		const setupDone = await setup({ provider: "openAi", images: false });
		const requests = await sendBoth(setupDone, openaiStream({ text: "never" }));
		assert.equal(requests.length, 0, "nothing reached the server");
		const banner = setupDone.view.contentEl.querySelector(".vault-agent-banner").textContent;
		assert.match(banner, /"test-model" is not set to accept images, so nothing was sent/);
		assert.match(banner, /Model accepts images/);
		assert.equal(setupDone.input.value, "What do these show? [[photo.jpg]]", "the words are back in the input");
		const chips = [...setupDone.view.contentEl.querySelectorAll(".vault-agent-attachments .vault-agent-chip")].filter((c) => c.querySelector("img"));
		assert.deepEqual(chips.map((c) => c.textContent), ["Pasted image", "Attachments/photo.jpg"], "and the images as chips with their thumbnails");
		assert.equal(setupDone.view.contentEl.querySelectorAll(".vault-agent-msg.is-user").length, 0, "no message drawn that was not sent");
	});

	it("loads a chat stored before images, and deleting a chat removes its pasted images", async () => {
		const setupDone = await setup({ provider: "openAi", images: true });
		const { plugin, vault, imagesDir } = setupDone;
		const folder = join(vault, plugin.app.vault.configDir, "plugins", "vault-agent", "conversations");
		mkdirSync(folder, { recursive: true });
		writeFileSync(
			join(folder, "chat-1-1.json"),
			JSON.stringify({ id: "chat-1-1", title: "Old chat", createdMs: 1, updatedMs: 2, messages: [{ role: "user", text: "Old question", attachments: [{ path: "Projects/Roadmap.md" }] }, { role: "assistant", text: "Old answer", toolCalls: [] }] }),
		);
		await setupDone.view.open("chat-1-1");
		assert.match(setupDone.view.contentEl.querySelector(".vault-agent-messages").textContent, /Old question[\s\S]*Old answer/);
		assert.equal(plugin.conversations.takeDamage("chat-1-1"), null, "nothing to repair");

		setupDone.view.newChat();
		await sendBoth(setupDone, openaiStream({ text: "Seen." }));
		const [newest] = await plugin.conversations.list();
		assert.equal(readdirSync(imagesDir).length, 1);
		// Another chat's image stays when this one goes.
		writeFileSync(join(imagesDir, "chat-1-1-x0.png"), PNG);
		await plugin.conversations.remove(newest.id);
		assert.deepEqual(readdirSync(imagesDir), ["chat-1-1-x0.png"]);
		assert.ok(existsSync(join(vault, "Attachments", "photo.jpg")), "a vault image is the user's: never removed");
	});

	for (const advertised of [true, false]) {
		it(advertised ? "gives a coding agent that advertises images the pasted PNG as ACP image content" : "refuses images for a coding agent that does not advertise them, and sends it nothing", async () => {
			const vault = copySampleVault();
			vaults.push(vault);
			const log = join(tmpdir(), `acp-images-${process.pid}-${advertised}.log`);
			rmSync(log, { force: true });
			process.env.ACP_AGENT_LOG = log;
			process.env.ACP_AGENT_IMAGES = advertised ? "1" : "0";
			useEmulator(vault);
			const { plugin } = await loadPlugin(vault, {
				data: { cliPath: emulator, acpAgents: { custom: { command: process.execPath, args: [join(root, "tests/support/acp-agent.mjs")] }, selected: "agent:custom" } },
			});
			try {
				const view = await plugin.openChat();
				const input = view.inputEl;
				await paste(view, input);
				input.value = "look";
				await view.send();
				for (let i = 0; i < 100 && !/Echo: look|does not take images/.test(view.contentEl.textContent); i++) await settle(5);
				const prompts = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.method === "session/prompt") : [];
				if (advertised) {
					assert.equal(prompts.length, 1, view.contentEl.textContent);
					assert.deepEqual(prompts[0].images, [{ type: "image", mimeType: "image/png", data: PNG.toString("base64") }]);
					assert.equal(prompts[0].text, "look");
					// The stored chat keeps the image by reference, and a reopened chat shows it.
					const [summary] = await plugin.conversations.list();
					const stored = await plugin.conversations.load(summary.id);
					const [image] = stored.messages[0].attachments ?? [];
					assert.ok(image?.pasted && image.path.endsWith(".png"), JSON.stringify(stored.messages[0]));
					assert.doesNotMatch(JSON.stringify(stored), new RegExp(PNG.toString("base64").slice(0, 20)), "no bytes in the chat file");
					view.newChat();
					await view.open(summary.id);
					assert.equal(view.contentEl.querySelectorAll(".vault-agent-msg.is-user .vault-agent-msg-image").length, 1, "the reopened chat shows the image");
				} else {
					assert.deepEqual(prompts, [], "nothing reached the agent");
					assert.match(view.contentEl.querySelector(".vault-agent-banner").textContent, /Scripted agent does not take images .*nothing was sent/);
					assert.equal(input.value, "look", "the words are back in the input");
				}
			} finally {
				delete process.env.ACP_AGENT_LOG;
				delete process.env.ACP_AGENT_IMAGES;
				await plugin.codingAgents.dispose();
				plugin.unload();
			}
		});
	}
});
