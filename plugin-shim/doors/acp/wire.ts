// Between the ACP SDK and Node: the agent's pipes as the web streams the
// SDK reads and writes, its session settings as the chat shows them, and a
// refused call as the SDK's error.

import type * as acp from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { ChildProcess } from "child_process";
import type { ToolResult } from "../../vault-agent-api";
import type { AgentConfigOption } from "./events";

/** The agent's session settings as the chat shows them (groups flattened). */
export function configOptions(options: acp.SessionConfigOption[]): AgentConfigOption[] {
	return options.map((option) => {
		const common = { id: option.id, name: option.name, description: option.description ?? "", category: option.category ?? "other" };
		if (option.type === "boolean") {
			return {
				...common,
				current: String(option.currentValue),
				choices: [
					{ value: "true", name: "On" },
					{ value: "false", name: "Off" },
				],
				boolean: true,
			};
		}
		const choices = option.options.flatMap((entry) => ("group" in entry ? entry.options : [entry])).map((c) => ({ value: c.value, name: c.name }));
		return { ...common, current: option.currentValue, choices, boolean: false };
	});
}

/** The agent's stdin as a web stream (what the SDK reads and writes). */
export function stdinStream(child: ChildProcess): WritableStream<Uint8Array> {
	return new WritableStream<Uint8Array>({
		write: (chunk) =>
			new Promise<void>((resolve, reject) => {
				if (!child.stdin || child.stdin.destroyed) {
					reject(new Error("the agent's input is closed"));
					return;
				}
				child.stdin.write(chunk, (error) => (error ? reject(error) : resolve()));
			}),
		close: () => {
			child.stdin?.end();
		},
	});
}

/**
 * The agent's stdout as a web stream. Output that arrives after the reader
 * is gone (the session was closed while the agent still wrote) is dropped:
 * enqueueing it would throw in the renderer.
 */
export function stdoutStream(child: ChildProcess): ReadableStream<Uint8Array> {
	const out = child.stdout;
	let open = true;
	let onData: ((chunk: Uint8Array | string) => void) | null = null;
	return new ReadableStream<Uint8Array>({
		start: (controller) => {
			if (!out) {
				open = false;
				controller.close();
				return;
			}
			onData = (chunk) => {
				if (open) controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk));
			};
			out.on("data", onData);
			out.on("end", () => {
				if (!open) return;
				open = false;
				controller.close();
			});
		},
		cancel: () => {
			open = false;
			if (onData) out?.off("data", onData);
		},
	});
}

export function refused(result: ToolResult): acp.RequestError {
	return RequestError.internalError({ code: result.error?.code ?? "failed" }, result.error?.message ?? result.text);
}
