// Before the load: one short request (max_tokens 1) with the run's request
// fields. A server that rejects `stream_options` or `ignore_eos` (HTTP 400/422
// whose body names the field) gets it again without that field, and the run
// goes without it: output tokens are then counted from the stream. Any other
// answer, or none, leaves the template as it is (the load will say what fails).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "load/request_builder.h"
#include "net/http_client_config.h"
#include "net/http_url.h"

namespace cuprobe {

struct FieldProbeResult {
  std::vector<std::string> dropped;  // "stream_options", "ignore_eos", in the order they were dropped
  int requests = 0;                  // probe requests sent
};

// Drops the rejected fields from `tpl` (stream_options, ignore_eos).
FieldProbeResult drop_rejected_fields(const HttpUrl& server, const HttpClientConfig& client, RequestTemplate& tpl,
                                      std::chrono::nanoseconds timeout);

}  // namespace cuprobe
