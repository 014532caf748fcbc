// The text of an HTTP/1.1 request as cuprobe's clients send it (Host,
// User-Agent, Accept, Connection: close, the run's extra headers, a JSON body
// with its length), and the check of a user's 'Name: value' header.
#pragma once

#include <string>

namespace cuprobe {

// "Name: value" → "Name: value\r\n"; throws cuprobe::Error (exit code 2) for a
// malformed header or one with CR/LF in it.
std::string header_line(const std::string& header);

// The whole request; a GET without a body has no Content-Type/Content-Length.
// `extra_headers` are "Name: value\r\n" lines (see header_line()).
std::string format_http_request(const char* method, const std::string& path, const std::string& authority,
                                const char* accept, const std::string& json_body,
                                const std::string& extra_headers = "");

// A small request (GET/POST) accepting anything, for readiness and profiler calls.
std::string build_simple_request(const char* method, const std::string& path, const std::string& authority,
                                 const std::string& json_body = "", const std::string& extra_headers = "");

}  // namespace cuprobe
