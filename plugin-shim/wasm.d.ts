// esbuild inlines .wasm files as bytes (loader "binary").
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}
