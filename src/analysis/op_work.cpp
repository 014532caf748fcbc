#include "analysis/op_work.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

namespace cuprobe {
namespace {

using Dims = std::vector<std::int64_t>;

struct DtypeInfo {
  std::string_view torch_name;
  int bytes;
  PeakDtype rate;
};

constexpr DtypeInfo kDtypes[] = {
    {"c10::BFloat16", 2, PeakDtype::kBf16},
    {"c10::Half", 2, PeakDtype::kFp16},
    {"float", 4, PeakDtype::kFp32},
    {"double", 8, PeakDtype::kFp32},
    {"c10::Float8_e4m3fn", 1, PeakDtype::kFp8},
    {"c10::Float8_e5m2", 1, PeakDtype::kFp8},
    {"c10::Float8_e4m3fnuz", 1, PeakDtype::kFp8},
    {"c10::Float8_e5m2fnuz", 1, PeakDtype::kFp8},
    {"c10::Float8_e8m0fnu", 1, PeakDtype::kFp8},
    {"c10::Float4_e2m1fn_x2", 1, PeakDtype::kFp4},  // two values per byte
    {"signed char", 1, PeakDtype::kInt8},
    {"unsigned char", 1, PeakDtype::kInt8},
    {"bool", 1, PeakDtype::kInt8},
    {"short int", 2, PeakDtype::kFp32},
    {"int", 4, PeakDtype::kFp32},
    {"long int", 8, PeakDtype::kFp32},
    {"c10::complex<float>", 8, PeakDtype::kFp32},
    {"c10::complex<double>", 16, PeakDtype::kFp32},
};

const DtypeInfo* dtype_info(std::string_view name) {
  for (const auto& d : kDtypes) {
    if (d.torch_name == name) return &d;
  }
  return nullptr;
}

// c10::ScalarType codes, as "Concrete Inputs" writes a dtype argument ("15": bfloat16).
int scalar_type_bytes(std::string_view code) {
  int v = -1;
  auto [ptr, ec] = std::from_chars(code.data(), code.data() + code.size(), v);
  if (ec != std::errc() || ptr != code.data() + code.size()) return 0;
  switch (v) {
    case 0:
    case 1:
    case 11:
    case 23:
    case 24:
    case 25:
    case 26:
    case 44:
    case 45:
      return 1;
    case 2:
    case 5:
    case 15:
      return 2;
    case 3:
    case 6:
      return 4;
    case 4:
    case 7:
    case 9:
      return 8;
    case 10:
      return 16;
    default:
      return 0;
  }
}

// The base name: "aten::mm" -> "mm", "_C::rms_norm" -> "rms_norm".
std::string_view base_name(std::string_view op) {
  std::size_t at = op.rfind("::");
  return at == std::string_view::npos ? op : op.substr(at + 2);
}

bool in(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct Tensor {
  const Dims* dims;
  int bytes;
  PeakDtype rate;
  const Dims* strides;
};

// Argument i as a tensor of a known dtype (a 0-d tensor has no dims).
std::optional<Tensor> tensor(const OpInputs& in, std::size_t i) {
  if (i >= in.args.size()) return std::nullopt;
  const DtypeInfo* d = dtype_info(in.args[i].type);
  if (!d) return std::nullopt;
  return Tensor{&in.args[i].dims, d->bytes, d->rate, &in.args[i].strides};
}

// The bytes a tensor argument's storage holds: read once, expanded dimensions (stride 0) once.
double tensor_bytes(const Tensor& t) { return storage_elements(*t.dims, *t.strides) * t.bytes; }

bool concrete_true(const OpInputs& in, std::size_t i) { return i < in.args.size() && in.args[i].concrete == "True"; }

OpWork gemm(double batch, double m, double k, double n, const Tensor& a, double b_bytes, int out_bytes) {
  OpWork w;
  w.kind = WorkKind::kGemm;
  w.flops = 2 * batch * m * k * n;
  w.bytes = tensor_bytes(a) + b_bytes + batch * m * n * out_bytes;
  w.dtype = a.rate;
  return w;
}

std::optional<OpWork> gemm_work(std::string_view name, const OpInputs& in) {
  // (index of A, index of B, index of a bias added to the output, or -1)
  int ai = 0, bi = 1, bias = -1;
  if (name == "addmm" || name == "baddbmm") {
    ai = 1;
    bi = 2;
    bias = 0;
  }
  auto a = tensor(in, ai), b = tensor(in, bi);
  if (!a || !b) return std::nullopt;
  const Dims &ad = *a->dims, &bd = *b->dims;
  int out_bytes = a->bytes;
  double extra = 0;
  if (bias >= 0) {
    if (auto t = tensor(in, bias)) extra += tensor_bytes(*t);
  }
  std::optional<OpWork> w;
  if (name == "mm" || name == "addmm" || name == "_scaled_mm") {
    if (ad.size() != 2 || bd.size() != 2 || ad[1] != bd[0]) return std::nullopt;
    if (name == "_scaled_mm") {
      // _scaled_mm(a, b, scale_a, scale_b, bias, scale_result, out_dtype, use_fast_accum)
      for (int s : {2, 3, 4, 5}) {
        if (auto t = tensor(in, s)) extra += tensor_bytes(*t);
      }
      out_bytes = in.args.size() > 6 && scalar_type_bytes(in.args[6].concrete) > 0
                      ? scalar_type_bytes(in.args[6].concrete)
                      : 2;  // the default: bf16 out of fp8 inputs
    }
    w = gemm(1, ad[0], ad[1], bd[1], *a, tensor_bytes(*b), out_bytes);
  } else if (name == "bmm" || name == "baddbmm") {
    if (ad.size() != 3 || bd.size() != 3 || ad[0] != bd[0] || ad[2] != bd[1]) return std::nullopt;
    w = gemm(ad[0], ad[1], ad[2], bd[2], *a, tensor_bytes(*b), out_bytes);
  } else if (name == "linear") {
    // linear(x[..., K], W[N, K], bias[N])
    if (ad.empty() || bd.size() != 2 || ad.back() != bd[1]) return std::nullopt;
    if (auto t = tensor(in, 2); t && !t->dims->empty()) extra += tensor_bytes(*t);
    w = gemm(1, numel(ad) / static_cast<double>(std::max<std::int64_t>(ad.back(), 1)), ad.back(), bd[0], *a,
             tensor_bytes(*b), out_bytes);
  } else if (name == "matmul") {
    if (ad.size() < 2 || bd.size() < 2 || ad.back() != bd[bd.size() - 2]) return std::nullopt;
    double batch_a = numel(Dims(ad.begin(), ad.end() - 2)), batch_b = numel(Dims(bd.begin(), bd.end() - 2));
    w = gemm(std::max(batch_a, batch_b), ad[ad.size() - 2], ad.back(), bd.back(), *a, tensor_bytes(*b), out_bytes);
  } else if (name == "_grouped_mm" || name == "_scaled_grouped_mm") {
    // 2-d tokens x 3-d experts' weights ([G, K, N]) or 3-d x 3-d.
    if (bd.size() != 3) return std::nullopt;
    if (ad.size() == 2 && ad[1] == bd[1]) {
      w = gemm(1, ad[0], ad[1], bd[2], *a, tensor_bytes(*b), 2);
    } else if (ad.size() == 3 && ad[0] == bd[0] && ad[2] == bd[1]) {
      w = gemm(ad[0], ad[1], ad[2], bd[2], *a, tensor_bytes(*b), 2);
    } else {
      return std::nullopt;
    }
  }
  if (w) w->bytes += extra;
  return w;
}

std::optional<OpWork> attention_work(std::string_view name, const OpInputs& in) {
  // Layout of q/k/v and where is_causal is: [B, H, L, D] for the SDPA family, [B, L, H, D] for the flash ones.
  struct Form {
    std::string_view name;
    bool heads_first;
    int causal_arg;
  };
  static constexpr Form kForms[] = {
      {"scaled_dot_product_attention", true, 5},
      {"_scaled_dot_product_flash_attention", true, 4},
      {"_scaled_dot_product_efficient_attention", true, 6},
      {"_scaled_dot_product_cudnn_attention", true, 6},
      {"_flash_attention_forward", false, 8},
      {"_efficient_attention_forward", false, 10},
      {"_flash_attn_forward", false, 5},
  };
  const Form* form = nullptr;
  for (const auto& f : kForms) {
    if (f.name == name) form = &f;
  }
  if (!form) return std::nullopt;
  auto q = tensor(in, 0), k = tensor(in, 1), v = tensor(in, 2);
  if (!q || !k || !v || q->dims->size() != 4 || k->dims->size() != 4 || v->dims->size() != 4) return std::nullopt;
  const Dims &qd = *q->dims, &kd = *k->dims, &vd = *v->dims;
  double b = qd[0], h = form->heads_first ? qd[1] : qd[2], lq = form->heads_first ? qd[2] : qd[1];
  double lk = form->heads_first ? kd[2] : kd[1], d = qd[3], dv = vd[3];
  if (lk <= 0 || kd[3] != qd[3]) return std::nullopt;
  double kept = 1.0;  // causal: query i sees lk - lq + i + 1 keys
  if (concrete_true(in, static_cast<std::size_t>(form->causal_arg)) && lq <= lk) kept = 1.0 - lq / (2.0 * lk);
  OpWork w;
  w.kind = WorkKind::kAttention;
  w.flops = 2 * b * h * lq * lk * (d + dv) * kept;
  w.bytes = tensor_bytes(*q) + tensor_bytes(*k) + tensor_bytes(*v) + b * h * lq * dv * q->bytes;
  w.dtype = q->rate;
  return w;
}

std::optional<OpWork> copy_work(std::string_view name, const OpInputs& in) {
  OpWork w;
  w.kind = WorkKind::kCopy;
  if (name == "copy_") {  // copy_(self: destination, src)
    auto dst = tensor(in, 0), src = tensor(in, 1);
    if (!dst || !src) return std::nullopt;
    w.elements = numel(*dst->dims);
    w.bytes = w.elements * dst->bytes + tensor_bytes(*src);
    w.cast = in.args[0].type != in.args[1].type;
    w.dims = *dst->dims;
    return w;
  }
  // _to_copy(self, dtype, ...) / clone(self): the destination's dtype from the dtype code, else self's.
  auto src = tensor(in, 0);
  if (!src) return std::nullopt;
  int out_bytes = src->bytes;
  if (name == "_to_copy" && in.args.size() > 1 && scalar_type_bytes(in.args[1].concrete) > 0) {
    out_bytes = scalar_type_bytes(in.args[1].concrete);
    w.cast = true;  // a dtype was asked for; equal sizes may still differ in type
  }
  w.elements = numel(*src->dims);
  w.bytes = tensor_bytes(*src) + w.elements * out_bytes;
  w.dims = *src->dims;
  return w;
}

OpWork gathered(const Tensor& self, double elements, double index_bytes, const char* sized_by) {
  OpWork w;
  w.kind = WorkKind::kGather;
  w.elements = elements;
  w.bytes = elements * 2 * self.bytes + index_bytes;
  w.dims = *self.dims;
  w.element_bytes = self.bytes;
  w.sized_by = sized_by;
  return w;
}

// A gather whose indices' shapes are not in the trace: sized from an out= tensor of self's dtype at argument
// `out` when there is one, else left for gather_sizing.h to size per call.
OpWork unsized_gather(const OpInputs& in, const Tensor& self, std::size_t out) {
  auto o = tensor(in, out);
  if (o && in.args[out].type == in.args[0].type && !o->dims->empty())
    return gathered(self, numel(*o->dims), 0, "output argument");
  return gathered(self, 0, 0, "");
}

// Indices recorded without shapes: [] for a tensor list, a type but no sizes for a tensor.
bool no_index_shapes(const OpArg& a) { return a.dims.empty() && a.list_dims.empty(); }

std::optional<OpWork> gather_work(std::string_view name, const OpInputs& in) {
  auto s = tensor(in, 0);
  if (!s || s->dims->empty() || in.args.size() < 2) return std::nullopt;
  if (name == "embedding") {  // embedding(weight[V, D], indices)
    auto idx = tensor(in, 1);
    if (!idx || s->dims->size() != 2) return std::nullopt;
    return gathered(*s, numel(*idx->dims) * static_cast<double>((*s->dims)[1]), tensor_bytes(*idx), "index shapes");
  }
  if (name == "index") {  // index(self, indices: Tensor?[]), the leading dims indexed; index.Tensor_out's out third
    const auto& lists = in.args[1].list_dims;
    if (lists.empty()) return no_index_shapes(in.args[1]) ? std::optional(unsized_gather(in, *s, 2)) : std::nullopt;
    if (lists.size() > s->dims->size()) return std::nullopt;
    double rows = 0;
    for (const auto& l : lists) rows = std::max(rows, numel(l));
    double out = rows * numel(Dims(s->dims->begin() + static_cast<std::ptrdiff_t>(lists.size()), s->dims->end()));
    return gathered(*s, out, rows * 8 * static_cast<double>(lists.size()), "index shapes");
  }
  if (name == "take") {  // take(self, index): one element per index
    auto idx = tensor(in, 1);
    if (!idx) return no_index_shapes(in.args[1]) ? std::optional(unsized_gather(in, *s, 2)) : std::nullopt;
    return gathered(*s, numel(*idx->dims), tensor_bytes(*idx), "index shapes");
  }
  if (in.args.size() < 3) return std::nullopt;
  auto idx = tensor(in, 2);
  // gather(self, dim, index, sparse_grad, out), index_select(self, dim, index, out): the out= tensor comes
  // after the arguments the operator takes.
  std::size_t out = name == "gather" ? 4 : 3;
  if (!idx) return no_index_shapes(in.args[2]) ? std::optional(unsized_gather(in, *s, out)) : std::nullopt;
  if (name == "gather") return gathered(*s, numel(*idx->dims), tensor_bytes(*idx), "index shapes");
  // index_select(self, dim, index)
  int dim = 0;
  const std::string& c = in.args[1].concrete;
  std::from_chars(c.data(), c.data() + c.size(), dim);
  if (dim < 0) dim += static_cast<int>(s->dims->size());
  if (dim < 0 || dim >= static_cast<int>(s->dims->size()) || (*s->dims)[dim] <= 0) return std::nullopt;
  double out_elements = numel(*s->dims) / static_cast<double>((*s->dims)[dim]) * numel(*idx->dims);
  return gathered(*s, out_elements, tensor_bytes(*idx), "index shapes");
}

// Elementwise, norm and reduction operators: every tensor argument read once, the result written once.
std::optional<OpWork> streaming_work(std::string_view name, const OpInputs& in) {
  static constexpr std::array<std::string_view, 36> kElementwise = {"add",          "sub",
                                                                    "mul",          "div",
                                                                    "silu",         "gelu",
                                                                    "relu",         "sigmoid",
                                                                    "tanh",         "exp",
                                                                    "log",          "pow",
                                                                    "rsqrt",        "sqrt",
                                                                    "neg",          "abs",
                                                                    "where",        "clamp",
                                                                    "maximum",      "minimum",
                                                                    "fill",         "zero",
                                                                    "masked_fill",  "addcmul",
                                                                    "addcdiv",      "lerp",
                                                                    "sin",          "cos",
                                                                    "reciprocal",   "erf",
                                                                    "mish",         "gelu_and_mul",
                                                                    "silu_and_mul", "rotary_embedding",
                                                                    "exp2",         "sign"};
  static constexpr std::array<std::string_view, 14> kNorm = {
      "layer_norm", "native_layer_norm", "rms_norm",     "_fused_rms_norm",   "fused_add_rms_norm",
      "group_norm", "native_group_norm", "batch_norm",   "native_batch_norm", "softmax",
      "_softmax",   "log_softmax",       "_log_softmax", "_safe_softmax"};
  static constexpr std::array<std::string_view, 16> kReduction = {"sum",
                                                                  "mean",
                                                                  "amax",
                                                                  "amin",
                                                                  "max",
                                                                  "min",
                                                                  "argmax",
                                                                  "argmin",
                                                                  "prod",
                                                                  "var",
                                                                  "std",
                                                                  "norm",
                                                                  "linalg_vector_norm",
                                                                  "all",
                                                                  "any",
                                                                  "logsumexp"};
  std::string_view base = name;
  if (base.size() > 1 && base.back() == '_' && base != "zero_") base.remove_suffix(1);  // in-place forms
  if (base == "zero_") base = "zero";
  WorkKind kind;
  double flops_per_element;
  if (std::find(kElementwise.begin(), kElementwise.end(), base) != kElementwise.end()) {
    kind = WorkKind::kElementwise;
    flops_per_element = 1;
  } else if (std::find(kNorm.begin(), kNorm.end(), base) != kNorm.end()) {
    kind = WorkKind::kNorm;
    flops_per_element = 5;
  } else if (std::find(kReduction.begin(), kReduction.end(), base) != kReduction.end()) {
    kind = WorkKind::kReduction;
    flops_per_element = 1;
  } else {
    return std::nullopt;
  }
  double read = 0, largest = 0;
  int out_bytes = 0;
  bool any = false;
  for (std::size_t i = 0; i < in.args.size(); ++i) {
    auto t = tensor(in, i);
    if (!t) continue;
    any = true;
    read += tensor_bytes(*t);
    if (numel(*t->dims) > largest) {
      largest = numel(*t->dims);
      out_bytes = t->bytes;
    }
  }
  if (!any) return std::nullopt;
  OpWork w;
  w.kind = kind;
  w.elements = largest;
  w.flops = flops_per_element * largest;
  // A reduction's result is small next to its input; the others write one result of the largest input's size.
  w.bytes = read + (kind == WorkKind::kReduction ? 0 : largest * out_bytes);
  w.dtype = PeakDtype::kFp32;  // CUDA cores
  return w;
}

}  // namespace

std::string_view work_kind_name(WorkKind k) {
  switch (k) {
    case WorkKind::kGemm:
      return "gemm";
    case WorkKind::kAttention:
      return "attention";
    case WorkKind::kCopy:
      return "copy";
    case WorkKind::kGather:
      return "gather";
    case WorkKind::kElementwise:
      return "elementwise";
    case WorkKind::kNorm:
      return "norm";
    case WorkKind::kReduction:
      return "reduction";
    case WorkKind::kTransfer:
      return "transfer";
  }
  return "?";
}

int dtype_bytes(std::string_view torch_type) {
  const DtypeInfo* d = dtype_info(torch_type);
  return d ? d->bytes : 0;
}

double storage_elements(const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& strides) {
  if (strides.size() != dims.size()) return numel(dims);
  double n = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (strides[i] != 0) n *= static_cast<double>(std::max<std::int64_t>(dims[i], 0));
  }
  return dims.empty() ? 1 : std::min(n, numel(dims));
}

std::optional<OpWork> op_work(std::string_view op_name, const OpInputs& inputs) {
  std::string_view name = base_name(op_name);
  if (in(name,
         {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "_scaled_mm", "_grouped_mm", "_scaled_grouped_mm"}))
    return gemm_work(name, inputs);
  if (auto w = attention_work(name, inputs)) return w;
  if (in(name, {"copy_", "_to_copy", "clone"})) return copy_work(name, inputs);
  if (in(name, {"embedding", "index_select", "index", "gather", "take"})) return gather_work(name, inputs);
  return streaming_work(name, inputs);
}

double numel(const std::vector<std::int64_t>& dims) {
  double n = 1;
  for (auto v : dims) n *= static_cast<double>(std::max<std::int64_t>(v, 0));
  return n;
}

}  // namespace cuprobe
