// zod's JSON Schema generation, left out of main.js (esbuild.config.mjs).
// The ACP SDK validates messages with zod and never asks a schema for its
// JSON Schema, but every zod schema carries a `toJSONSchema` method, so
// esbuild cannot shake that code out: 18 KB of main.js, which holds
// JavaScript uncompressed. The three modules are replaced by ones with the
// same exports that throw if anything ever calls them. The names are read
// from zod's own files, so an update that adds one still builds, and one
// whose exports cannot be read stops the build.
import { readFileSync } from "node:fs";

const MODULES = /[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors|json-schema-generator)\.js$/;
export const LEFT_OUT = "zod's JSON Schema generation is not in Vault Agent's main.js (scripts/zod-json-schema.mjs)";

/** A module with `source`'s exports, each a function that throws. */
export function standIn(source, path) {
	const names = [...source.matchAll(/^export (?:function|const|class) (\w+)/gm)].map((m) => m[1]);
	const aliases = [...source.matchAll(/^export \{ (\w+) as (\w+) \};$/gm)];
	const exportLines = source.match(/^export\b.*$/gm) ?? [];
	if (names.length === 0 || names.length + aliases.length !== exportLines.length) {
		throw new Error(`scripts/zod-json-schema.mjs: cannot read the exports of ${path}; update the stand-in`);
	}
	const left = `function left() { throw new Error(${JSON.stringify(LEFT_OUT)}); }\n`;
	const exports = names.map((name) => `export const ${name} = left;`);
	const renamed = aliases.map(([, from, to]) => `export { ${from} as ${to} };`);
	return left + [...exports, ...renamed].join("\n");
}

export const withoutZodJsonSchema = {
	name: "without-zod-json-schema",
	setup(build) {
		build.onLoad({ filter: MODULES }, ({ path }) => ({ contents: standIn(readFileSync(path, "utf8"), path), loader: "js" }));
	},
};
