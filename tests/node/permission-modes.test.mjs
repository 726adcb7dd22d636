// The permission modes through the built main.js, the Obsidian double and the
// CLI emulator: an older data.json keeps its behaviour, Ask before every change
// turns an append into a card that appends exactly once when approved, Read
// only refuses every change before anything runs, and the chat header's
// dropdown (a user's click) changes and saves the mode while the public API and
// tool arguments cannot.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { clickButton, copySampleVault, emulator, loadPlugin, readLog, removeVault, settle, useEmulator } from "../support/harness.mjs";

const DAILY = "Daily/2026-03-03.md"; // the emulator's today

/** One call of every write command, each naming its target in the sample vault. */
const WRITES = [
	["obsidianDailyNote", { command: "daily:append", content: "- [ ] Call Bob" }],
	["obsidianDailyNote", { command: "daily:prepend", content: "## Top" }],
	["obsidianProperties", { command: "property:set", name: "owner", value: "Dana", file: "Launch plan" }],
	["obsidianProperties", { command: "property:remove", name: "owner", file: "Launch plan" }],
	["obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:35", done: true }],
	["obsidianBases", { command: "base:create", file: "Projects", name: "New item" }],
	["obsidianBookmarks", { command: "bookmark", url: "https://obsidian.md" }],
	["obsidianEdit", { command: "create", path: "Projects/Q3 plan.md", content: "# Q3 plan" }],
	["obsidianEdit", { command: "append", file: "Welcome", content: "- [ ] Try the agent" }],
	["obsidianEdit", { command: "prepend", path: "Welcome.md", content: "> Read me first" }],
	["obsidianEdit", { command: "edit", path: "Projects/Launch plan.md", find: "owner: Alice", with: "owner: Dana" }],
];

/** Records what the plugin saves to data.json. */
function recordSaves(plugin) {
	const saves = [];
	const original = plugin.saveData.bind(plugin);
	plugin.saveData = async (data) => {
		saves.push(structuredClone(data));
		return original(data);
	};
	return saves;
}

function openCard(id) {
	return document.querySelector(`.modal-container .vault-agent-confirm[data-confirmation-id="${id}"]`);
}

/** Closes the card modal the API opened until no card is left (closing rejects). */
async function closeModals() {
	for (let round = 0; round < 20; round++) {
		const button = document.querySelector(".modal-container .modal-close-button");
		if (!button) return;
		button.click();
		await settle();
	}
}

describe("an older data.json with allowVaultChanges: true", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, allowVaultChanges: true } }));
	});
	after(async () => {
		await closeModals();
		removeVault(vault);
	});

	it("loads as Ask before edits", () => {
		assert.equal(plugin.core.settings().permissionMode, "askBeforeEdits");
		assert.equal("allowVaultChanges" in plugin.core.settings(), false);
	});

	it("a property:set still gives a card, and daily:append runs at once", async () => {
		const log = useEmulator(vault);
		const set = await plugin.api.callTool("obsidianProperties", WRITES[2][1]);
		assert.equal(set.ok, false);
		assert.ok(set.pending, `a card: ${set.text}`);
		assert.deepEqual(readLog(log).map((e) => e.argv[0]), ["property:read"], "only the card's read ran");
		const appended = await plugin.api.callTool("obsidianDailyNote", WRITES[0][1]);
		assert.equal(appended.ok, true, appended.text);
		assert.equal(appended.pending, undefined);
		// daily:path: the undo journal finds the note before the append.
		assert.deepEqual(readLog(log).map((e) => e.argv[0]), ["property:read", "daily:path", "daily:append"]);
		assert.match(readFileSync(join(vault, DAILY), "utf8"), /\n- \[ \] Call Bob$/);
	});

	it("saves the mode, not the old switch", async () => {
		const saves = recordSaves(plugin);
		await plugin.updateSettings({ timeoutMs: 20000 });
		const saved = saves.at(-1);
		assert.equal(saved.permissionMode, "askBeforeEdits");
		assert.equal("allowVaultChanges" in saved, false, JSON.stringify(saved));
		assert.equal(saved.timeoutMs, 20000);
	});
});

describe("Ask before every change", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askEveryChange" } }));
	});
	after(async () => {
		await closeModals();
		removeVault(vault);
	});

	it("gives a card for daily:append; approving it appends exactly once", async () => {
		const log = useEmulator(vault);
		const before = readFileSync(join(vault, DAILY), "utf8");
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:append", content: "- [ ] Call Bob" });
		assert.equal(result.ok, false);
		assert.ok(result.pending, `a card: ${result.text}`);
		assert.equal(result.pending.summary, "Add to the end of today's daily note");
		assert.equal(result.pending.preview.before, "…\n\n## Notes\nMeeting with Alice about CLI integration...");
		assert.equal(result.pending.preview.after, "…\n\n## Notes\nMeeting with Alice about CLI integration...\n- [ ] Call Bob");
		assert.deepEqual(readLog(log).map((e) => e.argv[0]), ["daily:read"], "nothing written before the click");
		assert.equal(readFileSync(join(vault, DAILY), "utf8"), before);

		const waiting = plugin.api.waitForConfirmation(result.pending.id);
		await settle();
		const card = openCard(result.pending.id);
		assert.ok(card, "the card is shown");
		assert.equal(card.querySelector(".vault-agent-confirm-after").textContent, result.pending.preview.after);
		clickButton(card, "Approve");
		const final = await waiting;
		assert.equal(final.ok, true, final.text);
		const appends = readLog(log).filter((e) => e.argv[0] === "daily:append");
		assert.deepEqual(appends.map((e) => e.argv), [["daily:append", "content=- [ ] Call Bob"]], "one append");
		const text = readFileSync(join(vault, DAILY), "utf8");
		assert.equal(text.split("Call Bob").length - 1, 1, text);
		assert.ok(text.startsWith(before.trimEnd()) && text.endsWith("- [ ] Call Bob"), text);
	});

	it("gives a card for every write; nothing but their reads ran", async () => {
		const log = useEmulator(vault);
		for (const [tool, args] of WRITES) {
			const result = await plugin.api.callTool(tool, args);
			assert.ok(result.pending, `${tool} ${args.command}: ${result.text}`);
			assert.ok(result.pending.preview.after, `${args.command} has a preview`);
		}
		const writes = new Set(WRITES.map(([, args]) => args.command));
		const ran = readLog(log).map((e) => e.argv[0]);
		assert.deepEqual(
			ran.filter((command) => writes.has(command)),
			[],
			`only reads ran: ${ran.join(", ")}`,
		);
		assert.ok(ran.includes("daily:read") && ran.includes("bookmarks") && ran.includes("base:views"), ran.join(", "));
		assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^owner: Alice$/m, "the edit waits too");
		assert.equal(existsSync(join(vault, "Projects/Q3 plan.md")), false, "no note created");
		await closeModals();
	});
});

describe("Read only", () => {
	for (const [name, data] of [
		["by default", {}],
		["from an older allowVaultChanges: false", { allowVaultChanges: false }],
	]) {
		it(`refuses every change before anything runs (${name})`, async () => {
			const vault = copySampleVault();
			try {
				const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, ...data } });
				assert.equal(plugin.core.settings().permissionMode, "readOnly");
				const log = useEmulator(vault);
				for (const [tool, args] of WRITES) {
					const result = await plugin.api.callTool(tool, args);
					assert.equal(result.error?.code, "writes_disabled", `${tool} ${args.command}: ${result.text}`);
					assert.equal(result.pending, undefined, "no card");
					assert.match(result.text, /"Read only".*chat header.*Settings → Vault Agent → Safety → Vault changes/);
				}
				assert.deepEqual(readLog(log), [], "no process started");
				assert.equal(document.querySelector(".modal-container .vault-agent-confirm") === null, true, "no card shown");
			} finally {
				removeVault(vault);
			}
		});
	}
});

describe("the chat header's mode dropdown", () => {
	let vault;
	let plugin;
	let view;
	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator } }));
		view = await plugin.openChat();
		await settle(6);
	});
	after(() => removeVault(vault));

	const select = () => view.contentEl.querySelector(".vault-agent-chat-header select.vault-agent-permission-mode");

	it("shows the mode in effect, with the three modes to pick from", () => {
		assert.ok(select(), "the dropdown is in the header");
		assert.deepEqual(
			[...select().options].map((o) => [o.value, o.textContent]),
			[
				["readOnly", "Read only"],
				["askEveryChange", "Ask before every change"],
				["askBeforeEdits", "Ask before edits"],
			],
		);
		assert.equal(select().value, "readOnly");
	});

	it("a pick there is saved and is what the core uses", async () => {
		const saves = recordSaves(plugin);
		select().value = "askEveryChange";
		select().dispatchEvent(new Event("change", { bubbles: true }));
		await settle(6);
		assert.equal(saves.at(-1)?.permissionMode, "askEveryChange", JSON.stringify(saves.at(-1)));
		assert.equal(plugin.core.settings().permissionMode, "askEveryChange");
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:append", content: "x" });
		assert.ok(result.pending, "a card, as the new mode says");
		await closeModals();
	});

	it("follows a change made in the settings", async () => {
		await plugin.updateSettings({ permissionMode: "askBeforeEdits" });
		assert.equal(select().value, "askBeforeEdits");
		assert.equal(select().closest(".vault-agent-mode").dataset.mode, "askBeforeEdits");
	});

	it("neither the public API nor tool arguments can change the mode", async () => {
		await plugin.updateSettings({ permissionMode: "readOnly" });
		assert.deepEqual(Object.keys(plugin.api).sort(), ["callTool", "listTools", "version", "waitForConfirmation"]);
		const result = await plugin.api.callTool("obsidianDailyNote", { command: "daily:append", content: "x", permissionMode: "askBeforeEdits" });
		assert.equal(result.error?.code, "invalid_arguments", result.text);
		assert.equal(plugin.core.settings().permissionMode, "readOnly");
		assert.equal(select().value, "readOnly");
	});
});
