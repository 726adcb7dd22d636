// Reads the pinned toolchain (toolchain.toml) and lists every place in the
// repository's manifests and lockfiles that disagrees with it: the wasm-bindgen
// crate must equal the CLI, and npm must install exactly the pinned binaryen
// and esbuild. Run as a script it prints the disagreements and exits 1 when
// there is any (scripts/release.sh runs it before building).
// Usage: node scripts/toolchain-pins.mjs [<repository folder>]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The `name = "version"` lines of toolchain.toml, as an object. */
export function readPins(root) {
	const pins = {};
	for (const line of readFileSync(join(root, "toolchain.toml"), "utf8").split("\n")) {
		const pin = /^([a-z-]+) = "([^"]+)"$/.exec(line);
		if (pin) pins[pin[1]] = pin[2];
	}
	return pins;
}

/** Each disagreement between toolchain.toml and the manifests, as a sentence. */
export function pinDisagreements(root) {
	const pins = readPins(root);
	const problems = [];
	const expect = (what, found, wanted) => {
		if (found !== wanted) problems.push(`${what} is ${found === undefined ? "missing" : `"${found}"`}, toolchain.toml pins ${wanted}`);
	};
	for (const name of ["rust", "wasm-bindgen", "binaryen", "esbuild", "node"]) {
		if (!pins[name]) problems.push(`toolchain.toml has no ${name} = "…" line`);
	}

	const cargoToml = readFileSync(join(root, "Cargo.toml"), "utf8");
	expect("Cargo.toml's wasm-bindgen requirement", /^wasm-bindgen = "([^"]*)"/m.exec(cargoToml)?.[1], `=${pins["wasm-bindgen"]}`);
	const cargoLock = readFileSync(join(root, "Cargo.lock"), "utf8");
	expect("Cargo.lock's wasm-bindgen", /\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]*)"/.exec(cargoLock)?.[1], pins["wasm-bindgen"]);

	const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
	const packageLock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
	for (const name of ["binaryen", "esbuild"]) {
		expect(`package.json's devDependencies.${name}`, packageJson.devDependencies?.[name], pins[name]);
		expect(`package-lock.json's ${name}`, packageLock.packages?.[`node_modules/${name}`]?.version, pins[name]);
	}
	return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const problems = pinDisagreements(resolve(process.argv[2] ?? "."));
	for (const problem of problems) console.error(`toolchain pins: ${problem}`);
	if (problems.length > 0) {
		console.error("toolchain pins: make them agree with toolchain.toml (npm install --save-exact, cargo update -p wasm-bindgen --precise).");
		process.exit(1);
	}
}
