// The shim's process runner under abuse: a CLI that leaves a process holding
// its pipes (as the real CLI may when it launches Obsidian), one that hangs or
// ignores SIGTERM, output floods on either stream, and Stop or unload in the
// middle of a call. Calls go through the BUILT main.js and real processes;
// the ProcessOutcome itself is checked on runProcess from host/processes.ts.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { copySampleVault, emulator, loadPlugin, readLog, removeVault, root, useEmulator } from "../support/harness.mjs";
import { isRunning, loadNodeHost, survivors } from "../support/node-host.mjs";

const TIMEOUT_MS = 1500;
/** Long enough that a runner waiting for the grandchild fails the test's timing, short enough not to stall it. */
const GRANDCHILD_MS = "5000";

/** The CLI's pid and its grandchild's, from the emulator's log (the grandchild logs `--grandchild-of <pid>`). */
function pidsFrom(log) {
	const entries = readLog(log);
	const grandchild = entries.find((entry) => entry.argv[0] === "--grandchild-of");
	const cli = entries.find((entry) => entry.argv[0] !== "--grandchild-of");
	return { cli: cli?.pid, grandchild: grandchild?.pid };
}

async function waitForPids(log) {
	const until = Date.now() + 5000;
	for (;;) {
		const pids = pidsFrom(log);
		if (pids.cli && pids.grandchild) return pids;
		if (Date.now() > until) throw new Error(`the emulator never logged its grandchild: ${JSON.stringify(readLog(log))}`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

function cleanUp(pids) {
	for (const pid of [pids.cli, pids.grandchild]) {
		if (pid && isRunning(pid)) process.kill(pid, "SIGKILL");
	}
}

async function timed(promise) {
	const started = Date.now();
	const value = await promise;
	return [value, Date.now() - started];
}

describe("process runner: api.callTool through the built main.js", () => {
	let vault;
	let plugin;

	before(async () => {
		vault = copySampleVault();
		({ plugin } = await loadPlugin(vault, { data: { cliPath: emulator, timeoutMs: TIMEOUT_MS } }));
	});
	after(() => removeVault(vault));

	it("a CLI that answers and exits while its grandchild holds stdout: the answer, at once, grandchild left alone", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
		const [result, elapsed] = await timed(plugin.api.callTool("obsidianDailyNote", { command: "daily:path" }));
		const pids = pidsFrom(log);
		try {
			assert.equal(result.ok, true, result.text);
			assert.equal(result.text, "Daily/2026-03-03.md");
			assert.ok(elapsed < 1000, `settled after ${elapsed} ms`);
			// It may be the Obsidian app the CLI launched: a successful call never kills it.
			assert.equal(isRunning(pids.grandchild), true, "the grandchild still runs");
		} finally {
			cleanUp(pids);
		}
	});

	it("a hanging CLI whose grandchild holds stdout: timeout within timeout + 1 s, both processes gone", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
		const [result, elapsed] = await timed(plugin.api.callTool("obsidianDailyNote", { command: "daily:path" }));
		const pids = pidsFrom(log);
		try {
			assert.equal(result.error?.code, "timeout", result.text);
			assert.ok(elapsed >= TIMEOUT_MS && elapsed < TIMEOUT_MS + 1000, `settled after ${elapsed} ms`);
			assert.deepEqual(await survivors([pids.cli, pids.grandchild], 100), [], "no process left");
		} finally {
			cleanUp(pids);
		}
	});

	it("a stderr flood far past the cap settles promptly and leaves no process", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "flood-stderr", OBSIDIAN_EMULATOR_FLOOD_BYTES: String(200 * 1024 * 1024) });
		await plugin.updateSettings({ outputCapBytes: 65536 });
		try {
			const [result, elapsed] = await timed(plugin.api.callTool("obsidianDailyNote", { command: "daily:path" }));
			assert.equal(result.ok, false, result.text);
			assert.ok(elapsed < 1000, `settled after ${elapsed} ms`);
			assert.deepEqual(await survivors([readLog(log).at(-1).pid], 100), []);
		} finally {
			await plugin.updateSettings({ outputCapBytes: 1048576 });
		}
	});

	it("Stop (plugin.abortRequests) ends a running CLI and its group", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
		await plugin.updateSettings({ timeoutMs: 20_000 });
		let pids = {};
		try {
			const call = plugin.api.callTool("obsidianDailyNote", { command: "daily:path" });
			pids = await waitForPids(log);
			const [result, elapsed] = await timed((plugin.abortRequests(), call));
			assert.equal(result.ok, false, result.text);
			assert.ok(elapsed < 1000, `settled ${elapsed} ms after Stop`);
			assert.deepEqual(await survivors([pids.cli, pids.grandchild], 100), [], "no process left");
		} finally {
			cleanUp(pids);
			await plugin.updateSettings({ timeoutMs: TIMEOUT_MS });
		}
	});

	it("unload ends a running CLI and its group", { timeout: 15_000 }, async () => {
		const other = copySampleVault();
		let pids = {};
		try {
			const { plugin: doomed } = await loadPlugin(other, { data: { cliPath: emulator, timeoutMs: 20_000 } });
			const log = useEmulator(other, { OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
			const call = doomed.api.callTool("obsidianDailyNote", { command: "daily:path" });
			pids = await waitForPids(log);
			doomed.unload();
			const [result, elapsed] = await timed(call);
			assert.equal(result.ok, false, result.text);
			assert.ok(elapsed < 1000, `settled ${elapsed} ms after unload`);
			assert.deepEqual(await survivors([pids.cli, pids.grandchild], 100), [], "no process left");
		} finally {
			cleanUp(pids);
			removeVault(other);
		}
	});
});

describe("process runner: runProcess's outcome", () => {
	let vault;
	let host;
	const request = (extra = {}) => ({
		program: emulator,
		args: ["daily:path"],
		cwd: vault,
		timeoutMs: TIMEOUT_MS,
		killGraceMs: 500,
		maxOutputBytes: 65536,
		...extra,
	});

	before(async () => {
		vault = copySampleVault();
		host = await loadNodeHost();
	});
	after(() => removeVault(vault));

	it("exit 0 with a grandchild holding the pipes: the CLI's own exit code and output", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
		const [outcome, elapsed] = await timed(host.runProcess(request()));
		const pids = pidsFrom(log);
		try {
			assert.ok(elapsed < 1000, `settled after ${elapsed} ms`);
			assert.equal(outcome.exitCode, 0);
			assert.equal(outcome.signal, null);
			assert.equal(outcome.timedOut, false);
			assert.equal(outcome.outputOverflow, false);
			assert.equal(Buffer.from(outcome.stdout).toString(), "Daily/2026-03-03.md\n");
			assert.equal(outcome.stdoutTotalBytes, 20);
			assert.equal(isRunning(pids.grandchild), true);
		} finally {
			cleanUp(pids);
		}
	});

	it("hang-ignore-term ends within timeout + 1 s (SIGKILL after the grace)", { timeout: 15_000 }, async () => {
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "hang-ignore-term" });
		const [outcome, elapsed] = await timed(host.runProcess(request()));
		assert.equal(outcome.timedOut, true);
		assert.equal(outcome.signal, "SIGKILL");
		assert.ok(elapsed >= TIMEOUT_MS + 500 && elapsed < TIMEOUT_MS + 1000, `settled after ${elapsed} ms`);
		assert.deepEqual(await survivors([readLog(log).at(-1).pid], 100), []);
	});

	it("a grandchild that ignores SIGTERM: the call settles by timeout + grace + 300 ms, and SIGKILL still reaches it", { timeout: 15_000 }, async () => {
		// The CLI hangs with a grandchild; only the CLI dies on SIGTERM when the
		// grandchild ignores it, so the pipes stay open until SIGKILL.
		const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
		const call = host.runProcess(request());
		const pids = await waitForPids(log);
		try {
			process.kill(pids.grandchild, "SIGSTOP"); // a stopped process acts on SIGTERM only when continued
			const [outcome, elapsed] = await timed(call);
			assert.ok(elapsed < TIMEOUT_MS + 500 + 300 + 100, `settled after ${elapsed} ms (timed from when the grandchild was seen)`);
			assert.equal(outcome.timedOut, true);
			assert.equal(outcome.signal, "SIGTERM", "the CLI itself went on SIGTERM");
			assert.deepEqual(await survivors([pids.cli, pids.grandchild], 700), [], "SIGKILL after the grace reached the grandchild");
		} finally {
			cleanUp(pids);
		}
	});

	for (const [stream, fault] of [["stdout", "flood"], ["stderr", "flood-stderr"]]) {
		it(`a ${stream} flood far past the cap: stopped, outputOverflow, lower-bound totals for both streams, at most the cap kept`, { timeout: 15_000 }, async () => {
			const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: fault, OBSIDIAN_EMULATOR_FLOOD_BYTES: String(200 * 1024 * 1024) });
			const cap = 65536;
			const [outcome, elapsed] = await timed(host.runProcess(request({ maxOutputBytes: cap })));
			assert.ok(elapsed < 1000, `settled after ${elapsed} ms`);
			assert.equal(outcome.outputOverflow, true);
			assert.equal(outcome.timedOut, false);
			const flooded = stream === "stdout" ? "stdout" : "stderr";
			const quiet = stream === "stdout" ? "stderr" : "stdout";
			assert.ok(outcome[`${flooded}TotalBytes`] > cap, `${flooded} total ${outcome[`${flooded}TotalBytes`]}`);
			assert.ok(outcome[`${flooded}TotalBytes`] < 200 * 1024 * 1024, "stopped long before the end");
			assert.equal(outcome[flooded].length, cap);
			assert.equal(outcome[`${quiet}TotalBytes`], 0);
			assert.equal(outcome[quiet].length, 0);
			assert.deepEqual(await survivors([readLog(log).at(-1).pid], 100), []);
		});
	}

	it("output between the cap and the flood bound is counted exactly and not stopped", async () => {
		useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "flood", OBSIDIAN_EMULATOR_FLOOD_BYTES: String(300_000) });
		const outcome = await host.runProcess(request({ maxOutputBytes: 65536 }));
		assert.equal(outcome.outputOverflow, false);
		assert.equal(outcome.exitCode, 0);
		assert.equal(outcome.stdoutTotalBytes, 300_000);
		assert.equal(outcome.stdout.length, 65536);
	});

	it("a program that cannot start is a spawnFailure", async () => {
		const outcome = await host.runProcess(request({ program: "/nonexistent/obsidian" }));
		assert.equal(outcome.spawnFailure?.code, "ENOENT");
	});

	it("abortProcesses and stopAllProcesses end the group of every running call", { timeout: 15_000 }, async () => {
		for (const stop of ["abortProcesses", "stopAllProcesses"]) {
			const log = useEmulator(vault, { OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: GRANDCHILD_MS });
			const call = host.runProcess(request({ timeoutMs: 20_000 }));
			const pids = await waitForPids(log);
			try {
				host[stop]();
				const [outcome, elapsed] = await timed(call);
				assert.ok(elapsed < 1000, `${stop}: settled ${elapsed} ms later`);
				assert.equal(outcome.timedOut, false);
				assert.equal(outcome.signal, stop === "abortProcesses" ? "SIGTERM" : "SIGKILL");
				assert.deepEqual(await survivors([pids.cli, pids.grandchild], 100), [], `${stop}: no process left`);
			} finally {
				cleanUp(pids);
			}
		}
	});
});

describe("process runner: never a shell", () => {
	const shim = join(root, "plugin-shim");
	const sources = readdirSync(shim, { recursive: true })
		.filter((name) => name.endsWith(".ts"))
		.map((name) => [name, readFileSync(join(shim, name), "utf8")]);

	it("only execFile and spawn come from child_process, and no source asks for a shell", () => {
		for (const [name, text] of sources) {
			for (const [, names] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(?:node:)?child_process"/g)) {
				const imported = names.split(",").map((part) => part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]).filter(Boolean);
				const allowed = ["execFile", "spawn", "ChildProcess", "ExecFileException"];
				assert.deepEqual(imported.filter((x) => !allowed.includes(x)), [], `${name} imports ${imported.join(", ")}`);
			}
			assert.doesNotMatch(text, /shell:(?!\s*false\b)/, `${name} sets a shell`);
			assert.doesNotMatch(text, /require\(\s*"(?:node:)?child_process"\s*\)/, `${name} requires child_process`);
		}
	});

	it("every spawn in the shim says shell: false", () => {
		for (const [name, text] of sources) {
			for (const match of text.matchAll(/\bspawn\(/g)) {
				const call = text.slice(match.index, text.indexOf("});", match.index));
				assert.match(call, /shell:\s*false/, `${name}: ${call.slice(0, 80)}`);
			}
		}
	});
});
