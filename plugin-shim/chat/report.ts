// A report the user asked for from the command palette (the hygiene
// checks), drawn in the chat view that shows it: the call goes through the
// same gate as the model's (tool switches, folders), and its result shows as
// an open tool block. It is not part of the conversation the model reads.

import type { CoreHandle } from "../core/types";
import type { ToolResult } from "../vault-agent-api";
import type { Transcript } from "./transcript";

let reports = 0;

export async function showReport(
	core: CoreHandle,
	transcript: Transcript,
	call: { toolId: string; displayName: string; args: Record<string, unknown> },
	showBanner: (message: string) => void,
): Promise<ToolResult> {
	const id = `report-${++reports}`;
	// The report is what the chat shows now: the new chat's prompts go, as they do for a message.
	transcript.removeEmptyState();
	const block = transcript.toolBlock(id, call.displayName, JSON.stringify(call.args));
	block.addClass("is-report");
	transcript.scrollToEnd();
	const result = await core.callTool(call.toolId, call.args);
	transcript.finishToolBlock(id, result, null);
	block.setAttr("open", "");
	if (result.error?.userFix) showBanner(result.error.message);
	transcript.scrollToEnd();
	return result;
}
