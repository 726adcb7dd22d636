#!/usr/bin/env node
// A stand-in for the `obsidian` binary that logs when each run starts and
// ends, so a test can count how many ran at once (the process cap).
// With VAULT_AGENT_OVERLAP_GATE set, each run waits until that file exists
// before it starts its VAULT_AGENT_OVERLAP_MS: a test holds every run that
// started until it has seen what it waits for.
import { appendFileSync, existsSync } from "node:fs";

const log = process.env.VAULT_AGENT_OVERLAP_LOG;
const gate = process.env.VAULT_AGENT_OVERLAP_GATE;
appendFileSync(log, `start ${process.pid}\n`);
const run = () =>
	setTimeout(() => {
		appendFileSync(log, `end ${process.pid}\n`);
		process.stdout.write("ok\n");
	}, Number(process.env.VAULT_AGENT_OVERLAP_MS ?? 150));
if (gate && !existsSync(gate)) {
	const poll = setInterval(() => {
		if (!existsSync(gate)) return;
		clearInterval(poll);
		run();
	}, 10);
} else run();
