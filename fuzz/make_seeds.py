#!/usr/bin/env python3
"""Writes the committed seed corpora (fuzz/corpus/<target>/) from the test
fixtures: a few dozen events cut from each trace (small seeds mutate faster than
whole traces), plus hand-written SSE streams and HTTP responses. Run it again
after the fixtures change; the run-file seed is written by fuzz_make_run_file
when scripts/fuzz.sh runs."""
import gzip
import json
import pathlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent
DATA = ROOT.parent / "tests" / "data"
CORPUS = ROOT / "corpus"

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}


def sample(trace, gpu_limit=6):
    events = trace["traceEvents"]
    annotations = [e for e in events if e.get("cat") == "user_annotation"][:2]
    if annotations:
        lo = annotations[0]["ts"]
        hi = annotations[-1]["ts"] + annotations[-1].get("dur", 0)
        gpu = [e for e in events if e.get("cat") in GPU_CATS and lo <= e["ts"] <= hi + 1e5][:gpu_limit]
    else:
        gpu = [e for e in events if e.get("cat") in GPU_CATS][:gpu_limit]
    gpu += [e for e in events if e.get("cat") in ("gpu_memcpy", "gpu_memset")][:2]
    correlations = {e["args"]["correlation"] for e in gpu if "correlation" in e.get("args", {})}
    keep = []
    for e in events:
        cat = e.get("cat")
        if e.get("ph") == "M" and len([k for k in keep if k.get("ph") == "M"]) < 2:
            keep.append(e)
        elif e in gpu or e in annotations:
            keep.append(e)
        elif cat in ("cuda_runtime", "cuda_driver") and e.get("args", {}).get("correlation") in correlations:
            keep.append(e)
        elif cat == "ac2g" and e.get("id") in correlations:
            keep.append(e)
        elif cat == "gpu_user_annotation" and len([k for k in keep if k.get("cat") == cat]) < 2:
            keep.append(e)
        elif cat == "cpu_op" and len([k for k in keep if k.get("cat") == cat]) < 2:
            keep.append(e)
    out = {k: v for k, v in trace.items() if k != "traceEvents"}
    out["traceEvents"] = keep
    return out


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data)


def kineto_seeds():
    # First byte: the wrapping (support/compress.h): '0' plain, '2' gzip, '3' xz.
    wrappings = "0023"
    for i, path in enumerate(sorted(DATA.glob("*.json.gz"))):
        # Bytes that are not UTF-8 (hostile_fields.json.gz has them on purpose) become U+FFFD here.
        trace = sample(json.loads(gzip.open(path).read().decode("utf-8", "replace")))
        stem = path.name.removesuffix(".json.gz")
        text = json.dumps(trace, indent=1 if i % 2 else None).encode()
        write("kineto_json", stem, wrappings[i % 4].encode() + text)
        # kineto_window: a few events after the fixed prefix's first kernel,
        # and the rest of the document (small: the steering byte then gets
        # its share of the mutations); byte 1, even, puts the window's end
        # that far in, the file going on after it.
        few = [e for e in trace["traceEvents"] if e.get("ph") == "X"][:4]
        tail = json.dumps(few)[1:-1].encode() + b'],"traceName":"' + stem.encode() + b'"}'
        write("kineto_window", stem, wrappings[i % 4].encode() + bytes([(38 * i + 20) % 256]) + tail)
        # json_cursor: a small document; bytes 0 and 1 pick the window and
        # read sizes.
        doc = {k: v for k, v in trace.items() if k != "traceEvents"}
        doc["traceEvents"] = few
        write("json_cursor", stem, bytes([5 + 7 * i, 3 + i]) + json.dumps(doc).encode())
        # ... and the same cut where the window ends (s odd), just before a
        # time: a mutation that erases bytes before the cut puts the end of
        # the file inside that number.
        cut = max(s for s in range(1, 256, 2) if tail[:s].endswith((b'"ts": ', b'"dur": ', b'"ts":', b'"dur":')))
        write("kineto_window", stem + "_cut", wrappings[i % 4].encode() + bytes([cut]) + tail)


def rocprofv3_seeds():
    # First byte: the wrapping; the rest follows the target's fixed '{"rocprofiler-sdk-tool":'.
    for path in sorted((DATA / "rocprofv3").glob("*.json")):
        processes = json.loads(path.read_text())["rocprofiler-sdk-tool"]
        for j, (wrapping, indent) in enumerate((("0", None), ("2", 1))):
            text = json.dumps(processes, indent=indent) + "}"
            write("rocprofv3_json", f"{path.stem}_{j}", wrapping.encode() + text.encode())


SSE = {
    "completions": (0, b'data: {"id":"cmpl-1","choices":[{"index":0,"text":"Hi","finish_reason":null}]}\n\n'
                       b'data: {"id":"cmpl-1","choices":[{"index":0,"text":"","finish_reason":"length"}],'
                       b'"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}}\n\n'
                       b'data: [DONE]\n\n'),
    "chat": (1, b': keep-alive\r\n\r\nevent: message\r\ndata: {"id":"c1","choices":[{"delta":{"role":"assistant",'
                b'"content":"Hel"}}]}\r\n\r\ndata: {"choices":[{"delta":{"reasoning_content":"lo"},'
                b'"finish_reason":"stop"}]}\r\r'
                b'data: {"error":{"message":"overloaded","code":503}}\n\ndata: [DONE]\n\n'),
    "generate": (2, b'data: {"text":"a","meta_info":{"prompt_tokens":5,"completion_tokens":1}}\n\n'
                    b'data: {"text":"ab","meta_info":{"prompt_tokens":5,"completion_tokens":2,'
                    b'"finish_reason":{"type":"length"}}}\n\ndata:\ndata: [DONE]\n\n'),
}

HTTP = {
    "chunked_sse": b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"2c\r\ndata: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n\r\n"
                   b"e;ext=1\r\ndata: [DONE]\n\n\r\n0\r\nX-Trailer: 1\r\n\r\n",
    "content_length": b"HTTP/1.1 200 OK\r\ncontent-length: 27\r\ncontent-type: application/json\r\n\r\n"
                      b"{\"object\":\"list\",\"data\":[]}",
    "close_delimited": b"HTTP/1.1 503 Service Unavailable\nServer: x\n\ndata: overloaded\n\n",
    "interim": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
    "bad_chunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
}


HTTP_REQUESTS = {
    "prometheus": b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9401\r\nUser-Agent: Prometheus/2.42.0\r\n"
                  b"Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
                  b"q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\nAccept-Encoding: gzip\r\n"
                  b"X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n",
    "curl_query": b"GET /healthz?verbose=1 HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
    "head_pipelined": b"HEAD / HTTP/1.0\r\naccept:text/plain\r\n\r\nGET /metrics HTTP/1.1\r\n\r\n",
    "post_body": b"POST /metrics HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
    "half_open": b"GET /metrics HTTP/1.1\r\n",
    "bare_lf": b"GET /metrics HTTP/1.1\nAccept: x\n\n",
}


_POD = b"\x0a\x20\x0a\x03pod\x12\x02ns\x1a\x15\x0a\x01c\x12\x10\x0a\x0envidia.com/gpu"
_GRPC_BODY = b"\x00" + struct.pack(">I", len(_POD)) + _POD


def stream_seeds():
    for name, (api, body) in SSE.items():
        write("sse", name, bytes([api, 7]) + body)
    for name, response in HTTP.items():
        # Byte 0 'x': default caps (bits 0 and 1 clear); byte 1: the piece size.
        write("http_response", name, b"x\x05" + response)
    for name, request in HTTP_REQUESTS.items():
        # Byte 0 'x' (bit 0 clear): the server's 16 KiB head cap; byte 1: the piece size.
        write("http_request", name, b"x\x05" + request)
    # A kubelet's response body (nghttp2 reads the HTTP/2 around it): one gRPC message, a
    # ListPodResourcesResponse.
    write("grpc_response", "pod_resources", _GRPC_BODY)


if __name__ == "__main__":
    kineto_seeds()
    rocprofv3_seeds()
    stream_seeds()
