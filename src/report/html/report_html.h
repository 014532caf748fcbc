// `cuprobe report`: the whole page. One HTML file that carries its data (one
// JSON blob), its script and its style sheet; a Content-Security-Policy of
// default-src 'none' keeps the browser from fetching anything at all.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cuprobe {

// `data` is report_data()'s document.
std::string render_report_html(const nlohmann::ordered_json& data, const std::string& title);

}  // namespace cuprobe
