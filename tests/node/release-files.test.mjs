// The files a community-directory release depends on: `npm version`'s hook
// (scripts/version-bump.mjs) on a temporary copy of manifest.json and
// versions.json, and the first line of the built main.js, which names the
// wasm it carries by its SHA-256.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { brotliDecompressSync } from "node:zlib";

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
		// main.js carries the .br (as base64), which unpacks to exactly that wasm.
		const compressed = readFileSync(join(root, "build/wasm/vault_agent_bg.wasm.br"));
		assert.ok(readFileSync(join(root, "main.js"), "utf8").includes(`"${compressed.toString("base64")}"`), "main.js lacks the .br's bytes");
		assert.ok(brotliDecompressSync(compressed).equals(wasm));
	});
});
