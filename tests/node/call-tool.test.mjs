// api.callTool through real execFile of the CLI emulator over a copy of the
// sample vault: results, argv, every fault mode, timeouts and output caps.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, isAlive, loadPlugin, readLog, removeVault, useEmulator } from "../support/harness.mjs";

describe("api.callTool against the CLI emulator", () => {
	let vault;
	let api;
	let plugin;

	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, timeoutMs: 1500 } }));
		api = plugin.api;
	});
	after(() => removeVault(vault));

	it("reads today's daily note and logs exactly the argv it reports", async () => {
		const log = useEmulator(vault);
		const result = await api.callTool("obsidianDailyNote", { command: "daily:read" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /2026-03-03|Tasks|#/);
		assert.deepEqual(result.argv, ["daily:read"]);
		assert.equal(result.program, emulator);
		assert.ok(result.durationMs > 0);
		const entries = readLog(log);
		assert.equal(entries.length, 1);
		assert.deepEqual(entries[0].argv, result.argv);
		assert.equal(entries[0].cwd, vault, "the vault folder is the working directory");
	});

	// The core gets NFC from the JS engine's normalize, registered by the wasm
	// start (base/vault_path.rs); without it a decomposed name from the model
	// would reach the CLI as it came, and name another file on Linux.
	it("passes a decomposed path to the CLI composed (NFC), by the JS engine", async () => {
		const log = useEmulator(vault);
		const result = await api.callTool("obsidianNotes", { command: "read", path: "Ideas/Cafe\u0301.md" });
		assert.deepEqual(result.argv, ["read", "path=Ideas/Caf\u00e9.md"], result.text);
		assert.deepEqual(readLog(log).at(-1).argv, ["read", "path=Ideas/Caf\u00e9.md"]);
	});

	it("puts the configured vault first", async () => {
		const log = useEmulator(vault);
		await plugin.updateSettings({ vaultName: "Sample Vault" });
		try {
			const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(result.ok, true, result.text);
			assert.equal(result.text, "Daily/2026-03-03.md");
			assert.deepEqual(readLog(log).at(-1).argv, ["vault=Sample Vault", "daily:path"]);
		} finally {
			await plugin.updateSettings({ vaultName: "" });
		}
	});

	it("maps an unknown vault to vault_not_found", async () => {
		useEmulator(vault);
		await plugin.updateSettings({ vaultName: "Elsewhere" });
		try {
			const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(result.error?.code, "vault_not_found", result.text);
			assert.match(result.text, /"Elsewhere"/);
		} finally {
			await plugin.updateSettings({ vaultName: "" });
		}
	});

	it("reads a random note from a folder, and reports an empty folder as an empty success", async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_SEED: "7" });
		const result = await api.callTool("obsidianRandomRead", { folder: "Projects" });
		assert.equal(result.ok, true, result.text);
		assert.match(result.text, /Projects\//);
		assert.deepEqual(readLog(log).at(-1).argv, ["random:read", "folder=Projects"]);
		const empty = await api.callTool("obsidianRandomRead", { folder: "No Such Folder" });
		assert.equal(empty.ok, true, empty.text);
		assert.equal(empty.empty, true);
		assert.equal(empty.text, "No markdown files found.");
	});

	it("refuses bad arguments before anything runs", async () => {
		const log = useEmulator(vault);
		for (const [tool, args, code] of [
			["obsidianNope", {}, "unknown_tool"],
			["obsidianDailyNote", { command: "delete" }, "command_not_allowed"],
			["obsidianDailyNote", { command: "daily:read", path: "x" }, "invalid_arguments"],
			["obsidianRandomRead", { folder: 12 }, "invalid_arguments"],
			["obsidianRandomRead", { folder: "../.." }, "invalid_arguments"],
		]) {
			const result = await api.callTool(tool, args);
			assert.equal(result.ok, false);
			assert.equal(result.error.code, code, `${tool} ${JSON.stringify(args)}: ${result.text}`);
			assert.equal(result.argv, undefined);
		}
		assert.deepEqual(readLog(log), [], "no process started");
	});

	describe("fault modes", () => {
		const cases = [
			["app-not-running", "app_not_running"],
			["signal", "killed"],
			["empty", "empty_output"],
		];
		for (const [fault, code] of cases) {
			it(`${fault} → ${code}`, async () => {
				useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: fault });
				const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
				assert.equal(result.ok, false);
				assert.equal(result.error.code, code, result.text);
				assert.deepEqual(result.argv, ["daily:path"]);
			});
		}

		for (const fault of ["hang", "hang-ignore-term"]) {
			it(`${fault}: killed at the timeout, no process left`, async () => {
				const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: fault });
				const started = Date.now();
				const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
				const elapsed = Date.now() - started;
				assert.equal(result.error?.code, "timeout", result.text);
				assert.match(result.text, /1500 ms/);
				assert.ok(elapsed >= 1500, `waited ${elapsed} ms`);
				// SIGTERM at 1.5 s; SIGKILL one second later if ignored.
				assert.ok(elapsed < (fault === "hang" ? 2400 : 3400), `took ${elapsed} ms`);
				const { pid } = readLog(log).at(-1);
				assert.equal(isAlive(pid), false, `process ${pid} is gone`);
			});
		}

		it("flood: capped on a UTF-8 boundary with a notice that says how much was cut", async () => {
			useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "flood", OBSIDIAN_EMULATOR_FLOOD_BYTES: String(512 * 1024) });
			await plugin.updateSettings({ outputCapBytes: 65536 });
			try {
				const result = await api.callTool("obsidianDailyNote", { command: "daily:read" });
				assert.equal(result.ok, true, result.text.slice(0, 200));
				assert.equal(result.truncated, true);
				const [body, notice] = result.text.split("\n\n[Output cut: ");
				assert.ok(Buffer.byteLength(body, "utf8") <= 65536);
				assert.ok(Buffer.byteLength(body, "utf8") > 65536 - 4);
				assert.ok(!body.includes("\uFFFD"), "no broken character at the cut");
				assert.match(notice, /of 512\.0 KiB; 448\.0 KiB were left out/);
			} finally {
				await plugin.updateSettings({ outputCapBytes: 1048576 });
			}
		});

		it("flood far past the cap: the process is stopped and the notice says 'at least'", async () => {
			const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "flood", OBSIDIAN_EMULATOR_FLOOD_BYTES: String(8 * 1024 * 1024) });
			await plugin.updateSettings({ outputCapBytes: 65536 });
			try {
				const result = await api.callTool("obsidianDailyNote", { command: "daily:read" });
				assert.equal(result.ok, true, result.text.slice(0, 200));
				assert.equal(result.truncated, true);
				assert.match(result.text, /of at least 1\.\d MiB/);
				assert.equal(isAlive(readLog(log).at(-1).pid), false);
			} finally {
				await plugin.updateSettings({ outputCapBytes: 1048576 });
			}
		});
	});

	it("says where it looked when the CLI is missing", async () => {
		useEmulator(vault);
		const savedPath = process.env.PATH;
		process.env.PATH = "/nonexistent-bin";
		await plugin.updateSettings({ cliPath: "/nowhere/obsidian" });
		try {
			const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(result.error?.code, "cli_not_found", result.text);
			assert.match(result.text, /^The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, "\/nowhere\/obsidian", does not exist/, "the user's own setting first");
			assert.match(result.text, /\/nonexistent-bin\/obsidian \(missing\)/);
			assert.match(result.text, /Command line interface/);
		} finally {
			process.env.PATH = savedPath;
			await plugin.updateSettings({ cliPath: emulator });
		}
	});

	it("a relative CLI path in the settings is named first: the setting's real name and a full path to give", async () => {
		useEmulator(vault);
		const savedPath = process.env.PATH;
		process.env.PATH = "/nonexistent-bin";
		await plugin.updateSettings({ cliPath: "obsidian" });
		try {
			const result = await api.callTool("obsidianDailyNote", { command: "daily:path" });
			assert.equal(result.error?.code, "cli_not_found", result.text);
			assert.match(result.text, /^The path in Settings → Vault Agent → Advanced → Path to the Obsidian CLI, "obsidian", is not a full path/);
			assert.match(result.text, /such as \/\S+\/obsidian,/, "an example of a full path on this platform");
			assert.doesNotMatch(result.text, /Vault Agent → Command line interface/, "no setting has that name");
			const status = await plugin.core.cliStatus();
			assert.match(status.discovery.settingProblem, /"obsidian", is not a full path/, "the settings tab shows it too");
		} finally {
			process.env.PATH = savedPath;
			await plugin.updateSettings({ cliPath: emulator });
		}
	});

	it("finds the CLI on PATH and reports its version to the settings tab", async () => {
		useEmulator(vault);
		const savedPath = process.env.PATH;
		process.env.PATH = `${emulator.replace(/\/obsidian$/, "")}:${savedPath}`;
		await plugin.updateSettings({ cliPath: "" });
		try {
			const status = await plugin.core.cliStatus();
			assert.equal(status.discovery.binary, emulator);
			const hit = status.discovery.candidates.find((c) => c.verdict === "found");
			assert.equal(hit.source, "systemPath");
			assert.match(status.version, /^1\.\d+\.\d+/);
		} finally {
			process.env.PATH = savedPath;
			await plugin.updateSettings({ cliPath: emulator });
		}
	});
});
