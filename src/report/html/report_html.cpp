#include "report/html/report_html.h"

#include "report/analyze_json.h"
#include "report/html/html_assets.h"

namespace cuprobe {
namespace {

std::string escape_html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// JSON inside <script>: "</" (as in "</script>") and "<!--" must not appear; in JSON
// strings "<\/" means the same.
std::string script_safe(std::string json) {
  std::string out;
  out.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && i + 1 < json.size() && (json[i + 1] == '/' || json[i + 1] == '!')) {
      out += "\\u003c";
    } else {
      out += json[i];
    }
  }
  return out;
}

// Installed before the page's script: every error and console.error lands in
// window.__cuprobeErrors, which the self-check reports.
constexpr const char* kErrorTrap =
    "window.__cuprobeErrors=[];window.addEventListener('error',function(e){window.__cuprobeErrors.push(String(e."
    "message))});(function(){var f=console.error;console.error=function(){window.__cuprobeErrors.push(Array.prototype."
    "join.call(arguments,' '));f.apply(console,arguments)}})();";

}  // namespace

std::string render_report_html(const nlohmann::ordered_json& data, const std::string& title) {
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src 'unsafe-inline'; img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  page += escape_html(title);
  page += "</title>\n<style>\n";
  page += kReportCss;
  page +=
      "</style>\n</head>\n<body>\n<header id=\"top\" class=\"top\"></header>\n<nav id=\"toc\" class=\"toc\"></nav>\n";
  page += "<main id=\"main\"></main>\n<pre id=\"cuprobe-selfcheck\"></pre>\n<script>";
  page += kErrorTrap;
  page += "</script>\n<script type=\"application/json\" id=\"cuprobe-data\">";
  page += script_safe(data.dump(-1, ' ', false, kReplaceInvalidUtf8));
  page += "</script>\n<script>\n";
  page += kReportJs;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace cuprobe
