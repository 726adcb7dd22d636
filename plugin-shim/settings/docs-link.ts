// A row's description says what a person needs at a glance, in at most two
// lines; the link after it opens the row's page of docs/settings.md (made
// from these rows by scripts/docs.mjs), which says the rest.

/**
 * The project's docs/ folder on GitHub. The repository is named nowhere else
 * in the code; this is the one place to change it.
 */
export const DOCS_URL = "https://github.com/vault-agent/vault-agent/blob/main/docs/";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, "")
		.replace(/ /g, "-");
}

/** `desc`, then (when the docs say more) a link to the page's part of docs/settings.md. */
export function describedWithDocs(desc: string, page: string | null, about: string): DocumentFragment {
	const fragment = createFragment();
	fragment.createSpan({ cls: "vault-agent-settings-desc", text: desc });
	if (page !== null) {
		fragment.appendText(" ");
		fragment.createEl("a", { cls: "vault-agent-settings-docs", text: "More", href: `${DOCS_URL}settings.md#${headingAnchor(page)}`, attr: { "aria-label": `More about ${about} in the docs` } });
	}
	return fragment;
}
