// The README's first lines point developers to CONTRIBUTING.md's two
// commands, CONTRIBUTING.md holds exactly those two, and they are what they
// say: `npm run demo` runs scripts/demo.sh (tests/node/demo.test.mjs checks
// what the demo does) and `npm test` runs scripts/test.sh, which CI runs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { root } from "../support/harness.mjs";

const read = (file) => readFileSync(join(root, file), "utf8");

it("the README's first lines send developers to CONTRIBUTING.md's two commands", () => {
	const first = read("README.md").split("\n").slice(0, 4).join("\n");
	assert.match(first, /\]\(CONTRIBUTING\.md#the-two-commands\)/);
	assert.match(first, /`npm run demo`/);
	assert.match(first, /`npm test`/);
});

it("CONTRIBUTING.md's two commands are the package's demo and test scripts, and CI runs the test one", () => {
	const section = read("CONTRIBUTING.md").split("\n## The two commands\n")[1];
	assert.ok(section, "CONTRIBUTING.md has a section \"The two commands\"");
	const block = section.match(/```sh\n([\s\S]*?)```/)?.[1] ?? "";
	const commands = block.trimEnd().split("\n").map((line) => line.split("#")[0].trim());
	assert.deepEqual(commands, ["npm run demo", "npm test"]);
	const { scripts } = JSON.parse(read("package.json"));
	assert.equal(scripts.demo, "bash scripts/demo.sh");
	assert.equal(scripts.test, "bash scripts/test.sh");
	assert.match(read(".ci/run"), /^npm test$/m);
	assert.match(read(".github/workflows/test.yml"), /\.ci\/run/);
});
