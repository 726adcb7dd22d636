// toolchain.toml is the one place the release toolchain is pinned: the
// manifests and lockfiles must agree with it, and the workflows must read it
// rather than repeat its versions.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { pinDisagreements, readPins } from "../../scripts/toolchain-pins.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const pinnedFiles = ["toolchain.toml", "Cargo.toml", "Cargo.lock", "package.json", "package-lock.json"];
const temporary = [];
after(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder with copies of the pinned files, `change` applied to the one named. */
function copyWith(name, change) {
	const dir = mkdtempSync(join(tmpdir(), "vault-agent-pins-"));
	temporary.push(dir);
	for (const file of pinnedFiles) {
		const text = readFileSync(join(root, file), "utf8");
		writeFileSync(join(dir, file), file === name ? change(text) : text);
	}
	return dir;
}

const checkScript = (dir) => spawnSync(process.execPath, [join(root, "scripts/toolchain-pins.mjs"), dir], { encoding: "utf8" });

describe("toolchain.toml", () => {
	const pins = readPins(root);

	it("pins Rust, wasm-bindgen, binaryen, esbuild and Node to exact versions", () => {
		assert.deepEqual(Object.keys(pins).sort(), ["binaryen", "esbuild", "node", "rust", "wasm-bindgen"]);
		for (const version of Object.values(pins)) assert.match(version, /^\d+\.\d+\.\d+$/);
	});

	it("agrees with Cargo.toml, Cargo.lock, package.json and package-lock.json", () => {
		assert.deepEqual(pinDisagreements(root), []);
		const run = checkScript(root);
		assert.equal(run.status, 0, run.stderr);
	});

	for (const [file, change, named] of [
		["Cargo.toml", (text) => text.replace(/^wasm-bindgen = "=[^"]*"/m, 'wasm-bindgen = "=0.2.1"'), /Cargo\.toml's wasm-bindgen requirement is "=0\.2\.1"/],
		["Cargo.lock", (text) => text.replace(/(name = "wasm-bindgen"\nversion = ")[^"]*/, "$10.2.1"), /Cargo\.lock's wasm-bindgen is "0\.2\.1"/],
		["package.json", (text) => text.replace(/"esbuild": "[^"]*"/, '"esbuild": "^0.1.0"'), /package\.json's devDependencies\.esbuild is "\^0\.1\.0"/],
		["package-lock.json", (text) => text.replace(/("node_modules\/binaryen": \{\s*"version": ")[^"]*/, "$1100.0.0"), /package-lock\.json's binaryen is "100\.0\.0"/],
		["toolchain.toml", (text) => text.replace(/^esbuild = .*$/m, ""), /toolchain\.toml has no esbuild/],
	]) {
		it(`fails, naming the file, when ${file} drifts from it`, () => {
			const dir = copyWith(file, change);
			assert.notEqual(readFileSync(join(dir, file), "utf8"), readFileSync(join(root, file), "utf8"), "the change applied");
			assert.ok(pinDisagreements(dir).some((problem) => named.test(problem)), pinDisagreements(dir).join("\n"));
			const run = checkScript(dir);
			assert.equal(run.status, 1);
			assert.match(run.stderr, named);
		});
	}

	it("is read by the scripts and workflows, which repeat none of its versions", () => {
		const readers = ["scripts/toolchain.sh", ...readdirSync(join(root, ".github/workflows")).map((name) => `.github/workflows/${name}`)];
		for (const file of readers) {
			const text = readFileSync(join(root, file), "utf8");
			assert.match(text, /toolchain\.toml/, `${file} reads toolchain.toml`);
			for (const [name, version] of Object.entries(pins)) assert.ok(!text.includes(version), `${file} repeats ${name} ${version}`);
		}
	});
});
