// What one streamed response says about its request: the HTTP response parsed
// as it arrives, its SSE events decoded, each content event stamped into the
// request's record, and at the end the outcome (success, or a reason key and a
// line for people). The load loop owns the socket; this owns the meaning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "load/request_record.h"
#include "load/stream_decoder.h"
#include "net/http_response_parser.h"
#include "net/sse_parser.h"

namespace cuprobe {

struct StreamResponse final : HttpBodySink, SseSink {
  StreamResponse(RequestRecord& r, ApiKind api, std::size_t max_header_bytes, std::size_t max_error_body_bytes)
      : rec(r),
        http(HttpResponseParser::Limits{max_header_bytes, 1024}),
        decoder(api),
        max_error_body(max_error_body_bytes) {}

  RequestRecord& rec;
  std::int64_t now = 0;  // arrival time of the bytes being parsed
  HttpResponseParser http;
  SseParser sse;
  StreamDecoder decoder;
  std::size_t max_error_body;
  std::size_t max_stamps = 0;
  bool headers_checked = false;
  bool error_body = false;
  std::string body_excerpt;
  bool saw_done = false;
  bool saw_finish = false;
  bool finished = false;  // outcome decided
  std::string reason, detail;

  // Decides the outcome as a failure (the first decision stands).
  void fail(std::string why, std::string what);
  void on_body(std::string_view data) override;
  void on_event(std::string_view event, std::string_view data) override;
  // The response ended (body complete or [DONE]): decide success or the reason.
  void conclude();

 private:
  void check_headers();
};

}  // namespace cuprobe
