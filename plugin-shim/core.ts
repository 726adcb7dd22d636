// Starts the Rust core: inflates the inlined, gzip-compressed wasm and
// compiles it asynchronously while it streams (Chromium refuses large
// synchronous compiles on the main thread), then wraps the generated class in
// the typed handle the rest of the shim uses.

import init, { VaultAgent } from "../build/wasm/vault_agent.js";
import compressedWasm from "../build/wasm/vault_agent_bg.wasm.gz";
import type { CoreHandle, HostFunctions, PlatformFacts } from "./core-types";

let ready: Promise<unknown> | null = null;

function wasmResponse(): Response {
	const inflated = new Blob([compressedWasm]).stream().pipeThrough(new DecompressionStream("gzip"));
	return new Response(inflated, { headers: { "Content-Type": "application/wasm" } });
}

export async function loadCore(host: HostFunctions, facts: PlatformFacts, stored: unknown): Promise<CoreHandle> {
	ready ??= init({ module_or_path: wasmResponse() });
	await ready;
	const core: CoreHandle = new VaultAgent(host, facts, stored ?? null);
	return core;
}
