#include "analysis/kernel_taxonomy.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "analysis/kernel_taxonomy_cases.h"

namespace cuprobe {
namespace {

using C = Category;
using P = Precision;
using taxonomy_test::Case;
using taxonomy_test::kAnyPrecisionUnknown;
using taxonomy_test::kNoTc;
using taxonomy_test::kTc;
using taxonomy_test::kTcUnknown;

// One or more real kernel names per table row. Names come from the traces in
// ../shared/traces, from published profiles of vLLM/SGLang/TensorRT-LLM/FlashInfer/
// ROCm runs (some as the printing tool truncated them) or from the launching source
// (the template as it demangles); they are quoted verbatim where found.
const std::vector<Case>& core_cases() {
  static const std::vector<Case> cases = {
      {"Memcpy DtoD (Device -> Device)", C::kMemcpy, kNoTc, kAnyPrecisionUnknown, "^Memcpy "},
      {"Memset (Device)", C::kMemset, kNoTc, kAnyPrecisionUnknown, "^Memset "},

      {"triton_tem_fused_mm_0", C::kGemm, kTc, kAnyPrecisionUnknown, "^triton_tem_"},
      {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_1", C::kNorm, kNoTc, kAnyPrecisionUnknown, "^triton_&rsqrt"},
      {"triton_per_fused_add_mean_mul_pow_rsqrt_0", C::kNorm, kNoTc, kAnyPrecisionUnknown, "^triton_&rsqrt"},
      {"triton_red_fused__to_copy_add_copy__fused_add_rms_norm_moe_forward_shared_3", C::kNorm, kNoTc,
       kAnyPrecisionUnknown, "^triton_&rms_norm"},
      {"triton_red_fused_native_layer_norm_16", C::kNorm, kNoTc, kAnyPrecisionUnknown, "^triton_&layer_norm"},
      {"triton_poi_fused_add_all_reduce_0", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "^triton_poi_"},
      {"triton_poi_fused_clamp_mul_silu_slice_0", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "^triton_poi_"},
      {"triton_red_fused__log_softmax__to_copy_21", C::kReduction, kNoTc, kAnyPrecisionUnknown, "^triton_red_"},
      {"triton_per_fused_add_0", C::kReduction, kNoTc, kAnyPrecisionUnknown, "^triton_per_"},

      {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", C::kCommunication, kNoTc, P::kBf16,
       "^nccl"},
      {"ncclSymkDevKernel_AllGather_LL(ncclSymkDevWorkArgs4K)", C::kCommunication, kNoTc, kAnyPrecisionUnknown,
       "^nccl"},
      {"void flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport<(flashinfer::"
       "trtllm_allreduce_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, false>(flashinfer::"
       "trtllm_allreduce_fusion::AllReduceFusionParams<__nv_bfloat16>, std::array<int, 8>, "
       "std::array<int, 8>)",
       C::kCommunication, kNoTc, P::kBf16, "allreduce"},
      {"twoshotAllreduceKernel", C::kCommunication, kNoTc, kAnyPrecisionUnknown, "allreduce"},
      {"void (anonymous namespace)::two_shot_all_reduce_kernel_inplace<c10::BFloat16, 16, 2>(c10::BFloat1",
       C::kCommunication, kNoTc, P::kBf16, "all_reduce"},
      {"void multimem_all_reduce_kernel<__nv_bfloat16>(...)", C::kCommunication, kNoTc, P::kBf16, "all_reduce"},
      {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 2>(vllm::RankData*, vllm::RankSignals, "
       "vllm::Signal*, __nv_bfloat16*, int, int)",
       C::kCommunication, kNoTc, P::kBf16, "cross_device_reduce"},
      {"userbuffers_fp16_sum_gpu_mc_rmsnorm", C::kCommunication, kNoTc, P::kFp16, "userbuffers"},
      {"void primus_turbo::deep_ep::intranode::notify_dispatch<8>(int const*)", C::kCommunication, kNoTc,
       kAnyPrecisionUnknown, "deep_ep::"},
      {"deep_ep::internode_ll::combine", C::kCommunication, kNoTc, kAnyPrecisionUnknown, "deep_ep::"},
      {"helixAllToAllKernel", C::kCommunication, kNoTc, kAnyPrecisionUnknown, "alltoall"},
      {"all_to_all_intra_ll_kernel", C::kCommunication, kNoTc, kAnyPrecisionUnknown, "all_to_all"},
      {"moeA2ADispatchKernel", C::kCommunication, kNoTc, kAnyPrecisionUnknown, "moeA2A"},

      {"void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, (c", C::kSampling, kNoTc, kAnyPrecisionUnknown,
       "SamplingFromProb"},
      {"void flashinfer::sampling::TopPRenormProbKernel<1024u, (cub::BlockScanAlgorithm)2, "
       "(cub::BlockReduceAlgorithm)2, 4u, float>(float*, float*, float*, float, unsigned int)",
       C::kSampling, kNoTc, P::kFp32, "RenormProb"},
      {"void flashinfer::sampling::TopKMaskLogitsKernel<1024u, (cub::BlockScanAlgorithm)2, "
       "(cub::BlockReduceAlgorithm)2, 4u, float, int>(float*, float*, int*, unsigned int, unsigned int)",
       C::kSampling, kNoTc, P::kFp32, "TopKMaskLogits"},
      {"void at::native::(anonymous namespace)::distribution_elementwise_grid_stride_kernel<float, 4, void "
       "at::native::templates::cuda::normal_and_transform<c10::BFloat16, float, at::CU...",
       C::kSampling, kNoTc, P::kBf16, "distribution_elementwise"},
      {"void at::native::(anonymous namespace)::sampleMultinomialOnce<float, float>(long*, long, int, "
       "float*, float*, int, int)",
       C::kSampling, kNoTc, P::kFp32, "multinomial"},
      {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, "
       "unsigned int, long, 4, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned "
       "int, long, 4, 4>)",
       C::kSampling, kNoTc, P::kFp32, "argmax"},

      {"void flash::flash_fwd_splitkv_mla_combine_kernel<cutlass::bfloat16_t, float, long, 512, 64>("
       "Flash_fwd_mla_params)",
       C::kAttention, kNoTc, P::kBf16, "flash_fwd&combine"},
      {"void cutlass::device_kernel<flash::FlashAttnFwdCombine<cute::tuple<cute::C<8>, cute::C<128> >, 5, "
       "256, 1, false, true, cutlass",
       C::kAttention, kNoTc, kAnyPrecisionUnknown, "FlashAttnFwdCombine"},
      {"void flash::flash_fwd_splitkv_mla_kernel<Flash_fwd_kernel_traits_mla<576, 64, 64, 8, "
       "cutlass::bfloat16_t, 512, true, 0, cutlass::bfloat16_t, cutlass::bfloat16_t>, true, "
       "flash::SharedStorageMLA<Flash_fwd_kernel_traits_mla<576, 64, 64, 8, cutlass::bfloat16_t, 512, "
       "true, 0, cutlass::bfloat16_t, cutlass::bfloat16_t> > >(Flash_fwd_mla_params)",
       C::kAttention, kTc, P::kBf16, "flash_fwd"},
      {"void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, 0, 0, bfloat16_t, "
       "Flash_kernel_traits<128, 128, 64, 4, bfloat16_t>>, 0, 0, 0, 0, 1, 1, 0, 0>(Flash_fwd_params)",
       C::kAttention, kTc, P::kBf16, "flash_fwd"},
      {"void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<(in...", C::kAttention, kTc,
       kAnyPrecisionUnknown, "flash_bwd"},
      {"void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<", C::kAttention, kTc,
       kAnyPrecisionUnknown, "FlashAttn"},
      {"flash::FlashAttentionForwardSm100", C::kAttention, kTc, kAnyPrecisionUnknown, "FlashAttention"},
      {"fmhaReductionKernel", C::kAttention, kNoTc, kAnyPrecisionUnknown, "fmhaReduction"},
      {"fmhaSm100fKernel_QkvBfloat16OBfloat16HQk576HV512HVPerCta256PagedKvDenseP64MultiCtasKvVarSeqQ16Kv128"
       "StaticSwapsAbForGen",
       C::kAttention, kTc, P::kBf16, "fmhaSm100"},
      {"fmhaSm100fKernel_QkvE4m3OBfloat16HQk5", C::kAttention, kTc, P::kFp8, "fmhaSm100"},
      {"fmha_cutlassF_bf16_aligned_64x128_rf_sm80", C::kAttention, kTcUnknown, P::kBf16, "fmha"},
      {"void ck_tile::kentry<256, 2, ck_tile::FmhaFwdKernel<", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "fmha"},
      {"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x128_4x1x1_cga1x1x1_kernel0_0",
       C::kAttention, kTc, kAnyPrecisionUnknown, "sdpa"},
      {"void flashinfer::BatchPrefillWithRaggedKVCacheKernel<flashinfer::KernelTraits<(flashinfer::"
       "MaskMode)1, (unsigned int)128, (unsigned int)2, (unsigned int)2, (uns",
       C::kAttention, kTc, kAnyPrecisionUnknown, "PrefillWith"},
      {"void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, (unsigned int)2, "
       "(unsigned int)1, (unsigned int)8, (unsigned int)16, (unsigned int)2, (unsigned int)4, "
       "flashinfer::DefaultAttention<(bool)0, (bool)0, (bool)0, (bool)0>, Params>(T9)",
       C::kAttention, kNoTc, kAnyPrecisionUnknown, "DecodeWith"},
      {"void flashinfer::PersistentVariableLengthMergeStates<...>", C::kAttention, kNoTc, kAnyPrecisionUnknown,
       "MergeState"},
      {"void vllm::merge_attn_states_kernel<__nv_bfloat16, 128u>(__nv_bfloat16*, float*, __nv_bfloat16 const*, "
       "float const*, __nv_bfloat16 const*, float const*, unsigned int, unsigned int, unsigned int)",
       C::kAttention, kNoTc, P::kBf16, "merge_attn_states"},
      {"void flashinfer::mla::BatchMLAPagedAttentionKernel<(flashinfer::MaskMode)0, 512u, 64u, ...>(...)",
       C::kAttention, kTc, kAnyPrecisionUnknown, "BatchMLAPagedAttention"},
      {"void kn_get_mla_metadata_v1_2<MlaMetadataV12Traits<128, true, 0, true, false> >", C::kAttention, kNoTc,
       kAnyPrecisionUnknown, "get_mla_metadata"},
      {"void vllm::paged_attention_v1_kernel<unsigned short, unsigned short, 128, 16, 128, "
       "(vllm::Fp8KVCacheDataType)0, false>(unsigned short*, unsigned short const*, unsigned short const*, "
       "unsigned short const*, int, float, int const*, int const*, int, float const*, int, int, int, int, "
       "float const*, float const*, int, int, int)",
       C::kAttention, kNoTc, kAnyPrecisionUnknown, "paged_attention"},
      {"kernel_unified_attention", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "unified_attention"},
      {"_fp8_paged_mqa_logits_kernel", C::kAttention, kTcUnknown, P::kFp8, "mqa_logits"},
      {"fused_recurrent_gated_delta_rule_packed_decode_kernel", C::kAttention, kTcUnknown, kAnyPrecisionUnknown,
       "gated_delta_rule"},
      {"void tensorrt_llm::kernels::mmha::masked_multihead_attention_kernel<unsigned short, unsigned short, "
       "(tensorrt_llm::kernels::KvCacheDataType)0>(...)",
       C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "attention"},
      {"_fwd_kernel_stage2", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^_fwd_kernel"},
      {"_fwd_grouped_kernel_stage1", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^_fwd_grouped_kernel"},
      {"_decode_score", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^_decode_"},
      {"attn_fwd", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^attn_fwd"},

      {"void vllm::rms_norm_kernel<c10::BFloat16, 8, 2, true>(c10::BFloat16*, c10::BFloat16 const*, long, "
       "long, long, long, long, c10::BFloat16 const*, long, float, int, int)",
       C::kNorm, kNoTc, P::kBf16, "rms_norm"},
      {"void ck_tile::kentry<1, ck_tile::Rmsnorm2dFwd<ck_tile::Rmsnorm2dFwdPipelineOnePass<ck_tile::"
       "Rmsnorm2dFwdPipelineProblem<",
       C::kNorm, kNoTc, kAnyPrecisionUnknown, "rmsnorm"},
      {"_rmsnorm_kernel.kd", C::kNorm, kNoTc, kAnyPrecisionUnknown, "rmsnorm"},
      {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float "
       "const*, float const*, float const*, float*, float*, float*)",
       C::kNorm, kNoTc, P::kFp32, "layer_norm"},
      {"void cuApplyLayerNorm<c10::BFloat16, float, c10::BFloat16>(c10::BFloat16*, float*, float*, "
       "c10::BFloat16 const*, int, int, float, c10::BFloat16 const*, c10::BFloat16 const*)",
       C::kNorm, kNoTc, P::kBf16, "layernorm"},
      {"void at::native::(anonymous namespace)::RowwiseMomentsCUDAKernel<float, float>(long, float, float "
       "const*, float*, float*)",
       C::kNorm, kNoTc, P::kFp32, "RowwiseMoments"},

      {"fused_moe_kernel", C::kMoe, kTc, kAnyPrecisionUnknown, "fused_moe_kernel"},
      {"void marlin_moe_wna16::Marlin<1125899906909960l, 562949953487106l, 1125899906909960l, 2814749767...", C::kMoe,
       kTc, kAnyPrecisionUnknown, "marlin_moe"},
      {"void vllm::moe::moe_align_block_size_kernel<int>(int const*, int*, int*, int*, int*, int, int, i...", C::kMoe,
       kNoTc, kAnyPrecisionUnknown, "moe_align_block_size"},
      {"void count_and_sort_expert_tokens_kernel<int>(int const*, int*, int*, unsigned long)", C::kMoe, kNoTc,
       kAnyPrecisionUnknown, "count_and_sort_expert_tokens"},
      {"void vllm::moe::topkGating<8, 128, 4, 16, 32, int, __nv_bfloat16, (vllm::moe::ScoringFunc)0>", C::kMoe, kNoTc,
       P::kBf16, "topkGating"},
      {"void vllm::moe::topkGatingSoftplusSqrt<8, 256, 4, 16, 32, false, int, float>(", C::kMoe, kNoTc, P::kFp32,
       "topkGating"},
      {"topk_gating_softmax_kernel", C::kMoe, kNoTc, kAnyPrecisionUnknown, "topk_gating"},
      {"expandInputRowsKernel", C::kMoe, kNoTc, kAnyPrecisionUnknown, "expandInputRows"},
      {"moe_fused_gate_kernel", C::kMoe, kTcUnknown, kAnyPrecisionUnknown, "moe"},
      {"moe_sum_reduce_warp_per_token_vec_kernel", C::kMoe, kTcUnknown, kAnyPrecisionUnknown, "moe"},

      {"nvjet_qqtst_128x256_128x6_2x1_2cta_v_bz_TNT", C::kGemm, kTc, P::kFp8, "^nvjet_&_qq"},
      {"nvjet_sm100_ootst_128x128_256x7_4x1_2cta_v_bx_Avec16UE4M3_Bvec16UE4M3_TNT", C::kGemm, kTc, P::kFp4,
       "^nvjet_&_oo"},
      {"nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT", C::kGemm, kTc, P::kBf16, "^nvjet_&_tst_"},
      {"nvjet_tst_192x192_64x4_2x1_v_bz_coopB_TNN", C::kGemm, kTc, P::kBf16, "^nvjet_&_tst_"},
      {"nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NNT", C::kGemm, kTc, P::kFp16, "^nvjet_&_hsh_"},
      {"nvjet_sm90_hss_320x128", C::kGemm, kTc, kAnyPrecisionUnknown, "^nvjet_"},
      {"sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_"
       "execute_kernel__5x_cublas",
       C::kGemm, kNoTc, P::kFp32, "xmma_&ffma"},
      {"sm90_xmma_gemm_bf16f32_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off_"
       "kernel__5x_cublas",
       C::kGemm, kTc, P::kBf16, "xmma_"},
      {"sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_cgasize1x1x1", C::kGemm, kTc, P::kTf32, "xmma_"},
      {"void gemmk1_kernel<int, float, 256, 5, true, false, false, false, cublasGemvTensorStridedBatched<float "
       "const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float, "
       "0>(cublasGemmk1Params<float, cublasGemvTensorStridedBatched<float const>, "
       "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)",
       C::kGemm, kNoTc, P::kFp32, "gemmk1"},
      {"std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __n", C::kGemm, kNoTc,
       P::kBf16, "gemv"},
      {"void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_64x64_8x5_tn_"
       "align1::Params)",
       C::kGemm, kNoTc, P::kFp32, "_sgemm"},
      {"ampere_sgemm_128x64_tn", C::kGemm, kNoTc, P::kFp32, "_sgemm"},
      {"void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, false, "
       "float, __nv_bfloat16, __nv_bfloat16, true, false, false, false>(cublasLt::cublasSplitKParams<float>, "
       "float const*, __nv_bfloat16 const*, float*, __nv_bfloat16*, float const*, float const*, "
       "__nv_bfloat16 const*, float const*, __nv_bfloat16*, void*, long, float*, int*, float*, float*, float "
       "const*, float const*, float const*, float const*, float const*)",
       C::kGemm, kNoTc, P::kBf16, "splitKreduce"},
      {"bmm_E4m3_E4m3E4m3_Fp32_t128x64x128u2_s6_et64x64_m64x64x32_c1x1x1_rM_TN_transOut_noShfl_dsFp8_"
       "schPd4x2x2x3_bN_tma_tmaSf_rgTma_clmp_lbW4_dynB_sm100f",
       C::kGemm, kTc, P::kFp8, "^bmm_"},
      {"bmm_Bfloat16_E2m1E2m1_Fp32_bA16_bB16_", C::kGemm, kTc, P::kFp4, "^bmm_"},
      {"void deep_gemm::sm100_fp8_gemm_1d1d_impl<(cute::UMMA::Major)0, (cute::UMMA::Major)0, ", C::kGemm, kTc, P::kFp8,
       "deep_gemm"},
      {"sm100_fp8_fp4_gemm_1d1d_impl", C::kGemm, kTc, P::kFp4, "_gemm_1d"},
      {"void marlin::Marlin<256, 1, 8, 8, 4, 8>(int4 const*, int4 const*, int4*, int4 const*, int, int, int, "
       "int*)",
       C::kGemm, kTc, kAnyPrecisionUnknown, "marlin"},
      {"Cijk_Ailk_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x32x128_MI16x16x1_SN_LDSB1_AFC0_AFEM1_AFEM1_ASEM1_"
       "CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSU0_GSUAMB_GLS0_ISA950_IU1_K1_"
       "LDSTI0_LBSPPA2048_LBSPPB256_LBSPPM0_LPA0_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_1_MO40_NTn1_NTA0_NTB0_"
       "NTC0_NTD0_NTM0_NEPBS0_NLC",
       C::kGemm, kTc, P::kBf16, "Cijk_&_BBS_"},
      {"Custom_Cijk_Ailk_Bljk_BBS_BH_Bias_SAV_UserArgs_MT128x128x64_MI16x16x1_UserArgs_shortname1_gfx950", C::kGemm,
       kTc, P::kBf16, "Cijk_&_BBS_"},
      {"Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0", C::kGemm, kTc, P::kFp16, "Cijk_&_HHS_"},
      {"Cijk_Alik_Bljk_SB_MT64x128x16_MI32x32x2x", C::kGemm, kTc, P::kFp32, "Cijk_&_SB_"},
      {"Cijk_Alik_Bljk_SB_MT16x16x8_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM1_AMAS0_ASE_ASGT_ASLT_ASAE01_ASCE01_"
       "ASEM1_AAC0_BL1_BS1_DTLA0_DTLB0_DTVA0_DTVB0_DVO0_ETSP_EPS1_FSSC10_FL0_GRPM1_GRVW1_GSU1_GSUAMB_GLS0_"
       "ISA1100_IU1_K1_KLA_LBSPP0_LPA0_LPB0_LDL1_LRVW1_LWPMn1_LDW0_FMA_MIAV0_MDA2_MO40_MMFGLC_NTA0_NTB0_NTC0_"
       "NTD0_NEPBS0_NLCA1_N",
       C::kGemm, kNoTc, P::kFp32, "Cijk_&_SB_"},
      {"Cijk_Ailk_Bljk_F8SS_BH_MT256x256x128_MI16x16x1_SN_1LDSB0", C::kGemm, kTc, P::kFp8, "Cijk_&_F8"},
      {"_w8a8_triton_block_scaled_mm", C::kGemm, kTcUnknown, kAnyPrecisionUnknown, "scaled_mm"},
      {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu", C::kGemm, kTcUnknown, P::kFp4, "matmul"},
      {"fused_fused_dequantize1_NT_matmul10_kernel", C::kGemm, kTcUnknown, kAnyPrecisionUnknown, "matmul"},
      {"void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_32x3_tn_align8>(T1::"
       "Params)",
       C::kGemm, kTc, P::kBf16, "cutlass"},
      {"void at::cuda::detail::prepare_grouped_gemm_data<cutlass::bfloat16_t, cutlass::bfloat16_t, "
       "cutlass::bfloat16_t, float, cute::tuple<int, int, int>, cute::tuple<long, cute::C<1>, cute::C<0> >, "
       "cute::tuple<long, cute::C<1>, cute::C<0> >, cute::tuple<long, cute::C<1>, cute::C<0> > >(cutlass::"
       "bfloat16_t*",
       C::kGemm, kTcUnknown, P::kBf16, "cutlass"},
      {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn", C::kGemm, kTc, P::kBf16, "gemm"},
      {"ampere_fp16_s16816gemm_fp16_64x64_ldg8_f2f_stages_64x5_nn", C::kGemm, kTc, P::kFp16, "gemm"},
      {"void ck_tile::kentry<1, ck_tile::GroupedGemmKernel<ck_tile::GemmSpatiallyLocal", C::kGemm, kTcUnknown,
       kAnyPrecisionUnknown, "gemm"},

      {"void vllm::rotary_embedding_kernel<c10::BFloat16, c10::BFloat16, true>(long const*, c10::BFloat16*, "
       "c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int, long, bool)",
       C::kElementwise, kNoTc, P::kBf16, "rotary"},
      {"applyMLARopeAndAssignQKVKernel", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "MLARope"},
      {"RopeQuantizeKernel", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "RopeQuantize"},
      {"void vllm::act_and_mul_kernel<c10::BFloat16, __nv_bfloat162, &vllm::silu_kernel<c10::BFloat16>, "
       "&vllm::packed_silu_kernel<__nv_bfloat162>, (bool)1, (bool)1, (bool)0, (bool)1>(T1 *",
       C::kElementwise, kNoTc, P::kBf16, "act_and_mul"},
      {"swiglu_with_mask_fwd_kernel", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "swiglu"},

      {"void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>(at::cuda::detail::TensorInfo<float "
       "const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, "
       "at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, "
       "unsigned int>, unsigned int, float*)",
       C::kReduction, kNoTc, P::kFp32, "topk"},
      {"void at::native::bitonicSortKVInPlace<2, -1, 16, 16, float, long, at::native::GTOp<float, true>, "
       "unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, "
       "unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, "
       "at::native::GTOp<float, true>)",
       C::kReduction, kNoTc, P::kFp32, "sort"},
      {"void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, "
       "at::native::(anonymous namespace)::SoftMaxForwardEpilogue, long, 4>(float*, float const*, long)",
       C::kReduction, kNoTc, P::kFp32, "softmax"},
      {"softmax_warp_forward<c10::Half, c10::Half, float>", C::kReduction, kNoTc, P::kFp16, "softmax"},
      {"void at_cuda_detail::cub::detail::scan::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<int, "
       "true> >(at_cuda_detail::cub::ScanTileState<int, true>, int)",
       C::kReduction, kNoTc, kAnyPrecisionUnknown, "scan"},
      {"void at::cuda::kernelHistogram1D<int, int, long, 1, 2, -1, (at::cuda::CUDAHistogramMemoryType)0, "
       "at::cuda::CUDA_tensor_histogram<int, int, false>(at::Tensor, at::Tensor, at::Tensor, long, "
       "at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, at::cuda::TensorArgType, "
       "at::cuda::Ten",
       C::kReduction, kNoTc, kAnyPrecisionUnknown, "histogram"},

      {"void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda("
       "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, "
       "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
       "std::array<char*, 2ul>)",
       C::kCopyCast, kNoTc, P::kBf16, "copy_kernel_cuda"},
      {"void elementwise_kernel_manual_unroll<128, 8, gpu_kernel_impl_nocast<direct_copy_kernel_cuda(at:", C::kCopyCast,
       kNoTc, kAnyPrecisionUnknown, "copy_kernel_cuda"},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
       "namespace)::OpaqueType<4u>, unsigned int, 3, 64, 64>(at::native::(anonymous "
       "namespace)::OpaqueType<4u>*, at::native::(anonymous "
       "namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<4u>, ",
       C::kCopyCast, kNoTc, kAnyPrecisionUnknown, "CatArrayBatchedCopy"},
      {"void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, "
       "bool)",
       C::kCopyCast, kNoTc, kAnyPrecisionUnknown, "gather"},
      {"void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, "
       "2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, "
       "at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long "
       "const, unsigned int>, int, int, uns",
       C::kCopyCast, kNoTc, P::kBf16, "indexSelect"},
      {"void at::native::(anonymous namespace)::indexFuncLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, "
       "-2, true, at::native::(anonymous namespace)::ReduceAdd>(at::cuda::detail::TensorInfo<c10::BFloat16, "
       "unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, "
       "at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long, "
       "long, at::native::(anonymous namespace)::ReduceAdd const&, c10::BFloat16)",
       C::kCopyCast, kNoTc, P::kBf16, "indexFunc"},
      {"void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::"
       "index_put_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, "
       "c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, "
       "c10::ArrayRef<long>, c10::ArrayR",
       C::kCopyCast, kNoTc, kAnyPrecisionUnknown, "index_elementwise_kernel"},
      {"void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, __nv_bfloat16, "
       "(vllm::Fp8KVCacheDataType)0>(__nv_bfloat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, "
       "__nv_bfloat16*, long const*, long, long, long, long, long, int, int, int, float const*, float "
       "const*, int)",
       C::kCopyCast, kNoTc, P::kBf16, "reshape_and_cache"},
      {"void vllm::concat_and_cache_mla_kernel<__nv_bfloat16, __nv_bfloat16, (vllm::Fp8KVCacheDataType)0>(c",
       C::kCopyCast, kNoTc, P::kBf16, "concat_and_cache"},
      {"void flashinfer::AppendPagedKVCacheKernel<8u, 16u, __nv_bfloat16, int>(flashinfer::paged_kv_t<"
       "__nv_bfloat16, int>, __nv_bfloat16*, __nv_bfloat16*, int*, int*, unsigned int, unsigned int, "
       "unsigned int, unsigned int, unsigned int)",
       C::kCopyCast, kNoTc, P::kBf16, "AppendPagedKVCache"},
      {"set_mla_kv_buffer_kernel", C::kCopyCast, kNoTc, kAnyPrecisionUnknown, "set_mla_kv_buffer"},
      {"void per_token_group_quant_8bit_kernel<c10::BFloat16, __nv_fp8_e4m3, false, false, float>(c10::B", C::kCopyCast,
       kNoTc, P::kFp8, "quant"},

      {"void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
       C::kElementwise, kNoTc, P::kBf16, "elementwise_kernel"},
      {"void at::native::vectorized_elementwise_kernel<2, at::native::FillFunctor<long>, std::array<char*, "
       "1ul> >(int, at::native::FillFunctor<long>, std::array<char*, 1ul>)",
       C::kElementwise, kNoTc, kAnyPrecisionUnknown, "elementwise_kernel"},

      {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, "
       "float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, "
       "float, float, float>, unsigned int, float, 4, 4>)",
       C::kReduction, kNoTc, P::kFp32, "reduce"},
  };
  return cases;
}

const std::vector<Case>& row_cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all = core_cases();
    for (const auto* more : {&taxonomy_test::family_cases(), &taxonomy_test::engine_cases()}) {
      all.insert(all.end(), more->begin(), more->end());
    }
    return all;
  }();
  return cases;
}

std::string describe(const KernelClass& k) {
  std::string s{category_name(k.category)};
  s += k.tensor_core ? (*k.tensor_core ? " tc" : " no-tc") : " tc?";
  s += " ";
  s += k.precision ? precision_name(*k.precision) : "precision?";
  s += " rule='";
  s += k.rule;
  s += "'";
  return s;
}

std::string describe(const Case& c) {
  KernelClass k;
  k.category = c.category;
  k.tensor_core = c.tensor_core;
  k.precision = c.precision;
  k.rule = c.rule;
  return describe(k);
}

TEST(KernelTaxonomy, EveryRowCaseClassifiesAsExpected) {
  for (const Case& c : row_cases()) {
    KernelClass k = classify_kernel(c.name);
    EXPECT_EQ(describe(k), describe(c)) << c.name;
  }
}

TEST(KernelTaxonomy, EveryTableRowHasARealNameThatReachesIt) {
  std::set<std::string_view> exercised;
  for (const Case& c : row_cases()) exercised.insert(classify_kernel(c.name).rule);
  std::vector<std::string_view> patterns = kernel_taxonomy_patterns();
  ASSERT_GT(patterns.size(), 50u);
  for (std::string_view p : patterns) EXPECT_TRUE(exercised.count(p)) << "no test name reaches row " << p;
  std::set<std::string_view> unique(patterns.begin(), patterns.end());
  EXPECT_EQ(unique.size(), patterns.size()) << "a row pattern appears twice";
}

struct TraceName {
  double gpu_us;  // total GPU time of the name in the trace(s)
  Category category;
  std::string_view name;
};

// Every distinct kernel/memcpy/memset name in ../shared/traces/*.json.gz (the .xz
// trace holds no others), with its GPU time summed over all of them.
const std::vector<TraceName>& shared_trace_names() {
  static const std::vector<TraceName> names = {
      {548200.7, C::kCommunication, R"(ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>))"},
      {9080.6, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}))"},
      {7228.4, C::kCopyCast,
       R"(void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>))"},
      {6334.7, C::kGemm, R"(nvjet_sm90_tst_8x64_64x16_4x1_v_bz_TNN)"},
      {5827.8, C::kGemm, R"(nvjet_sm90_tst_16x64_64x16_4x1_v_bz_TNN)"},
      {5750.7, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_4x1_v_bz_TNT)"},
      {4169.9, C::kCopyCast, R"(void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>))"},
      {3407.3, C::kReduction,
       R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>))"},
      {2889.6, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_4x1_v_bz_splitK_TNT)"},
      {2697.1, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>))"},
      {2565.9, C::kAttention,
       R"(cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_3_64x64x128_4x1x1_cga1x1x1_kernel0_0)"},
      {2150.9, C::kGemm, R"(nvjet_sm90_tst_64x16_64x16_4x1_v_bz_NNT)"},
      {2113.1, C::kGemm, R"(nvjet_sm90_tst_64x16_64x16_2x1_v_bz_splitK_NNT)"},
      {2110.7, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}))"},
      {2067.9, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous namespace)::OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {1979.0, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy_vectorized<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 3, 128, 1, 16, 8>(char*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {1783.6, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::neg_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#9}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}))"},
      {1615.0, C::kCopyCast,
       R"(void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {1465.1, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {1402.1, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<float>, std::array<char*, 2ul>))"},
      {1344.7, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {1188.5, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<8, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>))"},
      {1168.6, C::kGemm,
       R"(void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, false, float, __nv_bfloat16, __nv_bfloat16, true, false, false, false>(cublasLt::cublasSplitKParams<float>, float const*, __nv_bfloat16 const*, float*, __nv_bfloat16*, float const*, float const*, __nv_bfloat16 const*, float const*, __nv_bfloat16*, void*, long, float*, int*, float*, float*, float const*, float const*, float const*, float const*, float const*))"},
      {1047.3, C::kReduction,
       R"(void at::native::sbtopk::gatherTopK<float, unsigned int, 2, false>(at::cuda::detail::TensorInfo<float const, unsigned int>, unsigned int, unsigned int, bool, unsigned int, unsigned int, at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, float*))"},
      {1038.0, C::kGemm, R"(nvjet_sm90_tst_256x8_64x6_2x1_v_bz_TNT)"},
      {728.7, C::kReduction,
       R"(void at::native::reduce_kernel<128, 4, at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::or_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4, 4> >(at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::or_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4, 4>))"},
      {632.2, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<8, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>))"},
      {621.0, C::kCopyCast,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}))"},
      {609.4, C::kCopyCast,
       R"(void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, long, long, bool))"},
      {569.0, C::kSampling,
       R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>))"},
      {405.4, C::kMemcpy, R"(Memcpy DtoD (Device -> Device))"},
      {384.3, C::kCopyCast,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}))"},
      {368.2, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > const&)::{lambda(int)#1}))"},
      {310.2, C::kMemcpy, R"(Memcpy DtoH (Device -> Pinned))"},
      {299.8, C::kReduction,
       R"(void at::native::bitonicSortKVInPlace<2, -1, 16, 16, float, long, at::native::GTOp<float, true>, unsigned int>(at::cuda::detail::TensorInfo<float, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, at::native::GTOp<float, true>))"},
      {278.7, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<bool>, std::array<char*, 1ul> >(int, at::native::FillFunctor<bool>, std::array<char*, 1ul>))"},
      {272.8, C::kReduction,
       R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>))"},
      {271.1, C::kGemm,
       R"(void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_64x64_8x5_tn_align1::Params))"},
      {267.7, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}))"},
      {263.0, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy_alignedK_contig<at::native::(anonymous namespace)::OpaqueType<8u>, unsigned int, 2, 128, 1, 16>(at::native::(anonymous namespace)::OpaqueType<8u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<8u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {230.0, C::kReduction,
       R"(void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4>))"},
      {225.0, C::kGemm, R"(nvjet_sm90_tst_128x96_64x7_1x2_h_bz_TNT)"},
      {224.1, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool, float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool, float, float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool, float, float)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool, float, float)#1} const&)::{lambda(int)#1}))"},
      {221.3, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, unsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, long))"},
      {218.1, C::kGemm, R"(nvjet_sm90_tst_128x8_64x12_2x1_v_bz_TNT)"},
      {211.9, C::kCopyCast,
       R"(void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#11}::operator()() const::{lambda(bool)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>))"},
      {209.7, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_4x1_v_bz_NNT)"},
      {202.2, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_4x1_v_bz_splitK_NNT)"},
      {199.4, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy_vectorized<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 4, 128, 1, 16, 8>(char*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {193.5, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>))"},
      {180.9, C::kElementwise,
       R"(void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(int, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*))"},
      {172.3, C::kGemm, R"(nvjet_sm90_tst_64x32_64x16_4x2_h_bz_splitK_NNT)"},
      {164.2, C::kElementwise, R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#6}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambda(int)#1}))"},
      {158.5, C::kGemm, R"(nvjet_sm90_tst_72x64_64x12_1x2_h_bz_TNN)"},
      {149.8, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>))"},
      {149.8, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::bitwise_not_kernel_cuda(at::TensorIteratorBase&)::{lambda(bool)#1}, std::array<char*, 2ul> >(int, at::native::bitwise_not_kernel_cuda(at::TensorIteratorBase&)::{lambda(bool)#1}, std::array<char*, 2ul>))"},
      {142.9, C::kGemm, R"(nvjet_sm90_tst_48x64_64x15_4x1_v_bz_TNN)"},
      {142.9, C::kGemm, R"(nvjet_sm90_tst_96x64_64x10_4x2_h_bz_TNN)"},
      {139.9, C::kGemm, R"(nvjet_sm90_tst_64x40_64x16_4x2_h_bz_TNT)"},
      {138.3, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 2ul>))"},
      {136.8, C::kCopyCast,
       R"(void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>))"},
      {135.0, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<bool, bool, bool, at::native::BitwiseOrFunctor<bool> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<bool, bool, bool, at::native::BitwiseOrFunctor<bool> >, std::array<char*, 3ul>))"},
      {133.6, C::kReduction,
       R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::MaxNanFunctor<long> >, unsigned int, long, 4, 4> >(at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::MaxNanFunctor<long> >, unsigned int, long, 4, 4>))"},
      {133.6, C::kReduction,
       R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, unsigned int, long, 4, 4> >(at::native::ReduceOp<long, at::native::func_wrapper_t<long, at::native::sum_functor<long, long, long>::operator()(at::TensorIterator&)::{lambda(long, long)#1}>, unsigned int, long, 4, 4>))"},
      {127.7, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}))"},
      {124.2, C::kGemm, R"(nvjet_sm90_tst_64x32_64x16_2x4_h_bz_TNT)"},
      {123.7, C::kGemm,
       R"(void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, false, float, float, float, true, false, false, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, float*, float const*, float const*, float const*, float const*, float*, void*, long, float*, int*, float*, float*, float const*, float const*, float const*, float const*, float const*))"},
      {123.2, C::kCopyCast,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1} const&)::{lambda(int)#1}))"},
      {116.3, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::cos_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {115.4, C::kReduction,
       R"(void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue, long, 4>(float*, float const*, long))"},
      {113.0, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::sin_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::sin_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {108.1, C::kCopyCast,
       R"(void at::native::_scatter_gather_elementwise_kernel<128, 8, at::native::_cuda_scatter_gather_internal_kernel<false, at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<false, at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}))"},
      {96.8, C::kAttention,
       R"(cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0)"},
      {96.3, C::kCopyCast,
       R"(void at::native::_scatter_gather_elementwise_kernel<128, 8, at::native::_cuda_scatter_fill_internal_kernel<at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, at::native::OpaqueType<4>, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_fill_internal_kernel<at::native::OpaqueType<4>, long>::operator()<at::native::TensorAssign>(at::TensorIterator&, at::native::OpaqueType<4>, long, long, long, at::native::TensorAssign const&)::{lambda(int)#1}))"},
      {91.1, C::kElementwise,
       R"(void at::native::unrolled_elementwise_kernel<at::native::BinaryFunctor<long, long, long, at::native::BitwiseAndFunctor<long> >, std::array<char*, 3ul>, 4, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1> >(int, at::native::BinaryFunctor<long, long, long, at::native::BitwiseAndFunctor<long> >, std::array<char*, 3ul>, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1>))"},
      {87.4, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>))"},
      {84.4, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<long> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<long> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<long> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<long> const&)::{lambda(int)#1}))"},
      {82.9, C::kGemm, R"(nvjet_sm90_tst_64x48_64x15_4x2_h_bz_TNT)"},
      {80.3, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::DivFunctor<float> > const&)::{lambda(int)#1}))"},
      {80.2, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> >, std::array<char*, 3ul>))"},
      {77.9, C::kReduction,
       R"(void at::native::radixSortKVInPlace<-2, -1, 32, 32, long, long, unsigned int>(at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, unsigned int, unsigned int, at::cuda::detail::TensorInfo<long, unsigned int>, unsigned int, bool))"},
      {75.6, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}, std::array<char*, 2ul>))"},
      {75.3, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<long, long, long, at::native::binary_internal::MulFunctor<long> > const&)::{lambda(int)#1}))"},
      {74.6, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}))"},
      {72.3, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul> >(int, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float, bool)#1}, std::array<char*, 3ul>))"},
      {71.3, C::kCopyCast,
       R"(void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int)#1}))"},
      {69.1, C::kGemm,
       R"(void gemmk1_kernel<int, float, 256, 5, true, false, false, false, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float, 0>(cublasGemmk1Params<float, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float, biasType<cublasGemvTensorStridedBatched<float>::value_type, float>::type>))"},
      {68.6, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctor_add<long>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<long>, std::array<char*, 3ul>))"},
      {66.9, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy_vectorized<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 3, 128, 1, 16, 4>(char*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {64.6, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<long>, std::array<char*, 2ul>))"},
      {62.8, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnOther_add<long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnOther_add<long>, std::array<char*, 2ul>))"},
      {60.3, C::kGemm,
       R"(_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13GemmUniversalINS5_17GroupProblemShapeIN4cute5tupleIJiiiEEEEENS5_10collective13CollectiveMmaINS5_39MainloopSm90ArrayTmaGmmaWarpSpecializedILi4ENSA_IJNS9_1CILi2EEENSG_ILi1EEESI_EEENS5_40KernelPtrArrayTmaWarpSpecializedPingpongEEENSA_IJNSG_ILi64EEENSG_ILi128EEESN_EEENS_10bfloat16_tEPNSA_IJlSI_NSG_ILi0EEEEEESP_SS_NS9_8TiledMMAINS9_8MMA_AtomIJNS9_4SM904GMMA28MMA_64x128x16_F32BF16BF16_SSILNSW_5MajorE0ELSY_0ELNSW_7ScaleInE1ELSZ_1EEEEEENS9_6LayoutINSA_IJSI_SI_SI_EEENSA_IJSQ_SQ_SQ_EEEEENSA_IJNS9_10UnderscoreES16_S16_EEEEENS9_13SM90_TMA_LOADENS9_14ComposedLayoutINS9_7SwizzleILi3ELi4ELi3EEENS9_18smem_ptr_flag_bitsILi16EEENS12_INSA_IJNSG_ILi8EEESM_EEENSA_IJSM_SI_EEEEEEEvNS9_8identityENS9_23SM90_TMA_LOAD_MULTICASTES1J_vS1K_EENS_8epilogue10collective18CollectiveEpilogueINS1N_30Sm90PtrArrayTmaWarpSpecializedILi4ELi2ELi16ELb0ELb0ELi2EEEJSO_NSA_IJSM_NSG_ILi32EEEEEEvSS_SP_SS_NS1N_6fusion15FusionCallbacksIS1R_NS1U_17LinearCombinationISP_fSP_fLNS_15FloatRoundStyleE2EEESO_S1T_JEEES19_NS1A_INS1B_ILi2ELi4ELi3EEES1E_NS12_INSA_IJS1F_S1S_EEENSA_IJS1S_SI_EEEEEEENS9_17SM75_U32x4_LDSM_NENS9_14SM90_TMA_STOREES24_NS9_17SM90_U32x4_STSM_NENS9_9Copy_AtomIJS27_NS_6half_tEEEEvEEEvvEEEEEEvNT_6ParamsE)"},
      {52.0, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::FillFunctor<long>, std::array<char*, 1ul> >(int, at::native::FillFunctor<long>, std::array<char*, 1ul>))"},
      {48.0, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<8, at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>))"},
      {45.5, C::kGemm, R"(nvjet_sm90_tst_48x64_64x15_4x2_h_bz_TNN)"},
      {41.4, C::kGemm, R"(nvjet_sm90_tst_64x24_64x16_2x4_h_bz_TNT)"},
      {35.3, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_1x4_h_bz_TNT)"},
      {23.0, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16, bool)#1} const&)::{lambda(int)#1}))"},
      {15.0, C::kGemm, R"(nvjet_sm90_tst_64x8_64x16_2x4_h_bz_TNT)"},
      {14.2, C::kMemset, R"(Memset (Device))"},
      {11.5, C::kGemm, R"(nvjet_sm90_tst_64x32_64x16_4x2_h_bz_TNT)"},
      {9.2, C::kGemm, R"(nvjet_sm90_tst_64x48_64x15_2x4_h_bz_TNT)"},
      {8.5, C::kGemm,
       R"(void at::cuda::detail::prepare_grouped_gemm_data<cutlass::bfloat16_t, cutlass::bfloat16_t, cutlass::bfloat16_t, float, cute::tuple<int, int, int>, cute::tuple<long, cute::C<1>, cute::C<0> >, cute::tuple<long, cute::C<1>, cute::C<0> >, cute::tuple<long, cute::C<1>, cute::C<0> > >(cutlass::bfloat16_t*, cutlass::bfloat16_t*, cutlass::bfloat16_t*, float*, float*, cutlass::bfloat16_t**, cutlass::bfloat16_t**, cutlass::bfloat16_t**, float**, float**, cute::tuple<int, int, int>*, cute::tuple<long, cute::C<1>, cute::C<0> >*, cute::tuple<long, cute::C<1>, cute::C<0> >*, cute::tuple<long, cute::C<1>, cute::C<0> >*, int const*, int, int, int, std::array<long, 3ul>, std::array<long, 3ul>, std::array<long, 3ul>, std::array<long, 3ul>, std::array<long, 3ul>, long, long, bool, bool))"},
      {8.2, C::kCopyCast,
       R"(void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_put_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_put_kernel_impl<at::native::OpaqueType<8> >(at::TensorIterator&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}))"},
      {8.0, C::kCopyCast,
       R"(void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}>(long, at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1} const&, bool)::{lambda(int)#1}))"},
      {5.6, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::BUnaryFunctor<long, long, long, at::native::binary_internal::div_floor_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long, long)#1}>, std::array<char*, 2ul> >(int, at::native::BUnaryFunctor<long, long, long, at::native::binary_internal::div_floor_kernel_cuda(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long, long)#1}>, std::array<char*, 2ul>))"},
      {5.4, C::kGemm,
       R"(sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas)"},
      {5.2, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::compare_scalar_kernel<long>(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{lambda(long)#1}, std::array<char*, 2ul> >(int, at::native::compare_scalar_kernel<long>(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{lambda(long)#1}, std::array<char*, 2ul>))"},
      {4.7, C::kMemcpy, R"(Memcpy HtoD (Pageable -> Device))"},
      {4.5, C::kCopyCast,
       R"(void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 3, 64, 64>(at::native::(anonymous namespace)::OpaqueType<4u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespace)::OpaqueType<4u>, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int))"},
      {4.4, C::kReduction, R"(void at::native::reduce_kernel<512, 1, at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::or_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4, 4> >(at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, at::native::or_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4, 4>))"},
      {4.3, C::kReduction,
       R"(void at_cuda_detail::cub::detail::scan::DeviceScanKernel<at_cuda_detail::cub::detail::scan::policy_hub<int, int, int, unsigned int, std::plus<int> >::Policy1000, int const*, int*, at_cuda_detail::cub::ScanTileState<int, true>, std::plus<int>, at_cuda_detail::cub::NullType, unsigned int, int, false, at_cuda_detail::cub::NullType>(int const*, int*, at_cuda_detail::cub::ScanTileState<int, true>, int, std::plus<int>, at_cuda_detail::cub::NullType, unsigned int))"},
      {4.2, C::kReduction,
       R"(void at::native::tensor_kernel_scan_innermost_dim<long, std::plus<long> >(long*, long const*, unsigned int, unsigned int, unsigned int, long, std::plus<long>))"},
      {4.2, C::kCopyCast,
       R"(void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#3}::operator()() const::{lambda(int)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#3}::operator()() const::{lambda(int)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1>))"},
      {4.1, C::kReduction,
       R"(void at::cuda::kernelHistogram1D<int, int, long, 1, 2, -1, (at::cuda::CUDAHistogramMemoryType)0, at::cuda::CUDA_tensor_histogram<int, int, false>(at::Tensor, at::Tensor, at::Tensor, long, at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, at::cuda::TensorArgType, at::cuda::TensorArgType, at::cuda::TensorArgType)::{lambda(long)#2}>(at::cuda::detail::TensorInfo<int, long>, at::cuda::detail::TensorInfo<int, long>, at::cuda::detail::TensorInfo<int const, long>, long, at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, long, at::cuda::CUDA_tensor_histogram<int, int, false>(at::Tensor, at::Tensor, at::Tensor, long, at::AccumulateType<int, true>::type, at::AccumulateType<int, true>::type, at::cuda::TensorArgType, at::cuda::TensorArgType, at::cuda::TensorArgType)::{lambda(long)#2}))"},
      {2.5, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<2, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long, bool)#1}, std::array<char*, 3ul> >(int, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long, bool)#1}, std::array<char*, 3ul>))"},
      {2.4, C::kElementwise,
       R"(void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > >(at::TensorIteratorBase&, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > >(at::TensorIteratorBase&, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> > const&)::{lambda(int)#1}))"},
      {2.1, C::kReduction,
       R"(void at_cuda_detail::cub::detail::scan::DeviceScanInitKernel<at_cuda_detail::cub::ScanTileState<int, true> >(at_cuda_detail::cub::ScanTileState<int, true>, int))"},
      {2.1, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 3ul> >(int, at::native::BinaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, 3ul>))"},
      {2.1, C::kElementwise,
       R"(void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, std::array<char*, 1ul> >(int, at::native::FillFunctor<int>, std::array<char*, 1ul>))"},
  };
  return names;
}

TEST(KernelTaxonomy, SharedTraceNamesAllClassifyAndNoGpuTimeIsOther) {
  double total_us = 0;
  double other_us = 0;
  std::map<Category, double> by_category;
  for (const TraceName& t : shared_trace_names()) {
    KernelClass k = classify_kernel(t.name);
    EXPECT_EQ(category_name(k.category), category_name(t.category)) << t.name;
    EXPECT_FALSE(k.rule.empty()) << t.name;
    total_us += t.gpu_us;
    by_category[k.category] += t.gpu_us;
    if (k.category == Category::kOther) other_us += t.gpu_us;
  }
  EXPECT_EQ(shared_trace_names().size(), 120u);
  EXPECT_EQ(other_us, 0.0);
  // The two field stories' kernels: the NCCL all-reduce and the fp8 -> bf16 pool cast.
  EXPECT_GT(by_category[Category::kCommunication] / total_us, 0.8);
  EXPECT_GT(by_category[Category::kCopyCast], 10000.0);
}

TEST(KernelTaxonomy, UnknownNamesAreOtherWithNothingGuessed) {
  for (std::string_view name :
       {"", "void ", "my_custom_kernel", "mul_broadcast_2d_kernel", "pow_func_tensor_scalar_kernel_rank_1",
        "void foo<__nv_bfloat16>(float*)", "tensorop_and_wgmma_words_but_no_row"}) {
    KernelClass k = classify_kernel(name);
    EXPECT_EQ(k.category, Category::kOther) << name;
    EXPECT_EQ(k.rule, "") << name;
    EXPECT_FALSE(k.tensor_core.has_value()) << name;
    EXPECT_FALSE(k.precision.has_value()) << name;
  }
}

TEST(KernelTaxonomy, MatchingIgnoresCaseButPrefixesAreAnchored) {
  EXPECT_EQ(classify_kernel("NVJET_SM90_TST_64X8_64X16_4X1_V_BZ_NNT").rule, "^nvjet_&_tst_");
  EXPECT_EQ(classify_kernel("FUSED_MOE_KERNEL").category, Category::kMoe);
  // "^" anchors at the start (after a leading "void "), not anywhere.
  EXPECT_EQ(classify_kernel("void nvjet_tst_64x8_64x16_4x1_v_bz_NNT").rule, "^nvjet_&_tst_");
  EXPECT_EQ(classify_kernel("my_nvjet_tst_wrapper").category, Category::kOther);
  EXPECT_EQ(classify_kernel("not_triton_poi_fused_add_0").category, Category::kOther);
  EXPECT_EQ(classify_kernel("xMemcpy DtoD").category, Category::kOther);
  // "a&b" needs both pieces.
  EXPECT_EQ(classify_kernel("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8").rule, "xmma_");
}

TEST(KernelTaxonomy, PrecisionTokensRespectBoundaries) {
  auto precision = [](std::string_view name) { return classify_kernel(name).precision; };
  // "bf16" contains "f16"; "uint8" contains "int8"; "Li8E" (a mangled template int) contains "i8".
  EXPECT_EQ(precision("void at::native::reduce_kernel<bf16>"), P::kBf16);
  EXPECT_EQ(precision("void at::native::reduce_kernel<uint8_t>"), std::nullopt);
  EXPECT_EQ(precision("void at::native::reduce_kernel<int8_t>"), P::kInt8);
  EXPECT_EQ(precision("_ZN2at6native13reduce_kernelILi8EEEvv"), std::nullopt);
  EXPECT_EQ(precision("ncclDevKernel_AllReduce_Sum_i8_RING_LL"), P::kInt8);
  EXPECT_EQ(precision("ncclDevKernel_AllReduce_Sum_f16_RING_LL"), P::kFp16);
  EXPECT_EQ(precision("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), P::kFp32);
  EXPECT_EQ(precision("ncclDevKernel_AllReduce_Sum_f8e4m3_RING_LL"), P::kFp8);
  // Narrowest wins: fp8 inputs with bf16 output and fp32 accumulation are fp8.
  EXPECT_EQ(precision("bmm_Bfloat16_E4m3E4m3_Fp32_t128x8x128u2_s8_et64x8_m64x8x32_c1x1x1_rM_TN"), P::kFp8);
  EXPECT_EQ(precision("void at::native::reduce_kernel<c10::Half, float>"), P::kFp16);
  EXPECT_EQ(precision("void at::native::reduce_kernel<c10::Float8_e5m2, float>"), P::kFp8);
  EXPECT_EQ(precision("void at::native::reduce_kernel<c10::qint8>"), P::kInt8);
  // Masks: an enum type named Fp8..., an NVFP4 scale type.
  EXPECT_EQ(precision("void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, unsigned char, "
                      "(vllm::Fp8KVCacheDataType)1>(__nv_bfloat16 const*)"),
            P::kBf16);
  EXPECT_EQ(precision("void vllm::reshape_and_cache_flash_kernel<__nv_fp8_e4m3, "
                      "(vllm::Fp8KVCacheDataType)1>"),
            P::kFp8);
  EXPECT_EQ(precision("cutlass3x_sm100_bstensorop_gemm_ue4m3"), std::nullopt);
}

TEST(KernelTaxonomy, TensorCoreTokensOnlyFillOpenRowsAndContradictionsStayUnknown) {
  EXPECT_EQ(classify_kernel("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>").tensor_core,
            std::optional<bool>(true));
  EXPECT_EQ(classify_kernel("cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_128x2_tn_align8").tensor_core,
            std::optional<bool>(true));
  EXPECT_EQ(classify_kernel("cutlass3x_sm100_simt_sgemm_f32_f32_f32_f32_f32_128x64x16_1x1x1_3_tnn_align1").tensor_core,
            std::optional<bool>(false));
  EXPECT_EQ(classify_kernel("void cutlass::Kernel2<cutlass_simt_tensorop_gemm>").tensor_core, std::nullopt);
  // A closed row keeps its value whatever the tokens say.
  EXPECT_EQ(classify_kernel("void vllm::rms_norm_kernel<wgmma_tensorop>").tensor_core, std::optional<bool>(false));
  // Precision alone never implies tensor cores: fp8 GEMMs also have CUDA-core fallbacks.
  EXPECT_EQ(classify_kernel("my_fp8_gemm_fallback_kernel").tensor_core, std::nullopt);
  EXPECT_EQ(classify_kernel("my_fp8_gemm_fallback_kernel").precision, P::kFp8);
}

TEST(KernelTaxonomy, LongNamesScannedInLanesMatchLikeShortOnes) {
  // Repeating a name (space-separated) changes no row or token decision, but moves
  // matches across the boundaries of the stretches a long name is scanned in.
  for (const Case& c : row_cases()) {
    std::string repeated(c.name);
    for (int i = 0; i < 7; ++i) {
      repeated += ' ';
      repeated += c.name;
    }
    EXPECT_EQ(describe(classify_kernel(repeated)), describe(classify_kernel(c.name))) << c.name;
  }
  // One occurrence placed across each stretch boundary (a 4000-byte name is cut at
  // 1000, 2000, 3000), at every offset: found exactly once.
  const std::string_view piece = "fused_moe_kernel<__nv_bfloat16, (vllm::Fp8KVCacheDataType)0>";
  for (std::size_t boundary : {1000u, 2000u, 3000u}) {
    for (std::size_t start = boundary - piece.size() - 2; start <= boundary + 2; ++start) {
      std::string name(4000, ' ');
      name.replace(start, piece.size(), piece);
      KernelClass k = classify_kernel(name);
      EXPECT_EQ(k.category, Category::kMoe) << start;
      EXPECT_EQ(k.precision, P::kBf16) << start;  // the Fp8 enum is masked exactly once
    }
  }
}

TEST(KernelTaxonomy, HostileAndHugeNamesAreSafe) {
  std::string junk(200000, 'x');
  junk += "fused_moe_kernel";
  EXPECT_EQ(classify_kernel(junk).category, Category::kMoe);

  std::string binary;
  for (int i = 0; i < 256; ++i) binary.push_back(static_cast<char>(i));
  binary += std::string("\0nccl", 5);
  KernelClass k = classify_kernel(binary);
  EXPECT_EQ(k.category, Category::kOther);  // "nccl" is not at the start

  std::string with_nul = std::string("ncclDevKernel\0_AllReduce", 24);
  EXPECT_EQ(classify_kernel(with_nul).category, Category::kCommunication);

  // Every prefix of a real name classifies without reading past its end.
  std::string_view real = row_cases().front().name;
  for (const Case& c : row_cases()) {
    if (c.name.size() > real.size()) real = c.name;
  }
  for (std::size_t n = 0; n <= real.size(); ++n) {
    std::string prefix(real.substr(0, n));  // own buffer, so ASan sees any overread
    (void)classify_kernel(prefix);
  }
}

TEST(KernelTaxonomy, ConcurrentFirstUseIsSafe) {
  std::vector<std::thread> threads;
  std::vector<Category> seen(8, Category::kOther);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = classify_kernel("fused_moe_kernel").category; });
  }
  for (auto& t : threads) t.join();
  for (Category c : seen) EXPECT_EQ(c, Category::kMoe);
}

TEST(KernelTaxonomy, CategoryNamesRoundTrip) {
  std::set<std::string_view> names;
  for (int i = 0; i < kCategoryCount; ++i) {
    auto c = static_cast<Category>(i);
    std::string_view name = category_name(c);
    names.insert(name);
    EXPECT_EQ(parse_category(name), c) << name;
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kCategoryCount));
  EXPECT_EQ(category_name(Category::kCopyCast), "copy_cast");
  EXPECT_EQ(category_name(Category::kOther), "other");
  EXPECT_EQ(parse_category("Gemm"), std::nullopt);
  EXPECT_EQ(parse_category(""), std::nullopt);
  EXPECT_EQ(parse_category("gemm "), std::nullopt);
}

TEST(KernelTaxonomy, PrecisionNames) {
  EXPECT_EQ(precision_name(P::kFp4), "fp4");
  EXPECT_EQ(precision_name(P::kFp8), "fp8");
  EXPECT_EQ(precision_name(P::kBf16), "bf16");
  EXPECT_EQ(precision_name(P::kFp16), "fp16");
  EXPECT_EQ(precision_name(P::kTf32), "tf32");
  EXPECT_EQ(precision_name(P::kFp32), "fp32");
  EXPECT_EQ(precision_name(P::kInt8), "int8");
}

}  // namespace
}  // namespace cuprobe
