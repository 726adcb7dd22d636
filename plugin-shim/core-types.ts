// Types of the values that cross the wasm boundary. They mirror the Rust
// types in src/host.rs and src/result.rs; the public API types live in
// vault-agent-api.d.ts.

import type { ChangePreview, ToolDescriptor, ToolResult } from "./vault-agent-api";

export interface ProcessRequest {
	program: string;
	args: string[];
	cwd: string | null;
	timeoutMs: number;
	killGraceMs: number;
	maxOutputBytes: number;
}

export interface ProcessOutcome {
	spawnFailure?: { code: string; message: string } | null;
	exitCode?: number | null;
	signal?: string | null;
	timedOut?: boolean;
	outputOverflow?: boolean;
	stdout?: Uint8Array;
	stderr?: Uint8Array;
	stdoutTotalBytes?: number;
	stderrTotalBytes?: number;
}

export interface FileStatus {
	exists: boolean;
	isFile: boolean;
	executable: boolean;
}

/** The effects the core may ask for (implemented in node-host.ts). */
export interface HostFunctions {
	runProcess(request: ProcessRequest): Promise<ProcessOutcome>;
	fileStatus(path: string): Promise<FileStatus>;
	env(name: string): string | undefined;
	now(): number;
}

export interface PlatformFacts {
	os: "macos" | "windows" | "linux" | "other";
	isDesktopApp: boolean;
	resourcesPath: string | null;
	execPath: string | null;
	vaultPath: string | null;
	homeDir: string | null;
}

export interface VaultAgentSettings {
	cliPath: string;
	vaultName: string;
	timeoutMs: number;
	outputCapBytes: number;
	allowVaultChanges: boolean;
	confirmationExpiryMs: number;
	tools: Record<string, boolean>;
}

export interface DiscoveryCandidate {
	path: string;
	source: string;
	verdict: "found" | "missing" | "notExecutable" | "needsShell" | "skipped";
}

export interface CliStatus {
	discovery: { binary: string | null; candidates: DiscoveryCandidate[] };
	version: string | null;
	versionError: string | null;
}

export type ConfirmationState = "proposed" | "approved" | "running" | "done" | "failed" | "rejected" | "expired" | "stale";

/** What the plugin's own confirmation card shows (src/confirm.rs). */
export interface ConfirmationCard {
	id: string;
	toolId: string;
	command: string;
	summary: string;
	preview: ChangePreview;
	argv: string[];
	argvHash: string;
	expiresMs: number;
	state: ConfirmationState;
}

/** The wasm class, typed (wasm-bindgen types its values as `any`). */
export interface CoreHandle {
	startupRepairs(): string[];
	listTools(): ToolDescriptor[];
	callTool(toolId: string, args: unknown): Promise<ToolResult>;
	settings(): VaultAgentSettings;
	setSettings(stored: unknown): { settings: VaultAgentSettings; repairs: string[] };
	cliStatus(): Promise<CliStatus>;
	approve(id: string, argvHash: string): Promise<ToolResult>;
	reject(id: string): ToolResult;
	confirmationCard(id: string): ConfirmationCard | null;
	openConfirmations(): ConfirmationCard[];
	expiredResult(id: string): ToolResult | null;
}
