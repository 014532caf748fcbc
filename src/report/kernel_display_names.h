// The names of a table's kernel rows: each the shortest form that tells it apart
// from the other rows of the table. A kernel whose short form
// (kernel_display_name) no other row shares keeps it; rows that share one show
// the template arguments that differ between them, recursively and without
// namespaces ("elementwise_kernel<gpu_kernel_impl_nocast<BinaryFunctor<MulFunctor>>>",
// "CatArrayBatchedCopy<float, 3>", the fewest arguments that do it); names alike up to their template
// arguments (overloads, cut-off names) are numbered: "name (2)". Full names stay
// in JSON and CSV.
#pragma once

#include <string>
#include <vector>

#include "analysis/analysis_result.h"

namespace cuprobe {

// One display name per full name, in order; equal full names get equal display names, and different full
// names different ones. max_length cuts long forms in the middle ("…"), keeping them distinct.
std::vector<std::string> unique_kernel_display_names(const std::vector<std::string>& full_names,
                                                     std::size_t max_length = 72);

// The display names of a rank's kernel table (RankAnalysis::kernels, in order): what the text, JSON, CSV
// and the page show as a row's name.
std::vector<std::string> rank_kernel_display_names(const RankAnalysis& rank);

// The rank a finding is about: the one rank, or the rank with the finding's id; nullptr when none matches.
const RankAnalysis* finding_rank(const AnalyzeReport& report, const Finding& f);

// The names of a finding's kernels (Finding::kernels, in order), as analyze's text and the page's cards show
// them: the row name in its rank's kernel table, or kernel_display_name for a kernel not in the table.
std::vector<std::string> finding_kernel_display_names(const AnalyzeReport& report, const Finding& f);

}  // namespace cuprobe
