#!/usr/bin/env python3
"""A chunked-prefill step: 64 sequences x 512 new tokens (32768 tokens), two attention
layers (hidden 1024, 8 heads of 128), RMSNorm and rotary embeddings written as
transformers writes them.
bug:   RMSNorm (to fp32, pow, mean, add, rsqrt, mul, to bf16, mul) and rotate_half
       rotary (slice, neg, cat, mul, mul, add) run as chains of elementwise kernels,
       each reading and writing the whole 32768 x 1024 activation
fixed: the same two functions wrapped in torch.compile: each becomes one fused kernel
       (falls back to a hand-fused formulation if torch.compile fails: see fix_used)"""
import torch
import torch.nn.functional as F

from zoo_harness import main

LAYERS, SEQS, SEQ, HEADS, HDIM = 2, 64, 512, 8, 128
HIDDEN = HEADS * HDIM


def rms_norm(x, weight, eps=1e-6):
    h = x.to(torch.float32)
    var = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(var + eps)
    return weight * h.to(x.dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(q, k, cos, sin):
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def rms_norm_hand(x, weight, eps=1e-6):
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


def apply_rope_hand(q, k, cos, sin):
    return torch.addcmul(q * cos, rotate_half(q), sin), torch.addcmul(k * cos, rotate_half(k), sin)


def build(variant):
    dev, dt = "cuda", torch.bfloat16
    L = [dict(norm=torch.ones(HIDDEN, device=dev, dtype=dt),
              qkv=torch.randn(HIDDEN, 3 * HIDDEN, device=dev, dtype=dt) * 0.02,
              o=torch.randn(HIDDEN, HIDDEN, device=dev, dtype=dt) * 0.02) for _ in range(LAYERS)]
    x0 = torch.randn(SEQS, SEQ, HIDDEN, device=dev, dtype=dt)
    inv = 1.0 / (10000 ** (torch.arange(0, HDIM, 2, device=dev, dtype=torch.float32) / HDIM))
    ang = torch.arange(SEQ, device=dev, dtype=torch.float32)[:, None] * inv[None, :]
    cos = torch.cat([ang.cos(), ang.cos()], -1).to(dt)[None, None]  # [1, 1, SEQ, HDIM]
    sin = torch.cat([ang.sin(), ang.sin()], -1).to(dt)[None, None]
    norm_fn, rope_fn, used = rms_norm, apply_rope, "none (bug)"
    if variant == "fixed":
        try:
            norm_fn, rope_fn = torch.compile(rms_norm), torch.compile(apply_rope)
            with torch.inference_mode():
                t = torch.randn(SEQS, SEQ, 3, HEADS, HDIM, device=dev, dtype=dt)[:, :, 0].transpose(1, 2)
                norm_fn(x0, L[0]["norm"])  # compile now, with the layouts the step uses
                rope_fn(t, t, cos, sin)
            used = "torch.compile"
        except Exception as e:  # no working inductor/triton on this host
            print(f"torch.compile failed ({type(e).__name__}: {e}); hand-fused fallback", flush=True)
            norm_fn, rope_fn, used = rms_norm_hand, apply_rope_hand, "hand-fused"

    @torch.inference_mode()
    def step():
        x = x0
        for w in L:
            h = norm_fn(x, w["norm"])
            q, k, v = (h @ w["qkv"]).view(SEQS, SEQ, 3, HEADS, HDIM).unbind(2)
            q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            q, k = rope_fn(q, k, cos, sin)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + o.transpose(1, 2).reshape(SEQS, SEQ, HIDDEN) @ w["o"]
        return x

    step.info = {"fix_used": used}
    return step


if __name__ == "__main__":
    main(build, doc=__doc__)
