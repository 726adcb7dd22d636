// A row's description says what a person needs at a glance, in at most two
// lines; the link after it opens the row's page of docs/settings.md (made
// from these rows by scripts/docs.mjs), which says the rest.

/**
 * The docs/ folder of the repository the plugin came from: the manifest's
 * `authorUrl` when it is a GitHub repository's address (the release sets
 * it). Without one there is no link: a guessed address would be a dead one.
 */
export function docsBase(manifest: { authorUrl?: string }): string | null {
	const match = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+?\/?$/.exec(manifest.authorUrl ?? "");
	return match ? `${manifest.authorUrl?.replace(/\/$/, "")}/blob/main/docs/` : null;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, "")
		.replace(/ /g, "-");
}

/** `desc`, then (when the docs say more and their address is known) a link to the page's part of docs/settings.md. */
export function describedWithDocs(desc: string, page: string | null, about: string, base: string | null): DocumentFragment {
	const fragment = createFragment();
	fragment.createSpan({ cls: "vault-agent-settings-desc", text: desc });
	if (page !== null && base !== null) {
		fragment.appendText(" ");
		fragment.createEl("a", { cls: "vault-agent-settings-docs", text: "More", href: `${base}settings.md#${headingAnchor(page)}`, attr: { "aria-label": `More about ${about} in the docs` } });
	}
	return fragment;
}
