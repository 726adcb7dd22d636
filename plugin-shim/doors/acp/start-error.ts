// An agent that cannot start: the message says what to do (install it, set
// its command); shown as it is, where other errors get the agent's stderr.

export class AgentStartError extends Error {
	constructor(
		message: string,
		/** The message as Settings → Coding agents' Test says it, where a pointer to that page would be redundant. */
		readonly onSettingsPage: string = message,
	) {
		super(message);
	}
}
