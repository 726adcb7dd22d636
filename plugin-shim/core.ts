// Starts the Rust core: compiles the inlined wasm asynchronously (Chromium
// refuses large synchronous compiles on the main thread) and wraps the
// generated class in the typed handle the rest of the shim uses.

import init, { VaultAgent } from "../build/wasm/vault_agent.js";
import wasmBytes from "../build/wasm/vault_agent_bg.wasm";
import type { CoreHandle, HostFunctions, PlatformFacts } from "./core-types";

let ready: Promise<unknown> | null = null;

export async function loadCore(host: HostFunctions, facts: PlatformFacts, stored: unknown): Promise<CoreHandle> {
	ready ??= init({ module_or_path: wasmBytes });
	await ready;
	const core: CoreHandle = new VaultAgent(host, facts, stored ?? null);
	return core;
}
