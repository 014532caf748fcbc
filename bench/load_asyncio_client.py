#!/usr/bin/env python3
"""A simple Python asyncio streaming client (stdlib only), the yardstick for
bench/load_client_throughput.sh: closed loop at CONCURRENCY, REQUESTS requests
of MAX_TOKENS tokens to /v1/completions, one connection per request, chunked
transfer-encoding decoded, every SSE event parsed with json.loads and
timestamped with time.perf_counter() like SGLang's and vLLM's bench clients do.

usage: load_asyncio_client.py HOST PORT CONCURRENCY REQUESTS MAX_TOKENS
prints: chunks=N seconds=S chunks_per_s=R cpu_s=C
"""
import asyncio
import json
import sys
import time


async def one_request(host, port, max_tokens, stats):
    reader, writer = await asyncio.open_connection(host, port)
    body = json.dumps({"model": "test-model", "prompt": "hello " * 16, "max_tokens": max_tokens,
                       "stream": True, "stream_options": {"include_usage": True}, "ignore_eos": True}).encode()
    writer.write(b"POST /v1/completions HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                 b"Accept: text/event-stream\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
                 % (host.encode(), port, len(body)) + body)
    await writer.drain()
    start = time.perf_counter()
    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
        pass  # response headers
    buffer = b""
    last = None
    while True:
        size_line = await reader.readline()
        if not size_line:
            break
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        buffer += await reader.readexactly(size + 2)
        buffer = buffer[:-2] if buffer.endswith(b"\r\n") else buffer
        now = time.perf_counter()
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            for line in event.split(b"\n"):
                if not line.startswith(b"data:"):
                    continue
                data = line[5:].strip()
                if data == b"[DONE]":
                    continue
                chunk = json.loads(data)
                if chunk.get("choices") and chunk["choices"][0].get("text"):
                    stats["chunks"] += 1
                    if last is not None:
                        stats["itl"].append(now - last)
                    else:
                        stats["ttft"].append(now - start)
                    last = now
    writer.close()


async def main():
    host, port, concurrency, requests, max_tokens = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4]), int(sys.argv[5])
    stats = {"chunks": 0, "itl": [], "ttft": []}
    remaining = [requests]

    async def worker():
        while remaining[0] > 0:
            remaining[0] -= 1
            await one_request(host, port, max_tokens, stats)

    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    print("chunks=%d seconds=%.3f chunks_per_s=%.0f cpu_s=%.2f" % (stats["chunks"], seconds, stats["chunks"] / seconds,
                                                                   cpu))


if __name__ == "__main__":
    asyncio.run(main())
