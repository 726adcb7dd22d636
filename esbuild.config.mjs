// Bundles the shim and the inlined wasm core into the one main.js Obsidian loads.
// Externals follow the official sample plugin: Obsidian provides these at runtime.
import esbuild from "esbuild";
import { builtinModules } from "node:module";

const production = process.argv[2] === "production";

await esbuild.build({
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
	// The core's module is inlined gzip-compressed (see plugin-shim/core.ts).
	loader: { ".wasm": "binary", ".gz": "binary" },
	outfile: "main.js",
});
