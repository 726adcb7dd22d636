// The generated reference pages must match the built plugin: docs/tools.md
// (the registry) and docs/settings.md (the settings tab and settings code).
// docs/errors.md is checked by tests/error_docs.rs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { currentSettings, currentTools, renderSettingsDocs, renderToolDocs } from "../../scripts/docs.mjs";
import { root } from "../support/harness.mjs";

it("docs/tools.md is current (run `node scripts/docs.mjs` after changing a tool)", async () => {
	const committed = readFileSync(join(root, "docs/tools.md"), "utf8");
	assert.equal(committed, renderToolDocs(await currentTools()));
});

it("docs/settings.md is current (run `node scripts/docs.mjs` after changing a setting)", async () => {
	const committed = readFileSync(join(root, "docs/settings.md"), "utf8");
	assert.equal(committed, renderSettingsDocs(await currentSettings()));
});
