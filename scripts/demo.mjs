// The plugin's main job on its embedded default: load the BUILT main.js inside
// the Obsidian double, over a copy of the sample vault behind the CLI emulator,
// list the registered tools and run each once, printing the exact argv, the
// result or typed error, and the time taken.
//
//   node scripts/demo.mjs                  run the demo
//   node scripts/demo.mjs --install VAULT  copy main.js, manifest.json and
//                                          styles.css into VAULT/.obsidian/plugins/vault-agent/
//   node scripts/demo.mjs --chat           talk to the agent in the terminal over the sample
//                                          vault; the model server comes from environment
//                                          variables (see CONTRIBUTING.md, "Chat in the terminal")
//   add --allow-changes to let the chat change the (copied) sample vault in "Ask before edits",
//   or --ask-every-change for "Ask before every change" (default: "Read only")
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

if (args.includes("--chat")) {
	await chat();
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
	const tools = await api.listTools();
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

/** A terminal conversation with the agent, through the same core and loop. */
async function chat() {
	const { createInterface } = await import("node:readline/promises");
	const provider = (process.env.VAULT_AGENT_PROVIDER ?? "openai").toLowerCase() === "anthropic" ? "anthropic" : "openAi";
	const baseUrl = process.env.VAULT_AGENT_MODEL_URL ?? (provider === "anthropic" ? "https://api.anthropic.com" : "http://localhost:11434/v1");
	const model = process.env.VAULT_AGENT_MODEL ?? (provider === "anthropic" ? "claude-sonnet-4-5" : "llama3.1");
	const key = process.env.VAULT_AGENT_API_KEY ?? "";
	const vault = copySampleVault();
	let rl = null;
	try {
		useEmulator(vault, { OBSIDIAN_EMULATOR_TODAY: new Date().toISOString().slice(0, 10) });
		const settings = { provider, [provider === "anthropic" ? "anthropic" : "openai"]: { baseUrl, model, apiKeySecret: key ? "demo-key" : "" } };
		const permissionMode = args.includes("--ask-every-change") ? "askEveryChange" : args.includes("--allow-changes") ? "askBeforeEdits" : "readOnly";
		const modeNames = { readOnly: "Read only (add --allow-changes or --ask-every-change)", askEveryChange: "Ask before every change", askBeforeEdits: "Ask before edits" };
		const { plugin } = await loadPlugin(vault, {
			data: { cliPath: emulator, permissionMode, chat: settings },
		});
		if (key) plugin.app.secretStorage.setSecret("demo-key", key);
		const core = plugin.core;
		// Only now: input typed (or piped) during loading waits in stdin.
		rl = createInterface({ input: process.stdin, output: process.stdout });
		const lines = rl[Symbol.asyncIterator]();
		const ask = async (prompt) => {
			process.stdout.write(prompt);
			const next = await lines.next();
			return next.done ? "" : next.value;
		};
		console.log(`Vault Agent chat over the sample vault (a copy at ${vault}).`);
		console.log(`Model: ${model} at ${baseUrl}. Vault changes: ${modeNames[permissionMode]}. Empty line or Ctrl+D to quit.\n`);
		let conversation = core.newConversation();
		const onEvent = (event) => {
			switch (event.type) {
				case "textDelta":
					process.stdout.write(event.text);
					break;
				case "assistantMessage":
					if (event.text) process.stdout.write("\n");
					break;
				case "toolFinished": {
					const line = event.result.argv ? ["obsidian", ...event.result.argv].join(" ") : event.tool;
					const status = event.result.pending ? "waiting for approval" : event.result.ok ? "done" : `error ${event.result.error.code}`;
					console.log(`  [${event.displayName}] ${line} → ${status} (${Math.round(event.result.durationMs)} ms)`);
					break;
				}
				case "notice":
					console.log(`  (${event.text})`);
					break;
				case "error":
					console.log(`\n  ! ${event.message}`);
					break;
			}
		};
		for (;;) {
			const text = (await ask("\nyou> ")).trim();
			if (!text) break;
			process.stdout.write("agent> ");
			let result = await core.chatSend(conversation, text, onEvent);
			while (result.end === "awaitingConfirmation") {
				const card = core.confirmationCard(result.conversation.paused.confirmationId);
				console.log(`\n  ${card.summary}\n    now:   ${card.preview.before}\n    after: ${card.preview.after}`);
				const yes = /^y/i.test((await ask("  Approve? [y/N] ")).trim());
				process.stdout.write("agent> ");
				result = await core.chatResolve(result.conversation, card.id, yes, card.argvHash, onEvent);
			}
			conversation = result.conversation;
		}
	} finally {
		rl?.close();
		removeVault(vault);
	}
}
