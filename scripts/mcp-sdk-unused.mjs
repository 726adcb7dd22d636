// Parts of the MCP SDK's client that Vault Agent never reaches, left out of
// main.js (esbuild.config.mjs), which holds JavaScript uncompressed:
// - the ajv checker of tool output schemas (about 210 KB with its two copies
//   of ajv), the Client's default when none is given; the shim always gives
//   its own (plugin-shim/host/outside-servers.ts);
// - the OAuth sign-in (client/auth.js with its metadata schemas, about 17 KB),
//   which the HTTP transport calls only when it is given an `authProvider`; the
//   shim gives none, since OAuth is not supported yet (docs/outside-tools.md).
//   `UnauthorizedError` stays a real class: the transport throws it when a
//   server answers 401 and no provider is given.
// The stand-ins' exports are read from the SDK's own files, so an update that
// adds one still builds, and one whose exports cannot be read stops the build.
import { readFileSync } from "node:fs";

const AJV = /@modelcontextprotocol[\\/]sdk[\\/].*validation[\\/]ajv-provider\.js$/;
const OAUTH = /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](esm|cjs)[\\/]client[\\/]auth\.js$/;
export const LEFT_OUT_AJV = "Vault Agent passes its own jsonSchemaValidator (scripts/mcp-sdk-unused.mjs)";
export const LEFT_OUT_OAUTH = "Vault Agent does not sign in to MCP servers with OAuth yet (scripts/mcp-sdk-unused.mjs)";

/** A module with the exports of the SDK's client/auth.js: the error class, and functions that throw. */
export function oauthStandIn(source, path) {
	const names = [...source.matchAll(/^export (?:async function|function|const|class) (\w+)/gm)].map((m) => m[1]);
	const exportLines = source.match(/^export\b.*$/gm) ?? [];
	if (!names.includes("UnauthorizedError") || names.length !== exportLines.length) {
		throw new Error(`scripts/mcp-sdk-unused.mjs: cannot read the exports of ${path}; update the stand-in`);
	}
	const head = [
		`function left() { throw new Error(${JSON.stringify(LEFT_OUT_OAUTH)}); }`,
		"export class UnauthorizedError extends Error { constructor(message) { super(message ?? 'Unauthorized'); } }",
	];
	return [...head, ...names.filter((name) => name !== "UnauthorizedError").map((name) => `export const ${name} = left;`)].join("\n");
}

export const withoutUnusedMcpSdkParts = {
	name: "mcp-sdk-without-unused-parts",
	setup(build) {
		build.onLoad({ filter: AJV }, () => ({
			contents: `export class AjvJsonSchemaValidator { constructor() { throw new Error(${JSON.stringify(LEFT_OUT_AJV)}); } }`,
			loader: "js",
		}));
		build.onLoad({ filter: OAUTH }, ({ path }) => ({ contents: oauthStandIn(readFileSync(path, "utf8"), path), loader: "js" }));
	},
};
