// esbuild inlines .wasm files as bytes (loader "binary").
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}

// The core's module, Brotli-compressed at build time.
declare module "*.wasm.br" {
	const bytes: Uint8Array<ArrayBuffer>;
	export default bytes;
}
