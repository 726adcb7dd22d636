// plugin-shim/host/node-host.ts on its own, bundled with esbuild for Node, so tests
// can call runProcess directly and see the ProcessOutcome the core receives
// (the built main.js keeps it inside the core's host). `NODE_HOST_SOURCE`
// points elsewhere to run the same tests against another version of the file.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import esbuild from "esbuild";
import { root } from "./harness.mjs";

export async function loadNodeHost(source = process.env.NODE_HOST_SOURCE ?? join(root, "plugin-shim/host/node-host.ts")) {
	// The shim uses window.setTimeout, as Obsidian's renderer wants.
	globalThis.window ??= globalThis;
	const built = await esbuild.build({
		entryPoints: [resolve(source)],
		bundle: true,
		write: false,
		format: "esm",
		platform: "node",
		target: "node20",
		logLevel: "silent",
	});
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-node-host-"));
	const file = join(dir, "node-host.mjs");
	writeFileSync(file, built.outputFiles[0].text);
	try {
		return await import(pathToFileURL(file).href);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** True while `pid` runs: a zombie (dead, not yet reaped by its new parent) counts as gone. */
export function isRunning(pid) {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return true;
	}
}

/** Waits up to `ms` for every pid to be gone; returns the ones still running. */
export async function survivors(pids, ms = 500) {
	const until = Date.now() + ms;
	for (;;) {
		const left = pids.filter(isRunning);
		if (left.length === 0 || Date.now() >= until) return left;
		await new Promise((r) => setTimeout(r, 20));
	}
}
