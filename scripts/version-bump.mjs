// `npm version <new>` runs this (package.json "version" script) after it has
// changed package.json and before it commits, as in Obsidian's sample plugin:
// manifest.json takes the new version, and versions.json maps it to the
// manifest's minAppVersion so older Obsidian installs are offered the last
// release they can run. An entry already in versions.json is left as it is.
// Works on the files in the current folder.
import { readFileSync, writeFileSync } from "node:fs";

const target = process.env.npm_package_version;
if (!target) {
	console.error("version-bump: npm_package_version is not set; run it through `npm version <new version>`.");
	process.exit(1);
}

const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
manifest.version = target;
writeFileSync("manifest.json", `${JSON.stringify(manifest, null, "\t")}\n`);

const versions = JSON.parse(readFileSync("versions.json", "utf8"));
if (!(target in versions)) {
	versions[target] = manifest.minAppVersion;
	writeFileSync("versions.json", `${JSON.stringify(versions, null, "\t")}\n`);
}
