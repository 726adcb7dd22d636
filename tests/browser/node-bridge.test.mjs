// The page's child_process / fs / http must behave like Node's for the plugin's
// host/processes.ts: the same commands run through Node directly and through the
// page's window.require must give the same outcome (exit code, signal, error
// code, output size, pid), and a tool call from the plugin must run the CLI
// emulator for real.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { stat } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { startBrowserPlugin } from "../support/browser.mjs";
import { emulator, emulatorEnv, readLog } from "../support/harness.mjs";
import { survivors } from "../support/node-host.mjs";

/** The parts of an execFile outcome that host/processes.ts reads. */
function summarize(error, stdout, stderr, child) {
	return {
		pid: child.pid === undefined ? "none" : "set",
		exitCode: child.exitCode,
		signalCode: child.signalCode,
		errorCode: error?.code ?? null,
		errorSignal: error?.signal ?? null,
		stdoutBytes: stdout.length,
		stderrBytes: stderr.length,
		stdoutText: new TextDecoder().decode(stdout.subarray(0, 40)),
	};
}

const CASES = [
	["a clean exit with output", "/bin/sh", ["-c", "printf 'hello\\n'; printf 'warn' >&2"], {}],
	["a non-zero exit", "/bin/sh", ["-c", "echo failing; exit 3"], {}],
	["death by a signal", "/bin/sh", ["-c", "kill -KILL $$"], {}],
	["a missing program", "/nonexistent/obsidian", ["version"], {}],
	// Endless output, so Node always stops it. Whether SIGTERM (Node's kill) or
	// SIGPIPE (the closed pipe) gets there first is a race in Node itself.
	["output past maxBuffer", "/bin/cat", ["/dev/zero"], { maxBuffer: 1000 }],
	["a working directory", "/bin/pwd", [], { cwd: "/tmp" }],
];

describe("the page's Node builtins behave like Node's", () => {
	let session;
	let page;
	let log;

	before(async () => {
		session = await startBrowserPlugin({
			data: { cliPath: emulator },
			env: (vault) => {
				const env = emulatorEnv(vault);
				log = env.OBSIDIAN_EMULATOR_LOG;
				return env;
			},
		});
		({ page } = session);
		page.setDefaultTimeout(10_000);
	});

	after(async () => {
		await session?.close();
	});

	for (const [name, program, args, options] of CASES) {
		it(`execFile: ${name}`, async () => {
			const expected = await new Promise((resolve) => {
				const child = execFile(program, args, { ...options, encoding: "buffer" }, (error, stdout, stderr) =>
					resolve(summarize(error, stdout, stderr, child)),
				);
			});
			const actual = await page.evaluate(
				({ program, args, options, summarizeSource }) => {
					const summarize = new Function(`return (${summarizeSource})`)();
					return new Promise((resolve) => {
						const child = window.require("child_process").execFile(program, args, { ...options, encoding: "buffer" }, (error, stdout, stderr) =>
							resolve(summarize(error, stdout, stderr, child)),
						);
					});
				},
				{ program, args, options, summarizeSource: summarize.toString() },
			);
			const stopped = (outcome) => ({ ...outcome, signalCode: ["SIGTERM", "SIGPIPE"].includes(outcome.signalCode) ? "stopped" : outcome.signalCode });
			if (options.maxBuffer) assert.deepEqual(stopped(actual), stopped(expected));
			else assert.deepEqual(actual, expected);
		});
	}

	it("execFile: kill(SIGTERM) stops the process and reports the signal", async () => {
		const result = await page.evaluate(
			() =>
				new Promise((resolve) => {
					const child = window.require("child_process").execFile("/bin/sleep", ["30"], { encoding: "buffer" }, (error) =>
						resolve({ killed: child.killed, signalCode: child.signalCode, errorSignal: error?.signal, exitCode: child.exitCode }),
					);
					setTimeout(() => child.kill("SIGTERM"), 100);
				}),
		);
		assert.deepEqual(result, { killed: true, signalCode: "SIGTERM", errorSignal: "SIGTERM", exitCode: null });
	});

	it("fs.promises.stat / access and os.homedir match Node", async () => {
		const page_ = await page.evaluate(async (path) => {
			const fs = window.require("fs");
			const stats = await fs.promises.stat(path);
			let executable = true;
			await fs.promises.access(path, fs.constants.X_OK).catch(() => (executable = false));
			const missing = await fs.promises.stat("/nonexistent/file").catch((error) => error.code);
			return { isFile: stats.isFile(), size: stats.size, executable, missing, home: window.require("os").homedir() };
		}, emulator);
		const stats = await stat(emulator);
		assert.deepEqual(page_, { isFile: true, size: stats.size, executable: true, missing: "ENOENT", home: (await import("node:os")).homedir() });
	});

	it("http.request reaches a server on 127.0.0.1 and streams the answer", async () => {
		const server = createServer((request, response) => {
			let body = "";
			request.on("data", (chunk) => (body += chunk));
			request.on("end", () => {
				response.writeHead(201, { "Content-Type": "text/plain" });
				response.write(`got ${request.method} ${body}`);
				setTimeout(() => response.end(" (end)"), 20);
			});
		});
		await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
		try {
			const url = `http://127.0.0.1:${server.address().port}/echo`;
			const result = await page.evaluate(
				(url) =>
					new Promise((resolve) => {
						const request = window.require("http").request(url, { method: "POST", headers: { "Content-Type": "text/plain" } }, (response) => {
							const chunks = [];
							response.on("data", (chunk) => chunks.push(new TextDecoder().decode(chunk)));
							response.on("end", () => resolve({ status: response.statusCode, type: response.headers["content-type"], text: chunks.join("") }));
						});
						request.on("error", (error) => resolve({ error: error.code }));
						request.write("ping");
						request.end();
					}),
				url,
			);
			assert.deepEqual(result, { status: 201, type: "text/plain", text: "got POST ping (end)" });
			const refused = await page.evaluate(
				() =>
					new Promise((resolve) => {
						const request = window.require("http").request("http://127.0.0.1:9/", () => resolve({ error: "answered" }));
						request.on("error", (error) => resolve({ error: error.code }));
						request.end();
					}),
			);
			assert.deepEqual(refused, { error: "ECONNREFUSED" });
		} finally {
			server.close();
		}
	});

	it("a tool call from the plugin runs the emulator for real, in the vault folder", async () => {
		const result = await page.evaluate(() => window.__harness.plugin.api.callTool("obsidianDailyNote", { command: "daily:path" }));
		assert.equal(result.ok, true, result.text);
		assert.equal(result.text, "Daily/2026-03-03.md");
		assert.equal(result.program, emulator);
		const entries = readLog(log);
		assert.equal(entries.length, 1);
		assert.deepEqual(entries[0].argv, ["daily:path"]);
		assert.equal(entries[0].cwd, session.vault);
	});

	it("a hanging CLI whose grandchild holds its pipes: the plugin's timeout ends both", async () => {
		await session.setEnv({ OBSIDIAN_EMULATOR_FAULT: "orphan-hang", OBSIDIAN_EMULATOR_GRANDCHILD_MS: "5000" });
		const before = readLog(log).length;
		try {
			const result = await page.evaluate(async () => {
				const plugin = window.__harness.plugin;
				await plugin.updateSettings({ timeoutMs: 1000 });
				const started = performance.now();
				const outcome = await plugin.api.callTool("obsidianDailyNote", { command: "daily:path" });
				return { code: outcome.error?.code ?? null, elapsed: performance.now() - started };
			});
			assert.equal(result.code, "timeout");
			assert.ok(result.elapsed < 2000, `settled after ${result.elapsed} ms`);
			const pids = readLog(log).slice(before).map((entry) => entry.pid);
			assert.equal(pids.length, 2, "the CLI and its grandchild ran");
			assert.deepEqual(await survivors(pids, 200), [], "the group kill reached both");
		} finally {
			await session.setEnv({ OBSIDIAN_EMULATOR_FAULT: null, OBSIDIAN_EMULATOR_GRANDCHILD_MS: null });
			await page.evaluate(() => window.__harness.plugin.updateSettings({ timeoutMs: 15000 }));
		}
	});
});
