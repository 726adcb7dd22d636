// Starts the Rust core: inflates the inlined, gzip-compressed wasm, compiles
// it asynchronously (Chromium refuses large synchronous compiles on the main
// thread) and wraps the generated class in the typed handle the rest of the
// shim uses.

import init, { VaultAgent } from "../build/wasm/vault_agent.js";
import compressedWasm from "../build/wasm/vault_agent_bg.wasm.gz";
import type { CoreHandle, HostFunctions, PlatformFacts } from "./core-types";

let ready: Promise<unknown> | null = null;

/**
 * The module to start. Node's zlib (there in Obsidian's desktop renderer)
 * inflates faster than a DecompressionStream; without it, the stream is
 * compiled while it inflates.
 */
async function wasmModule(): Promise<WebAssembly.Module | Response> {
	try {
		const { gunzipSync } = await import("zlib");
		return await WebAssembly.compile(gunzipSync(compressedWasm));
	} catch {
		const inflated = new Blob([compressedWasm]).stream().pipeThrough(new DecompressionStream("gzip"));
		return new Response(inflated, { headers: { "Content-Type": "application/wasm" } });
	}
}

export async function loadCore(host: HostFunctions, facts: PlatformFacts, stored: unknown): Promise<CoreHandle> {
	ready ??= wasmModule().then((module) => init({ module_or_path: module }));
	await ready;
	return afterFreeRefused(new VaultAgent(host, facts, stored ?? null));
}

/**
 * The handle, refusing every call once freed (plugin unload): a late
 * callback (a socket closing, a timer, another plugin holding the API) gets
 * a clear error instead of reaching a core whose memory was given back.
 */
function afterFreeRefused(core: CoreHandle): CoreHandle {
	let freed = false;
	return new Proxy(core, {
		get(target, key, receiver) {
			const value: unknown = Reflect.get(target, key, receiver);
			if (typeof value !== "function") return value;
			return (...args: unknown[]): unknown => {
				if (freed) throw new Error("Vault Agent was unloaded; enable it again to use it.");
				if (key === "free") freed = true;
				return (value as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
}
