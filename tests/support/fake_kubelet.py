#!/usr/bin/env python3
"""A fake kubelet pod-resources API for the exporter's tests: a gRPC server on a
unix socket that answers /v1.PodResourcesLister/List with hand-encoded protobuf
(python3-grpcio's generic handlers; no protoc).

  fake_kubelet.py --socket PATH [--mode ok|error|hang] [--gpu UUID=POD/NAMESPACE/CONTAINER ...]

ok: the pods given (each on resource nvidia.com/gpu), plus a pod holding a
non-GPU resource and fields the client must skip; error: PERMISSION_DENIED;
hang: never answers (each call it holds appends a line to SOCKET.calls)."""
import argparse
import time
from concurrent import futures

import grpc


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def pod(name, namespace, container, resource, device_ids):
    devices = field(1, resource) + b"".join(field(2, d) for d in device_ids)
    devices += field(3, field(1, varint(0x08) + varint(0)))  # TopologyInfo{nodes: [{ID: 0}]}
    c = field(1, container) + field(2, devices) + varint(3 << 3 | 0) + varint(7)  # cpu_ids = 7 (skipped)
    return field(1, name) + field(2, namespace) + field(3, c) + varint(9 << 3 | 5) + b"\0\0\0\0"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--socket", required=True)
    ap.add_argument("--mode", default="ok", choices=["ok", "error", "hang"])
    ap.add_argument("--gpu", action="append", default=[])
    args = ap.parse_args()

    response = b""
    for g in args.gpu:
        uuid, owner = g.split("=", 1)
        name, namespace, container = owner.split("/")
        response += field(1, pod(name, namespace, container, "nvidia.com/gpu", [uuid]))
    response += field(1, pod("cpu-only", "default", "app", "example.com/foo", ["GPU-not-a-gpu-resource"]))

    def list_pods(request, context):
        if args.mode == "error":
            context.abort(grpc.StatusCode.PERMISSION_DENIED, "no access for you")
        if args.mode == "hang":
            with open(args.socket + ".calls", "a") as calls:
                calls.write("List\n")
            time.sleep(3600)
        return response

    handler = grpc.method_handlers_generic_handler(
        "v1.PodResourcesLister",
        {"List": grpc.unary_unary_rpc_method_handler(list_pods, request_deserializer=None, response_serializer=None)},
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    server.add_insecure_port("unix:" + args.socket)
    server.start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
