// Starts the Rust core: unpacks the inlined, Brotli-compressed wasm with
// Node's zlib, compiles it asynchronously (Chromium refuses large synchronous
// compiles on the main thread) and wraps the generated class in the typed
// handle the rest of the shim uses.

import { brotliDecompress } from "zlib";
import init, { VaultAgent } from "../../build/wasm/vault_agent.js";
import packedWasm from "../../build/wasm/vault_agent_bg.wasm.br";
import type { CoreHandle, HostFunctions, PlatformFacts } from "./types";
import { base122Decode } from "./base122";

let ready: Promise<unknown> | null = null;

/**
 * The compiled module. Brotli makes main.js a quarter smaller than gzip did;
 * browsers' DecompressionStream cannot read it, but Obsidian's desktop
 * renderer (the plugin is desktop-only, and host/processes.ts needs Node's
 * child_process too) has Node's zlib, which unpacks it off the main thread.
 */
async function wasmModule(): Promise<WebAssembly.Module> {
	const compressed = base122Decode(packedWasm.text, packedWasm.bytes);
	const wasm = await new Promise<Buffer<ArrayBuffer>>((resolve, reject) =>
		brotliDecompress(compressed, (error, result) => (error ? reject(error) : resolve(result))),
	);
	return WebAssembly.compile(wasm);
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
