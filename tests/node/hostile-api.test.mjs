// Hardening regressions through the built main.js: hostile values from other
// plugins (deep, huge, BigInt, cycles, throwing getters, Proxies), a data.json
// that holds anything, the one queue of cards, late waits, hidden characters.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
	clickButton,
	copySampleVault,
	emulator,
	loadPlugin,
	readLog,
	removeVault,
	settle,
	useEmulator,
} from "../support/harness.mjs";

function nested(depth, leaf = 1) {
	let value = leaf;
	for (let i = 0; i < depth; i++) value = { x: value };
	return value;
}

function nestedArray(depth) {
	let value = [];
	for (let i = 0; i < depth; i++) value = [value];
	return value;
}

/** Argument shapes a hostile or careless caller can pass. */
function hostileShapes() {
	const cycle = { command: "read", file: "Welcome" };
	cycle.self = cycle;
	const getter = { command: "read" };
	Object.defineProperty(getter, "file", { enumerable: true, get: () => { throw new Error("getter boom"); } });
	const throwingProxy = new Proxy({}, { ownKeys: () => { throw new Error("trap boom"); } });
	const getProxy = new Proxy({ command: "read", file: "Welcome" }, { get: () => { throw new Error("get trap boom"); } });
	const endless = new Proxy({}, { ownKeys: () => ["next"], getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }), get: () => endless });
	const toJsonThrows = { toJSON: () => { throw new Error("toJSON boom"); } };
	const big = "x".repeat(9 * 1024 * 1024);
	return [
		nested(64), nested(65), nested(2500), nested(3000), nested(20_000), nestedArray(100_000),
		{ command: "read", file: nested(3000) },
		{ command: "read", file: 10n },
		10n,
		cycle,
		getter,
		throwingProxy,
		getProxy,
		endless,
		toJsonThrows,
		{ command: "read", file: big },
		{ command: "read", file: "Welcome", pad: new Array(20_000).fill(1) },
		Symbol("s"),
		() => 1,
		{ command: Symbol("read") },
		new Map([["command", "read"]]),
		new Uint8Array(4),
		{ command: "read", file: NaN },
		{ __proto__: { command: "read" } },
		JSON.parse('{"__proto__": {"polluted": true}, "command": "read", "file": "Welcome"}'),
		"not an object",
		[1, 2, 3],
		undefined,
		null,
	];
}

/** Tool ids a caller can pass instead of a string. */
const hostileIds = [10n, { toString: () => { throw new Error("id boom"); } }, Symbol("id"), "x".repeat(10_000), null, undefined, 42, ["obsidianNotes"]];

describe("hostile values through the public API", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator } }));
		useEmulator(vault);
	});
	after(() => removeVault(vault));

	it("10 000 hostile calls each get a ToolResult, and the core stays usable", async () => {
		const shapes = hostileShapes();
		const codes = new Map();
		let calls = 0;
		while (calls < 10_000) {
			for (const shape of shapes) {
				const id = calls % 7 === 0 ? hostileIds[calls % hostileIds.length] : "obsidianNotes";
				// Never throws: every answer is a result with a code.
				const result = await plugin.api.callTool(id, shape);
				assert.equal(typeof result, "object");
				assert.equal(typeof result.ok, "boolean");
				if (!result.ok) {
					assert.equal(typeof result.error?.code, "string", JSON.stringify(result).slice(0, 300));
					codes.set(result.error.code, (codes.get(result.error.code) ?? 0) + 1);
				}
				calls++;
				if (calls >= 10_000) break;
			}
		}
		assert.ok(codes.get("invalid_arguments") > 1000, JSON.stringify([...codes]));
		assert.ok(!codes.has("internal_error"), "the core never broke");
		// And then an ordinary call and the tool list work.
		assert.equal((await plugin.api.listTools()).length, 16);
		const normal = await plugin.api.callTool("obsidianNotes", { command: "read", file: "Welcome" });
		assert.equal(normal.ok, true, normal.text);
	});

	it("names the problem of each kind of bad value", async () => {
		const expect = async (args, pattern) => {
			const result = await plugin.api.callTool("obsidianNotes", args);
			assert.equal(result.error?.code, "invalid_arguments", result.text);
			assert.match(result.text, pattern);
		};
		await expect(nested(3000), /nested more than 64 levels/);
		await expect({ command: "read", file: 1n }, /BigInt/);
		const cycle = {};
		cycle.self = cycle;
		await expect(cycle, /circular|cycl/i);
		const getter = {};
		Object.defineProperty(getter, "file", { enumerable: true, get: () => { throw new Error("getter boom"); } });
		await expect(getter, /getter boom/);
		await expect({ command: "read", file: "x".repeat(9 * 1024 * 1024) }, /MiB/);
		const badId = await plugin.api.callTool(10n, { command: "read" });
		assert.equal(badId.error?.code, "invalid_arguments");
		assert.match(badId.text, /tool id must be text/);
	});

	it("waitForConfirmation with a hostile id answers instead of throwing", async () => {
		for (const id of [Symbol("x"), 10n, { toString: () => { throw new Error("x"); } }, "x".repeat(100_000), "c1-nope"]) {
			const result = await plugin.api.waitForConfirmation(id);
			assert.equal(result.error?.code, "confirmation_not_found");
		}
	});
});

describe("data.json that holds anything still loads", () => {
	const cases = {
		"deep nesting under a tool key": { cliPath: emulator, tools: nested(5000) },
		"deep nesting under an unknown key": { cliPath: emulator, extra: nestedArray(50_000) },
		"deep nesting at the top": nested(10_000),
		"a huge string": { cliPath: emulator, vaultName: "v".repeat(2 * 1024 * 1024) },
		"wrong types everywhere": { cliPath: 5, allowVaultChanges: "yes", timeoutMs: "soon", tools: [1, 2] },
		"a mode that is not one": { cliPath: emulator, permissionMode: ["askBeforeEdits"], allowVaultChanges: true },
	};
	for (const [name, data] of Object.entries(cases)) {
		it(name, async () => {
			const vault = copySampleVault();
			try {
				const warnings = [];
				const warn = console.warn;
				console.warn = (...args) => warnings.push(args.join(" "));
				let plugin;
				try {
					({ plugin } = await loadPlugin(vault, { data }));
				} finally {
					console.warn = warn;
				}
				assert.ok(plugin.core, "the plugin loaded");
				assert.equal(plugin.core.settings().permissionMode, "readOnly", "a bad value never turns changes on");
				assert.ok(warnings.some((w) => w.startsWith("Vault Agent settings:")), "the repair is logged");
				assert.equal((await plugin.api.listTools()).length, 16);
			} finally {
				removeVault(vault);
			}
		});
	}
});

describe("cards of API calls", () => {
	let vault;
	let plugin;
	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, permissionMode: "askBeforeEdits" } }));
	});
	after(() => removeVault(vault));

	const openModals = () => document.querySelectorAll(".modal-container .modal").length;

	it("several pending calls share one modal, one card after another", async () => {
		useEmulator(vault);
		const results = [];
		for (const value of ["A", "B", "C", "D", "E"]) {
			results.push(await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "owner", value, file: "Launch plan" }));
		}
		await settle();
		assert.equal(openModals(), 1, "one modal, not five");
		const waits = results.map((r) => plugin.api.waitForConfirmation(r.pending.id));
		const shown = () => document.querySelector(".modal-container .vault-agent-confirm");
		assert.equal(shown().dataset.confirmationId, results[0].pending.id);
		assert.match(document.querySelector(".vault-agent-confirm-queue").textContent, /1 of 5/);
		clickButton(shown(), "Reject");
		await settle();
		assert.equal(shown().dataset.confirmationId, results[1].pending.id, "the next card");
		clickButton(document.querySelector(".vault-agent-confirm-queue"), "Reject all 4");
		await settle();
		const answers = await Promise.all(waits);
		assert.deepEqual(answers.map((a) => a.error?.code), Array(5).fill("confirmation_rejected"));
		assert.equal(openModals(), 0, "the modal closed");
	});

	it("waitForConfirmation after the answer resolves with that answer", async () => {
		const log = useEmulator(vault);
		const result = await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "owner", value: "Late", file: "Launch plan" });
		await settle();
		clickButton(document.querySelector(".modal-container .vault-agent-confirm"), "Approve");
		// The approval reads the property before and after the write (for undo): wait for it to finish.
		const card = () => document.querySelector(`.vault-agent-confirm[data-confirmation-id="${result.pending.id}"]`);
		for (let i = 0; i < 500 && card() && !card().matches(".is-done, .is-closed"); i++) await new Promise((r) => setTimeout(r, 10));
		await settle();
		assert.ok(readLog(log).some((e) => e.argv[0] === "property:set"), "it ran");
		// Asked only now, after it ran: before the fix this never resolved.
		const late = await plugin.api.waitForConfirmation(result.pending.id);
		assert.equal(late.ok, true, late.text);
		const rejected = await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "owner", value: "Nope", file: "Launch plan" });
		await settle();
		clickButton(document.querySelector(".modal-container .vault-agent-confirm"), "Reject");
		await settle();
		assert.equal((await plugin.api.waitForConfirmation(rejected.pending.id)).error.code, "confirmation_rejected");
	});

	it("shows direction-changing and control characters visibly", async () => {
		useEmulator(vault);
		const result = await plugin.api.callTool("obsidianProperties", { command: "property:set", name: "status", value: "\u202Eenod", file: "Launch plan" });
		await settle();
		const card = document.querySelector(".modal-container .vault-agent-confirm");
		assert.equal(card.querySelector(".vault-agent-confirm-after").textContent, "⟨U+202E⟩enod");
		assert.match(card.querySelector(".vault-agent-confirm-command code").textContent, /⟨U\+202E⟩enod/);
		clickButton(card, "Reject");
		assert.equal((await plugin.api.waitForConfirmation(result.pending.id)).error.code, "confirmation_rejected");
	});
});

describe("the cap on CLI processes", () => {
	const overlapCli = new URL("../support/overlap-cli.mjs", import.meta.url).pathname;

	/** The most runs that were between their start and end at the same time. */
	function mostAtOnce(log) {
		let now = 0;
		let most = 0;
		for (const line of readFileSync(log, "utf8").trim().split("\n")) {
			now += line.startsWith("start") ? 1 : -1;
			most = Math.max(most, now);
		}
		return most;
	}

	// Runs long enough that the capped ones surely overlap (Node itself takes ~50 ms to start).
	for (const [cap, calls, ms] of [[1, 8, 100], [4, 16, 400]]) {
		it(`${calls} parallel calls start at most ${cap} process(es) at once, and all finish`, async () => {
			const vault = copySampleVault();
			const log = join(vault, "..", "overlap.log");
			process.env.VAULT_AGENT_OVERLAP_LOG = log;
			process.env.VAULT_AGENT_OVERLAP_MS = String(ms);
			try {
				const { plugin } = await loadPlugin(vault, { data: { cliPath: overlapCli, maxProcesses: cap } });
				const results = await Promise.all(
					Array.from({ length: calls }, (_, i) => plugin.api.callTool("obsidianNotes", { command: "read", file: `Note ${i}` })),
				);
				assert.ok(results.every((r) => r.ok), JSON.stringify(results.find((r) => !r.ok)));
				assert.equal(readFileSync(log, "utf8").match(/^start/gm).length, calls);
				assert.equal(mostAtOnce(log), cap);
			} finally {
				delete process.env.VAULT_AGENT_OVERLAP_LOG;
				delete process.env.VAULT_AGENT_OVERLAP_MS;
				removeVault(vault);
			}
		});
	}
});
