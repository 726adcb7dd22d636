// Images pasted or dropped into the chat's input: each is kept in the
// plugin's folder under the chat's id (host/images.ts) and joins the
// attachment bar as a chip with its thumbnail; removing the chip, or
// starting a new chat before sending it, removes the file. Whether the
// model takes images is the core's to say when the message is sent.

import type { Component } from "obsidian";
import type { Attachment } from "../core/types";
import type { ChatImages } from "../host/images";
import type { AttachmentBar, ImageChips } from "./attachments";

/** The bar's view of the chat's images: thumbnails, and pasted files let go. */
export function imageChips(images: () => ChatImages | undefined): ImageChips {
	return {
		src: (a: Attachment) => images()?.src(a.path, a.pasted ?? false) ?? null,
		dropped: (a: Attachment) => void images()?.remove(a.path),
	};
}

export function acceptImages(options: {
	owner: Component;
	/** Where a paste or a drop lands. */
	target: HTMLElement;
	bar: AttachmentBar;
	images: () => ChatImages | undefined;
	chatId: () => string | null;
	/** Why an image was not taken, for the user. */
	say: (message: string) => void;
}): void {
	const take = async (files: File[]): Promise<void> => {
		const images = options.images();
		const chatId = options.chatId();
		if (!images || !chatId) return;
		for (const file of files) {
			const saved = await images.save(chatId, file);
			if ("error" in saved) options.say(saved.error.message);
			// A full message: the bar says so, and the file goes.
			else if (!options.bar.add({ path: saved.name, pasted: true })) void images.remove(saved.name);
		}
	};
	const imagesOf = (list: FileList | null | undefined): File[] => Array.from(list ?? []).filter((f) => f.type.startsWith("image/"));
	options.owner.registerDomEvent(options.target, "paste", (event: ClipboardEvent) => {
		const files = imagesOf(event.clipboardData?.files);
		if (files.length === 0) return;
		event.preventDefault();
		void take(files);
	});
	options.owner.registerDomEvent(options.target, "dragover", (event: DragEvent) => {
		if (Array.from(event.dataTransfer?.items ?? []).some((i) => i.kind === "file")) event.preventDefault();
	});
	options.owner.registerDomEvent(options.target, "drop", (event: DragEvent) => {
		const files = imagesOf(event.dataTransfer?.files);
		if (files.length === 0) return;
		event.preventDefault();
		void take(files);
	});
}
