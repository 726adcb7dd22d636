// Loads the BUILT main.js the way Obsidian does: the plugin folder sits in a
// vault's .obsidian/plugins/, `require("obsidian")` resolves to an API double
// (obsidian-test-mocks on a happy-dom DOM), and the plugin class is constructed
// with an App whose FileSystemAdapter points at a real folder on disk.

import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const emulator = join(root, "target/release/obsidian");
export const sampleVault = join(root, "tests/sample-vault");
const require = createRequire(import.meta.url);

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
	require("@happy-dom/global-registrator").GlobalRegistrator.register({ url: "app://obsidian.md/" });
	Object.assign(globalThis, natives);
	if (globalThis.window !== globalThis) Object.assign(globalThis.window, natives);
	require("obsidian-test-mocks/setup").setup();
	domReady = true;
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
export function installPlugin(vault) {
	const pluginDir = join(vault, ".obsidian/plugins/vault-agent");
	mkdirSync(pluginDir, { recursive: true });
	for (const file of ["main.js", "manifest.json", "styles.css"]) {
		if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run npm run build first`);
		copyFileSync(join(root, file), join(pluginDir, file));
	}
	// What Obsidian's loader provides as `require("obsidian")`.
	const shim = join(pluginDir, "node_modules/obsidian");
	mkdirSync(shim, { recursive: true });
	writeFileSync(
		join(shim, "index.js"),
		`module.exports = require(${JSON.stringify(require.resolve("obsidian-test-mocks/obsidian"))});\n`,
	);
	return pluginDir;
}

/**
 * Loads the plugin from `vault` and waits for its async onload.
 * `mobile: true` makes Obsidian's Platform report a phone.
 */
export async function loadPlugin(vault, { mobile = false, data = null, os = "linux" } = {}) {
	ensureDom();
	const pluginDir = installPlugin(vault);
	const obsidian = require(join(pluginDir, "node_modules/obsidian"));
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
	const app = obsidian.App.createConfigured__({ adapter });
	const manifest = JSON.parse(readFileSync(join(pluginDir, "manifest.json"), "utf8"));
	const mainPath = join(pluginDir, "main.js");
	delete require.cache[mainPath];
	const exported = require(mainPath);
	const PluginClass = exported.default ?? exported;
	const plugin = new PluginClass(app, manifest);
	if (data !== null) await plugin.saveData(data);
	// Obsidian calls load(), which calls onload(); ours is async, so keep its promise.
	const onload = plugin.onload.bind(plugin);
	let loading = Promise.resolve();
	plugin.onload = () => (loading = onload());
	plugin.load();
	await loading;
	return { plugin, app, obsidian, pluginDir };
}

/** Environment for the CLI emulator, applied to this process (execFile inherits it). */
export function useEmulator(vault, extra = {}) {
	const keys = ["OBSIDIAN_EMULATOR_VAULT", "OBSIDIAN_EMULATOR_LOG", "OBSIDIAN_EMULATOR_TODAY", "OBSIDIAN_EMULATOR_FAULT", "OBSIDIAN_EMULATOR_FAULT_COMMAND", "OBSIDIAN_EMULATOR_FLOOD_BYTES", "OBSIDIAN_EMULATOR_SEED", "OBSIDIAN_EMULATOR_ACTIVE_FILE", "OBSIDIAN_EMULATOR_SLOW_MS"];
	for (const key of keys) delete process.env[key];
	const log = join(dirname(vault), "emulator.log");
	rmSync(log, { force: true });
	Object.assign(process.env, {
		OBSIDIAN_EMULATOR_VAULT: vault,
		OBSIDIAN_EMULATOR_LOG: log,
		OBSIDIAN_EMULATOR_TODAY: "2026-03-03",
		...extra,
	});
	return log;
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
