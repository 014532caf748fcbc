#include "load/stream_response.h"

namespace cuprobe {

void StreamResponse::fail(std::string why, std::string what) {
  if (finished) return;
  finished = true;
  reason = std::move(why);
  detail = std::move(what);
}

void StreamResponse::check_headers() {
  if (headers_checked) return;
  headers_checked = true;
  rec.http_status = http.status();
  if (http.status() < 200 || http.status() >= 300) {
    error_body = true;
  } else if (!http.content_type().empty() && http.content_type().find("event-stream") == std::string::npos) {
    error_body = true;
  }
}

void StreamResponse::on_body(std::string_view data) {
  check_headers();
  if (finished) return;
  if (error_body) {
    if (body_excerpt.size() < max_error_body) {
      body_excerpt.append(data.substr(0, max_error_body - body_excerpt.size()));
    }
    return;
  }
  if (!sse.feed(data, *this)) fail("malformed_sse", "one event exceeded the size cap");
}

void StreamResponse::on_event(std::string_view event, std::string_view data) {
  if (finished) return;
  ++rec.events;
  StreamChunk chunk = decoder.decode(event, data);
  switch (chunk.kind) {
    case StreamChunk::Kind::kDone:
      saw_done = true;
      finished = true;
      return;
    case StreamChunk::Kind::kError:
      fail("stream_error", chunk.message);
      return;
    case StreamChunk::Kind::kMalformed:
      fail("malformed_sse", chunk.message);
      return;
    case StreamChunk::Kind::kData:
      break;
  }
  if (chunk.has_content) {
    ++rec.content_events;
    if (rec.content_ns.size() < max_stamps) rec.content_ns.push_back(now);
    if (chunk.text_whole)
      rec.generated_text = std::move(chunk.text);
    else
      rec.generated_text += chunk.text;
  }
  if (chunk.prompt_tokens >= 0) rec.prompt_tokens = chunk.prompt_tokens;
  if (chunk.completion_tokens >= 0) rec.completion_tokens = chunk.completion_tokens;
  if (chunk.finished) saw_finish = true;
  if (rec.response_id.empty() && !chunk.id.empty()) rec.response_id = chunk.id.substr(0, 128);
}

void StreamResponse::conclude() {
  if (finished && !saw_done) return;
  check_headers();
  finished = false;
  if (error_body) {
    std::string excerpt;
    for (char c : body_excerpt.substr(0, 300)) excerpt += (static_cast<unsigned char>(c) >= 0x20) ? c : ' ';
    if (http.status() >= 200 && http.status() < 300) {
      fail("not_event_stream",
           "HTTP " + std::to_string(http.status()) + " with Content-Type '" + http.content_type() + "': " + excerpt);
    } else {
      fail("http_" + std::to_string(http.status()), excerpt);
    }
  } else if (!saw_done && !saw_finish) {
    fail("truncated_stream", "the stream ended without [DONE] or a finish_reason");
  } else if (rec.content_events == 0) {
    fail("no_tokens", "the stream ended without any generated text");
  } else {
    finished = true;
  }
}

}  // namespace cuprobe
