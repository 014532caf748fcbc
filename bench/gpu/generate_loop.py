#!/usr/bin/env python3
"""A small Llama (from a config, random weights) decoding with Hugging Face
`generate`, eagerly, CALLS times in one process: the steps are the decode
iterations (CALLS x (TOKENS - 1)), each call's prefill apart.

Usage: generate_loop.py truth|trace OUT [CALLS] [TOKENS]
  truth -> prints JSON: the CUDA-event time of one decode iteration, from
           generate(TOKENS) minus generate(1) (prefill only), no profiler
  trace -> writes a torch.profiler trace (record_shapes=True) of CALLS calls"""
import json
import sys

import torch
from transformers import LlamaConfig, LlamaForCausalLM

mode, out = sys.argv[1], sys.argv[2]
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 4
tokens = int(sys.argv[4]) if len(sys.argv) > 4 else 32
torch.manual_seed(0)
config = LlamaConfig(hidden_size=1024, intermediate_size=2816, num_hidden_layers=4,
                     num_attention_heads=16, num_key_value_heads=4, vocab_size=32000,
                     max_position_embeddings=2048)
model = LlamaForCausalLM(config).to("cuda", torch.bfloat16).eval()
prompt = torch.randint(0, config.vocab_size, (1, 128), device="cuda")


def generate(n):
    with torch.no_grad():
        return model.generate(prompt, max_new_tokens=n, min_new_tokens=n, do_sample=False,
                              pad_token_id=0)


def event_ms(n, reps=5):
    generate(n)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        generate(n)
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / reps


if mode == "truth":
    full, prefill = event_ms(tokens), event_ms(1)
    print(json.dumps({"calls": calls, "new_tokens": tokens, "decode_steps": calls * (tokens - 1),
                      "generate_ms": round(full, 3), "prefill_only_ms": round(prefill, 3),
                      "decode_step_ms": round((full - prefill) / (tokens - 1), 4)}))
else:
    generate(tokens)
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
        for _ in range(calls):
            generate(tokens)
        torch.cuda.synchronize()
    prof.export_chrome_trace(out)
