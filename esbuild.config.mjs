// Bundles the shim and the inlined wasm core into the one main.js Obsidian loads.
// Externals follow the official sample plugin: Obsidian provides these at runtime.
import esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { base122Encode } from "./scripts/base122.mjs";
import { withoutUnusedMcpSdkParts } from "./scripts/mcp-sdk-unused.mjs";
import { withoutZodJsonSchema } from "./scripts/zod-json-schema.mjs";

const production = process.argv[2] === "production";

// The first line of main.js says what it was built from, so a reviewer can
// match the inlined wasm to its Rust source (src/, crate vault-agent): the
// crate version, the git commit ("uncommitted" when the tree has changes or
// there is no git) and the SHA-256 of the wasm before it was compressed.
function buildBanner() {
	const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync("Cargo.toml", "utf8"))?.[1] ?? "unknown";
	let commit = "uncommitted";
	try {
		const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
		if (git("status", "--porcelain") === "") commit = git("rev-parse", "HEAD");
	} catch {
		// No git, or not a checkout: the commit stays "uncommitted".
	}
	const wasmSha256 = createHash("sha256").update(readFileSync("build/wasm/vault_agent_bg.wasm")).digest("hex");
	return `/*! Vault Agent core ${version}; commit ${commit}; wasm sha256 ${wasmSha256}; Rust source: src/ (crate vault-agent), built by scripts/build.sh */`;
}

/**
 * The core's Brotli-compressed wasm as base-122 text and its length in bytes
 * (plugin-shim/core/base122.ts decodes it): 44 KB less of main.js than Z85,
 * 78 KB less than the base64 of esbuild's binary loader. esbuild would
 * escape the text's control and non-ASCII characters (6 bytes each), so the
 * module holds a placeholder that the text replaces in the finished bundle.
 */
const CORE_TEXT = "@@vault-agent-core-text@@";
let coreText = null;
const inlineCompressedWasm = {
	name: "inline-compressed-wasm",
	setup(build) {
		build.onLoad({ filter: /\.wasm\.br$/ }, ({ path }) => {
			const bytes = readFileSync(path);
			coreText = base122Encode(bytes);
			return { contents: `export default ${JSON.stringify({ text: CORE_TEXT, bytes: bytes.length })};`, loader: "js" };
		});
	},
};

/** The bundle with the core's text in place of its placeholder (exactly one). */
function withCoreText(bundle) {
	const quoted = JSON.stringify(CORE_TEXT);
	const at = bundle.indexOf(quoted);
	if (coreText === null || at < 0 || bundle.indexOf(quoted, at + 1) >= 0) throw new Error("esbuild.config.mjs: the core's placeholder is not in main.js exactly once");
	return `${bundle.slice(0, at)}"${coreText}"${bundle.slice(at + quoted.length)}`;
}

const result = await esbuild.build({
	entryPoints: ["plugin-shim/main.ts"],
	bundle: true,
	external: [
		"obsidian",
		"electron",
		"@codemirror/autocomplete",
		"@codemirror/collab",
		"@codemirror/commands",
		"@codemirror/language",
		"@codemirror/lint",
		"@codemirror/search",
		"@codemirror/state",
		"@codemirror/view",
		"@lezer/common",
		"@lezer/highlight",
		"@lezer/lr",
		...builtinModules,
		...builtinModules.map((name) => `node:${name}`),
	],
	format: "cjs",
	// es2022 also keeps esbuild from decoding the inlined bytes with
	// Uint8Array.fromBase64, which Obsidian's Electron may lack.
	target: "es2022",
	logLevel: "info",
	sourcemap: production ? false : "inline",
	treeShaking: true,
	minify: production,
	// The core's module is inlined Brotli-compressed (see plugin-shim/core/load.ts).
	loader: { ".wasm": "binary" },
	plugins: [inlineCompressedWasm, withoutZodJsonSchema, withoutUnusedMcpSdkParts],
	banner: { js: buildBanner() },
	outfile: "main.js",
	write: false,
});
writeFileSync("main.js", withCoreText(result.outputFiles[0].text));
