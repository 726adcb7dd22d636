// Search by meaning through the built main.js: a real embedding server on
// localhost (tests/support/embedding-server.mjs stands in for Ollama or LM
// Studio), the vectors kept in the plugin's folder, notes changed during a
// run that waits on a slow server (search by words takes them in at once, the
// next run embeds them), Stop during a run, a
// server that fails or answers garbage (keyword search goes on and says why),
// and a server off this computer, which waits for the user's yes.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { clickButton, closeSettings, copySampleVault, eventually, findSetting, loadPlugin, openSettingTab, removeVault, settle, until } from "../support/harness.mjs";
import { startEmbeddingServer } from "../support/embedding-server.mjs";

const find = (plugin, query) => plugin.core.callTool("obsidianSearch", { command: "find", query });
const MAINTENANCE = "# Maintenance\n\nReplaced the brake pads and checked the tyres before the long drive.\n";

function settingsFor(server, extra = {}) {
	return { embeddings: { enabled: true, baseUrl: server.baseUrl, model: "concepts", ...extra } };
}

/** Many small sections, so a run takes several requests (32 sections each). */
function writeFiller(vault, notes) {
	mkdirSync(join(vault, "Filler"), { recursive: true });
	for (let i = 0; i < notes; i++) {
		const sections = [1, 2, 3].map((s) => `## Part ${s}\n\nItem ${i}-${s} of the quiet filler about lanterns ${i * 3 + s}.`).join("\n\n");
		writeFileSync(join(vault, `Filler/Filler ${i}.md`), `# Filler ${i}\n\n${sections}\n`);
	}
}

describe("search by meaning with a local embedding server", () => {
	let vault;
	let server;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		mkdirSync(join(vault, "Garage"), { recursive: true });
		writeFileSync(join(vault, "Garage/Maintenance.md"), MAINTENANCE);
		server = await startEmbeddingServer();
		({ plugin } = await loadPlugin(vault, { data: settingsFor(server) }));
		await plugin.searchIndex.settled();
	});
	after(async () => {
		plugin.unload();
		await server.close();
		removeVault(vault);
	});

	it("embeds every section after the build and finds a note that shares no word with the question", async () => {
		const status = plugin.core.embeddingsStatus();
		assert.equal(status.phase, "idle", JSON.stringify(status));
		assert.ok(status.sections > 20 && status.embedded === status.sections, JSON.stringify(status));
		assert.ok(server.state.requests.every((r) => r.model === "concepts"));
		const result = await find(plugin, "car repairs");
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^1\. Garage\/Maintenance\.md/m, result.text);
		assert.match(result.text, /found by meaning/, result.text);
		assert.match(result.text, /Ranked by words and by meaning \(concepts\)/, result.text);
	});

	it("keeps the vectors in the plugin's folder and embeds only what changed after a restart", async () => {
		assert.ok(existsSync(join(vault, ".obsidian/plugins/vault-agent/embeddings.bin")), "the vectors are saved");
		plugin.unload();
		writeFileSync(join(vault, "Garage/Maintenance.md"), `${MAINTENANCE}\n## Later\n\nChanged the engine oil.\n`);
		const before = server.state.inputs;
		({ plugin } = await loadPlugin(vault, { data: settingsFor(server) }));
		await plugin.searchIndex.settled();
		const status = plugin.core.embeddingsStatus();
		assert.equal(status.phase, "idle", JSON.stringify(status));
		assert.ok(status.sections > 20 && status.embedded === status.sections, JSON.stringify(status));
		// The edited note's sections are new or changed; nothing else is sent again.
		assert.ok(server.state.inputs - before >= 1 && server.state.inputs - before <= 2, `${server.state.inputs - before} sent`);
	});

	it("a server that fails leaves search by words working, and the status says why", async () => {
		server.state.mode = "fail";
		writeFileSync(join(vault, "Ideas/Soup.md"), "# Soup\n\nA recipe for a slow lentil soup with bread.\n");
		plugin.app.vault.trigger("create", { path: "Ideas/Soup.md" });
		await plugin.searchIndex.settled();
		const status = await plugin.searchIndex.embed();
		assert.equal(status.phase, "failed", JSON.stringify(status));
		assert.match(status.error, /500|model not loaded/, status.error);
		const result = await find(plugin, "lentil soup");
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /^1\. Ideas\/Soup\.md/m, result.text);
		assert.match(result.text, /Search by meaning was not used, so this is by words alone/, result.text);
	});

	it("a server that answers garbage keeps nothing of it and says so", async () => {
		server.state.mode = "garbage";
		const before = plugin.core.embeddingsStatus();
		assert.ok(before.embedded < before.sections, "the failed run left a section to embed");
		const asked = server.state.requests.length;
		const status = await plugin.searchIndex.embed();
		assert.equal(status.phase, "failed", JSON.stringify(status));
		assert.match(status.error, /embedding/i, status.error);
		assert.ok(server.state.requests.length > asked, "the garbage was served");
		assert.equal(status.embedded, before.embedded, "nothing of the bad batch was kept");
		server.state.mode = "ok";
		const again = await plugin.searchIndex.embed();
		assert.equal(again.phase, "idle", JSON.stringify(again));
		assert.equal(again.embedded, again.sections);
	});
});

describe("vault changes while an embedding run waits on a slow server", () => {
	let vault;
	let server;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		// A local model can take hours over a vault: this one answers only when the test says.
		server = await startEmbeddingServer({ hold: true });
		({ plugin } = await loadPlugin(vault, { data: settingsFor(server) }));
	});
	after(async () => {
		plugin.unload();
		await server.close();
		removeVault(vault);
	});

	it("search by words takes in new and renamed notes during the run, and the next run embeds them", { timeout: 60_000 }, async () => {
		await eventually(() => server.state.held.length > 0);
		writeFileSync(join(vault, "Ideas/Capybara.md"), "# Capybara\n\nThe capybara plan for the garden pond.\n");
		plugin.app.vault.trigger("create", { path: "Ideas/Capybara.md" });
		renameSync(join(vault, "People/Bob.md"), join(vault, "People/Robert.md"));
		plugin.app.vault.trigger("rename", { path: "People/Robert.md" }, "People/Bob.md");
		const created = await until(() => find(plugin, "capybara"), (r) => /Ideas\/Capybara\.md/.test(r.text));
		assert.match(created.text, /^1\. Ideas\/Capybara\.md/m, created.text);
		const renamed = await until(() => find(plugin, "roadmap"), (r) => /People\/Robert\.md/.test(r.text));
		assert.match(renamed.text, /People\/Robert\.md/, renamed.text);
		assert.doesNotMatch(renamed.text, /People\/Bob\.md/, renamed.text);
		assert.equal(plugin.core.embeddingsStatus().phase, "embedding", "the run still waits on the server");
		// Past the wait after a change (5 s), so the run after this one is asked for while it goes.
		await new Promise((done) => setTimeout(done, 6_000));
		// The run ends; what changed during it is embedded after it.
		server.release();
		await eventually(() => {
			const status = plugin.core.embeddingsStatus();
			return status.phase === "idle" && status.embedded === status.sections;
		});
		const embedded = server.state.requests.flatMap((r) => r.input);
		assert.ok(embedded.some((text) => /capybara plan/.test(text)), "the new note was sent");
	});
});

describe("Stop during a run, and a server off this computer", () => {
	let vault;
	let server;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		writeFiller(vault, 60);
		server = await startEmbeddingServer({ delayMs: 150 });
		({ plugin } = await loadPlugin(vault, { data: { embeddings: { enabled: false, baseUrl: server.baseUrl, model: "concepts" } } }));
		await plugin.searchIndex.settled();
	});
	after(async () => {
		plugin.unload();
		await server.close();
		removeVault(vault);
	});

	it("Stop ends a run after its request in flight and keeps what was embedded", async () => {
		assert.equal(server.state.requests.length, 0, "nothing is sent while off");
		await plugin.updateSettings(settingsFor(server));
		let stopped = false;
		const stopHearing = plugin.searchIndex.onEmbeddingStatus((status) => {
			if (!stopped && status.phase === "embedding" && status.done > 0) {
				stopped = true;
				plugin.searchIndex.stopEmbedding();
			}
		});
		const status = await plugin.searchIndex.embed();
		stopHearing();
		assert.equal(status.phase, "stopped", JSON.stringify(status));
		assert.ok(status.embedded > 0 && status.embedded < status.sections, JSON.stringify(status));
		const sent = server.state.requests.length;
		await new Promise((done) => setTimeout(done, 400));
		assert.equal(server.state.requests.length, sent, "nothing more is sent after Stop");
		const result = await find(plugin, "lanterns");
		assert.equal(result.ok, true, result.text);
	});

	it("a remote server gets nothing until the user says yes, and the settings say how much would go", async () => {
		await plugin.updateSettings({ embeddings: { ...plugin.core.settings().embeddings, baseUrl: "https://embeddings.example.com/v1" } });
		const sent = server.state.requests.length;
		const status = await plugin.searchIndex.embed();
		assert.equal(status.needsConsent, true, JSON.stringify(status));
		assert.ok(status.pendingChars > 1000 && status.pendingNotes > 60, JSON.stringify(status));
		assert.equal(server.state.requests.length, sent);
		assert.equal(plugin.core.settings().embeddings.consented, "");
		// Local only holds the run after the yes: nothing reaches a network from a test.
		await plugin.updateSettings({ localOnly: true });
		const tab = openSettingTab(plugin);
		try {
			const row = findSetting(tab, "Embedded sections");
			assert.match(row.textContent, /embeddings\.example\.com is not on this computer or your network/);
			assert.ok(row.textContent.includes(`(${status.pendingChars.toLocaleString()} characters)`), row.textContent);
			clickButton(row, "Send and embed");
			await settle(20);
			assert.equal(plugin.core.settings().embeddings.consented, status.server, "the yes names the server and the model");
			const after = await plugin.searchIndex.embed();
			assert.equal(after.phase, "failed", JSON.stringify(after));
			assert.match(after.error, /Local only/, after.error);
			assert.match(row.textContent, /Local only/, "the settings show why");
		} finally {
			closeSettings(plugin.app);
		}
	});
});
