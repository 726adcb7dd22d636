// The plugin's main job on its embedded default: load the BUILT main.js inside
// the Obsidian double, over a copy of the sample vault behind the CLI emulator,
// list the registered tools and run each once, printing the exact argv, the
// result or typed error, and the time taken.
//
//   node scripts/demo.mjs                  run the demo
//   node scripts/demo.mjs --install VAULT  copy main.js, manifest.json and
//                                          styles.css into VAULT/.obsidian/plugins/vault-agent/
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { copySampleVault, emulator, loadPlugin, removeVault, root, useEmulator } from "../tests/support/harness.mjs";

const args = process.argv.slice(2);
const installAt = args.indexOf("--install");
if (installAt !== -1) {
	const vault = args[installAt + 1];
	if (!vault || !existsSync(join(vault, ".obsidian"))) {
		console.error(`--install needs the folder of an Obsidian vault (one that contains .obsidian/); got ${vault ?? "nothing"}.`);
		process.exit(2);
	}
	const target = join(resolve(vault), ".obsidian", "plugins", "vault-agent");
	mkdirSync(target, { recursive: true });
	for (const file of ["main.js", "manifest.json", "styles.css"]) copyFileSync(join(root, file), join(target, file));
	console.log(`Installed Vault Agent into ${target}.`);
	console.log("In Obsidian: Settings → Community plugins → turn on Vault Agent (reload the app if it is not listed).");
	process.exit(0);
}

const vault = copySampleVault();
try {
	useEmulator(vault, { OBSIDIAN_EMULATOR_TODAY: new Date().toISOString().slice(0, 10), OBSIDIAN_EMULATOR_SEED: "1" });
	const { plugin } = await loadPlugin(vault, { data: { cliPath: emulator } });
	const api = plugin.api;
	const status = await plugin.core.cliStatus();
	console.log(`Vault Agent demo: sample vault at ${vault}`);
	console.log(`CLI: ${status.discovery.binary} (version ${status.version ?? "unknown"})\n`);
	const tools = api.listTools();
	console.log(`${tools.length} tools registered:`);
	for (const tool of tools) {
		const commands = tool.commandDetails.map((c) => (c.access === "read" ? c.name : `${c.name} [${c.access}]`));
		console.log(`  ${tool.id.padEnd(22)} ${tool.displayName.padEnd(24)} ${commands.join(", ")}`);
	}
	console.log("");
	for (const tool of tools) {
		const result = await api.callTool(tool.id, tool.example);
		const argv = result.argv ? ["obsidian", ...result.argv].map(quote).join(" ") : "(nothing ran)";
		console.log(`▶ ${tool.id} ${JSON.stringify(tool.example)}`);
		console.log(`  argv: ${argv}`);
		console.log(`  ${result.ok ? "ok" : `error ${result.error.code}`} in ${result.durationMs.toFixed(1)} ms${result.truncated ? " (cut)" : ""}`);
		console.log(indent(result.text.length > 600 ? `${result.text.slice(0, 600)}…` : result.text));
		console.log("");
	}
} finally {
	removeVault(vault);
}

function quote(arg) {
	return /^[\w:./=-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

function indent(text) {
	return text.split("\n").map((line) => `    ${line}`).join("\n");
}
