// The kernel taxonomy's data: ordered rows (first match wins) and the name
// tokens that fill in precision and tensor-core use where a row leaves them
// open. docs/kernel-taxonomy.md describes the rules; every row has a test
// with a real kernel name in tests/analysis/kernel_taxonomy_test.cpp.
#include "analysis/kernel_taxonomy_table.h"

namespace cuprobe::taxonomy {
namespace {

using C = Category;
using P = Precision;
constexpr Tc kYes = Tc::kYes;
constexpr Tc kNo = Tc::kNo;
constexpr Tc kOpen = Tc::kOpen;
constexpr RowPrecision fixed(Precision p) { return {RowPrecision::kFixed, p}; }
constexpr RowPrecision kUnknown{RowPrecision::kUnknown, P::kFp32};

// Patterns match case-insensitively. "a&b": both substrings appear. "^a": the
// name starts with a (after a leading "void ", which demangled names carry).
constexpr Row kRows[] = {
    // Activity names that Kineto gives memcpy/memset records (callers normally use the kind).
    {"^Memcpy ", C::kMemcpy, kNo, kUnknown},
    {"^Memset ", C::kMemset, kNo, kUnknown},
    // ROCm's blit kernels: the device side of hipMemcpy*/hipMemset*.
    {"^__amd_rocclr_fill", C::kMemset, kNo, kUnknown},
    {"^__amd_rocclr_", C::kMemcpy, kNo, kUnknown},

    // Inductor (torch.compile) Triton kernels, by prefix: their fused names repeat the names
    // of the operators they fused ("..._all_reduce_0", "..._index_select_..."), which the
    // later rows would take at face value.
    {"^triton_tem_", C::kGemm, kYes},      // template GEMMs (tl.dot)
    {"^triton_&rsqrt", C::kNorm, kNo},     // RMSNorm: mean, pow, rsqrt
    {"^triton_&rms_norm", C::kNorm, kNo},  // fused custom RMSNorm op
    {"^triton_&layer_norm", C::kNorm, kNo},
    {"^triton_&batch_norm", C::kNorm, kNo},  // native_batch_norm_legit
    {"^triton_poi_", C::kElementwise, kNo},  // pointwise
    {"^triton_red_", C::kReduction, kNo},    // reduction
    {"^triton_per_", C::kReduction, kNo},    // persistent reduction
    {"^triton_for_", C::kElementwise, kNo},  // foreach (horizontally fused pointwise)

    // Communication: NCCL/RCCL, custom all-reduce, expert-parallel dispatch/combine.
    // Before norms and reductions: fused all-reduce kernels name both.
    {"^nccl", C::kCommunication, kNo},
    {"allreduce", C::kCommunication, kNo},
    {"all_reduce", C::kCommunication, kNo},
    {"cross_device_reduce", C::kCommunication, kNo},
    {"userbuffers", C::kCommunication, kNo},
    {"deep_ep::", C::kCommunication, kNo},
    {"alltoall", C::kCommunication, kNo},
    {"all_to_all", C::kCommunication, kNo},
    {"moeA2A", C::kCommunication, kNo},
    {"^msccl", C::kCommunication, kNo},  // MSCCL (RCCL's mscclKernel_*), MSCCL++

    // Sampling (before reductions: argmax is a reduce_kernel).
    {"SamplingFromProb", C::kSampling, kNo},
    {"RenormProb", C::kSampling, kNo},
    {"TopKMaskLogits", C::kSampling, kNo},
    {"distribution_elementwise", C::kSampling, kNo},
    {"multinomial", C::kSampling, kNo},
    {"argmax", C::kSampling, kNo},
    {"renormRows", C::kSampling, kNo},  // torch.multinomial's row normalisation

    // Attention (before GEMM: FlashAttention-3 and FMHA names are CUTLASS templates).
    {"flash_fwd&combine", C::kAttention, kNo},
    {"FlashAttnFwdCombine", C::kAttention, kNo},
    {"flash_fwd", C::kAttention, kYes},
    {"flash_bwd", C::kAttention, kYes},
    {"FlashAttn", C::kAttention, kYes},
    {"FlashAttention", C::kAttention, kYes},
    {"flash_attn", C::kAttention, kOpen},  // llama.cpp flash_attn_ext_*, its stream-k fixup and combine kernels
    {"prepare_varlen_num_blocks", C::kAttention, kNo},  // FlashAttention-3 scheduler metadata
    {"fmhaReduction", C::kAttention, kNo},
    {"fmhaSm100", C::kAttention, kYes},
    {"aiter&fmha", C::kAttention, kYes},  // aiter's assembly FMHA (MFMA)
    {"fmha", C::kAttention, kOpen},
    // cuDNN names say "f16" for bf16 inputs too: precision is not read from them.
    {"sdpa", C::kAttention, kOpen, kUnknown},
    {"PrefillWith", C::kAttention, kYes},
    {"DecodeWith", C::kAttention, kNo},  // FlashInfer's decode kernels run on CUDA cores
    {"MergeState", C::kAttention, kNo},
    {"merge_attn_states", C::kAttention, kNo},
    {"BatchMLAPagedAttention", C::kAttention, kYes},
    {"get_mla_metadata", C::kAttention, kNo},
    // vLLM's ROCm paged attention (paged_attention_ll4mi_QKV_mfma16_kernel) runs on MFMA.
    {"paged_attention&mfma", C::kAttention, kYes, kUnknown},
    // vLLM's paged attention: CUDA cores; its fp8 token names an enum type, not the data.
    {"paged_attention", C::kAttention, kNo, kUnknown},
    {"unified_attention", C::kAttention, kOpen},
    {"mqa_logits", C::kAttention, kOpen},        // DeepSeek sparse-attention indexer
    {"gated_delta_rule", C::kAttention, kOpen},  // linear attention (Qwen3-Next, Kimi)
    {"gdn_", C::kAttention, kOpen},              // gated DeltaNet: fused_gdn_gating, gdn_* kernels
    {"paged_prefill", C::kAttention, kOpen},     // Triton paged attention (nano-vLLM _paged_prefill_kernel)
    {"attention", C::kAttention, kOpen},
    {"^_fwd_kernel", C::kAttention, kOpen},          // SGLang/vLLM/LightLLM Triton attention
    {"^_fwd_grouped_kernel", C::kAttention, kOpen},  // Triton decode attention, grouped heads
    {"^_decode_", C::kAttention, kOpen},             // Triton decode-attention variants
    {"^attn_fwd", C::kAttention, kOpen},             // ROCm Triton flash attention
    {"^_attn_fwd", C::kAttention, kOpen},
    {"^_attn_bwd", C::kAttention, kOpen},       // Triton fused-attention backward (_attn_bwd_dq, ...)
    {"^bwd_kernel_d", C::kAttention, kOpen},    // AOTriton (PyTorch SDPA on ROCm): bwd_kernel_dq, bwd_kernel_dk_dv
    {"^bwd_preprocess", C::kAttention, kOpen},  // AOTriton's backward preprocessing (delta = rowsum(dO * O))
    {"^mla_", C::kAttention, kYes},             // aiter's assembly MLA decode (MFMA)

    // Norms (before MoE and elementwise).
    {"rms_norm", C::kNorm, kNo},
    {"rmsnorm", C::kNorm, kNo},
    {"^rms_", C::kNorm, kNo},   // two-pass RMSNorm kernels (rms_part, rms_finish)
    {"^norm_", C::kNorm, kNo},  // llama.cpp norm_f32, norm_gated_*
    {"layer_norm", C::kNorm, kNo},
    {"layernorm", C::kNorm, kNo},
    {"RowwiseMoments", C::kNorm, kNo},
    {"batch_norm", C::kNorm, kNo},  // ATen: batch_norm_collect_statistics_kernel, ...
    {"batchnorm", C::kNorm, kNo},   // MIOpenBatchNormFwdTrainSpatial, ...
    {"bn_fw_", C::kNorm, kNo},      // cuDNN batch norm
    {"bn_bw_", C::kNorm, kNo},
    {"group_norm", C::kNorm, kNo},
    {"GammaBeta", C::kNorm, kNo},                 // LayerNorm backward (ATen, apex)
    {"FusedParamsCUDAKernel", C::kNorm, kNo},     // GroupNorm (ATen): ComputeFusedParams, ComputeBackwardFusedParams
    {"ComputeInternalGradients", C::kNorm, kNo},  // GroupNorm backward

    // Convolution: cuDNN, MIOpen, CUTLASS and ATen (before GEMM: implicit-GEMM convolutions
    // name gemm, xmma and cutlass).
    {"nchwToNhwc", C::kCopyCast, kNo},  // cuDNN layout transposes around convolutions
    {"nhwcToNchw", C::kCopyCast, kNo},
    {"convol", C::kConv, kOpen},  // convolve_sgemm, ImplicitGemmConvolution, ...
    {"implicit_gemm&ffma", C::kConv, kNo, fixed(P::kFp32)},
    {"xmma_&implicit_gemm", C::kConv, kYes},  // sm80_xmma_fprop_implicit_gemm_...
    {"implicit_gemm", C::kConv, kOpen},
    {"cutlass&fprop", C::kConv, kOpen},
    {"cutlass&dgrad", C::kConv, kOpen},
    {"cutlass&wgrad", C::kConv, kOpen},
    {"dgrad_engine", C::kConv, kNo},  // cuDNN legacy backward-data
    {"dgrad2d", C::kConv, kNo},
    {"wgrad_alg", C::kConv, kNo},  // cuDNN legacy backward-filter
    {"winograd", C::kConv, kOpen},
    {"scudnn", C::kConv, kNo, fixed(P::kFp32)},  // cuDNN SIMT fp32 kernels
    {"cudnn", C::kConv, kOpen},                  // other cuDNN kernels (attention and norms matched above)
    {"MIOpenConv", C::kConv, kOpen},
    {"miopenSp3AsmConv", C::kConv, kOpen},
    {"igemm_fwd_gtc", C::kConv, kOpen},  // MIOpen implicit-GEMM assembly convolutions
    {"igemm_bwd_gtc", C::kConv, kOpen},
    {"igemm_wrw_gtc", C::kConv, kOpen},
    {"naive_conv_", C::kConv, kNo},
    {"grouped_conv", C::kConv, kOpen},  // Composable Kernel
    {"conv_depthwise", C::kConv, kNo},  // ATen depthwise 2-D/3-D
    {"conv1d", C::kConv, kNo},          // depthwise causal conv1d (Mamba)
    {"im2col", C::kConv, kNo},
    {"col2im", C::kConv, kNo},

    // Mixture of experts: routing, alignment, permutation and fused expert GEMMs.
    {"fused_moe_kernel", C::kMoe, kYes},  // Triton fused MoE GEMM (tl.dot)
    {"marlin_moe", C::kMoe, kYes},
    {"moe_align_block_size", C::kMoe, kNo},
    {"count_and_sort_expert_tokens", C::kMoe, kNo},
    {"topkGating", C::kMoe, kNo},
    {"topk_gating", C::kMoe, kNo},
    {"expandInputRows", C::kMoe, kNo},
    {"aiter&fmoe", C::kMoe, kYes},  // aiter's assembly fused MoE (MFMA)
    {"moe", C::kMoe, kOpen},

    // Embeddings: ATen, FBGEMM. Before GEMM ("fbgemm_gpu" names gemm); after "rotary"
    // (rotary_embedding_kernel is elementwise).
    {"rotary", C::kElementwise, kNo},
    {"^rope_", C::kElementwise, kNo},   // llama.cpp rope_norm, rope_neox, rope_multi
    {"embedding", C::kEmbedding, kNo},  // embedding_backward_feature_kernel, split_embedding_codegen_*
    // ATen's embedding backward (EmbeddingBackwardKernel.cu): segments of equal indices.
    {"partials_per_segment", C::kEmbedding, kNo},
    {"partial_segment", C::kEmbedding, kNo},  // krn_partial_segment_offset, compute_num_of_partial_segments
    {"compute_grad_weight", C::kEmbedding, kNo},
    {"sum_and_scatter", C::kEmbedding, kNo},
    {"fbgemm&cutlass", C::kGemm, kOpen},  // FBGEMM's fp8/bf16 GEMMs (f8f8bf16_rowwise, ...)
    {"fbgemm&quantize", C::kCopyCast, kNo},
    {"fbgemm", C::kEmbedding, kNo},  // FBGEMM's other kernels prepare embedding lookups

    // GEMM. cuBLAS's nvjet names carry the types after the prefix: q = fp8, o = fp4,
    // t = bf16, h = fp16, s = fp32 (A B C-compute-D, or C-compute-D when A, B = C).
    {"^nvjet_&_qq", C::kGemm, kYes, fixed(P::kFp8)},
    {"^nvjet_&_oo", C::kGemm, kYes, fixed(P::kFp4)},
    {"^nvjet_&_tst_", C::kGemm, kYes, fixed(P::kBf16)},
    {"^nvjet_&_hsh_", C::kGemm, kYes, fixed(P::kFp16)},
    {"^nvjet_", C::kGemm, kYes},
    {"xmma_&ffma", C::kGemm, kNo, fixed(P::kFp32)},
    {"xmma_", C::kGemm, kYes},
    {"gemmk1", C::kGemm, kNo},  // before "_sgemm": its arguments name cublasGemmk1Params
    // llama.cpp (ggml) matrix multiplies: mul_mat_q (quantized), mul_mat_vec(_q), mul_mat_f; their
    // float arguments say nothing of the weights' type.
    {"mul_mat_", C::kGemm, kOpen, kUnknown},
    {"gemv", C::kGemm, kNo},
    {"wvSplitK", C::kGemm, kNo},  // vLLM's ROCm skinny GEMMs (dot-product instructions, not MFMA)
    {"_sgemm", C::kGemm, kNo, fixed(P::kFp32)},
    {"splitKreduce", C::kGemm, kNo},
    {"^bmm_", C::kGemm, kYes},  // TensorRT-LLM generated Blackwell GEMMs
    {"deep_gemm", C::kGemm, kYes},
    {"_gemm_1d", C::kGemm, kYes},  // DeepGEMM sm90/sm100 kernels
    {"marlin", C::kGemm, kYes},
    // AMD Tensile/hipBLASLt: the type letters after the layout (F8/B8 fp8, I8 int8, B bf16,
    // H fp16, S fp32; the last one is the compute type); _MI<m>x<n> marks MFMA (matrix cores).
    {"Cijk_&_F8", C::kGemm, kOpen, fixed(P::kFp8)},
    {"Cijk_&_B8", C::kGemm, kOpen, fixed(P::kFp8)},
    {"Cijk_&_I8", C::kGemm, kOpen, fixed(P::kInt8)},
    {"Cijk_&_BBS_", C::kGemm, kOpen, fixed(P::kBf16)},  // BF16 in/out, fp32 compute
    {"Cijk_&_HHS_", C::kGemm, kOpen, fixed(P::kFp16)},
    {"Cijk_&_SB_", C::kGemm, kOpen, fixed(P::kFp32)},
    {"Cijk_", C::kGemm, kOpen},
    {"flatmm", C::kGemm, kOpen},            // Composable Kernel / aiter flat-B GEMMs
    {"gemm_a8w8", C::kGemm, kOpen},         // aiter a8w8 GEMMs (int8 or fp8)
    {"quantized_linear", C::kGemm, kOpen},  // Triton fp8/int8 linear layers (before the "quant" copy row)
    {"scaled_mm", C::kGemm, kOpen},
    {"matmul", C::kGemm, kOpen},
    {"cutlass", C::kGemm, kOpen},
    {"gemm", C::kGemm, kOpen},
    {"^rocblas_", C::kGemm, kNo},     // rocBLAS level-1/2 kernels (its GEMMs are Tensile Cijk_)
    {"^scal_kernel", C::kGemm, kNo},  // cuBLAS level-1 kernels a GEMM call runs (beta scaling)
    {"^axpy_kernel", C::kGemm, kNo},

    // Elementwise kernels with their own names.
    {"MLARope", C::kElementwise, kNo},
    {"RopeQuantize", C::kElementwise, kNo},
    {"act_and_mul", C::kElementwise, kNo},
    {"swiglu", C::kElementwise, kNo},
    {"dropout", C::kElementwise, kNo},
    {"upsample", C::kElementwise, kNo},
    {"triu_tril", C::kElementwise, kNo},
    {"_assert_async", C::kElementwise, kNo},  // torch._assert_async's one-thread check
    // MIOpen's tensor operations (bias add, scale, set) and activations.
    {"^OpTensor", C::kElementwise, kNo},
    {"^Op&dTensor", C::kElementwise, kNo},  // Op1dTensorGeneric ... Op5dTensorGeneric
    {"SubTensorOpWith", C::kElementwise, kNo},
    {"MIOpenActive", C::kElementwise, kNo},

    // Optimizers: PyTorch's foreach/fused optimizers, apex.
    {"multi_tensor_apply", C::kOptimizer, kNo},
    {"fused_adam", C::kOptimizer, kNo},
    {"AdamFunctor", C::kOptimizer, kNo},
    {"lpnorm_cleanup", C::kOptimizer, kNo},    // clip_grad_norm_ over foreach norms
    {"amp_update_scale", C::kOptimizer, kNo},  // GradScaler.update

    // Pooling (vision): a windowed reduction.
    {"max_pool", C::kReduction, kNo},
    {"avg_pool", C::kReduction, kNo},
    {"pooling", C::kReduction, kNo},           // MIOpenPoolingForward, cudnn pooling_fw_4d_kernel
    {"adaptive_average", C::kReduction, kNo},  // adaptive_average_pool, adaptive_average_gradient
    {"adaptivemax", C::kReduction, kNo},       // adaptivemaxpool, atomicadaptivemaxgradinput

    // Selection, sorting, softmax, scans (before "gather": gatherTopK).
    {"topk", C::kReduction, kNo},
    {"onesweep", C::kReduction, kNo},      // rocPRIM/CUB radix sort passes
    {"NLLCriterion", C::kReduction, kNo},  // cunn_ClassNLLCriterion_* (nll_loss before PyTorch 1.10)
    {"sort", C::kReduction, kNo},
    {"softmax", C::kReduction, kNo},
    {"soft_max", C::kReduction, kNo},  // llama.cpp soft_max_f32
    {"scan", C::kReduction, kNo},
    {"histogram", C::kReduction, kNo},

    // Copies and casts: PyTorch copy_ (dtype casts included), cat, gather/index, KV-cache
    // writes, quantization.
    {"copy_kernel_cuda", C::kCopyCast, kNo},
    {"CatArrayBatchedCopy", C::kCopyCast, kNo},
    {"gather", C::kCopyCast, kNo},
    {"indexSelect", C::kCopyCast, kNo},
    {"indexFunc", C::kCopyCast, kNo},  // index_add / index_copy (before "reduce": ReduceAdd)
    {"index_elementwise_kernel", C::kCopyCast, kNo},
    {"indexing_backward", C::kCopyCast, kNo},  // index_put_ with accumulate, index backward
    {"reshape_and_cache", C::kCopyCast, kNo},
    {"concat_and_cache", C::kCopyCast, kNo},
    {"AppendPagedKVCache", C::kCopyCast, kNo},
    {"kvcache", C::kCopyCast, kNo},  // KV-cache writes (store_kvcache_kernel)
    {"set_mla_kv_buffer", C::kCopyCast, kNo},
    {"quant", C::kCopyCast, kNo},
    {"batched_transpose", C::kCopyCast, kNo},
    {"transpose", C::kCopyCast, kNo},
    // llama.cpp copies and casts: cpy_f32_f16, cpy_scalar, convert_unary, k_get_rows, k_set_rows.
    {"^cpy_", C::kCopyCast, kNo},
    {"^convert_", C::kCopyCast, kNo},
    {"get_rows", C::kCopyCast, kNo},
    {"set_rows", C::kCopyCast, kNo},

    // Everything else PyTorch runs through TensorIterator.
    {"elementwise_kernel", C::kElementwise, kNo},
    // llama.cpp pointwise kernels (k_bin_bcast<op_add>, unary_gated_op_kernel<op_gelu>, scale_f32) and
    // activation kernels named for their function; after the generic rows, so that names that merely
    // mention an activation keep their family.
    {"bin_bcast", C::kElementwise, kNo},
    {"^unary_", C::kElementwise, kNo},
    {"^scale_", C::kElementwise, kNo},
    {"silu", C::kElementwise, kNo},

    {"reduce", C::kReduction, kNo},
    // Other rocPRIM primitives (partition, transform: nonzero, unique, select) are scan passes.
    {"rocprim::", C::kReduction, kNo},
};

// Lowest precision first: a GEMM named "e4m3 in, bf16 out, f32 accumulate" is fp8.
constexpr Token kPrecisionTokens[] = {
    {"e2m1", P::kFp4},        {"fp4", P::kFp4},  // nvfp4, mxfp4
    {"e4m3", P::kFp8},        {"e5m2", P::kFp8},       {"fp8", P::kFp8},       {"float8", P::kFp8},
    {"int8", P::kInt8, true}, {"qint8", P::kInt8},     {"i8", P::kInt8, true}, {"bf16", P::kBf16},
    {"bfloat16", P::kBf16},   {"bhalf", P::kBf16},                                                     // ck::bhalf_t
    {"fp16", P::kFp16},       {"f16", P::kFp16, true}, {"half", P::kFp16},     {"float16", P::kFp16},  // HIP's _Float16
    {"tf32", P::kTf32},       {"tfloat32", P::kTf32},  {"fp32", P::kFp32},     {"f32", P::kFp32, true},
    {"float", P::kFp32},
};

// Occurrences of `text` cancel as many occurrences of the precision token `masks`.
constexpr MaskToken kMaskTokens[] = {
    {"fp8kvcachedatatype", "fp8"},  // vLLM's template enum, present whatever the cache type
    {"ue4m3", "e4m3"},              // NVFP4 block-scale type, not the data type
};

constexpr TcToken kTensorCoreTokens[] = {
    {"tensorop", true},  {"gmma", true},       {"hmma", true},      {"wmma", true},       {"tcgen05", true},
    {"sm100_mma", true}, {"sm80_16x8x", true}, {"mfma", true},      {"_xdl", true},       {"16816gemm", true},
    {"1688gemm", true},  {"884gemm", true},    {"16832gemm", true}, {"_mi16x", true},     {"_mi32x", true},
    {"_mi4x", true},     {"884cudnn", true},   {"1688cudnn", true}, {"16816cudnn", true}, {"xdlops", true},
    {"simt", false},     {"ffma", false},      {"_fma_", false},
};

}  // namespace

std::span<const Row> rows() { return kRows; }
std::span<const Token> precision_tokens() { return kPrecisionTokens; }
std::span<const MaskToken> mask_tokens() { return kMaskTokens; }
std::span<const TcToken> tensor_core_tokens() { return kTensorCoreTokens; }

}  // namespace cuprobe::taxonomy
