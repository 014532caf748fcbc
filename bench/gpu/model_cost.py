#!/usr/bin/env python3
"""What recording costs a real model, measured inside one process: a Llama built
by transformers from a config (random weights, bf16; 12 layers by default),
1. eager, launch-bound: with --eager generate (default) Hugging Face `generate`, per-token
   time = (median generate(T) - median generate(1)) / (T - 1), alternating calls; with
   --eager forward the one-token forward (no cache) run eagerly F times, an argmax read
   back after each, per-token time = the median forward (steadier: no generate loop);
2. decode under a CUDA graph: one decode step (StaticCache, 1 token) captured
   with torch.cuda.graph and replayed R times, an argmax read back after each
   (one host sync per step, as a serving engine samples). CUDA events around
   every replay: step = replay start to next replay start, replay = its span;
   launch_us = host time inside graph.replay().
Prints one JSON line (tag, medians, the realtime-ns windows of both phases so a
run file's kernels can be counted per token and per replay).
--mode torch-profiler runs both phases inside torch.profiler (CPU + CUDA)."""
import argparse, json, statistics, sys, time

t_start = time.time()
import torch
from transformers import LlamaConfig, LlamaForCausalLM

p = argparse.ArgumentParser()
p.add_argument("--tag", default="")
p.add_argument("--layers", type=int, default=12)
p.add_argument("--tokens", type=int, default=33, help="new tokens per timed generate call")
p.add_argument("--calls", type=int, default=3, help="timed generate(T) and generate(1) calls each")
p.add_argument("--replays", type=int, default=1500)
p.add_argument("--eager", choices=["generate", "forward"], default="generate")
p.add_argument("--forwards", type=int, default=400, help="timed eager forwards (--eager forward)")
p.add_argument("--mode", choices=["plain", "torch-profiler"], default="plain")
p.add_argument("--graph", choices=["no-cache", "static-cache", "none"], default="no-cache",
               help="the replayed step: a one-token forward without a KV cache (default), or a decode "
                    "step on transformers' StaticCache (asserted in index_copy_ under transformers 5.17 "
                    "on the H200, 2026-12-02, whatever the position: a device assert cannot be caught)")
args = p.parse_args()
t_import = time.time()

torch.manual_seed(0)
config = LlamaConfig(hidden_size=1024, intermediate_size=2816, num_hidden_layers=args.layers,
                     num_attention_heads=16, num_key_value_heads=4, vocab_size=32000,
                     max_position_embeddings=2048)
with torch.device("cuda"):
    model = LlamaForCausalLM(config).to(torch.bfloat16).eval()
prompt = torch.randint(0, config.vocab_size, (1, 128), device="cuda")
t_build = time.time()


def generate(n):
    with torch.no_grad():
        return model.generate(prompt, max_new_tokens=n, min_new_tokens=n, do_sample=False, pad_token_id=0)


def eager_phase():
    generate(args.tokens)
    generate(1)
    torch.cuda.synchronize()
    full, one = [], []
    w0 = time.time_ns()
    for _ in range(args.calls):
        for n, into in ((args.tokens, full), (1, one)):
            t = time.perf_counter()
            generate(n)
            torch.cuda.synchronize()
            into.append((time.perf_counter() - t) * 1e3)
    w1 = time.time_ns()
    token_ms = (statistics.median(full) - statistics.median(one)) / (args.tokens - 1)
    return {"eager_token_ms": round(token_ms, 4), "generate_ms": [round(x, 2) for x in full],
            "eager_window_ns": [w0, w1], "eager_tokens": args.calls * (args.tokens + 1)}


def eager_forward_phase():
    ids = prompt[:, -1:].clone()
    times = []
    with torch.no_grad():
        for _ in range(20):
            model(input_ids=ids, use_cache=False).logits[0, -1].argmax().item()
        w0 = time.time_ns()
        for _ in range(args.forwards):
            t = time.perf_counter()
            model(input_ids=ids, use_cache=False).logits[0, -1].argmax().item()
            times.append((time.perf_counter() - t) * 1e3)
        w1 = time.time_ns()
    return {"eager_token_ms": round(statistics.median(times), 4), "eager_kind": "one-token forward, eager",
            "eager_window_ns": [w0, w1], "eager_tokens": args.forwards}


def capture_decode():
    from transformers import StaticCache
    try:
        cache = StaticCache(config=model.config, max_cache_len=256)
    except TypeError:
        cache = StaticCache(config=model.config, max_batch_size=1, max_cache_len=256, device="cuda",
                            dtype=torch.bfloat16)
    with torch.no_grad():
        model(input_ids=prompt, past_key_values=cache, cache_position=torch.arange(128, device="cuda"),
              use_cache=True)
    ids = prompt[:, -1:].clone()
    # The last prompt slot, rewritten by every replay: inside the cache whatever length this
    # transformers gives it (5.17 on the H200 sized it to the prefill: position 128 asserted).
    pos = torch.tensor([127], device="cuda")

    def step():
        with torch.no_grad():
            return model(input_ids=ids, past_key_values=cache, cache_position=pos, use_cache=True).logits

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        logits = step()
    torch.cuda.synchronize()
    return graph, logits


def graph_phase(graph, logits):
    r = args.replays
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(r + 1)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(r)]
    launch = []
    for _ in range(20):
        graph.replay()
        logits[0, -1].argmax().item()
    w0 = time.time_ns()
    for i in range(r):
        starts[i].record()
        t = time.perf_counter_ns()
        graph.replay()
        launch.append((time.perf_counter_ns() - t) / 1e3)
        ends[i].record()
        logits[0, -1].argmax().item()
    starts[r].record()
    torch.cuda.synchronize()
    w1 = time.time_ns()
    step = [starts[i].elapsed_time(starts[i + 1]) for i in range(r)]
    span = [starts[i].elapsed_time(ends[i]) for i in range(r)]
    return {"graph_step_ms": round(statistics.median(step), 4), "graph_replay_ms": round(statistics.median(span), 4),
            "graph_launch_us": round(statistics.median(launch), 2), "graph_window_ns": [w0, w1], "replays": r}


def capture_no_cache():
    """The fallback where this transformers cannot capture a StaticCache step: the same
    forward of one token without a cache (no attention history; kernels alike otherwise)."""
    ids = prompt[:, -1:].clone()
    with torch.no_grad():
        for _ in range(3):
            model(input_ids=ids, use_cache=False)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            logits = model(input_ids=ids, use_cache=False).logits
    torch.cuda.synchronize()
    return graph, logits


def both():
    out = eager_forward_phase() if args.eager == "forward" else eager_phase()
    print(json.dumps({"tag": args.tag, "phase": "eager", **out}), file=sys.stderr, flush=True)
    if args.graph == "none":
        return out
    if args.graph == "static-cache":
        graph, logits = capture_decode()
        out["graph_kind"] = "static-cache decode"
    else:
        graph, logits = capture_no_cache()
        out["graph_kind"] = "one-token forward without a cache"
    out.update(graph_phase(graph, logits))
    return out


if args.mode == "torch-profiler":
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]):
        result = both()
else:
    result = both()
result.update({"tag": args.tag, "mode": args.mode, "layers": args.layers,
               "import_s": round(t_import - t_start, 2), "build_s": round(t_build - t_import, 2),
               "total_s": round(time.time() - t_start, 2)})
print(json.dumps(result), flush=True)
