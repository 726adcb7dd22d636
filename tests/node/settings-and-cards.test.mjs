// The settings tab and the confirmation modal through the DOM double, with
// real DOM events: fields save when the user leaves them (not per keystroke)
// and show what the core kept; a write requested through the public API
// shows a card, and only its Approve button makes the change.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startModelServer } from "../support/model-servers.mjs";
import {
	clickButton,
	copySampleVault,
	emulator,
	findSetting,
	loadPlugin,
	openSettingTab,
	readLog,
	removeVault,
	settle,
	until,
	useEmulator,
} from "../support/harness.mjs";

/** Types into a text field like a user, then leaves it. */
async function type(input, value) {
	input.value = value;
	input.dispatchEvent(new Event("input", { bubbles: true }));
	input.dispatchEvent(new Event("change", { bubbles: true }));
	await settle(6);
}

describe("settings tab fields", () => {
	let vault;
	let plugin;
	let tab;
	before(async () => {
		vault = copySampleVault();
		useEmulator(vault);
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator } }));
		tab = openSettingTab(plugin);
		await settle(6);
	});
	after(() => removeVault(vault));

	it("clamps a number when the field is left, and shows the value kept", async () => {
		const input = findSetting(tab, "Timeout (seconds)").querySelector("input");
		const saves = [];
		const original = plugin.saveData.bind(plugin);
		plugin.saveData = async (data) => {
			saves.push(structuredClone(data));
			return original(data);
		};
		input.value = "9";
		input.dispatchEvent(new Event("input", { bubbles: true }));
		input.value = "99";
		input.dispatchEvent(new Event("input", { bubbles: true }));
		await settle(3);
		assert.equal(saves.length, 0, "typing alone saves nothing");
		await type(input, "9999999");
		assert.equal(saves.at(-1).timeoutMs, 120000);
		assert.equal(input.value, "120", "the field shows the clamped value");
		await type(input, "abc");
		assert.equal(input.value, "120", "a non-number goes back to the kept value");
		await type(input, "30");
		assert.equal(plugin.core.settings().timeoutMs, 30000);
	});

	it("saves the folder lists normalised, and the agent is held to them at once", async () => {
		// Each folder a chip with its remove button; the field under them adds one (Enter or a suggestion).
		const row = findSetting(tab, "Folders the agent may read");
		const input = row.querySelector("input.vault-agent-settings-path-input");
		const chips = () => [...row.querySelectorAll(".vault-agent-settings-path span")].map((el) => el.textContent);
		const add = async (text) => {
			input.value = text;
			input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
			await settle(6);
		};
		assert.deepEqual(chips(), [], "none: the whole vault");
		await add(" Projects/ ");
		await add("People");
		await add("../up");
		assert.deepEqual(plugin.core.settings().readFolders, ["Projects", "People"]);
		assert.deepEqual(chips(), ["Projects", "People"], "the list shows what was kept");
		assert.equal(input.value, "", "the field is ready for the next one");
		const refused = await plugin.core.callTool("obsidianNotes", { command: "read", path: "Welcome.md" });
		assert.equal(refused.error?.code, "out_of_scope", refused.text);
		for (let button = row.querySelector(".vault-agent-settings-path button"); button; button = row.querySelector(".vault-agent-settings-path button")) {
			button.click();
			await settle(6);
		}
		assert.deepEqual(plugin.core.settings().readFolders, []);
		const read = await plugin.core.callTool("obsidianNotes", { command: "read", path: "Welcome.md" });
		assert.equal(read.ok, true, read.text);
		assert.ok(findSetting(tab, "Folders the agent may change").querySelector("input.vault-agent-settings-path-input"));
	});

	it("checks the CLI again when its path changes", async () => {
		const input = findSetting(tab, "Path to the Obsidian CLI").querySelector("input");
		// The check runs a process: waited for by the clock, not by ticks.
		const status = () => findSetting(tab, "CLI in use").querySelector(".setting-item-description").textContent;
		await type(input, "/nowhere/obsidian");
		// Discovery goes on past the missing override and finds nothing else here
		// only if PATH has no obsidian; either way the row now reflects the new path.
		const text = await until(status, (t) => t.includes('"/nowhere/obsidian", does not exist'));
		assert.ok(!text.includes(`Found: ${emulator}`), text);
		// A path typed while the check of the one before still runs: only the
		// newer answer may stand, however late the older one arrives.
		const core = plugin.core;
		const check = core.cliStatus;
		let release;
		const held = new Promise((resolve) => (release = resolve));
		core.cliStatus = async function () {
			const path = core.settings().cliPath;
			const answer = await check.call(core);
			if (path === "/nowhere/else") await held;
			return answer;
		};
		try {
			await type(input, "/nowhere/else");
			await type(input, emulator);
			assert.match(await until(status, (t) => t.includes(`Found: ${emulator}`)), new RegExp(`Found: ${emulator}`));
			release();
			await settle(10);
			assert.match(status(), new RegExp(`Found: ${emulator}`), "the older check's late answer is not shown");
		} finally {
			delete core.cliStatus;
		}
	});
});

describe("Test connection in the settings tab", () => {
	it("replaces its answer and its model list on every click", async () => {
		const server = await startModelServer();
		const vault = copySampleVault();
		try {
			const { plugin } = await loadPlugin(vault, {
				data: { cliPath: emulator, chat: { provider: "openAi", openai: { baseUrl: `${server.url}/v1`, model: "test-model", apiKeySecret: "" } } },
			});
			const tab = openSettingTab(plugin);
			await settle(6);
			const setting = findSetting(tab, "Test connection");
			for (let click = 0; click < 3; click++) {
				clickButton(setting, "Test connection");
				for (let i = 0; i < 250 && !setting.querySelector("select"); i++) await new Promise((r) => setTimeout(r, 20));
				await settle(6);
			}
			assert.equal(setting.querySelectorAll("select").length, 1, "one model list, not one per click");
			assert.equal(setting.querySelectorAll(".setting-item-description > div").length, 1, "one answer");
			assert.deepEqual([...setting.querySelector("select").options].map((o) => o.value), ["", "other-model", "test-model"]);
		} finally {
			await server.close();
			removeVault(vault);
		}
	});
});

describe("a confirmed write through the public API", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits" } }));
	});
	after(() => removeVault(vault));

	it("shows a card in a modal; Approve makes the change and settles waitForConfirmation", async () => {
		const log = useEmulator(vault);
		const result = await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "owner", value: "Dana", file: "Launch plan" });
		assert.equal(result.ok, false);
		assert.ok(result.pending, "pending");
		const waiting = plugin.api.waitForConfirmation(result.pending.id);
		await settle();
		const card = document.querySelector(".modal-container .modal .vault-agent-confirm");
		assert.ok(card, "a modal with the card is open");
		assert.equal(card.dataset.confirmationId, result.pending.id);
		assert.equal(card.querySelector(".vault-agent-confirm-before").textContent, "Alice");
		assert.equal(card.querySelector(".vault-agent-confirm-after").textContent, "Dana");
		assert.match(card.querySelector(".vault-agent-confirm-command code").textContent, /^obsidian property:set name=owner value=Dana 'file=Launch plan'$/);
		assert.ok(!readLog(log).some((e) => e.argv[0] === "property:set"), "nothing ran yet");
		clickButton(card, "Approve");
		const final = await waiting;
		assert.equal(final.ok, true, final.text);
		assert.deepEqual(readLog(log).filter((e) => e.argv[0] === "property:set").at(-1).argv, ["property:set", "name=owner", "value=Dana", "file=Launch plan"]);
		assert.match(readFileSync(join(vault, "Projects/Launch plan.md"), "utf8"), /^owner: Dana$/m);
		await settle();
		assert.equal(document.querySelector(".modal-container .vault-agent-confirm"), null, "the modal closed");
	});

	it("closing the modal without answering rejects the change", async () => {
		const log = useEmulator(vault);
		const result = await plugin.api.callTool("obsidianTasks", { command: "task", ref: "Projects/Launch plan.md:35", done: true });
		const waiting = plugin.api.waitForConfirmation(result.pending.id);
		await settle();
		const card = document.querySelector(`.vault-agent-confirm[data-confirmation-id="${result.pending.id}"]`);
		card.closest(".modal").querySelector(".modal-close-button").click();
		const final = await waiting;
		assert.equal(final.error.code, "confirmation_rejected");
		assert.ok(!readLog(log).some((e) => e.argv.includes("done")));
	});

	it("the API has no way to approve", () => {
		assert.deepEqual(Object.keys(plugin.api).sort(), ["callTool", "listTools", "version", "waitForConfirmation"]);
	});
});
