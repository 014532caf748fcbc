// AMD, training and vision kernel families in the taxonomy. Names are quoted from
// published ROCm/rocprof/Kineto profiles and the launching libraries' sources
// (cuDNN, CUTLASS, MIOpen, Composable Kernel, aiter, FBGEMM, ATen).
#include <gtest/gtest.h>

#include "analysis/kernel_taxonomy.h"
#include "analysis/kernel_taxonomy_cases.h"

namespace cuprobe::taxonomy_test {

const std::vector<Case>& family_cases() {
  using C = Category;
  using P = Precision;
  static const std::vector<Case> cases = {
      // ROCm runtime blit kernels.
      {"__amd_rocclr_copyBuffer", C::kMemcpy, kNoTc, kAnyPrecisionUnknown, "^__amd_rocclr_"},
      {"__amd_rocclr_copyBufferRect", C::kMemcpy, kNoTc, kAnyPrecisionUnknown, "^__amd_rocclr_"},
      {"__amd_rocclr_fillBufferAligned", C::kMemset, kNoTc, kAnyPrecisionUnknown, "^__amd_rocclr_fill"},

      // Inductor: batch norm and foreach kernels.
      {"triton_red_fused__native_batch_norm_legit_functional_add_0", C::kNorm, kNoTc, kAnyPrecisionUnknown,
       "^triton_&batch_norm"},
      {"triton_for_fused_0", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "^triton_for_"},

      // AMD attention: aiter assembly FMHA and MLA, Triton on ROCm, CK tile FMHA.
      {"aiter::fmha_bwd_hd64_bf16_causal_a16_rtne_recompile", C::kAttention, kTc, P::kBf16, "aiter&fmha"},
      {"_ZN5aiter29fmha_fwd_hd128_bf16_causal_rtnE", C::kAttention, kTc, P::kBf16, "aiter&fmha"},
      {"mla_dec_stage1_bf16_a16w16_subQ16_mqa16", C::kAttention, kTc, P::kBf16, "^mla_"},
      {"void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, __hip_bfloat16, "
       "(vllm::Fp8KVCacheDataType)0, 16, 128, 256, false, 4>(__hip_bfloat16 const*, __hip_bfloat16 const*, "
       "__hip_bfloat16 const*, int, float, int const*, int const*, int const*, int, float const*, int, int, int, "
       "float*, float*, __hip_bfloat16*, int, float const*, float const*)",
       C::kAttention, kTc, kAnyPrecisionUnknown, "paged_attention&mfma"},
      {"_attn_fwd", C::kAttention, kTcUnknown, kAnyPrecisionUnknown, "^_attn_fwd"},
      {"ck_tile::kentry<64, 2, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync<ck_tile::"
       "BlockFmhaPipelineProblem<ck_tile::bf16_t, ck_tile::bf16_t, ck_tile::bf16_t, float, float, "
       "ck_tile::WarpGemmMfmaBf16Bf16F32M32N32K16>>>>",
       C::kAttention, kTc, P::kBf16, "fmha"},

      // Norms: ATen, cuDNN and MIOpen batch norm, group norm, LayerNorm backward.
      {"void at::native::batch_norm_collect_statistics_kernel<at::native::InvStd, float, float, float, int>("
       "at::GenericPackedTensorAccessor<float const, 3ul, at::RestrictPtrTraits, int>, float, float, "
       "at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, int>)",
       C::kNorm, kNoTc, P::kFp32, "batch_norm"},
      {"void at::native::batch_norm_backward_elemt_kernel<c10::Half, float, float, int>(", C::kNorm, kNoTc, P::kFp16,
       "batch_norm"},
      {"MIOpenBatchNormFwdTrainSpatial", C::kNorm, kNoTc, kAnyPrecisionUnknown, "batchnorm"},
      {"void cudnn::bn_fw_tr_1C11_kernel_NCHW<__half, float, 512, true, 1>(cudnnTensorStruct, __half const*, "
       "cudnnTensorStruct, __half*, float const*, float const*, float, float, float*, float*, float*, float*, "
       "float, float)",
       C::kNorm, kNoTc, P::kFp16, "bn_fw_"},
      {"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, float, "
       "cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float "
       "const*, float*, float*, float const*, float const*, float)",
       C::kNorm, kNoTc, P::kFp32, "bn_bw_"},
      {"void at::native::(anonymous namespace)::compute_group_norm_kernel<float>(", C::kNorm, kNoTc, P::kFp32,
       "group_norm"},
      {"void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<c10::BFloat16, float>(long, "
       "long, c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, "
       "c10::BFloat16*)",
       C::kNorm, kNoTc, P::kBf16, "GammaBeta"},

      // Convolutions.
      {"void cudnn::ops::nchwToNhwcKernel<__half, __half, float, false, true, (cudnnKernelDataType_t)0>("
       "cudnn::ops::nchw2nhwc_params_t<float>, __half const*, __half*)",
       C::kCopyCast, kNoTc, P::kFp16, "nchwToNhwc"},
      {"void cudnn::ops::nhwcToNchwKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>("
       "cudnn::ops::nhwc2nchw_params_t<float>, float const*, float*)",
       C::kCopyCast, kNoTc, P::kFp32, "nhwcToNchw"},
      {"void cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>("
       "int, int, int, float const*, int, float*, float const*, kernel_conv_params, unsigned long long, int, "
       "float, float, int, float const*, float const*, bool, int, int)",
       C::kConv, kTcUnknown, P::kFp32, "convol"},
      {"void cutlass::Kernel<cutlass::conv::kernel::ImplicitGemmConvolution<cutlass::conv::threadblock::"
       "ImplicitGemmMultistage<cutlass::gemm::GemmShape<128, 128, 32>, cutlass::arch::OpClassTensorOp, "
       "cutlass::half_t>, cutlass::conv::Operator::kWgrad>>(",
       C::kConv, kTc, P::kFp16, "convol"},
      {"sm80_xmma_fprop_implicit_gemm_indexed_f32f32_f32f32_f32_nhwckrsc_nchw_tilesize128x128x8_stage3_"
       "warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn",
       C::kConv, kNoTc, P::kFp32, "implicit_gemm&ffma"},
      {"sm86_xmma_dgrad_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc_tilesize64x64x64_stage4_warpsize2x2x1_"
       "g1_tensor16x8x16_execute_kernel__5x_cudnn",
       C::kConv, kTc, P::kFp16, "xmma_&implicit_gemm"},
      {"cudnn_infer_ampere_implicit_gemm_wgrad_bf16", C::kConv, kTcUnknown, P::kBf16, "implicit_gemm"},
      {"cutlass_tensorop_s1688fprop_optimized_tf32_64x64_16x10_nhwc_align4", C::kConv, kTc, P::kTf32, "cutlass&fprop"},
      {"cutlass_tensorop_h16816dgrad_optimized_128x128_32x3_nhwc_align8", C::kConv, kTc, kAnyPrecisionUnknown,
       "cutlass&dgrad"},
      {"cutlass_tensorop_s1688wgrad_optimized_tf32_64x256_16x3_nhwc_align4", C::kConv, kTc, P::kTf32, "cutlass&wgrad"},
      {"void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>(int, int, int, float const*, int, "
       "float const*, int, float*, kernel_grad_params, unsigned long long, int, unsigned long long, int, float, "
       "int, int, int)",
       C::kConv, kNoTc, P::kFp32, "dgrad_engine"},
      {"void cudnn::detail::dgrad2d_alg1_1<float, 0, 4, 6, 3, 2, 4, true, false>(", C::kConv, kNoTc, P::kFp32,
       "dgrad2d"},
      {"void cudnn::detail::wgrad_alg0_engine<float, 128, 6, 8, 3, 3, 5, false, 512>(int, int, int, float const*, "
       "int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
       C::kConv, kNoTc, P::kFp32, "wgrad_alg"},
      {"void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::winograd_nonfused::"
       "WinogradDataParams<float, float>)",
       C::kConv, kTcUnknown, P::kFp32, "winograd"},
      {"ampere_scudnn_128x64_relu_interior_nn_v1", C::kConv, kNoTc, P::kFp32, "scudnn"},
      {"volta_fp16_s884cudnn_fp16_256x128_ldg8_relu_f2f_exp_small_nhwc_tn_v1", C::kConv, kTc, P::kFp16, "cudnn"},
      {"MIOpenConvUni", C::kConv, kTcUnknown, kAnyPrecisionUnknown, "MIOpenConv"},
      {"miopenSp3AsmConv_v30_3_1_gfx9_fp32_f2x3_stride1", C::kConv, kTcUnknown, P::kFp32, "miopenSp3AsmConv"},
      {"igemm_fwd_gtcx3_nhwc_fp16_bx0_ex1_bt128x128x32_wt32x32x8_ws2x1_wr1x2_ta1x8x2x1_1x4x1x64_tb1x8x1x1_"
       "1x4x1x64",
       C::kConv, kTcUnknown, P::kFp16, "igemm_fwd_gtc"},
      {"igemm_bwd_gtcx_nchw_fp32_bx0_ex1_bt256x128x16_wt64x32x4_ws1x1_wr2x2_ta1x1x4x1_1x16x1x16_tb1x1x2x1_"
       "1x16x1x16_mh",
       C::kConv, kTcUnknown, P::kFp32, "igemm_bwd_gtc"},
      {"igemm_wrw_gtcx_nchw_fp16_bx0_ex0_bt64x64x32_wt32x32x8_ws1x1_wr1x1_ta1x4x1x2_1x8x1x32_tb1x4x1x2_"
       "1x8x1x32",
       C::kConv, kTcUnknown, P::kFp16, "igemm_wrw_gtc"},
      {"naive_conv_fwd_nchw_float_double_float", C::kConv, kNoTc, P::kFp32, "naive_conv_"},
      {"ck::kernel_grouped_conv_fwd_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::"
       "gemm::RowMajor, ck::bhalf_t>>",
       C::kConv, kTc, P::kBf16, "grouped_conv"},
      {"void at::native::(anonymous namespace)::conv_depthwise2d_forward_kernel<3, float, int>(", C::kConv, kNoTc,
       P::kFp32, "conv_depthwise"},
      {"void at::native::(anonymous namespace)::conv_depthwise3d_cuda_kernel<float, float, 3, 3, 3, 1, 1, 1, 1, "
       "1, 1>(",
       C::kConv, kNoTc, P::kFp32, "conv_depthwise"},
      {"void causal_conv1d_fwd_kernel<Causal_conv1d_fwd_kernel_traits<128, 4, true, c10::BFloat16> >("
       "ConvParamsBase)",
       C::kConv, kNoTc, P::kBf16, "conv1d"},
      {"void at::native::im2col_kernel<float>(long, float const*, long, long, long, long, long, long, long, "
       "long, long, long, long, long, float*)",
       C::kConv, kNoTc, P::kFp32, "im2col"},
      {"void at::native::col2im_kernel<c10::Half, float>(", C::kConv, kNoTc, P::kFp16, "col2im"},

      // AMD MoE and GEMM.
      {"_ZN5aiter39fmoe_bf16_blockscaleFp8_g1u1_vs_silu_1tg_32x256E", C::kMoe, kTc, P::kFp8, "aiter&fmoe"},
      {"Cijk_Alik_Bljk_F8B8BS_BH_Bias_HA_S_SAV_UserArgs_MT256x256x64_MI16x16x1", C::kGemm, kTc, P::kFp8, "Cijk_&_F8"},
      {"Cijk_Ailk_Bljk_B8F8SS_BH_MT128x128x64_MI32x32x16x1_SN", C::kGemm, kTc, P::kFp8, "Cijk_&_B8"},
      {"Cijk_Alik_Bljk_I8II_BH_MT128x128x64_MI32x32x8x1_SN_1LDSB0", C::kGemm, kTc, P::kInt8, "Cijk_&_I8"},
      {"Cijk_Alik_Bljk_DB_MT64x64x16_SN_1LDSB0_APM1", C::kGemm, kTcUnknown, kAnyPrecisionUnknown, "Cijk_"},
      {"ck_tile::kentry<256, 1, ck_tile::FlatmmKernel<ck_tile::FlatmmPipelineAGmemBGmemCRegV1<ck_tile::"
       "bf16_t>>>",
       C::kGemm, kTcUnknown, P::kBf16, "flatmm"},
      {"_ZN5aiter24gemm_a8w8_bpreshuffle_fp8_256x128E", C::kGemm, kTcUnknown, P::kFp8, "gemm_a8w8"},
      {"ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<ck::tensor_layout::gemm::RowMajor, "
       "ck::half_t>>",
       C::kGemm, kTc, P::kFp16, "gemm"},
      {"void wvSplitK_hf_sml_<_Float16, 64, 2, 16, 8, 2, 1>(int, int, int, _Float16 const*, _Float16 const*, "
       "_Float16*, int)",
       C::kGemm, kNoTc, P::kFp16, "wvSplitK"},
      {"void rocblas_dot_kernel_inc1<false, 512, float, float const*, float>(", C::kGemm, kNoTc, P::kFp32, "^rocblas_"},
      {"ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)", C::kCommunication, kNoTc, kAnyPrecisionUnknown,
       "^nccl"},

      // Elementwise, embeddings, optimizers, pooling, transposes.
      {"void at::native::(anonymous namespace)::fused_dropout_kernel_vec<c10::Half, float, unsigned int, 1, 4, "
       "bool>(",
       C::kElementwise, kNoTc, P::kFp16, "dropout"},
      {"void at::native::(anonymous namespace)::upsample_bilinear2d_out_frame<float, float>(", C::kElementwise, kNoTc,
       P::kFp32, "upsample"},
      {"void at::native::(anonymous namespace)::embedding_backward_feature_kernel<float, float, long>(long "
       "const*, float const*, float*, int, long, int, int)",
       C::kEmbedding, kNoTc, P::kFp32, "embedding"},
      {"void split_embedding_codegen_forward_unweighted_kernel<float, float, fbgemm_gpu::PlacementType, int, "
       "unsigned int, 32, 4, false>(",
       C::kEmbedding, kNoTc, P::kFp32, "embedding"},
      {"void at::native::(anonymous namespace)::EmbeddingBag_updateOutputKernel_sum_mean<float, long>(", C::kEmbedding,
       kNoTc, P::kFp32, "embedding"},
      {"void fbgemm_gpu::bounds_check_indices_kernel_v1<long, false>(", C::kEmbedding, kNoTc, kAnyPrecisionUnknown,
       "fbgemm"},
      {"void fbgemm_gpu::f8f8bf16_rowwise_impl<cutlass::gemm::GemmShape<128, 128, 128>, cutlass::float_e4m3_t>(",
       C::kGemm, kTcUnknown, P::kFp8, "fbgemm&cutlass"},
      {"void fbgemm_gpu::quantize_fp8_per_row_kernel<c10::BFloat16>(", C::kCopyCast, kNoTc, P::kFp8, "fbgemm&quantize"},
      {"void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel2<false, true, long, long>(", C::kEmbedding, kNoTc,
       kAnyPrecisionUnknown, "fbgemm"},
      {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
       "TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, "
       "(at::native::ADAM_MODE)1, false>, bool, float, double, double, double, double, double, float*, "
       "float*>(",
       C::kOptimizer, kNoTc, P::kFp32, "multi_tensor_apply"},
      {"void fused_adam_cuda_kernel<float, float>(", C::kOptimizer, kNoTc, P::kFp32, "fused_adam"},
      {"void apex::AdamFunctor_vec<c10::Half>(", C::kOptimizer, kNoTc, P::kFp16, "AdamFunctor"},
      {"void at::native::lpnorm_cleanup<float, (at::native::NormType)1, float, float>(float const*, "
       "at::native::TensorListAddresses, int)",
       C::kOptimizer, kNoTc, P::kFp32, "lpnorm_cleanup"},
      {"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(", C::kReduction, kNoTc, P::kFp32,
       "max_pool"},
      {"void at::native::(anonymous namespace)::avg_pool2d_out_cuda_frame<c10::Half, float, long>(", C::kReduction,
       kNoTc, P::kFp16, "avg_pool"},
      {"MIOpenPoolingForward", C::kReduction, kNoTc, kAnyPrecisionUnknown, "pooling"},
      {"batched_transpose_32x16_half", C::kCopyCast, kNoTc, P::kFp16, "batched_transpose"},
      {"void at::native::transpose_kernel<float>(", C::kCopyCast, kNoTc, P::kFp32, "transpose"},

      // Training and vision kernels that fell into "other" (issue 12 item 4): ATen's embedding
      // backward, group norm, pooling, multinomial, old nll_loss; cuBLAS level 1; MIOpen tensor ops.
      {"void at::native::(anonymous namespace)::renormRowsL1<float>(float*, long, long)", C::kSampling, kNoTc, P::kFp32,
       "renormRows"},
      {"void at::native::(anonymous namespace)::ComputeFusedParamsCUDAKernel<float>(long, long, long, float const*, "
       "float const*, float const*, float const*, float*, float*)",
       C::kNorm, kNoTc, P::kFp32, "FusedParamsCUDAKernel"},
      {"void at::native::(anonymous namespace)::ComputeInternalGradientsCUDAKernel<float>(long, float const*, float "
       "const*, float*, float*)",
       C::kNorm, kNoTc, P::kFp32, "ComputeInternalGradients"},
      {"void at::native::(anonymous namespace)::krn_partials_per_segment<long>(long*, long const*, long, long)",
       C::kEmbedding, kNoTc, kAnyPrecisionUnknown, "partials_per_segment"},
      {"void at::native::(anonymous namespace)::compute_num_of_partial_segments<long>(long const*, long const*, "
       "long const*, long*)",
       C::kEmbedding, kNoTc, kAnyPrecisionUnknown, "partial_segment"},
      {"void at::native::(anonymous namespace)::compute_grad_weight<float, float, long>(long const*, float const*, "
       "long const*, long, long, long const*, long const*, long, at::GenericPackedTensorAccessor<float, 2ul, "
       "at::RestrictPtrTraits, long>)",
       C::kEmbedding, kNoTc, P::kFp32, "compute_grad_weight"},
      {"void at::native::(anonymous namespace)::sum_and_scatter<float, float, long>(long const*, float*, long, long "
       "const*, long const*, at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, long const*, "
       "long const*, long, long)",
       C::kEmbedding, kNoTc, P::kFp32, "sum_and_scatter"},
      {"void scal_kernel<float, float, 1, true, 5, 5, 5, 3>(cublasScalParamsEx<float, float>)", C::kGemm, kNoTc,
       P::kFp32, "^scal_kernel"},
      {"void axpy_kernel_val<float, float, 0>(cublasAxpyParamsVal<float, float, float>)", C::kGemm, kNoTc, P::kFp32,
       "^axpy_kernel"},
      {"void at::native::(anonymous namespace)::triu_tril_kernel<float, int, false, 4, true>(at::cuda::detail::"
       "TensorInfo<float, int>, at::cuda::detail::TensorInfo<float const, int>, long, long, long, int)",
       C::kElementwise, kNoTc, P::kFp32, "triu_tril"},
      {"void at::native::_assert_async_cuda_kernel<bool>(bool const*)", C::kElementwise, kNoTc, kAnyPrecisionUnknown,
       "_assert_async"},
      {"OpTensorFwdBias", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "^OpTensor"},
      {"Op2dTensorGeneric", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "^Op&dTensor"},
      {"SubTensorOpWithScalar1d", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "SubTensorOpWith"},
      {"MIOpenActiveFwd2DLite", C::kElementwise, kNoTc, kAnyPrecisionUnknown, "MIOpenActive"},
      {"void at::native::amp_update_scale_cuda_kernel(float*, int*, float const*, double, double, int)", C::kOptimizer,
       kNoTc, P::kFp32, "amp_update_scale"},
      {"void at::native::(anonymous namespace)::adaptive_average_pool<float>(float*, float*, int, int, int, int, long, "
       "long, long)",
       C::kReduction, kNoTc, P::kFp32, "adaptive_average"},
      {"void at::native::(anonymous namespace)::adaptivemaxpool<float>(float const*, float*, long*, int, int, int, "
       "int, long, long, long)",
       C::kReduction, kNoTc, P::kFp32, "adaptivemax"},
      {"void rocprim::detail::onesweep_iteration_kernel<rocprim::default_config, false, long, long, unsigned int>(",
       C::kReduction, kNoTc, kAnyPrecisionUnknown, "onesweep"},
      {"void at::native::(anonymous namespace)::cunn_ClassNLLCriterion_updateOutput_kernel<float, float>(float*, "
       "float*, float*, long*, float*, int, int, int, int, long)",
       C::kReduction, kNoTc, P::kFp32, "NLLCriterion"},
      {"void at::native::(anonymous namespace)::indexing_backward_kernel<float, 4>(long const*, long const*, float "
       "const*, float*, long, long, long, long, bool)",
       C::kCopyCast, kNoTc, P::kFp32, "indexing_backward"},
  };
  return cases;
}

namespace {

TEST(KernelTaxonomyFamilies, NewCategoriesHaveStableNames) {
  EXPECT_EQ(category_name(Category::kConv), "conv");
  EXPECT_EQ(category_name(Category::kEmbedding), "embedding");
  EXPECT_EQ(category_name(Category::kOptimizer), "optimizer");
  EXPECT_EQ(category_name(Category::kOther), "other");
}

TEST(KernelTaxonomyFamilies, NamesThatMerelyContainAFamilyWordKeepTheirCategory) {
  // "conv" alone is not a row: convert/convolution must not collide.
  EXPECT_NE(classify_kernel("void at::native::convert_fp8_kernel<float>(").category, Category::kConv);
  // rotary_embedding is elementwise, not an embedding lookup.
  EXPECT_EQ(classify_kernel("void vllm::rotary_embedding_kernel<c10::BFloat16, true>(").category,
            Category::kElementwise);
  // An FBGEMM fp8 GEMM stays a GEMM.
  EXPECT_EQ(classify_kernel("void fbgemm_gpu::f8f8bf16_rowwise_impl<cutlass::gemm::GemmShape<128>>(").category,
            Category::kGemm);
  // cuDNN attention stays attention.
  EXPECT_EQ(classify_kernel("cudnn_generated_fort_native_sdpa_sm90_knob_7_64x128x64_4x1x1_kernel0_0").category,
            Category::kAttention);
  // Inductor's pointwise kernel named after a convolution's bias is pointwise.
  EXPECT_EQ(classify_kernel("triton_poi_fused_convolution_relu_0").category, Category::kElementwise);
}

}  // namespace
}  // namespace cuprobe::taxonomy_test
