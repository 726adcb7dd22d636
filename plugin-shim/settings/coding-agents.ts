// The settings tab's "Coding agents" section: per agent (Claude Code, Codex,
// Gemini CLI, a custom one) its command, arguments and the secrets that hold
// its API keys, and Test, which starts it and reports what `initialize` said.

import type { SettingsContext } from "./settings-context";
import type { Row, Section } from "./section";

export function codingAgentsSection(ctx: SettingsContext): Section {
	const section: Section = { heading: "Coding agents", cls: "vault-agent-coding-agents", rows: [] };
	const runner = ctx.codingAgents;
	if (!runner) return section;
	const aliases = ["ACP", "agent client protocol", "Claude Code", "Codex", "Gemini"];
	section.rows = runner.profiles().map(
		(profile): Row => ({
			name: profile.name,
			desc: "Pick it in the chat's model list; it works through Vault Agent's tools.",
			more: `${profile.install ? `Install: ${profile.install}. ` : ""}Pick it in the chat's model list. It works in the vault through Vault Agent's tools and cards; it gets no terminal. Arguments are separated by spaces; keys are "NAME=secret name" pairs from Obsidian's secret storage.`,
			aliases,
			render: (setting) => {
				setting.settingEl.addClass("vault-agent-coding-agent");
				setting.addText((text) => {
					text.setPlaceholder("Command").setValue(profile.command);
					text.inputEl.setAttribute("aria-label", `${profile.name} command`);
					text.inputEl.addEventListener("change", () => void ctx.saveAgentProfile(profile.id, { command: text.getValue().trim() }));
				});
				setting.addText((text) => {
					text.setPlaceholder("Arguments").setValue(profile.args.join(" "));
					text.inputEl.setAttribute("aria-label", `${profile.name} arguments`);
					text.inputEl.addEventListener("change", () => void ctx.saveAgentProfile(profile.id, { args: text.getValue().split(" ").filter(Boolean) }));
				});
				setting.addText((text) => {
					text.setPlaceholder("Key name=secret name").setValue(
						Object.entries(profile.envSecrets)
							.filter(([, secret]) => secret)
							.map(([name, secret]) => `${name}=${secret}`)
							.join(" "),
					);
					text.inputEl.setAttribute("aria-label", `${profile.name} keys`);
					text.inputEl.addEventListener("change", () => {
						const envSecrets = Object.fromEntries(
							text
								.getValue()
								.split(" ")
								.filter((pair) => pair.includes("="))
								.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
						);
						void ctx.saveAgentProfile(profile.id, { envSecrets });
					});
				});
				const report = setting.descEl.createDiv({ cls: "vault-agent-coding-agent-report" });
				setting.addButton((button) =>
					button.setButtonText("Test").onClick(async () => {
						report.setText("Starting…");
						const fresh = ctx.codingAgents?.profiles().find((p) => p.id === profile.id) ?? profile;
						const result = await runner.test(fresh);
						if (!result.ok) {
							report.setText(result.message);
							report.addClass("is-error");
							return;
						}
						const f = result.facts;
						report.removeClass("is-error");
						const can = [f.mcpHttp ? "Vault Agent's tools over HTTP" : "Vault Agent's tools through the stdio bridge", f.loadSession ? "resumes sessions" : "no resume", f.promptImage ? "images" : ""].filter(Boolean).join(", ");
						report.setText(`${f.name}${f.version ? ` ${f.version}` : ""} answered (protocol ${f.protocolVersion}): ${can}.`);
					}),
				);
			},
		}),
	);
	return section;
}
