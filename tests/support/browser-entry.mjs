// The page side of the browser harness (bundled by tests/support/browser.mjs
// with esbuild, loaded by the page it serves). It plays the part of
// Obsidian's Electron renderer for the plugin: `window.require` hands out
// `obsidian` (obsidian-test-mocks + the DOM-backed UI double) and the Node
// builtins the plugin uses, whose effects are forwarded to the Node side
// (real processes, the real file system) through functions the harness
// exposes with Playwright's page.exposeFunction: child_process.execFile and spawn,
// fs.promises.stat/lstat/access, http(s).request (and, when asked, http.createServer:
// browser-http-server.mjs) and zlib.brotliDecompress. `window.__harness` is
// what tests drive through page.evaluate.

import { makeBuffer, makeCreateServer } from "./browser-http-server.mjs";
import {
	clickButton,
	closeSettings,
	createApp,
	createObsidianModule,
	findSetting,
	markLayoutReady,
	openSettingTab,
	runCommand,
	visibleNotices,
} from "./obsidian-ui-double.mjs";
import { usePdfJs } from "./pdf-double.mjs";

// Obsidian's PDF.js: the browser build, parsing in its Web Worker as Obsidian's
// does (the worker script is served by tests/support/browser.mjs).
usePdfJs(async () => {
	const pdfjs = await import("pdfjs-dist");
	pdfjs.GlobalWorkerOptions.workerSrc = "/pdf.worker.mjs";
	return pdfjs;
});

// Obsidian's DOM helpers (createDiv, addClass, empty...) on the page's prototypes.
require("obsidian-test-mocks/setup").setup();
// CodeMirror 6 as Obsidian gives it to plugins: one instance, shared by the
// mocks' editorInfoField, the double's Markdown editor and the plugin's require.
const codemirror = { state: require("@codemirror/state"), view: require("@codemirror/view") };
const obsidian = createObsidianModule(require("obsidian-test-mocks/obsidian"), codemirror);
// The mocks' arrayBufferToBase64 uses Node's Buffer, which a page has not;
// Obsidian's runs in the page, as this one does.
obsidian.arrayBufferToBase64 = (buffer) => bytesToBase64(new Uint8Array(buffer));

/** Facts from the Node side, put on window by an init script before this bundle runs. */
const node = window.__vaultAgentNode;
if (!node) throw new Error("window.__vaultAgentNode is missing: the page must be opened by startBrowserPlugin()");

// ---------------------------------------------------------------------------
// process, as Electron's renderer has it

window.process = {
	env: { ...node.env },
	execPath: node.execPath,
	platform: node.platform,
	arch: node.arch,
	type: "renderer",
	versions: { ...node.versions, chrome: navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? "" },
	cwd: () => node.cwd,
};
if (node.resourcesPath) window.process.resourcesPath = node.resourcesPath;

// ---------------------------------------------------------------------------
// Node-style values rebuilt from what crossed the bridge

/** Node's Buffer, as far as the plugin and its core use it: bytes plus toString(). */
class BrowserBuffer extends Uint8Array {
	toString(encoding = "utf8") {
		if (encoding !== "utf8" && encoding !== "utf-8") throw new Error(`BrowserBuffer.toString: only utf8, not ${encoding}`);
		return new TextDecoder().decode(this);
	}
}

function bufferFromBase64(base64) {
	const binary = atob(base64);
	const bytes = new BrowserBuffer(binary.length);
	for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
	return bytes;
}

/** An Error with the fields Node sets (code, signal, errno, syscall, path, killed, cmd). */
function rebuildError(fields) {
	const error = new Error(fields.message);
	for (const [key, value] of Object.entries(fields)) if (key !== "message" && key !== "stack" && value !== undefined) error[key] = value;
	return error;
}

/** Enough of EventEmitter for code that listens to a child or its streams. */
class Emitter {
	#listeners = new Map();

	on(name, listener) {
		const list = this.#listeners.get(name) ?? [];
		list.push(listener);
		this.#listeners.set(name, list);
		return this;
	}

	addListener(name, listener) {
		return this.on(name, listener);
	}

	once(name, listener) {
		const wrapper = (...args) => {
			this.off(name, wrapper);
			listener(...args);
		};
		return this.on(name, wrapper);
	}

	off(name, listener) {
		this.#listeners.set(name, (this.#listeners.get(name) ?? []).filter((l) => l !== listener));
		return this;
	}

	removeListener(name, listener) {
		return this.off(name, listener);
	}

	emit(name, ...args) {
		const list = this.#listeners.get(name) ?? [];
		for (const listener of [...list]) listener(...args);
		return list.length > 0;
	}
}

/** stdout / stderr: the output arrives in one 'data' chunk when the process ends. */
class OutputStream extends Emitter {
	encoding = null;
	destroyed = false;

	/** Nothing to release here (the Node side owns the pipe); later output is dropped. */
	destroy() {
		this.destroyed = true;
		return this;
	}

	emit(name, ...args) {
		return this.destroyed && name === "data" ? false : super.emit(name, ...args);
	}

	setEncoding(encoding) {
		this.encoding = encoding;
		return this;
	}
}

// ---------------------------------------------------------------------------
// child_process.execFile and spawn, run for real on the Node side

let nextChildId = 1;

/** What Node's ChildProcess shows the plugin: pid (once spawned), exitCode,
 * signalCode, killed, kill(), stdout/stderr and the exit/close events. */
class BrowserChildProcess extends Emitter {
	pid = undefined;
	exitCode = null;
	signalCode = null;
	killed = false;
	spawnfile;
	spawnargs;
	stdin = null;
	stdout = new OutputStream();
	stderr = new OutputStream();
	/** The Node side's name for this process. */
	bridgeId;

	constructor(id, file, args) {
		super();
		this.bridgeId = id;
		this.spawnfile = file;
		this.spawnargs = [file, ...args];
	}

	/** Like Node: false once the process is gone, otherwise the signal is sent (the Node side sends it). */
	kill(signal = "SIGTERM") {
		if (this.exitCode !== null || this.signalCode !== null) return false;
		this.killed = true;
		void window.__vaultAgentKill(this.bridgeId, String(signal));
		return true;
	}
}

/** Starts `file` on the Node side and plays its life back on `child`: pid and
 * 'spawn' first, then the output as one 'data' chunk per stream, 'exit' (or
 * 'error' when it never started) and 'close'; then `callback` as execFile's. */
function runBridged(kind, child, forwarded, output, callback) {
	const id = child.bridgeId;
	window
		.__vaultAgentSpawn(id, child.spawnfile, child.spawnargs.slice(1), forwarded, kind)
		.then((spawned) => {
			child.pid = spawned.pid ?? undefined;
			if (child.pid !== undefined) child.emit("spawn");
			return window.__vaultAgentWait(id);
		})
		.then(async (result) => {
			// The CLI may have made a note: Obsidian's vault would know it now.
			await vaultIndex.refresh?.();
			child.exitCode = result.exitCode;
			child.signalCode = result.signalCode;
			const error = result.error ? rebuildError(result.error) : null;
			let stdout;
			let stderr;
			if (callback) {
				stdout = output(result.stdout);
				stderr = output(result.stderr);
				if (result.stdout.length > 0) child.stdout.emit("data", stdout);
				if (result.stderr.length > 0) child.stderr.emit("data", stderr);
			} else {
				// As Node's pipes deliver it: pieces of at most 64 KiB, each in its own task.
				await emitInPieces(child.stdout, result.stdout, output);
				await emitInPieces(child.stderr, result.stderr, output);
			}
			child.stdout.emit("end");
			child.stderr.emit("end");
			if (result.error && child.pid === undefined) child.emit("error", error);
			else child.emit("exit", child.exitCode, child.signalCode);
			child.emit("close", child.exitCode, child.signalCode);
			callback?.(error, stdout, stderr);
		})
		.catch((failure) => {
			// The bridge itself failed (page closing): report it as Node would a spawn error.
			const error = rebuildError({ message: String(failure?.message ?? failure), code: "EBRIDGE" });
			if (!callback) {
				child.emit("error", error);
				child.emit("close", null, null);
			}
			callback?.(error, output(""), output(""));
		});
}

/** Base64 characters of 65 535 bytes (a multiple of 3, so every piece decodes alone). */
const PIECE_BASE64 = (65_535 / 3) * 4;

async function emitInPieces(stream, base64, decode) {
	for (let at = 0; at < base64.length; at += PIECE_BASE64) {
		stream.emit("data", decode(base64.slice(at, at + PIECE_BASE64)));
		await new Promise((resolve) => setTimeout(resolve, 0));
	}
}

function forwardedOptions(options, keys) {
	const forwarded = {};
	for (const key of keys) {
		if (options[key] !== undefined && options[key] !== null) forwarded[key] = options[key];
	}
	return forwarded;
}

/** child_process.execFile(file[, args][, options][, callback]). The returned child's
 * pid is set a moment later (when the Node side has spawned it), always before
 * the callback runs; the callback gets (error, stdout, stderr) as Node gives them. */
function execFile(file, args, options, callback) {
	if (typeof args === "function") [args, options, callback] = [[], {}, args];
	else if (typeof options === "function") [options, callback] = [{}, options];
	if (!Array.isArray(args)) {
		if (args && typeof args === "object") options = args;
		args = [];
	}
	options = options ?? {};
	const child = new BrowserChildProcess(nextChildId++, String(file), args.map(String));
	const forwarded = forwardedOptions(options, ["cwd", "env", "maxBuffer", "timeout", "killSignal", "windowsHide", "shell", "uid", "gid", "argv0"]);
	const encoding = options.encoding ?? "utf8";
	const output = (base64) => {
		const bytes = bufferFromBase64(base64);
		return encoding === "buffer" || encoding === null ? bytes : bytes.toString();
	};
	runBridged("execFile", child, forwarded, output, callback);
	return child;
}

/** child_process.spawn(file[, args][, options]), never with a shell (the Node
 * side refuses one). Output arrives as Buffers when the process ends, in pieces
 * of at most 64 KiB, each in its own task (as Node's pipes give it); `detached`
 * is honoured there, and kill() then signals the group. */
function spawn(file, args, options) {
	if (!Array.isArray(args)) [args, options] = [[], args];
	options = options ?? {};
	if (Array.isArray(options.stdio) && options.stdio[0] === "pipe") return spawnPiped(String(file), args.map(String), options);
	const child = new BrowserChildProcess(nextChildId++, String(file), args.map(String));
	const forwarded = forwardedOptions(options, ["cwd", "env", "detached", "windowsHide", "shell", "uid", "gid", "argv0"]);
	runBridged("spawn", child, forwarded, bufferFromBase64, null);
	return child;
}

/** stdin written as the plugin writes it; Node's side owns the pipe. */
class PipeInput extends Emitter {
	destroyed = false;
	#id;

	constructor(id) {
		super();
		this.#id = id;
	}

	write(chunk, callback) {
		const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
		window.__vaultAgentPipeWrite(this.#id, bytesToBase64(bytes)).then(
			(written) => callback?.(written ? null : new Error("write after end")),
			(error) => callback?.(error),
		);
		return true;
	}

	end() {
		this.destroyed = true;
		void window.__vaultAgentPipeEnd(this.#id);
		return this;
	}
}

/** spawn with every stream piped (a coding agent over ACP): output is played
 * back on the child as it arrives, not at the end. */
function spawnPiped(file, args, options) {
	const child = new BrowserChildProcess(nextChildId++, file, args);
	child.stdin = new PipeInput(child.bridgeId);
	const forwarded = forwardedOptions(options, ["cwd", "env", "windowsHide"]);
	const text = (stream, base64) => (stream.encoding ? bufferFromBase64(base64).toString() : bufferFromBase64(base64));
	void window.__vaultAgentPipeSpawn(child.bridgeId, file, args, forwarded).then(async (spawned) => {
		if (spawned.pid === null) {
			child.emit("error", rebuildError(spawned.error ?? { message: "spawn failed" }));
			child.emit("close", null, null);
			return;
		}
		child.pid = spawned.pid;
		child.emit("spawn");
		for (;;) {
			const next = await window.__vaultAgentPipeRead(child.bridgeId);
			if (next.stdout) child.stdout.emit("data", text(child.stdout, next.stdout));
			if (next.stderr) child.stderr.emit("data", text(child.stderr, next.stderr));
			if (next.closed) {
				child.exitCode = next.closed.exitCode;
				child.signalCode = next.closed.signalCode;
				child.stdout.emit("end");
				child.stderr.emit("end");
				child.emit("exit", child.exitCode, child.signalCode);
				child.emit("close", child.exitCode, child.signalCode);
				return;
			}
		}
	});
	return child;
}

// ---------------------------------------------------------------------------
// fs.promises.stat / access / realpath (and lstat), os.homedir

function makeStats(fields) {
	return {
		...fields,
		isFile: () => fields.isFile,
		isDirectory: () => fields.isDirectory,
		isSymbolicLink: () => fields.isSymbolicLink,
		mtime: new Date(fields.mtimeMs),
	};
}

async function fsCall(operation, ...args) {
	const result = await window.__vaultAgentFs(operation, ...args);
	if (result.error) throw rebuildError(result.error);
	return result.value;
}

const fs = {
	constants: { ...node.fsConstants },
	promises: {
		stat: async (path) => makeStats(await fsCall("stat", String(path))),
		lstat: async (path) => makeStats(await fsCall("lstat", String(path))),
		access: async (path, mode) => {
			await fsCall("access", String(path), mode ?? node.fsConstants.F_OK);
		},
		realpath: async (path) => fsCall("realpath", String(path)),
	},
};

const os = {
	homedir: () => node.homedir,
	tmpdir: () => node.tmpdir,
	platform: () => node.platform,
	EOL: "\n",
};

// ---------------------------------------------------------------------------
// http.request / https.request, sent for real by the Node side (no CORS, as in
// Electron). The body is sent on end(); the answer streams back chunk by chunk.

let nextRequestId = 1;

function bytesToBase64(bytes) {
	let binary = "";
	for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
	return btoa(binary);
}

class IncomingMessage extends Emitter {
	statusCode;
	statusMessage;
	headers;
	complete = false;
	#request;

	constructor(request, head) {
		super();
		this.#request = request;
		this.statusCode = head.status;
		this.statusMessage = head.statusMessage;
		this.headers = head.headers;
	}

	setEncoding() {
		return this;
	}

	destroy(error) {
		this.#request.destroy(error);
		return this;
	}
}

class ClientRequest extends Emitter {
	destroyed = false;
	#id = nextRequestId++;
	#spec;
	#body = [];
	#ended = false;

	constructor(spec, callback) {
		super();
		this.#spec = spec;
		if (callback) this.once("response", callback);
	}

	setHeader(name, value) {
		this.#spec.headers[name] = value;
	}

	write(chunk) {
		this.#body.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
		return true;
	}

	end(chunk) {
		if (this.#ended) return this;
		this.#ended = true;
		if (chunk !== undefined && chunk !== null) this.write(chunk);
		const size = this.#body.reduce((n, part) => n + part.length, 0);
		const body = new Uint8Array(size);
		let offset = 0;
		for (const part of this.#body) {
			body.set(part, offset);
			offset += part.length;
		}
		window.__vaultAgentHttpOpen(this.#id, this.#spec, bytesToBase64(body)).then((head) => {
			if (this.destroyed) return;
			if (head.error) {
				this.#finish(rebuildError(head.error));
				return;
			}
			const response = new IncomingMessage(this, head);
			this.emit("response", response);
			void this.#pump(response);
		});
		return this;
	}

	/** As Node: 'error' (when given one) then 'close'; the Node side drops the connection. */
	destroy(error) {
		if (this.destroyed) return this;
		void window.__vaultAgentHttpAbort(this.#id);
		this.#finish(error ?? null);
		return this;
	}

	abort() {
		this.destroy();
	}

	setTimeout() {
		return this;
	}

	#finish(error) {
		if (this.destroyed) return;
		this.destroyed = true;
		if (error) this.emit("error", error);
		this.emit("close");
	}

	async #pump(response) {
		for (;;) {
			const next = await window.__vaultAgentHttpRead(this.#id);
			// Destroyed while the read waited (a reader cancelled the body): as in Node, nothing more is emitted.
			if (this.destroyed) return;
			for (const chunk of next.chunks) response.emit("data", bufferFromBase64(chunk));
			if (next.error) {
				response.emit("error", rebuildError(next.error));
				response.emit("close");
				this.#finish(null);
				return;
			}
			if (next.end) {
				response.complete = true;
				response.emit("end");
				response.emit("close");
				this.#finish(null);
				return;
			}
		}
	}
}

/** http.request(url[, options][, callback]) and request(options[, callback]). */
function requestFor(protocol) {
	return (url, options, callback) => {
		if (typeof options === "function") [options, callback] = [{}, options];
		if (!(typeof url === "string" || url instanceof URL)) [url, options, callback] = [null, url, options];
		options = options ?? {};
		const target = url
			? new URL(String(url))
			: new URL(`${protocol}//${options.hostname ?? options.host ?? "localhost"}${options.port ? `:${options.port}` : ""}${options.path ?? "/"}`);
		const headers = {};
		for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = String(value);
		return new ClientRequest({ url: target.href, method: options.method ?? "GET", headers }, callback);
	};
}

// http.createServer only when the test asked for it: without it, the plugin says its MCP
// listener could not start (what tests/browser/acp-agent.test.mjs checks).
const http = { request: requestFor("http:") };
if (node.listen) {
	http.createServer = makeCreateServer({ Emitter, rebuildError, bufferFromBase64, bytesToBase64 });
	window.Buffer = makeBuffer(BrowserBuffer);
}
const https = { request: requestFor("https:") };

// ---------------------------------------------------------------------------
// zlib.brotliDecompress(bytes, callback): how the plugin unpacks its core

const zlib = {
	brotliDecompress(bytes, callback) {
		window.__vaultAgentBrotliDecompress(bytesToBase64(bytes)).then(
			(base64) => callback(null, bufferFromBase64(base64)),
			(error) => callback(error instanceof Error ? error : new Error(String(error))),
		);
	},
};

// ---------------------------------------------------------------------------
// window.require, as the plugin sees it in Electron

// ---------------------------------------------------------------------------
// dns.lookup(host, { all: true }, callback), as Local only asks it: Node's resolver

const dns = {
	lookup(host, _options, callback) {
		window.__vaultAgentDnsLookup(host).then((answer) => {
			if (answer.error) callback(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
			else callback(null, answer.addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
		});
	},
};

const modules = { obsidian, "@codemirror/state": codemirror.state, "@codemirror/view": codemirror.view, child_process: { execFile, spawn }, fs, os, http, https, zlib, dns };

window.require = (name) => {
	const key = name.startsWith("node:") ? name.slice(5) : name;
	if (Object.prototype.hasOwnProperty.call(modules, key)) return modules[key];
	const error = new Error(`Cannot find module '${name}' (the browser harness provides: ${Object.keys(modules).join(", ")})`);
	error.code = "MODULE_NOT_FOUND";
	throw error;
};

// ---------------------------------------------------------------------------
// Loading the plugin, and what tests reach through page.evaluate

const state = { app: null, plugin: null, saves: [] };

/** Evaluates main.js as Obsidian does: wrapped in a function of (require, module, exports). */
function evaluatePlugin(code, id) {
	const wrapped = window.eval(`(function anonymous(require,module,exports){${code}\n})\n//# sourceURL=plugin:${id}`);
	const module = { exports: {} };
	wrapped.call(window, window.require, module, module.exports);
	return module.exports.default ?? module.exports;
}

/**
 * The double's vault keeps files in memory; the plugin's vault calls must see
 * the real folder the CLI emulator writes (as in tests/support/harness.mjs).
 * Lookups are synchronous in Obsidian, so the page keeps an index of the
 * folder's files; `read` and `process` go to disk through the bridge.
 */
const vaultIndex = { refresh: null };

async function useDiskVault(app) {
	const vault = app.vault;
	let files = new Set(await window.__vaultAgentVaultFiles());
	vaultIndex.refresh = async () => {
		files = new Set(await window.__vaultAgentVaultFiles());
	};
	vault.getAbstractFileByPath = (path) => (files.has(path) ? obsidian.TFile.create__(vault, path) : null);
	vault.getMarkdownFiles = () => [...files].filter((path) => path.endsWith(".md")).map((path) => obsidian.TFile.create__(vault, path));
	// What metadataCache.getFirstLinkpathDest looks in (a path, then a name).
	vault.getFileByPath = (path) => (files.has(path) ? obsidian.TFile.create__(vault, path) : null);
	vault.getFiles = () => [...files].map((path) => obsidian.TFile.create__(vault, path));
	// Obsidian's app:// URL of a vault file: here the page's server hands out the file on disk.
	vault.getResourcePath = (file) => `/vault/${file.path.split("/").map(encodeURIComponent).join("/")}`;
	vault.read = (file) => window.__vaultAgentVaultRead(file.path);
	vault.cachedRead = vault.read;
	vault.process = async (file, fn) => {
		const result = fn(await window.__vaultAgentVaultRead(file.path));
		await window.__vaultAgentVaultWrite(file.path, result);
		vault.trigger("modify", file);
		return result;
	};
	vault.readBinary = async (file) => {
		// Fetched, so the bytes reach the page without the main thread decoding them (tests/support/browser.mjs).
		const response = await fetch(`/vault-file/${file.path.split("/").map(encodeURIComponent).join("/")}`);
		if (!response.ok) throw new Error(`ENOENT: no such file or directory, open '${file.path}'`);
		return response.arrayBuffer();
	};
	vault.createBinary = async (path, data) => {
		await window.__vaultAgentVaultCreateBytes(path, bytesToBase64(new Uint8Array(data)));
		await vaultIndex.refresh();
		return obsidian.TFile.create__(vault, path);
	};
	vault.createFolder = async () => {};
	// A new note, as Obsidian's vault.create: refused when the path is taken.
	vault.create = async (path, data) => {
		await window.__vaultAgentVaultCreateBytes(path, bytesToBase64(new TextEncoder().encode(data)));
		await vaultIndex.refresh();
		const file = obsidian.TFile.create__(vault, path);
		vault.trigger("create", file);
		return file;
	};
	app.fileManager.renameFile = async (file, newPath) => {
		await window.__vaultAgentVaultMove(file.path, newPath);
		await vaultIndex.refresh();
	};
	// Obsidian's trash as the vault's own .trash/ (hidden from the vault's files, as in Obsidian).
	app.fileManager.trashFile = async (file) => {
		await window.__vaultAgentVaultMove(file.path, `.trash/${file.path}`);
		await vaultIndex.refresh();
		vault.trigger("delete", file);
	};
	vault.getConfig = (key) => (key === "alwaysUpdateLinks" ? true : undefined);
}

async function loadPlugin({ manifest, data, vaultPath, theme }) {
	Object.assign(obsidian.Platform, {
		isDesktop: true,
		isDesktopApp: true,
		isMobile: false,
		isMobileApp: false,
		isPhone: false,
		isTablet: false,
		isWin: node.platform === "win32",
		isMacOS: node.platform === "darwin",
		isLinux: node.platform === "linux",
	});
	const adapter = obsidian.FileSystemAdapter.create__(vaultPath).asOriginalType__();
	// Obsidian's resource URL is one the page can load (app://…); the double's
	// adapter keeps its files in memory, so a blob: URL of the bytes it holds.
	const resourceUrls = new Map();
	adapter.getResourcePath = (path) => {
		const bytes = adapter.binaryFiles?.get(path);
		if (!bytes) return "";
		if (!resourceUrls.has(path)) resourceUrls.set(path, URL.createObjectURL(new Blob([bytes])));
		return resourceUrls.get(path);
	};
	const app = createApp(obsidian, { adapter, theme });
	await useDiskVault(app);
	const response = await fetch("/plugin/main.js");
	if (!response.ok) throw new Error(`main.js: HTTP ${response.status}`);
	const PluginClass = evaluatePlugin(await response.text(), manifest.id);
	// Obsidian adds the plugin folder, relative to the vault.
	const plugin = new PluginClass(app, { ...manifest, dir: `${app.vault.configDir}/plugins/${manifest.id}` });
	app.plugins.plugins[manifest.id] = plugin;
	if (data !== null && data !== undefined) await plugin.saveData(data);
	// Every later save is recorded as the JSON Obsidian would write to data.json.
	const save = plugin.saveData.bind(plugin);
	plugin.saveData = async (value) => {
		state.saves.push(JSON.parse(JSON.stringify(value)));
		return save(value);
	};
	// Obsidian calls load(), which calls onload(); ours is async, so keep its promise.
	const onload = plugin.onload.bind(plugin);
	let loading = Promise.resolve();
	plugin.onload = () => (loading = onload());
	plugin.load();
	await loading;
	markLayoutReady(app);
	await plugin.started?.();
	Object.assign(state, { app, plugin });
}

/**
 * Benchmark: evaluates main.js afresh `times` times (so the wasm core is
 * inflated, compiled and started every time); returns the milliseconds of
 * each `onload` alone (what delays Obsidian's start), of evaluating main.js
 * plus onload, and of the core's start after it (at layout ready).
 */
async function measureLoad(times) {
	const source = await (await fetch("/plugin/main.js")).text();
	const manifest = await (await fetch("/plugin/manifest.json")).json();
	const results = { onload: [], evaluateAndOnload: [], start: [] };
	for (let i = 0; i < times; i++) {
		const t0 = performance.now();
		const PluginClass = evaluatePlugin(source, manifest.id);
		const plugin = new PluginClass(state.app, { ...manifest, dir: `${state.app.vault.configDir}/plugins/${manifest.id}` });
		const t1 = performance.now();
		await plugin.onload();
		const t2 = performance.now();
		await plugin.started?.();
		const t3 = performance.now();
		results.onload.push(t2 - t1);
		results.evaluateAndOnload.push(t2 - t0);
		results.start.push(t3 - t2);
		plugin.unload();
	}
	return results;
}

/**
 * Benchmark of the start against an empty plugin, in one run: each round
 * evaluates an empty plugin (`emptySource`, built like main.js) and main.js,
 * each as fresh source (a unique last line, so V8 compiles it as Obsidian's
 * one load does instead of reusing an earlier evaluation), runs each
 * `onload`, then, in a later task (as layout ready comes), waits for
 * main.js's core to start. Rounds
 * alternate the order (ABBA). Long tasks (over 50 ms on the main thread,
 * from a `longtask` PerformanceObserver) are given per phase.
 */
async function measureStart(times, emptySource) {
	const source = await (await fetch("/plugin/main.js")).text();
	const manifest = await (await fetch("/plugin/manifest.json")).json();
	const tasks = [];
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
	});
	observer.observe({ type: "longtask", buffered: true });
	const results = { empty: [], plugin: [], emptyCompile: [], pluginCompile: [], start: [], longTasksInLoad: [], longTasksInStart: [] };
	const dir = `${state.app.vault.configDir}/plugins`;
	// As evaluatePlugin, in two steps: compiling the source, then running it and onload.
	const run = async (code, id, round) => {
		const t0 = performance.now();
		const wrapped = window.eval(`(function anonymous(require,module,exports){${code}\n//round ${round}\n})\n//# sourceURL=plugin:${id}`);
		const compiled = performance.now();
		const module = { exports: {} };
		wrapped.call(window, window.require, module, module.exports);
		const PluginClass = module.exports.default ?? module.exports;
		const plugin = new PluginClass(state.app, { ...manifest, id, dir: `${dir}/${id}` });
		await plugin.onload();
		return { plugin, ms: performance.now() - t0, compileMs: compiled - t0, t0 };
	};
	for (let i = 0; i < times; i++) {
		// Each round starts in a task of its own (not in the one that unloaded the last round's plugins).
		await new Promise((resolve) => setTimeout(resolve, 30));
		const emptyFirst = i % 4 === 0 || i % 4 === 3;
		let empty = null;
		if (emptyFirst) empty = await run(emptySource, "empty-plugin", i);
		const loaded = await run(source, manifest.id, i);
		const loadedAt = performance.now();
		// Layout ready comes in a later task than the plugins' onload, as in Obsidian.
		await new Promise((resolve) => setTimeout(resolve, 30));
		const t1 = performance.now();
		await loaded.plugin.started?.();
		const t2 = performance.now();
		if (!emptyFirst) empty = await run(emptySource, "empty-plugin", i);
		// A long task is reported once it has ended: let the observer hear of it.
		await new Promise((resolve) => setTimeout(resolve, 20));
		const within = (from, to) => tasks.filter((t) => t.end > from && t.start < to).map((t) => t.end - t.start);
		results.empty.push(empty.ms);
		results.plugin.push(loaded.ms);
		results.emptyCompile.push(empty.compileMs);
		results.pluginCompile.push(loaded.compileMs);
		results.start.push(t2 - t1);
		results.longTasksInLoad.push(...within(loaded.t0, loadedAt));
		results.longTasksInStart.push(...within(t1, t2));
		loaded.plugin.unload();
		empty.plugin.unload();
	}
	observer.disconnect();
	return results;
}

window.__harness = {
	obsidian,
	loadPlugin,
	measureLoad,
	measureStart,
	get app() {
		return state.app;
	},
	get plugin() {
		return state.plugin;
	},
	/** Settings → the plugin's tab; resolves when display() has run. */
	openSettings: () => {
		openSettingTab(state.app, state.plugin.manifest.id);
	},
	closeSettings: () => closeSettings(state.app),
	runCommand: (id) => runCommand(state.app, id),
	/** What the last saveData received (JSON), or null when nothing was saved since loading. */
	savedData: () => state.saves.at(-1) ?? null,
	saveCount: () => state.saves.length,
	notices: () => visibleNotices(),
	setEnv: (vars) => {
		for (const [key, value] of Object.entries(vars)) {
			if (value === null || value === undefined) delete window.process.env[key];
			else window.process.env[key] = String(value);
		}
	},
	clickButton: (selector, text) => {
		clickButton(document.querySelector(selector), text);
	},
	findSetting,
};
