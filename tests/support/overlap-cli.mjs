#!/usr/bin/env node
// A stand-in for the `obsidian` binary that logs when each run starts and
// ends, so a test can count how many ran at once (the process cap).
import { appendFileSync } from "node:fs";

const log = process.env.VAULT_AGENT_OVERLAP_LOG;
appendFileSync(log, `start ${process.pid}\n`);
setTimeout(() => {
	appendFileSync(log, `end ${process.pid}\n`);
	process.stdout.write("ok\n");
}, Number(process.env.VAULT_AGENT_OVERLAP_MS ?? 150));
