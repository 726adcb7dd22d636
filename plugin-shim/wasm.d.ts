// esbuild inlines .wasm files as bytes (loader "binary").
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}

// The core's module, gzip-compressed at build time.
declare module "*.wasm.gz" {
	const bytes: Uint8Array<ArrayBuffer>;
	export default bytes;
}
