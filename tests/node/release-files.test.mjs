// The files a community-directory release depends on: `npm version`'s hook
// (scripts/version-bump.mjs) on a temporary copy of manifest.json and
// versions.json, the first line of the built main.js, which names the wasm it
// carries by its SHA-256, the release folder `npm run release` writes
// (scripts/release-files.mjs), checked with the real sha256sum, and the
// release's refusal of a tree with changes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { brotliDecompressSync } from "node:zlib";
import { RELEASE_FILES, writeRelease } from "../../scripts/release-files.mjs";
import { base122Encode } from "../../scripts/base122.mjs";
import { LEFT_OUT_OAUTH, oauthStandIn } from "../../scripts/mcp-sdk-unused.mjs";
import { LEFT_OUT, standIn } from "../../scripts/zod-json-schema.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bump = join(root, "scripts/version-bump.mjs");
const temporary = [];
after(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder holding copies of the repository's manifest.json and versions.json. */
function copyOfReleaseFiles() {
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-bump-"));
	temporary.push(dir);
	for (const name of ["manifest.json", "versions.json"]) writeFileSync(join(dir, name), readFileSync(join(root, name)));
	return dir;
}

const readJson = (dir, name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
const runBump = (dir, version) =>
	spawnSync(process.execPath, [bump], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_package_version: version } });

describe("scripts/version-bump.mjs (package.json's `version` hook)", () => {
	it("is what `npm version` runs", () => {
		const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
		assert.match(scripts.version, /^node scripts\/version-bump\.mjs && git add manifest\.json versions\.json$/);
	});

	it("sets manifest.json's version and adds the version with the manifest's minAppVersion to versions.json", () => {
		const dir = copyOfReleaseFiles();
		const before = readJson(dir, "manifest.json");
		const versionsBefore = readJson(dir, "versions.json");
		assert.ok(!("9.8.7" in versionsBefore));
		const run = runBump(dir, "9.8.7");
		assert.equal(run.status, 0, run.stderr);
		assert.deepEqual(readJson(dir, "manifest.json"), { ...before, version: "9.8.7" });
		assert.deepEqual(readJson(dir, "versions.json"), { ...versionsBefore, "9.8.7": before.minAppVersion });
		// The files keep the repository's format: tabs and a final newline.
		assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), `${JSON.stringify({ ...before, version: "9.8.7" }, null, "\t")}\n`);
		assert.ok(readFileSync(join(dir, "versions.json"), "utf8").endsWith("}\n"));
	});

	it("leaves an entry already in versions.json as it is", () => {
		const dir = copyOfReleaseFiles();
		writeFileSync(join(dir, "versions.json"), `${JSON.stringify({ "0.1.0": "1.12.7", "0.2.0": "1.0.0" }, null, "\t")}\n`);
		const run = runBump(dir, "0.2.0");
		assert.equal(run.status, 0, run.stderr);
		assert.equal(readJson(dir, "manifest.json").version, "0.2.0");
		assert.deepEqual(readJson(dir, "versions.json"), { "0.1.0": "1.12.7", "0.2.0": "1.0.0" });
	});

	it("refuses to run outside `npm version` and changes nothing", () => {
		const dir = copyOfReleaseFiles();
		const manifest = readFileSync(join(dir, "manifest.json"), "utf8");
		const env = { ...process.env };
		delete env.npm_package_version;
		const run = spawnSync(process.execPath, [bump], { cwd: dir, encoding: "utf8", env });
		assert.notEqual(run.status, 0);
		assert.match(run.stderr, /npm_package_version/);
		assert.equal(readFileSync(join(dir, "manifest.json"), "utf8"), manifest);
	});
});

describe("main.js's first line", () => {
	const firstLine = readFileSync(join(root, "main.js"), "utf8").split("\n", 1)[0];
	const fields = /^\/\*! Vault Agent core (\S+); commit (\S+); wasm sha256 ([0-9a-f]{64}); Rust source: src\/ \(crate vault-agent\), built by scripts\/build\.sh \*\/$/.exec(firstLine);

	it("names the crate version, the commit and the SHA-256 of the inlined wasm", () => {
		assert.ok(fields, `unexpected first line: ${firstLine.slice(0, 200)}`);
		const crateVersion = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))[1];
		assert.equal(fields[1], crateVersion);
		assert.match(fields[2], /^(?:[0-9a-f]{40}|uncommitted)$/);
	});

	it("carries the SHA-256 of build/wasm/vault_agent_bg.wasm, the wasm that was compressed into it", () => {
		const wasm = readFileSync(join(root, "build/wasm/vault_agent_bg.wasm"));
		assert.equal(fields?.[3], createHash("sha256").update(wasm).digest("hex"));
		// main.js carries the .br (as base-122 text), which unpacks to exactly that wasm.
		const compressed = readFileSync(join(root, "build/wasm/vault_agent_bg.wasm.br"));
		assert.ok(readFileSync(join(root, "main.js"), "utf8").includes(`"${base122Encode(compressed)}"`), "main.js lacks the .br's bytes");
		assert.ok(brotliDecompressSync(compressed).equals(wasm));
	});
});

describe("main.js without zod's JSON Schema generation (scripts/zod-json-schema.mjs)", () => {
	it("carries the stand-ins, not zod's generator", () => {
		const bundle = readFileSync(join(root, "main.js"), "utf8");
		assert.ok(bundle.includes(LEFT_OUT), "the stand-in modules are missing");
		// The draft URL appears only in zod's to-json-schema.js.
		assert.ok(!bundle.includes("json-schema.org/draft/2020-12/schema"), "zod's to-json-schema.js is bundled again");
	});
	for (const name of ["to-json-schema", "json-schema-processors", "json-schema-generator"]) {
		it(`gives zod's ${name}.js's exports, each throwing`, async () => {
			const path = join(root, "node_modules/zod/v4/core", `${name}.js`);
			const real = Object.keys(await import(path)).sort();
			const dir = mkdtempSync(join(tmpdir(), "vault-agent-zod-"));
			temporary.push(dir);
			writeFileSync(join(dir, "stand-in.mjs"), standIn(readFileSync(path, "utf8"), path));
			const stand = await import(join(dir, "stand-in.mjs"));
			assert.deepEqual(Object.keys(stand).sort(), real);
			for (const key of real) assert.throws(() => stand[key](), { message: LEFT_OUT });
		});
	}
	it("stops the build on an export it cannot read", () => {
		assert.throws(() => standIn("export function a() {}\nexport default 1;\n", "zod.js"), /cannot read the exports of zod\.js/);
	});
});

describe("main.js without the MCP SDK's OAuth sign-in (scripts/mcp-sdk-unused.mjs)", () => {
	const path = join(root, "node_modules/@modelcontextprotocol/sdk/dist/esm/client/auth.js");
	it("carries the stand-in, not the sign-in", () => {
		const bundle = readFileSync(join(root, "main.js"), "utf8");
		assert.ok(bundle.includes(LEFT_OUT_OAUTH), "the stand-in module is missing");
		// The discovery path appears only in the SDK's client/auth.js.
		assert.ok(!bundle.includes("oauth-protected-resource"), "the SDK's client/auth.js is bundled again");
	});
	it("gives client/auth.js's exports: the error class works, the rest throw", async () => {
		const real = await import(path);
		const dir = mkdtempSync(join(tmpdir(), "vault-agent-oauth-"));
		temporary.push(dir);
		writeFileSync(join(dir, "stand-in.mjs"), oauthStandIn(readFileSync(path, "utf8"), path));
		const stand = await import(join(dir, "stand-in.mjs"));
		assert.deepEqual(Object.keys(stand).sort(), Object.keys(real).sort());
		const error = new stand.UnauthorizedError("No auth provider");
		assert.ok(error instanceof Error);
		assert.equal(error.message, new real.UnauthorizedError("No auth provider").message);
		assert.equal(new stand.UnauthorizedError().message, new real.UnauthorizedError().message);
		for (const key of Object.keys(real).filter((name) => name !== "UnauthorizedError")) assert.throws(() => stand[key](), { message: LEFT_OUT_OAUTH });
	});
	it("stops the build on an export it cannot read", () => {
		assert.throws(() => oauthStandIn("export class UnauthorizedError {}\nexport { a as b };\n", "auth.js"), /cannot read the exports of auth\.js/);
	});
});

describe("the release folder (scripts/release-files.mjs)", () => {
	it("holds main.js, manifest.json and styles.css as built, and a SHA256SUMS that sha256sum -c accepts", () => {
		const out = mkdtempSync(join(tmpdir(), "vault-agent-release-"));
		temporary.push(out);
		writeFileSync(join(out, "left-from-an-older-release.js"), "old");
		const sums = writeRelease(root, out);
		assert.deepEqual(readdirSync(out).sort(), ["SHA256SUMS", ...RELEASE_FILES].sort());
		for (const name of RELEASE_FILES) assert.ok(readFileSync(join(out, name)).equals(readFileSync(join(root, name))), name);
		assert.equal(readFileSync(join(out, "SHA256SUMS"), "utf8"), sums);
		const check = spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: out, encoding: "utf8" });
		assert.equal(check.status, 0, check.stdout + check.stderr);
		assert.equal(check.stdout, RELEASE_FILES.map((name) => `${name}: OK\n`).join(""));
		// A changed file no longer passes.
		writeFileSync(join(out, "styles.css"), "body {}\n");
		assert.equal(spawnSync("sha256sum", ["--quiet", "-c", "SHA256SUMS"], { cwd: out, encoding: "utf8" }).status, 1);
	});
});

describe("npm run release (scripts/release.sh)", () => {
	/** A git checkout holding only the release script, one commit made. */
	function checkoutWithReleaseScript() {
		const dir = mkdtempSync(join(tmpdir(), "vault-agent-release-tree-"));
		temporary.push(dir);
		mkdirSync(join(dir, "scripts"));
		cpSync(join(root, "scripts/release.sh"), join(dir, "scripts/release.sh"));
		const git = (...args) => spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: dir, encoding: "utf8" });
		git("init", "-q");
		git("add", "-A");
		assert.equal(git("commit", "-qm", "release script").status, 0);
		return dir;
	}
	const release = (dir) => spawnSync("bash", [join(dir, "scripts/release.sh")], { cwd: dir, encoding: "utf8" });

	it("refuses a tree with an uncommitted file, names the fix, and builds nothing", () => {
		const dir = checkoutWithReleaseScript();
		writeFileSync(join(dir, "notes.txt"), "draft");
		const run = release(dir);
		assert.equal(run.status, 1);
		assert.match(run.stderr, /not committed/);
		assert.match(run.stderr, /\?\? notes\.txt/);
		assert.match(run.stderr, /commit them \(or git stash -u\), then run npm run release again/);
		assert.ok(!existsSync(join(dir, "release")) && !existsSync(join(dir, "build")));
	});

	it("refuses a tracked file with changes", () => {
		const dir = checkoutWithReleaseScript();
		writeFileSync(join(dir, "scripts/release.sh"), `${readFileSync(join(dir, "scripts/release.sh"), "utf8")}\n# edited\n`);
		const run = release(dir);
		assert.equal(run.status, 1);
		assert.match(run.stderr, /M scripts\/release\.sh/);
	});
});
