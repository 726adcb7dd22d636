"""The official MCP Python SDK client against the plugin's MCP server.

Run by scripts/mcp-conformance.mjs with the server's URL and token. For each
way of connecting (the SDK's default, which probes server/discover and speaks
2026-07-28 when the server offers it, and the initialize handshake of the
older revisions) it lists the tools, calls a read, lists and reads a
resource, and prints one JSON line per way: the revision it used and what it
saw, or the error.
"""

import asyncio
import json
import sys

import httpx2
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation


async def run(url: str, token: str, mode: str) -> dict:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
    transport = streamable_http_client(url, http_client=http)
    async with Client(transport, mode=mode, client_info=Implementation(name="python-sdk", version="conformance")) as client:
        tools = await client.list_tools()
        read = await client.call_tool("obsidianNotes", {"command": "read", "file": "Welcome"})
        resources = await client.list_resources()
        first = resources.resources[0].uri
        note = await client.read_resource(first)
        return {
            "mode": mode,
            "revision": client.protocol_version,
            "server": client.server_info.name if client.server_info else None,
            "tools": len(tools.tools),
            "readIsError": read.is_error,
            "readStarts": read.content[0].text[:40],
            "resources": len(resources.resources),
            "readResource": str(first),
            "resourceChars": len(note.contents[0].text),
        }


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    for mode in ("auto", "legacy"):
        try:
            print(json.dumps(await run(url, token, mode)), flush=True)
        except Exception as error:  # the report names what failed, the script goes on
            while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                error = error.exceptions[0]
            print(json.dumps({"mode": mode, "error": f"{type(error).__name__}: {error}"}), flush=True)


asyncio.run(main())
