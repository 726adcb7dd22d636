// The guard every Node test runs under (tests/support/no-unhandled-rejections.mjs):
// a promise rejection nobody handles fails the test it happens in, with two
// files at a time as scripts/test.sh runs them and tests running at once in
// a file, and one after a file's last test fails that file; a file without
// one passes. The runs here are of small files written for the purpose.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { root } from "../support/harness.mjs";

const guard = join(root, "tests/support/no-unhandled-rejections.mjs");
const wait = "await new Promise((r) => setTimeout(r, 30));";

const files = {
	// Two tests at once; only the one whose promise is left unhandled fails.
	"concurrent.test.mjs": `import { describe, it } from "node:test";
describe("at once", { concurrency: true }, () => {
	it("leaves a rejection unhandled", async () => { Promise.reject(new Error("deliberate-in-test")); ${wait} });
	it("handles its own", async () => { await Promise.reject(new Error("handled")).catch(() => {}); ${wait} });
});`,
	// From a listener, as a door's event handler would.
	"listener.test.mjs": `import { EventEmitter } from "node:events";
import { it } from "node:test";
const door = new EventEmitter();
door.on("search", () => { Promise.reject(new Error("deliberate-from-listener")); });
it("emits to a door that rejects", async () => { door.emit("search"); ${wait} });`,
	// After the file's last test.
	"late.test.mjs": `import { it } from "node:test";
it("passes, and leaves a timer", () => { setTimeout(() => { Promise.reject(new Error("deliberate-late")); }, 20); });`,
	"clean.test.mjs": `import { it } from "node:test";
it("handles everything", async () => { await Promise.resolve(1); });`,
};

describe("an unhandled promise rejection fails the Node tests", () => {
	let dir;
	before(() => {
		dir = mkdtempSync(join(tmpdir(), "unhandled-"));
		for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	/** `node --test` as scripts/test.sh runs it, on `names`. */
	const run = (names) => {
		// Not as a child of this runner (it would skip the files), but a run of its own.
		const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
		const ran = spawnSync(process.execPath, ["--test", "--test-concurrency=2", "--test-reporter=tap", "--import", guard, ...names.map((n) => join(dir, n))], { encoding: "utf8", timeout: 60_000, env });
		return { status: ran.status, out: `${ran.stdout}\n${ran.stderr}` };
	};

	it("fails the test it happens in, two files at a time and with tests at once in a file", () => {
		const { status, out } = run(["concurrent.test.mjs", "listener.test.mjs", "clean.test.mjs"]);
		assert.notEqual(status, 0, out);
		assert.match(out, /^\s*not ok \d+ - leaves a rejection unhandled$/m, out);
		assert.match(out, /^\s*not ok \d+ - emits to a door that rejects$/m, out);
		assert.match(out, /^\s*ok \d+ - handles its own$/m, out);
		assert.match(out, /^\s*ok \d+ - handles everything$/m, out);
		assert.match(out, /deliberate-in-test/);
		assert.match(out, /deliberate-from-listener/);
		assert.doesNotMatch(out, /Unhandled promise rejection[^\n]*handled\b(?!-)/, "a handled one is not reported");
	});

	it("fails the file when one comes after its last test", () => {
		const { status, out } = run(["late.test.mjs"]);
		assert.notEqual(status, 0, out);
		assert.match(out, /deliberate-late/);
	});

	it("passes a file without one", () => {
		const { status, out } = run(["clean.test.mjs"]);
		assert.equal(status, 0, out);
		assert.match(out, /^# pass 1$/m, out);
	});

	it("fails a process on its own, also where Node itself would only warn", () => {
		const script = "Promise.reject(new Error('deliberate-alone')); setTimeout(() => {}, 20);";
		const bare = spawnSync(process.execPath, ["--unhandled-rejections=warn", "-e", script], { encoding: "utf8" });
		assert.equal(bare.status, 0, "Node alone, told to warn, lets it pass");
		const guarded = spawnSync(process.execPath, ["--unhandled-rejections=warn", "--import", guard, "-e", script], { encoding: "utf8" });
		assert.equal(guarded.status, 1, guarded.stderr);
		assert.match(guarded.stderr, /Unhandled promise rejection \(this fails the test run\): Error: deliberate-alone/);
	});

	it("is what scripts/test.sh runs the Node tests under, and what the harness loads", () => {
		assert.match(readFileSync(join(root, "scripts/test.sh"), "utf8"), /^node --test [^\n]*--import \.\/tests\/support\/no-unhandled-rejections\.mjs tests\/node\/$/m);
		assert.match(readFileSync(join(root, "tests/support/harness.mjs"), "utf8"), /^import "\.\/no-unhandled-rejections\.mjs";$/m);
	});
});
