// Turns the data of one server-sent event into what a benchmark needs: did it
// carry generated text, token counts from "usage", the end marker, an error.
// Knows the three streaming APIs: OpenAI /v1/completions, /v1/chat/completions
// (vLLM, SGLang, TGI, llama.cpp...) and SGLang's native /generate.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuprobe {

enum class ApiKind { kCompletions, kChat, kGenerate };

// "/v1/completions" → kCompletions, "/v1/chat/completions" → kChat, "/generate" → kGenerate;
// throws cuprobe::Error (exit code 2) for anything else.
ApiKind api_for_endpoint(std::string_view endpoint);
const char* api_name(ApiKind api);
// When `path` ends with one of the three endpoints, removes it and returns it; else "".
std::string take_api_endpoint(std::string& path);

struct StreamChunk {
  enum class Kind { kData, kDone, kError, kMalformed };
  Kind kind = Kind::kData;
  bool has_content = false;         // generated text (or reasoning text) arrived in this event
  bool finished = false;            // a finish_reason was set
  std::int64_t prompt_tokens = -1;  // from usage / meta_info, -1 when absent
  std::int64_t completion_tokens = -1;
  std::string text;         // with StreamDecoder::keep_text: the generated text of this event
  bool text_whole = false;  // ... which is the whole text so far (/generate), not a piece
  std::string id;           // response id, when the event names one
  std::string message;      // error message, or why the event is malformed
};

// One per request: /generate sends the whole text so far in every event.
class StreamDecoder {
 public:
  explicit StreamDecoder(ApiKind api) : api_(api) {}
  StreamChunk decode(std::string_view event, std::string_view data);
  // Fill StreamChunk::text (vLLM's generated_texts): completions' choices[].text,
  // chat's delta.content, /generate's whole text.
  bool keep_text = false;

 private:
  ApiKind api_;
  std::size_t generate_text_bytes_ = 0;
  std::int64_t generate_tokens_ = 0;
};

}  // namespace cuprobe
