// Every Node test fails on a promise rejection nobody handled: a door that
// lets one escape (as `searchVault` once did) shows as a failed test, never
// as a line in the output. Imported by the harness (so a file run on its
// own has it) and by scripts/test.sh's `node --test --import` (so a test
// file that skips the harness has it too); registering twice is harmless.
// node:test fails the test whose async context the rejection belongs to;
// this also fails the file's process, whatever the runner makes of it
// (a rejection after the file's last test, a runner that only warns).

const GUARD = Symbol.for("vault-agent.no-unhandled-rejections");

if (!globalThis[GUARD]) {
	globalThis[GUARD] = true;
	process.on("unhandledRejection", (reason) => {
		process.exitCode = 1;
		const said = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
		console.error(`Unhandled promise rejection (this fails the test run): ${said}`);
	});
}
