// The MCP listener under a slow-client attack (see BENCHMARKS.md, "MCP
// listener under hostile local clients"): 200 unauthenticated sockets at
// once, each trickling its headers (a line every 250 ms), declaring a 4 MiB
// body and sending all of it but the last byte. Measured in the plugin's
// process: its peak rss above the level just before the attack, and when the
// server had closed every socket. The attacker is a process of its own, so
// its buffers do not count.
//
// The baseline is the listener before the hardening (it read the whole body
// before the token check and never timed a request out), taken from git and
// bundled with esbuild, run the same way against the same built core.
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import esbuild from "esbuild";

const SOCKETS = 200;
const BODY = 4 * 1024 * 1024;
const HEADER_EVERY_MS = 250;
const GIVE_UP_MS = 30_000;
/** The last commit with the old listener. */
const OLD_LISTENER_COMMIT = "257f1dc";
const MiB = 1024 * 1024;
const self = fileURLToPath(import.meta.url);

/** The attacker: prints one JSON line with when each socket was closed by the server. */
async function attack(port) {
	const started = performance.now();
	const closedAt = [];
	let answered = 0;
	const body = Buffer.alloc(BODY - 1, 0x78);
	await Promise.all(
		Array.from({ length: SOCKETS }, () =>
			new Promise((resolve) => {
				const socket = connect(port, "127.0.0.1");
				let closed = false;
				let gotAnswer = false;
				socket.on("data", () => {
					if (!gotAnswer) answered += 1;
					gotAnswer = true;
				});
				socket.on("error", () => {});
				socket.on("close", () => {
					closed = true;
					closedAt.push(performance.now() - started);
					resolve();
				});
				const lines = [`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Content-Type: application/json", `Content-Length: ${BODY}`, "Accept: application/json, text/event-stream", "X-Slow: 1"];
				let next = 0;
				const drip = setInterval(() => {
					if (closed) return clearInterval(drip);
					if (next < lines.length) {
						socket.write(`${lines[next++]}\r\n`);
						return;
					}
					clearInterval(drip);
					socket.write("\r\n");
					socket.write(body);
				}, HEADER_EVERY_MS);
				setTimeout(() => {
					clearInterval(drip);
					if (!closed) socket.destroy();
				}, GIVE_UP_MS);
			}),
		),
	);
	const byServer = closedAt.filter((ms) => ms < GIVE_UP_MS - 50);
	console.log(JSON.stringify({ closedByServer: byServer.length, lastClosedMs: Math.max(...byServer, 0), answered }));
}

/** The plugin with one listener (`old` from git, or `new`, the built one), under the attack. */
async function serve(which) {
	const { copySampleVault, emulator, loadPlugin, removeVault, root } = await import("../tests/support/harness.mjs");
	const vault = copySampleVault();
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-bench-attack-"));
	const port = which === "old" ? 27181 : 27182;
	try {
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator, mcp: { enabled: which === "new", port, permissionMode: "readOnly" } } });
		let listener = plugin.agents.listener;
		if (which === "old") {
			const source = join(dir, "mcp-server.ts");
			writeFileSync(source, execFileSync("git", ["show", `${OLD_LISTENER_COMMIT}:plugin-shim/mcp-server.ts`], { cwd: root }));
			const built = await esbuild.build({ entryPoints: [source], bundle: true, write: false, format: "esm", platform: "node", target: "node20", logLevel: "silent" });
			const file = join(dir, "old-listener.mjs");
			writeFileSync(file, built.outputFiles[0].text);
			const { McpListener } = await import(pathToFileURL(file).href);
			listener = new McpListener(plugin.core, { present() {}, withdraw() {} }, () => {});
			const started = await listener.start(port);
			if (!started.ok) throw new Error(started.message);
		}
		globalThis.gc?.();
		await new Promise((r) => setTimeout(r, 200));
		const base = process.memoryUsage().rss;
		let peak = base;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
		const report = await new Promise((resolve, reject) => {
			execFile(process.execPath, [self, "attack", String(port)], { maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
				if (error) reject(new Error(`attacker: ${error.message}\n${stderr}`));
				else resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
			});
		});
		clearInterval(sampler);
		await listener.stop();
		plugin.unload();
		console.log(JSON.stringify({ which, baseMiB: base / MiB, peakExtraMiB: (peak - base) / MiB, ...report }));
	} finally {
		removeVault(vault);
		rmSync(dir, { recursive: true, force: true });
	}
}

function runChild(which) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ["--expose-gc", self, "serve", which], { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		child.stdout.on("data", (d) => (out += d));
		child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1))) : reject(new Error(`${which}: exit ${code}\n${out}`))));
	});
}

if (process.argv[2] === "attack") {
	await attack(Number(process.argv[3]));
} else if (process.argv[2] === "serve") {
	await serve(process.argv[3]);
	process.exit(0);
} else {
	const old = await runChild("old");
	const now = await runChild("new");
	const fmt = (x) => `${x.toFixed(1)} MiB`;
	const closed = (r) => (r.closedByServer === SOCKETS ? `all ${SOCKETS} within ${(r.lastClosedMs / 1000).toFixed(1)} s` : `${r.closedByServer} of ${SOCKETS}; ${SOCKETS - r.closedByServer} still open after ${GIVE_UP_MS / 1000} s`);
	console.log(`${SOCKETS} unauthenticated sockets at once, headers trickled (a line every ${HEADER_EVERY_MS} ms), ${BODY / MiB} MiB bodies less the last byte; the plugin's process:\n`);
	console.log("| Listener | rss before | Peak extra rss | Sockets closed by the server | Answered |\n|---|---|---|---|---|");
	for (const [label, r] of [[`Before (${OLD_LISTENER_COMMIT}: body read before the token, no timeouts, no cap)`, old], ["Now (token from the headers, 5 s / 8 s timeouts checked every 1 s, 32 connections)", now]]) {
		console.log(`| ${label} | ${fmt(r.baseMiB)} | **${fmt(r.peakExtraMiB)}** | ${closed(r)} | ${r.answered} |`);
	}
	console.log(`\nPeak extra rss, before / now: ${(old.peakExtraMiB / Math.max(now.peakExtraMiB, 0.1)).toFixed(1)}× (goal: now under 50 MB extra, every socket closed within 10 s)`);
}
