// Kernel families of inference engines outside PyTorch's own kernels, found in the real
// traces of tests/data/real_kernels: llama.cpp (ggml, CUDA and HIP), hand-written HIP engines,
// nano-vLLM's Triton kernels, FlashAttention-3's scheduler, MSCCL and rocPRIM. Names are
// quoted as the profiler printed them (nsys cuts names with "…").
#include <gtest/gtest.h>

#include "analysis/kernel_taxonomy.h"
#include "analysis/kernel_taxonomy_cases.h"

namespace cuprobe::taxonomy_test {

const std::vector<Case>& engine_cases() {
  using C = Category;
  using P = Precision;
  static const std::vector<Case> cases = {
      {"mscclKernel_Sum_hip_bfloat16_LL_false(ncclDevComm*, mscclAlgo*, mscclWork*)", C::kCommunication, kNoTc,
       P::kBf16, "^msccl"},

      // Attention: llama.cpp flash attention, FlashAttention-3's varlen scheduler, gated DeltaNet,
      // Triton paged prefill.
      {"void flash_attn_ext_f16<(int)256, (int)256, (int)4, (int)2, (int)2, (int)1, (bool)0, (bool)0>(const…",
       C::kAttention, kTcUnknown, P::kFp16, "flash_attn"},
      {"void flash_attn_stream_k_fixup<(int)256, (int)4, (int)2>(float *, const float2 *, int, int, int)",
       C::kAttention, kTcUnknown, P::kFp32, "flash_attn"},
      {"flash::prepare_varlen_num_blocks_kernel(int, int, int, const int *, const int *, const int *, const int *, "
       "const int *, const int *, int, int, int, int, int, cutlass::FastDivmod, cutlass::FastDivmod, int *, int *, "
       "bool)",
       C::kAttention, kNoTc, kAnyPrecisionUnknown, "prepare_varlen_num_blocks"},
      {"gdn_ar_w.kd", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "gdn_"},
      {"_paged_prefill_kernel", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "paged_prefill"},
      // AOTriton, PyTorch's SDPA backend on ROCm: 57% of the GPU time of a Llama 3.2 training trace
      // on MI300X (AMD-AGI/TraceLens evals/e2e_tests_comparative/llama3_2, launched by
      // aten::_efficient_attention_backward), and the Triton tutorial's fused-attention backward.
      {"bwd_kernel_dq", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^bwd_kernel_d"},
      {"bwd_kernel_dk_dv", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^bwd_kernel_d"},
      {"bwd_preprocess", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^bwd_preprocess"},
      {"_attn_bwd_dkdv", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^_attn_bwd"},

      // Norms.
      {"rms_finish.kd", C::kNorm, kNoTc, kAnyPrecisionUnknown, "^rms_"},
      {"norm_gated_silu.kd", C::kNorm, kNoTc, kAnyPrecisionUnknown, "^norm_"},

      // llama.cpp matrix multiplies (quantized weights; the float arguments are activations).
      {"void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, float*, float*, "
       "int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int) [clone .kd]",
       C::kGemm, kTcUnknown, kAnyPrecisionUnknown, "mul_mat_"},
      {"void mul_mat_vec<__half, __half, (int)1, (int)256>(const T1 *, const float *, const int *, float *,…", C::kGemm,
       kTcUnknown, kAnyPrecisionUnknown, "mul_mat_"},

      // A Triton fp8 linear layer is a GEMM, not a quantization copy (it was `copy_cast` by the
      // "quant" row: 12% of nsys_sparse_mla_moe_decode_ampere.tsv).
      {"_quantized_linear_fp8_kernel", C::kGemm, kTcUnknown, P::kFp8, "quantized_linear"},

      {"void soft_max_f32<true, 512, 512, float>(float const*, float const*, float const*, float*, soft_max_params) "
       "[clone .kd]",
       C::kReduction, kNoTc, P::kFp32, "soft_max"},

      // Copies and casts.
      {"store_kvcache_kernel", C::kCopyCast, kNoTc, kAnyPrecisionUnknown, "kvcache"},
      {"void cpy_f32_f16<&cpy_1_f32_f16>(const char *, char *, int, int, int, int, int, int, int, int, int,…",
       C::kCopyCast, kNoTc, P::kFp16, "^cpy_"},
      {"void convert_unary<float, __half>(void const*, __half*, long, long, long, HIP_vector_type<unsigned int, 3u>, "
       "long, long, long) [clone .kd]",
       C::kCopyCast, kNoTc, P::kFp16, "^convert_"},
      {"void k_get_rows_float<float, float>(const T1 *, const int *, T2 *, long, long, unsigned long, unsig…",
       C::kCopyCast, kNoTc, P::kFp32, "get_rows"},
      {"void k_set_rows<float, long, __half>(float const*, long const*, __half*, long, long, long, long, long, long, "
       "long, long, long, long, long, long, long, long, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned "
       "int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned int, 3u>, HIP_vector_type<unsigned "
       "int, 3u>) [clone .kd]",
       C::kCopyCast, kNoTc, P::kFp16, "set_rows"},

      // Pointwise.
      {"void rope_neox<(bool)1, (bool)0, float>(const T3 *, T3 *, int, int, int, int, int, const int *, flo…",
       C::kElementwise, kNoTc, P::kFp32, "^rope_"},
      {"void k_bin_bcast<&op_mul, float, float, float>(const T2 *, const T3 *, T4 *, int, int, int, int, in…",
       C::kElementwise, kNoTc, P::kFp32, "bin_bcast"},
      {"void unary_gated_op_kernel<&op_gelu, float>(const T2 *, const T2 *, T2 *, long, long, long, long)",
       C::kElementwise, kNoTc, P::kFp32, "^unary_"},
      {"scale_f32(const float *, float *, float, int)", C::kElementwise, kNoTc, P::kFp32, "^scale_"},
      {"silu_mul.kd", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "silu"},

      {"void rocprim::detail::transform_kernel<rocprim::detail::wrapped_transform_config<rocprim::default_config, "
       "unsigned long>, unsigned long, unsigned long*, int*, rocprim::identity<void>>(unsigned long*, unsigned long, "
       "int*, rocprim::identity<void>)",
       C::kReduction, kNoTc, kAnyPrecisionUnknown, "rocprim::"},
  };
  return cases;
}

namespace {

// The engine rows are narrow or come late: names of other families that merely contain
// their words keep the row that decided them before.
TEST(KernelTaxonomyEngines, OtherFamiliesKeepTheirRows) {
  struct Kept {
    std::string_view name;
    std::string_view rule;
  };
  for (const Kept& k : std::initializer_list<Kept>{
           // ATen's SiLU runs in a TensorIterator kernel.
           {"void at::native::vectorized_elementwise_kernel<8, at::native::(anonymous namespace)::silu_kernel("
            "at::TensorIteratorBase&)::{lambda()#1}::operator()() const",
            "elementwise_kernel"},
           // vLLM's fused SiLU-and-multiply.
           {"void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, (bool)1>(T1 *, const T1 "
            "*, int)",
            "act_and_mul"},
           // Inductor's pointwise kernel that fuses a SiLU.
           {"triton_poi_fused_mul_silu_split_0", "^triton_poi_"},
           // FlashInfer's paged-KV-cache attention is attention, not a cache write.
           {"void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, 4u, 8u, 16u, 1u, "
            "8u, __nv_bfloat16",
            "DecodeWith"},
           // FlashAttention-2/3 kernels keep their own rows.
           {"void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<(int)128, (int)64, (int)128, (int)4",
            "flash_fwd"},
           // vLLM's rotary embedding and fused RMSNorm.
           {"void vllm::rotary_embedding_kernel<c10::BFloat16, (bool)1>(const long *, T1 *, T1 *, const T1 *, int",
            "rotary"},
           {"std::enable_if<T2>(int)0&&vllm::_typeConvert<T1>::exists, void>::type vllm::fused_add_rms_norm_kernel<"
            "c10::BFloat16, (int)8>",
            "rms_norm"},
           // rocPRIM's sort and reduce passes keep their rows.
           {"void rocprim::detail::onesweep_iteration_kernel<rocprim::default_config, false, long, long, unsigned "
            "int>(",
            "onesweep"},
           {"void rocprim::detail::block_reduce_kernel<true, rocprim::detail::wrapped_reduce_config<rocprim::default_"
            "config, int>, int, int*, int*, int",
            "reduce"},
       }) {
    EXPECT_EQ(classify_kernel(k.name).rule, k.rule) << k.name;
  }
}

// rocprof prints code-object names with a ".kd" suffix or " [clone .kd]": they classify like
// the plain names.
TEST(KernelTaxonomyEngines, RocprofKernelDescriptorSuffixesChangeNothing) {
  for (std::string_view base : {"silu_mul", "rms_finish", "gdn_ar_w", "_paged_prefill_kernel", "scale_f32(float)"}) {
    std::string kd{base};
    kd += ".kd";
    std::string clone{base};
    clone += " [clone .kd]";
    EXPECT_EQ(classify_kernel(kd).rule, classify_kernel(base).rule) << kd;
    EXPECT_EQ(classify_kernel(clone).rule, classify_kernel(base).rule) << clone;
  }
}

}  // namespace
}  // namespace cuprobe::taxonomy_test
