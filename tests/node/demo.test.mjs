// CONTRIBUTING.md's command 1 (`npm run demo`) ends in scripts/demo.mjs: it must list every
// registered tool and run each one over the sample vault, as CONTRIBUTING.md says.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { it } from "node:test";
import { promisify } from "node:util";
import { copySampleVault, emulator, loadPlugin, removeVault, root } from "../support/harness.mjs";

it("the demo lists every tool with its commands and runs each tool once", async () => {
	const vault = copySampleVault();
	let tools;
	try {
		const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator } });
		tools = await plugin.api.listTools();
	} finally {
		removeVault(vault);
	}
	const { stdout } = await promisify(execFile)(process.execPath, [join(root, "scripts/demo.mjs")], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
	assert.match(stdout, new RegExp(`^${tools.length} tools registered:$`, "m"));
	for (const tool of tools) {
		assert.match(stdout, new RegExp(`^  ${tool.id} +${tool.displayName.replace(/[()]/g, "\\$&")} +${tool.commands[0]}`, "m"), tool.id);
		assert.ok(stdout.includes(`▶ ${tool.id} `), `${tool.id} was run`);
	}
	assert.doesNotMatch(stdout, /undefined|NaN/);
});
