// The browser harness: loads the BUILT main.js in Debian's Chromium, in a page
// served from 127.0.0.1, the way Obsidian's Electron renderer would. The page
// (tests/support/browser-entry.mjs, bundled here with esbuild) gives the
// plugin `require("obsidian")` (obsidian-test-mocks + the DOM-backed UI
// double) and forwards child_process.execFile and spawn, fs.promises and http(s) to
// this Node process, which runs them for real. Helpers only: tests/browser/ holds the
// tests (node --test runs every file there).

import { lookup as dnsLookupAllRaw } from "node:dns/promises";
import { execFile as nodeExecFile, spawn as nodeSpawn } from "node:child_process";
import { constants as fsConstants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { access, lstat, realpath, stat } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { arch, homedir, tmpdir } from "node:os";
import { dirname, extname, join, resolve as resolvePath } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import esbuild from "esbuild";
import { chromium } from "playwright-core";
import { createListenBridge } from "./browser-listen.mjs";
import { copyPluginFiles, copySampleVault, removeVault, root } from "./harness.mjs";

export const chromiumPath = process.env.VAULT_AGENT_CHROMIUM ?? "/usr/bin/chromium";
export const outputDir = join(root, "test-output");

/** The flags the brief fixes: headless, no sandbox (root in a container), no GPU,
 * and nothing that reaches for the (closed) network. */
const CHROMIUM_FLAGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
];

let bundled = null;
/** The page script, bundled once per process. */
async function pageBundle() {
	bundled ??= esbuild
		.build({
			entryPoints: [join(root, "tests/support/browser-entry.mjs")],
			bundle: true,
			write: false,
			format: "iife",
			platform: "browser",
			target: "chrome120",
			sourcemap: "inline",
			logLevel: "silent",
			// Dependencies of obsidian-test-mocks look at NODE_ENV to pick a build.
			define: { "process.env.NODE_ENV": '"test"' },
		})
		.then((result) => result.outputFiles[0].text);
	return bundled;
}

const INDEX_HTML = `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>Obsidian</title>
<link rel="stylesheet" href="/obsidian-app.css">
<link rel="stylesheet" href="/plugin/styles.css">
</head>
<body>
<script src="/harness.js"></script>
</body>
</html>
`;

/** What a vault file is served as (Obsidian's app:// URLs load images this way). */
const VAULT_TYPES = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", svg: "image/svg+xml", pdf: "application/pdf" };

/** Serves the page, the bundle, the stylesheets, PDF.js's worker, the plugin's three files and the vault's files (under /vault/ as the app's URLs, under /vault-file/ as bytes); nothing else. */
function startServer(pluginDir, bundle, vault) {
	const routes = new Map([
		["/", () => ["text/html; charset=utf-8", INDEX_HTML]],
		["/harness.js", () => ["text/javascript; charset=utf-8", bundle]],
		["/obsidian-app.css", () => ["text/css; charset=utf-8", readFileSync(join(root, "tests/support/obsidian-app.css"))]],
		// PDF.js's worker, which the page's PDF.js starts (as Obsidian's does from its app files).
		["/pdf.worker.mjs", () => ["text/javascript; charset=utf-8", readFileSync(join(root, "node_modules/pdfjs-dist/build/pdf.worker.mjs"))]],
		["/plugin/main.js", () => ["text/javascript; charset=utf-8", readFileSync(join(pluginDir, "main.js"))]],
		["/plugin/styles.css", () => ["text/css; charset=utf-8", readFileSync(join(pluginDir, "styles.css"))]],
		["/plugin/manifest.json", () => ["application/json", readFileSync(join(pluginDir, "manifest.json"))]],
	]);
	const server = createServer((request, response) => {
		const path = new URL(request.url, "http://127.0.0.1").pathname;
		if (path === "/favicon.ico") {
			response.writeHead(204).end();
			return;
		}
		if (path.startsWith("/vault/")) {
			const file = resolvePath(vault, decodeURIComponent(path.slice("/vault/".length)));
			const type = VAULT_TYPES[extname(file).slice(1).toLowerCase()];
			if (!file.startsWith(`${vault}/`) || !type || !existsSync(file)) response.writeHead(404).end();
			else response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(readFileSync(file));
			return;
		}
		// A vault file's bytes as vault.readBinary gets them. Over HTTP, not the
		// page's bridge: a 3 MB PDF as base64 in one DevTools message held the
		// page's main thread 0.3-0.7 s, which Obsidian's read (Node's fs in the
		// renderer, off the main thread) does not.
		if (path.startsWith("/vault-file/")) {
			const file = resolvePath(vault, decodeURIComponent(path.slice("/vault-file/".length)));
			if (!file.startsWith(`${vault}/`) || !existsSync(file)) response.writeHead(404).end();
			else response.writeHead(200, { "Content-Type": "application/octet-stream", "Cache-Control": "no-store" }).end(readFileSync(file));
			return;
		}
		const route = routes.get(path);
		if (!route) {
			response.writeHead(404).end();
			return;
		}
		const [type, body] = route();
		response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
	});
	return new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve(server));
	});
}

/** Node's error fields, as plain data for the page. */
function errorFields(error) {
	if (!error) return null;
	const fields = { message: error.message, name: error.name };
	for (const key of ["code", "errno", "signal", "killed", "syscall", "path", "spawnargs", "cmd"]) {
		if (error[key] !== undefined) fields[key] = error[key];
	}
	return fields;
}

/** The Node side of the page's child_process and fs: real processes, real files. */
function createBridge(sessionEnv) {
	const children = new Map(); // id → { child, done: Promise<result> }
	const requests = new Map(); // id → { request, chunks, end, error, wake }
	const pipes = new Map(); // id → { child, out, err, closed, wake }
	return {
		children,
		/** `kind` is the page's call: "execFile" (Node's, with its buffering) or
		 * "spawn" (collected here; `detached` honoured, so kill() reaches the group). */
		spawn(id, file, args, options, kind = "execFile") {
			let child;
			const group = kind === "spawn" && options.detached === true && process.platform !== "win32";
			const done = new Promise((resolve) => {
				try {
					if (kind === "spawn") {
						child = nodeSpawn(file, args, { ...options, env: options.env ?? sessionEnv, shell: false });
						const out = [];
						const err = [];
						child.stdout.on("data", (chunk) => out.push(chunk));
						child.stderr.on("data", (chunk) => err.push(chunk));
						child.on("error", (error) => {
							if (child.pid === undefined) resolve({ exitCode: null, signalCode: null, error: errorFields(error), stdout: "", stderr: "" });
						});
						child.on("close", () =>
							resolve({
								exitCode: child.exitCode,
								signalCode: child.signalCode,
								error: null,
								stdout: Buffer.concat(out).toString("base64"),
								stderr: Buffer.concat(err).toString("base64"),
							}),
						);
						return;
					}
					child = nodeExecFile(
						file,
						args,
						{ ...options, env: options.env ?? sessionEnv, encoding: "buffer", shell: false },
						(error, stdout, stderr) => {
							resolve({
								exitCode: child.exitCode,
								signalCode: child.signalCode,
								error: errorFields(error),
								stdout: Buffer.from(stdout ?? []).toString("base64"),
								stderr: Buffer.from(stderr ?? []).toString("base64"),
							});
						},
					);
				} catch (error) {
					// execFile and spawn throw for bad arguments (a NUL in an argument...), as in the page.
					resolve({ exitCode: null, signalCode: null, error: errorFields(error), stdout: "", stderr: "" });
				}
			});
			children.set(id, { child, done, group });
			return { pid: child?.pid ?? null };
		},
		/** spawn with stdin, stdout and stderr piped both ways (a coding agent over
		 * ACP): output is handed over as it arrives, through pipeRead. */
		pipeSpawn(id, file, args, options) {
			const entry = { child: null, out: [], err: [], closed: null, wake: null };
			const wake = () => {
				const w = entry.wake;
				entry.wake = null;
				w?.();
			};
			return new Promise((resolve) => {
				let child;
				try {
					child = nodeSpawn(file, args, { ...options, env: options.env ?? sessionEnv, stdio: ["pipe", "pipe", "pipe"], shell: false });
				} catch (error) {
					resolve({ pid: null, error: errorFields(error) });
					return;
				}
				entry.child = child;
				pipes.set(id, entry);
				children.set(id, { child, done: null, group: false });
				child.stdin.on("error", () => {});
				child.stdout.on("data", (chunk) => {
					entry.out.push(chunk);
					wake();
				});
				child.stderr.on("data", (chunk) => {
					entry.err.push(chunk);
					wake();
				});
				child.once("spawn", () => resolve({ pid: child.pid }));
				child.once("error", (error) => {
					if (child.pid !== undefined) return;
					entry.closed = { exitCode: null, signalCode: null };
					wake();
					resolve({ pid: null, error: errorFields(error) });
				});
				child.on("close", () => {
					entry.closed = { exitCode: child.exitCode, signalCode: child.signalCode };
					wake();
				});
			});
		},
		/** What the piped process wrote since the last read (waits for something), and whether it ended. */
		async pipeRead(id) {
			const entry = pipes.get(id);
			if (!entry) return { stdout: "", stderr: "", closed: { exitCode: null, signalCode: null } };
			while (entry.out.length === 0 && entry.err.length === 0 && !entry.closed) await new Promise((resolve) => (entry.wake = resolve));
			const stdout = Buffer.concat(entry.out.splice(0)).toString("base64");
			const stderr = Buffer.concat(entry.err.splice(0)).toString("base64");
			if (entry.closed) {
				pipes.delete(id);
				children.delete(id);
			}
			return { stdout, stderr, closed: entry.closed };
		},
		pipeWrite(id, base64) {
			const child = pipes.get(id)?.child;
			if (!child || child.stdin.destroyed) return false;
			child.stdin.write(Buffer.from(base64, "base64"));
			return true;
		},
		pipeEnd(id) {
			pipes.get(id)?.child?.stdin.end();
		},
		/** The outcome; kept until the page asks, however early the process ended. */
		async wait(id) {
			const entry = children.get(id);
			if (!entry) throw new Error(`no child ${id}`);
			try {
				return await entry.done;
			} finally {
				children.delete(id);
			}
		},
		kill(id, signal) {
			const entry = children.get(id);
			if (!entry?.child) return false;
			if (entry.group && entry.child.pid !== undefined) {
				try {
					process.kill(-entry.child.pid, signal);
					return true;
				} catch {
					// The group is gone: signal the child alone, as below.
				}
			}
			return entry.child.kill(signal);
		},
		async fs(operation, path, mode) {
			try {
				if (operation === "access") {
					await access(path, mode);
					return { value: null };
				}
				// The real path (links followed), which the core checks before a write.
				if (operation === "realpath") return { value: await realpath(path) };
				if (operation !== "stat" && operation !== "lstat") throw new Error(`fs.${operation} is not bridged`);
				const info = await (operation === "stat" ? stat(path) : lstat(path));
				return {
					value: {
						isFile: info.isFile(),
						isDirectory: info.isDirectory(),
						isSymbolicLink: info.isSymbolicLink(),
						size: info.size,
						mode: info.mode,
						mtimeMs: info.mtimeMs,
					},
				};
			} catch (error) {
				return { error: errorFields(error) };
			}
		},
		// http(s): one entry per request; read() hands over what arrived since the last read.
		httpOpen(id, spec, bodyBase64) {
			return new Promise((resolve) => {
				const entry = { request: null, chunks: [], end: false, error: null, wake: null };
				const wake = () => {
					const w = entry.wake;
					entry.wake = null;
					w?.();
				};
				requests.set(id, entry);
				const url = new URL(spec.url);
				const send = url.protocol === "https:" ? httpsRequest : httpRequest;
				try {
					entry.request = send(url, { method: spec.method, headers: spec.headers }, (response) => {
						response.on("data", (chunk) => {
							entry.chunks.push(chunk.toString("base64"));
							wake();
						});
						response.on("end", () => {
							entry.end = true;
							wake();
						});
						response.on("error", (error) => {
							entry.error ??= errorFields(error);
							wake();
						});
						response.on("close", () => {
							if (!entry.end) entry.error ??= { message: "aborted", code: "ECONNRESET" };
							wake();
						});
						resolve({ status: response.statusCode, statusMessage: response.statusMessage, headers: response.headers });
					});
				} catch (error) {
					requests.delete(id);
					resolve({ error: errorFields(error) });
					return;
				}
				entry.request.on("error", (error) => {
					entry.error ??= errorFields(error);
					wake();
					resolve({ error: errorFields(error) });
				});
				const body = Buffer.from(bodyBase64, "base64");
				if (body.length > 0) entry.request.write(body);
				entry.request.end();
			});
		},
		async httpRead(id) {
			const entry = requests.get(id);
			if (!entry) return { chunks: [], end: false, error: { message: `no request ${id}`, code: "ERR_HARNESS" } };
			while (entry.chunks.length === 0 && !entry.end && !entry.error) await new Promise((resolve) => (entry.wake = resolve));
			const chunks = entry.chunks.splice(0);
			if (entry.end || entry.error) requests.delete(id);
			return { chunks, end: entry.end, error: entry.error };
		},
		httpAbort(id) {
			requests.get(id)?.request?.destroy();
			requests.delete(id);
		},
		killAll() {
			for (const id of children.keys()) this.kill(id, "SIGKILL");
			for (const { request } of requests.values()) request?.destroy();
		},
	};
}

/** Fails with a clear message when Chromium is not installed. */
export function assertChromium() {
	if (!existsSync(chromiumPath)) {
		throw new Error(`${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium); scripts/test.sh does this`);
	}
}

/**
 * Starts Chromium on a fresh profile, serves a page that loads the built
 * plugin over a temporary copy of tests/sample-vault, and runs its onload.
 *
 * - `data`: what the plugin's loadData() returns (null: nothing saved yet).
 * - `env`: variables for the plugin's process.env and for the processes it
 *   runs, on top of this process's environment; an object, or a function of
 *   the vault path (for the emulator: `(vault) => emulatorEnv(vault)`).
 * - `theme`: "dark" (default) or "light"; `viewport`: { width, height }.
 * - `listen`: the page gets http.createServer (a real server on this side),
 *   so the plugin's MCP listener runs and processes outside the page reach it.
 *
 * Returns { page, context, vault, pluginDir, url, env, errors, logs, savedData,
 * saveCount, waitForSave, openSettings, setEnv, screenshot, close }.
 * `errors` collects uncaught page errors and console.error lines; tests
 * should expect it to stay empty.
 */
/** Every file of the vault folder, relative, except the configuration folder. */
function vaultFiles(vault, dir = "") {
	const out = [];
	for (const entry of readdirSync(join(vault, dir), { withFileTypes: true })) {
		if (entry.name.startsWith(".")) continue;
		const relative = dir ? `${dir}/${entry.name}` : entry.name;
		if (entry.isDirectory()) out.push(...vaultFiles(vault, relative));
		else out.push(relative);
	}
	return out;
}

export async function startBrowserPlugin({ data = null, env = {}, theme = "dark", viewport = { width: 1280, height: 860 }, args = [], init = null, listen = false } = {}) {
	assertChromium();
	const vault = copySampleVault();
	const pluginDir = copyPluginFiles(vault);
	const extraEnv = typeof env === "function" ? env(vault) : env;
	const sessionEnv = { ...process.env, ...extraEnv };
	const bridge = createBridge(sessionEnv);
	const listener = createListenBridge();
	const server = await startServer(pluginDir, await pageBundle(), vault);
	const url = `http://127.0.0.1:${server.address().port}/`;
	const profile = mkdtempSync(join(tmpdir(), "vault-agent-chromium-"));
	let context = null;
	const close = async () => {
		bridge.killAll();
		listener.closeAll();
		await context?.close().catch(() => {});
		await new Promise((resolve) => server.close(resolve));
		rmSync(profile, { recursive: true, force: true });
		removeVault(vault);
	};
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: chromiumPath,
			headless: true,
			// `args`: extra flags a benchmark asks for (`--js-flags=--expose-gc`).
			args: [...CHROMIUM_FLAGS, ...args],
			viewport,
			colorScheme: theme === "light" ? "light" : "dark",
			timeout: 60_000,
		});
		const page = context.pages()[0] ?? (await context.newPage());
		const errors = [];
		const logs = [];
		page.on("pageerror", (error) => errors.push(`pageerror: ${error.stack ?? error.message}`));
		page.on("console", (message) => {
			logs.push(`${message.type()}: ${message.text()}`);
			if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
		});
		await page.exposeFunction("__vaultAgentSpawn", (id, file, args, options, kind) => bridge.spawn(id, file, args, options, kind));
		await page.exposeFunction("__vaultAgentWait", (id) => bridge.wait(id));
		await page.exposeFunction("__vaultAgentPipeSpawn", (id, file, args, options) => bridge.pipeSpawn(id, file, args, options));
		await page.exposeFunction("__vaultAgentPipeRead", (id) => bridge.pipeRead(id));
		await page.exposeFunction("__vaultAgentPipeWrite", (id, base64) => bridge.pipeWrite(id, base64));
		await page.exposeFunction("__vaultAgentPipeEnd", (id) => bridge.pipeEnd(id));
		await page.exposeFunction("__vaultAgentKill", (id, signal) => bridge.kill(id, signal));
		await page.exposeFunction("__vaultAgentFs", (operation, path, mode) => bridge.fs(operation, path, mode));
		await page.exposeFunction("__vaultAgentHttpOpen", (id, spec, body) => bridge.httpOpen(id, spec, body));
		await page.exposeFunction("__vaultAgentHttpRead", (id) => bridge.httpRead(id));
		await page.exposeFunction("__vaultAgentHttpAbort", (id) => bridge.httpAbort(id));
		// http.createServer (`listen`): a real server here, its requests played back in the page.
		await page.exposeFunction("__vaultAgentListen", (id, port, host) => listener.listen(id, port, host));
		await page.exposeFunction("__vaultAgentListenNext", (id) => listener.next(id));
		await page.exposeFunction("__vaultAgentListenRespond", (id, rid, what, data) => listener.respond(id, rid, what, data));
		await page.exposeFunction("__vaultAgentListenSocket", (id, cid, what, data) => listener.socket(id, cid, what, data));
		await page.exposeFunction("__vaultAgentListenClose", (id) => listener.close(id));
		await page.exposeFunction("__vaultAgentListenCloseConnections", (id) => listener.closeConnections(id));
		// dns.lookup(host, { all: true }), for Local only: Node's own resolver.
		await page.exposeFunction("__vaultAgentDnsLookup", (host) =>
			dnsLookupAllRaw(host, { all: true }).then(
				(found) => ({ addresses: found.map((entry) => entry.address) }),
				(error) => ({ error: { code: error.code ?? "ERROR", message: error.message } }),
			),
		);
		// zlib.brotliDecompress, which unpacks the plugin's core (bytes as base64 both ways).
		await page.exposeFunction("__vaultAgentBrotliDecompress", (base64) => brotliDecompressSync(Buffer.from(base64, "base64")).toString("base64"));
		// The vault as Obsidian's own API sees it (the plugin's edits go through
		// app.vault, not the CLI): the page keeps an index, reads and writes here.
		await page.exposeFunction("__vaultAgentVaultFiles", () => vaultFiles(vault));
		await page.exposeFunction("__vaultAgentVaultRead", (path) => readFileSync(join(vault, path), "utf8"));
		await page.exposeFunction("__vaultAgentVaultWrite", (path, text) => writeFileSync(join(vault, path), text));
		// A file's exact bytes are read over HTTP (/vault-file/, see startServer); written as base64.
		await page.exposeFunction("__vaultAgentVaultCreateBytes", (path, base64) => {
			mkdirSync(dirname(join(vault, path)), { recursive: true });
			writeFileSync(join(vault, path), Buffer.from(base64, "base64"), { flag: "wx" });
		});
		// Obsidian's file manager moving a note (links in other notes are not emulated).
		await page.exposeFunction("__vaultAgentVaultMove", (from, to) => {
			mkdirSync(dirname(join(vault, to)), { recursive: true });
			renameSync(join(vault, from), join(vault, to));
		});
		const facts = {
			env: sessionEnv,
			execPath: process.execPath,
			platform: process.platform,
			arch: arch(),
			versions: { node: process.versions.node },
			cwd: process.cwd(),
			homedir: homedir(),
			tmpdir: tmpdir(),
			fsConstants: { F_OK: fsConstants.F_OK, R_OK: fsConstants.R_OK, W_OK: fsConstants.W_OK, X_OK: fsConstants.X_OK },
			listen,
		};
		await page.addInitScript((value) => {
			window.__vaultAgentNode = value;
		}, facts);
		// `init`: a benchmark's own script, run before the page's (to watch the core's memory).
		if (init) await page.addInitScript(init);
		await page.goto(url);
		const manifest = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8"));
		await page.evaluate((options) => window.__harness.loadPlugin(options), { manifest, data, vaultPath: vault, theme });

		const saveCount = () => page.evaluate(() => window.__harness.saveCount());
		return {
			page,
			context,
			vault,
			pluginDir,
			url,
			env: sessionEnv,
			errors,
			logs,
			/** What the plugin's last saveData call received (as JSON), or null. */
			savedData: () => page.evaluate(() => window.__harness.savedData()),
			saveCount,
			/** Waits until more than `after` saves happened; returns the latest saved data. */
			async waitForSave(after, timeoutMs = 5000) {
				const deadline = Date.now() + timeoutMs;
				while ((await saveCount()) <= after) {
					if (Date.now() > deadline) throw new Error(`no saveData call within ${timeoutMs} ms (still ${after})`);
					await new Promise((resolve) => setTimeout(resolve, 25));
				}
				return page.evaluate(() => window.__harness.savedData());
			},
			/** Settings → the plugin's tab; returns a locator for its container. */
			async openSettings() {
				await page.evaluate(() => window.__harness.openSettings());
				return page.locator(".modal.mod-settings .vertical-tab-content");
			},
			/** Changes variables for both the page's process.env and the processes it starts. */
			async setEnv(vars) {
				for (const [key, value] of Object.entries(vars)) {
					if (value === null || value === undefined) delete sessionEnv[key];
					else sessionEnv[key] = String(value);
				}
				await page.evaluate((v) => window.__harness.setEnv(v), vars);
			},
			screenshot: (name, options) => screenshot(page, name, options),
			close,
		};
	} catch (error) {
		await close();
		throw error;
	}
}

/** Opens the chat view through its command and waits for its input. */
export async function openChat(page) {
	await page.evaluate(() => window.__harness.runCommand("vault-agent:open-chat"));
	await page.locator(".vault-agent-chat .vault-agent-input").waitFor({ state: "visible", timeout: 10_000 });
}

/** Types `text` into the chat's input and clicks Send. */
export async function sendMessage(page, text) {
	await page.locator(".vault-agent-input").fill(text);
	await page.locator(".vault-agent-send").click();
}

/** Waits (up to `timeout` ms) until the chat runs no turn. */
export async function turnEnded(page, timeout = 15_000) {
	await page.waitForFunction(() => !document.querySelector(".vault-agent-chat.is-running"), null, { timeout });
}

/**
 * Saves test-output/<name>.png (a full-page screenshot). With `fit` (a CSS
 * selector of a scrolling element, e.g. the settings tab's container), the
 * viewport first grows until that element shows all its content, so the
 * picture has every row. Returns the file's path.
 */
export async function screenshot(page, name, { fit = null } = {}) {
	mkdirSync(outputDir, { recursive: true });
	const path = join(outputDir, `${name}.png`);
	const before = page.viewportSize();
	// The settings window is a share of the viewport, so grow it a few times.
	for (let round = 0; fit && round < 6; round++) {
		const hidden = await page.locator(fit).first().evaluate((el) => {
			// The scrolling box may be the element or its nearest scrolling parent.
			let box = el;
			while (box.scrollHeight <= box.clientHeight && box.parentElement) box = box.parentElement;
			return box.scrollHeight - box.clientHeight;
		});
		const current = page.viewportSize();
		if (hidden <= 0 || current.height >= 8000) break;
		await page.setViewportSize({ width: current.width, height: Math.min(current.height + Math.ceil(hidden * 1.25) + 40, 8000) });
	}
	await page.screenshot({ path, fullPage: true });
	if (fit) await page.setViewportSize(before);
	return path;
}
