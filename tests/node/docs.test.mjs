// docs/tools.md is generated from the registry; it must match the built plugin.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { currentTools, renderToolDocs } from "../../scripts/docs.mjs";
import { root } from "../support/harness.mjs";

it("docs/tools.md is current (run `node scripts/docs.mjs` after changing a tool)", async () => {
	const committed = readFileSync(join(root, "docs/tools.md"), "utf8");
	assert.equal(committed, renderToolDocs(await currentTools()));
});
