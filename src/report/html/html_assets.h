// The report page's script and style sheet. Their sources are
// src/report/html/assets/report.{js,css}; the build copies them into a
// generated .cpp (cmake/embed_assets.cmake), so the binary carries them and
// the page needs nothing from the network or the disk.
#pragma once

#include <string_view>

namespace cuprobe {

extern const std::string_view kReportJs;
extern const std::string_view kReportCss;

}  // namespace cuprobe
