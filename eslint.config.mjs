// Obsidian's plugin review rules (eslint-plugin-obsidianmd recommended, which
// includes ESLint's and typescript-eslint's type-checked recommended sets).
import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import tseslint from "typescript-eslint";

export default defineConfig([
	{ ignores: ["main.js", "build/**", "node_modules/**", "target/**", "tests/**", "scripts/**", "esbuild.config.mjs", "eslint.config.mjs"] },
	...obsidianmd.configs.recommended,
	{
		// The recommended config runs obsidianmd/validate-manifest only on the
		// files it parses with typescript-eslint; manifest.json is parsed the same
		// way (typescript-estree reads .json files as one object expression, as the
		// rule's own tests do) and gets the rule at the recommended config's level.
		files: ["manifest.json"],
		languageOptions: { parser: tseslint.parser },
		plugins: { obsidianmd },
		rules: { "obsidianmd/validate-manifest": "warn" },
	},
	{
		files: ["plugin-shim/**/*.ts"],
		languageOptions: {
			parserOptions: {
				projectService: true,
				tsconfigRootDir: import.meta.dirname,
			},
		},
		// Obsidian hands plugins its own CodeMirror 6 at run time (esbuild.config.mjs
		// keeps these external): modules of the app, not dependencies of ours.
		settings: { "import/core-modules": ["@codemirror/state", "@codemirror/view"] },
		rules: {
			// Proper nouns keep their casing: the plugin's name and the model servers'.
			"obsidianmd/ui/sentence-case": [
				"warn",
				{ enforceCamelCaseLower: true, brands: ["Vault Agent", "Obsidian", "OpenAI", "Anthropic", "Ollama", "LM Studio", "OpenRouter", "Claude Code", "Claude Desktop", "Cursor", "Codex", "VS Code", "SearXNG", "Brave Search", "Brave"], acronyms: ["MCP", "CLI", "API", "URL", "JSON", "HTTP", "ID", "UI", "CSV", "TSV", "JS"] },
			],
		},
	},
]);
