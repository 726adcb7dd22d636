// Loads the BUILT main.js the way Obsidian does: the plugin folder sits in a
// vault's .obsidian/plugins/, `require("obsidian")` resolves to an API double
// (obsidian-test-mocks on a happy-dom DOM, with the DOM-backed UI classes of
// obsidian-ui-double.mjs), and the plugin class is constructed with an App
// whose FileSystemAdapter points at a real folder on disk.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as double from "./obsidian-ui-double.mjs";
import "./no-unhandled-rejections.mjs";
import { usePdfJs } from "./pdf-double.mjs";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const emulator = join(root, "target/release/obsidian");
export const sampleVault = join(root, "tests/sample-vault");
const require = createRequire(import.meta.url);
// PDF.js's build for Node (its worker runs on this thread: Node has no Web Worker).
usePdfJs(() => import("pdfjs-dist/legacy/build/pdf.mjs"));

let domReady = false;
function ensureDom() {
	if (domReady) return;
	// Obsidian's renderer has the platform's own timers, streams, Blob, fetch
	// classes and URL; happy-dom replaces them with its versions, so put the
	// natives back after registering and keep happy-dom for the DOM only.
	const natives = {};
	const platform = [
		"queueMicrotask", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "URL", "AbortController",
		"AbortSignal", "TransformStream", "WritableStream", "atob", "btoa", "Blob", "File", "fetch", "FormData",
		"Headers", "Request", "Response",
	];
	for (const key of platform) natives[key] = globalThis[key];
	// A timer never keeps Obsidian running; in Node an interval the plugin
	// registers (the scheduled prompts' minute) would keep a test file's
	// process alive after its last test when that test never unloads it.
	const setInterval = natives.setInterval;
	natives.setInterval = (...args) => {
		const timer = setInterval(...args);
		timer.unref?.();
		return timer;
	};
	require("@happy-dom/global-registrator").GlobalRegistrator.register({ url: "app://obsidian.md/" });
	Object.assign(globalThis, natives);
	if (globalThis.window !== globalThis) Object.assign(globalThis.window, natives);
	require("obsidian-test-mocks/setup").setup();
	// The mocks add Obsidian's Array helpers (and a stray `default`) as
	// enumerable properties, so `for...in` over any array would see them;
	// PDF.js, which in Node parses on this thread, refuses such a realm. Kept,
	// made not enumerable (Obsidian's page never hands PDF.js its realm: its
	// worker has its own).
	for (const [key, property] of Object.entries(Object.getOwnPropertyDescriptors(Array.prototype))) {
		if (property.enumerable) Object.defineProperty(Array.prototype, key, { ...property, enumerable: false });
	}
	domReady = true;
}

/** Where the plugin's `require("obsidian")` finds the double (see installPlugin). */
const OBSIDIAN_KEY = Symbol.for("vault-agent.tests.obsidian");

/** The module object the plugin gets as `require("obsidian")`: one per process,
 * so `obsidian.Notice` in a test is the class the plugin uses. */
export function obsidianDouble() {
	ensureDom();
	globalThis[OBSIDIAN_KEY] ??= double.createObsidianModule(require("obsidian-test-mocks/obsidian"));
	return globalThis[OBSIDIAN_KEY];
}

/** A fresh copy of the sample vault (tests never touch the committed one). */
export function copySampleVault() {
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-"));
	const vault = join(dir, "Sample Vault");
	cpSync(sampleVault, vault, { recursive: true });
	return vault;
}

export function removeVault(vault) {
	rmSync(dirname(vault), { recursive: true, force: true });
}

/** Copies main.js, manifest.json and styles.css where Obsidian keeps plugins. */
export function copyPluginFiles(vault) {
	const pluginDir = join(vault, ".obsidian/plugins/vault-agent");
	mkdirSync(pluginDir, { recursive: true });
	// Benchmarks compare with an older build by pointing here (never the tests).
	const from = process.env.VAULT_AGENT_BUILD_DIR || root;
	for (const file of ["main.js", "manifest.json", "styles.css"]) {
		if (!existsSync(join(from, file))) throw new Error(`${file} is missing: run npm run build first`);
		copyFileSync(join(from, file), join(pluginDir, file));
	}
	return pluginDir;
}

/** copyPluginFiles, plus what Obsidian's loader provides as `require("obsidian")`:
 * a node_modules/obsidian that hands out the double made by obsidianDouble()
 * (the double is an ES module; a CommonJS shim cannot import it itself), and
 * CodeMirror's @codemirror/state and view, the instances the mocks use. */
export function installPlugin(vault) {
	const pluginDir = copyPluginFiles(vault);
	for (const name of ["@codemirror/state", "@codemirror/view"]) {
		const dir = join(pluginDir, "node_modules", name);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "index.js"), `module.exports = require(${JSON.stringify(require.resolve(name))});\n`);
	}
	const shim = join(pluginDir, "node_modules/obsidian");
	mkdirSync(shim, { recursive: true });
	writeFileSync(
		join(shim, "index.js"),
		[
			`const double = globalThis[Symbol.for(${JSON.stringify(OBSIDIAN_KEY.description)})];`,
			`if (!double) throw new Error("require(\\"obsidian\\") before the harness made the double (call obsidianDouble() first)");`,
			"module.exports = double;",
			"",
		].join("\n"),
	);
	return pluginDir;
}

/**
 * Loads the plugin from `vault` and waits for its async onload.
 * `mobile: true` makes Obsidian's Platform report a phone. `before(app,
 * obsidian)` runs once the app exists and before the plugin loads (another
 * plugin Obsidian loads first).
 */
export async function loadPlugin(vault, { mobile = false, data = null, os = "linux", layoutReady = true, before = null } = {}) {
	const obsidian = obsidianDouble();
	const pluginDir = installPlugin(vault);
	Object.assign(obsidian.Platform, {
		isDesktop: !mobile,
		isDesktopApp: !mobile,
		isMobile: mobile,
		isMobileApp: mobile,
		isPhone: mobile,
		isWin: !mobile && os === "windows",
		isMacOS: !mobile && os === "macos",
		isLinux: !mobile && os === "linux",
	});
	const adapter = obsidian.FileSystemAdapter.create__(vault).asOriginalType__();
	const app = double.createApp(obsidian, { adapter });
	useDiskVault(obsidian, app, vault);
	useDiskAdapter(app.vault.adapter, vault);
	await before?.(app, obsidian);
	const manifest = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8"));
	// Obsidian adds the plugin folder, relative to the vault.
	manifest.dir = `${app.vault.configDir}/plugins/${manifest.id}`;
	const mainPath = join(pluginDir, "main.js");
	delete require.cache[mainPath];
	const exported = require(mainPath);
	const PluginClass = exported.default ?? exported;
	const plugin = new PluginClass(app, manifest);
	app.plugins.plugins[manifest.id] = plugin;
	if (data !== null) await plugin.saveData(data);
	// Obsidian calls load(), which calls onload(); ours is async, so keep its promise.
	const onload = plugin.onload.bind(plugin);
	let loading = Promise.resolve();
	plugin.onload = () => (loading = onload());
	plugin.load();
	await loading;
	// Obsidian loads plugins before the layout is ready, then runs onLayoutReady callbacks.
	if (!layoutReady) return { plugin, app, obsidian, pluginDir };
	double.markLayoutReady(app);
	// The core starts at layout ready; tests begin once it has (a build from
	// before the lazy start has no `started`).
	await plugin.started?.();
	return { plugin, app, obsidian, pluginDir };
}

/**
 * Another plugin in the same app, loaded as Obsidian loads one (its own id
 * and folder; `load()` runs its `onload`). `onload(plugin)` is its body.
 */
export async function loadOtherPlugin(app, obsidian, id, onload) {
	const Other = class extends obsidian.Plugin {
		async onload() {
			await onload(this);
		}
	};
	const other = new Other(app, { id, name: id, version: "1.0.0", minAppVersion: "1.12.7", description: "", author: "", dir: `${app.vault.configDir}/plugins/${id}` });
	app.plugins.plugins[id] = other;
	const onloadOf = other.onload.bind(other);
	let loading = Promise.resolve();
	other.onload = () => (loading = onloadOf());
	other.load();
	await loading;
	return other;
}

/**
 * The double's vault keeps files in memory; the plugin's vault calls must see
 * the folder the CLI emulator reads and writes. So lookups, `read` and
 * `process` go to disk, with Obsidian's documented semantics: `process` reads,
 * runs the callback synchronously and writes its result in one step, then
 * fires `modify`. `app.vault.beforeProcess__` (a test hook) runs just before
 * the read, like a keystroke or a sync arriving at that moment.
 * `app.fileManager.trashFile` moves the file to the vault's own `.trash/`
 * folder (Obsidian's "Move to Obsidian trash" setting).
 */
function useDiskVault(obsidian, app, folder) {
	const vault = app.vault;
	const onDisk = (path) => join(folder, path);
	vault.beforeProcess__ = null;
	vault.getAbstractFileByPath = (path) => {
		const full = onDisk(path);
		if (!existsSync(full)) return null;
		return statSync(full).isDirectory() ? null : obsidian.TFile.create__(vault, path);
	};
	vault.read = async (file) => readFileSync(onDisk(file.path), "utf8");
	vault.cachedRead = vault.read;
	// Obsidian lists the vault's files without its hidden folders (the
	// configuration folder, .trash).
	vault.getMarkdownFiles = () => {
		const found = [];
		const walk = (relative) => {
			for (const entry of readdirSync(onDisk(relative), { withFileTypes: true })) {
				if (entry.name.startsWith(".")) continue;
				const path = relative ? `${relative}/${entry.name}` : entry.name;
				if (entry.isDirectory()) walk(path);
				else if (entry.name.endsWith(".md")) found.push(obsidian.TFile.create__(vault, path));
			}
		};
		walk("");
		return found;
	};
	vault.process = async (file, fn) => {
		vault.beforeProcess__?.(onDisk(file.path));
		const data = readFileSync(onDisk(file.path), "utf8");
		const result = fn(data);
		writeFileSync(onDisk(file.path), result);
		vault.trigger("modify", file);
		return result;
	};
	app.fileManager.trashFile = async (file) => {
		mkdirSync(join(folder, ".trash"), { recursive: true });
		renameSync(onDisk(file.path), join(folder, ".trash", basename(file.path)));
	};
	// Moves the file; updating links in other notes is Obsidian's and is not emulated.
	app.fileManager.renameFile = async (file, newPath) => {
		if (existsSync(onDisk(newPath))) throw new Error(`Destination file already exists!`);
		renameSync(onDisk(file.path), onDisk(newPath));
	};
	vault.create = async (path, data) => {
		if (existsSync(onDisk(path))) throw new Error("File already exists.");
		writeFileSync(onDisk(path), data);
		return obsidian.TFile.create__(vault, path);
	};
	vault.readBinary = async (file) => {
		const bytes = readFileSync(onDisk(file.path));
		return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
	};
	vault.createBinary = async (path, data) => {
		if (existsSync(onDisk(path))) throw new Error("File already exists.");
		writeFileSync(onDisk(path), new Uint8Array(data));
		return obsidian.TFile.create__(vault, path);
	};
	vault.createFolder = async (path) => {
		mkdirSync(onDisk(path), { recursive: true });
	};
	// Every file (notes, images, PDFs), without the hidden folders, as Obsidian lists them.
	vault.getFiles = () => {
		const found = [];
		const walk = (relative) => {
			for (const entry of readdirSync(onDisk(relative), { withFileTypes: true })) {
				if (entry.name.startsWith(".")) continue;
				const path = relative ? `${relative}/${entry.name}` : entry.name;
				if (entry.isDirectory()) walk(path);
				else found.push(obsidian.TFile.create__(vault, path));
			}
		};
		walk("");
		return found;
	};
	// Obsidian's resource URL for a file (what an <img> loads); no page loads it here.
	vault.getResourcePath = (file) => `app://local/${encodeURI(onDisk(file.path))}`;
	// Settings → Files and links, as a test sets it (`vault.config__`).
	vault.config__ = {};
	vault.getConfig = (key) => vault.config__[key];
}

/**
 * The double's adapter keeps files in memory; Obsidian's FileSystemAdapter
 * writes the folder on disk, so what the plugin stores in its own folder
 * (conversations, the undo journal) is still there when it is loaded again
 * on the same vault. The calls the plugin makes go to disk.
 */
function useDiskAdapter(adapter, folder) {
	const onDisk = (path) => join(folder, path);
	adapter.exists = async (path) => existsSync(onDisk(path));
	adapter.read = async (path) => readFileSync(onDisk(path), "utf8");
	adapter.write = async (path, data) => {
		mkdirSync(dirname(onDisk(path)), { recursive: true });
		writeFileSync(onDisk(path), data);
	};
	adapter.mkdir = async (path) => {
		mkdirSync(onDisk(path), { recursive: true });
	};
	adapter.remove = async (path) => rmSync(onDisk(path));
	adapter.readBinary = async (path) => {
		const bytes = readFileSync(onDisk(path));
		return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
	};
	adapter.writeBinary = async (path, data) => {
		mkdirSync(dirname(onDisk(path)), { recursive: true });
		writeFileSync(onDisk(path), new Uint8Array(data));
	};
	adapter.getResourcePath = (path) => `app://local/${encodeURI(onDisk(path))}`;
	adapter.list = async (path) => {
		const entries = readdirSync(onDisk(path), { withFileTypes: true });
		const named = (entry) => (path ? `${path}/${entry.name}` : entry.name);
		return { files: entries.filter((e) => e.isFile()).map(named), folders: entries.filter((e) => e.isDirectory()).map(named) };
	};
}

/**
 * Opens Settings → the plugin's tab in document.body (display() runs) and
 * returns the tab's containerEl. Close it with closeSettings(plugin.app).
 */
export function openSettingTab(plugin) {
	return double.openSettingTab(plugin.app, plugin.manifest.id);
}

export { clickButton, clickToggle, closeSettings, findButton, findSetting, runCommand, visibleNotices } from "./obsidian-ui-double.mjs";

/** Lets pending promise callbacks and zero-delay timers run (after a click whose handler is async). */
export async function settle(rounds = 3) {
	for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Waits (a real timer, up to `timeoutMs`) until `read()` returns something
 * `done` accepts, and returns the last value read either way, so the caller's
 * assertion names what was there. For effects that cross a process (a CLI
 * check), whose time depends on the machine's load, not on ticks.
 */
export async function until(read, done, timeoutMs = 10_000) {
	const end = Date.now() + timeoutMs;
	let value = await read();
	while (!done(value) && Date.now() < end) {
		await new Promise((resolve) => setTimeout(resolve, 20));
		value = await read();
	}
	return value;
}

/**
 * Waits until `check` (sync or async) holds, with no time limit of its own:
 * the test runner's timeout ends a hang. For the outside-server tests, whose
 * processes take what the machine's load gives them.
 */
export async function eventually(check) {
	while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

export const emulatorEnvKeys = ["OBSIDIAN_EMULATOR_VAULT", "OBSIDIAN_EMULATOR_LOG", "OBSIDIAN_EMULATOR_TODAY", "OBSIDIAN_EMULATOR_FAULT", "OBSIDIAN_EMULATOR_FAULT_COMMAND", "OBSIDIAN_EMULATOR_FLOOD_BYTES", "OBSIDIAN_EMULATOR_SEED", "OBSIDIAN_EMULATOR_ACTIVE_FILE", "OBSIDIAN_EMULATOR_SLOW_MS", "OBSIDIAN_EMULATOR_LATENCY_MS", "OBSIDIAN_EMULATOR_GRANDCHILD_MS"];

/** The emulator's variables for `vault` (a fresh, empty log beside the vault), without applying them. */
export function emulatorEnv(vault, extra = {}) {
	const log = join(dirname(vault), "emulator.log");
	rmSync(log, { force: true });
	return { OBSIDIAN_EMULATOR_VAULT: vault, OBSIDIAN_EMULATOR_LOG: log, OBSIDIAN_EMULATOR_TODAY: "2026-03-03", ...extra };
}

/** Environment for the CLI emulator, applied to this process (execFile inherits it). */
export function useEmulator(vault, extra = {}) {
	for (const key of emulatorEnvKeys) delete process.env[key];
	const env = emulatorEnv(vault, extra);
	Object.assign(process.env, env);
	return env.OBSIDIAN_EMULATOR_LOG;
}

/** Every invocation the emulator logged, oldest first. */
export function readLog(log) {
	if (!existsSync(log)) return [];
	return readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** True while a process with this pid exists. */
export function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

export function emulatorVersion() {
	return execFileSync(emulator, ["version"], { encoding: "utf8" }).trim();
}
