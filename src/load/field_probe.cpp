#include "load/field_probe.h"

#include "net/http_fetch.h"

namespace cuprobe {

FieldProbeResult drop_rejected_fields(const HttpUrl& server, const HttpClientConfig& client, RequestTemplate& tpl,
                                      std::chrono::nanoseconds timeout) {
  FieldProbeResult result;
  Prompt probe;
  probe.text = "Hello";
  probe.max_tokens = 1;
  // At most one more request per field it could drop.
  for (int round = 0; round < 3; ++round) {
    bool sends_options = tpl.stream_options && tpl.api != ApiKind::kGenerate;
    if (!sends_options && !tpl.ignore_eos) break;
    ++result.requests;
    HttpFetchResult r = http_fetch(server, client, "POST", tpl.path, request_body_text(tpl, probe), timeout);
    if (!r.responded || (r.status != 400 && r.status != 422)) break;
    if (sends_options && r.body.find("stream_options") != std::string::npos) {
      tpl.stream_options = false;
      result.dropped.push_back("stream_options");
    } else if (tpl.ignore_eos && r.body.find("ignore_eos") != std::string::npos) {
      tpl.ignore_eos = false;
      result.dropped.push_back("ignore_eos");
    } else {
      break;
    }
  }
  return result;
}

}  // namespace cuprobe
