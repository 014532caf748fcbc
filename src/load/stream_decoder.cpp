#include "load/stream_decoder.h"

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace cuprobe {
namespace {

using nlohmann::json;

std::string excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 120)) out += (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) ? c : ' ';
  if (s.size() > 120) out += "...";
  return out;
}

bool nonempty_string(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() && !it->get_ref<const std::string&>().empty();
}

std::int64_t int_field(const json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_number_integer()) return -1;
  return it->get<std::int64_t>();
}

void read_usage(const json& usage, StreamChunk& chunk) {
  if (!usage.is_object()) return;
  chunk.prompt_tokens = int_field(usage, "prompt_tokens");
  chunk.completion_tokens = int_field(usage, "completion_tokens");
}

std::string error_message(const json& error) {
  if (error.is_string()) return error.get<std::string>();
  if (error.is_object()) {
    auto it = error.find("message");
    if (it != error.end() && it->is_string()) return it->get<std::string>();
  }
  return error.dump();
}

}  // namespace

ApiKind api_for_endpoint(std::string_view endpoint) {
  if (endpoint == "/v1/completions") return ApiKind::kCompletions;
  if (endpoint == "/v1/chat/completions") return ApiKind::kChat;
  if (endpoint == "/generate") return ApiKind::kGenerate;
  throw Error(
      "unsupported endpoint '" + std::string(endpoint) + "' (use /v1/completions, /v1/chat/completions or /generate)",
      kExitUsage);
}

std::string take_api_endpoint(std::string& path) {
  for (const char* endpoint : {"/v1/chat/completions", "/v1/completions", "/generate"}) {
    if (path.ends_with(endpoint)) {
      path.resize(path.size() - std::string_view(endpoint).size());
      return endpoint;
    }
  }
  return "";
}

const char* api_name(ApiKind api) {
  switch (api) {
    case ApiKind::kCompletions:
      return "/v1/completions";
    case ApiKind::kChat:
      return "/v1/chat/completions";
    case ApiKind::kGenerate:
      return "/generate";
  }
  return "?";
}

StreamChunk StreamDecoder::decode(std::string_view event, std::string_view data) {
  StreamChunk chunk;
  std::string_view trimmed = data;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\n')) trimmed.remove_suffix(1);
  if (trimmed == "[DONE]") {
    chunk.kind = StreamChunk::Kind::kDone;
    return chunk;
  }
  json doc = json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (event == "error") {
    chunk.kind = StreamChunk::Kind::kError;
    chunk.message = doc.is_discarded() ? excerpt(data) : error_message(doc.contains("error") ? doc["error"] : doc);
    return chunk;
  }
  if (doc.is_discarded() || !doc.is_object()) {
    chunk.kind = StreamChunk::Kind::kMalformed;
    chunk.message = "event data is not a JSON object: '" + excerpt(data) + "'";
    return chunk;
  }
  if (auto it = doc.find("error"); it != doc.end() && !it->is_null()) {
    chunk.kind = StreamChunk::Kind::kError;
    chunk.message = error_message(*it);
    return chunk;
  }
  if (auto it = doc.find("object"); it != doc.end() && *it == "error") {
    chunk.kind = StreamChunk::Kind::kError;
    chunk.message = doc.contains("message") ? error_message(doc["message"]) : doc.dump();
    return chunk;
  }
  if (auto it = doc.find("id"); it != doc.end() && it->is_string()) chunk.id = it->get<std::string>();

  if (api_ == ApiKind::kGenerate) {
    auto text = doc.find("text");
    if (text == doc.end() || !text->is_string()) {
      chunk.kind = StreamChunk::Kind::kMalformed;
      chunk.message = "/generate event without a \"text\" string";
      return chunk;
    }
    std::size_t bytes = text->get_ref<const std::string&>().size();
    if (auto meta = doc.find("meta_info"); meta != doc.end() && meta->is_object()) {
      chunk.prompt_tokens = int_field(*meta, "prompt_tokens");
      chunk.completion_tokens = int_field(*meta, "completion_tokens");
      if (chunk.id.empty() && meta->contains("id") && (*meta)["id"].is_string()) chunk.id = (*meta)["id"];
      auto finish = meta->find("finish_reason");
      chunk.finished = finish != meta->end() && !finish->is_null();
    }
    // Cumulative text: new text means a longer text, or more completion tokens.
    if (chunk.completion_tokens >= 0) {
      chunk.has_content = chunk.completion_tokens > generate_tokens_;
      generate_tokens_ = std::max(generate_tokens_, chunk.completion_tokens);
    } else {
      chunk.has_content = bytes > 0 && bytes != generate_text_bytes_;
    }
    generate_text_bytes_ = bytes;
    if (keep_text && chunk.has_content) {
      chunk.text = text->get<std::string>();
      chunk.text_whole = true;
    }
    return chunk;
  }

  if (auto usage = doc.find("usage"); usage != doc.end()) read_usage(*usage, chunk);
  auto choices = doc.find("choices");
  if (choices == doc.end() || !choices->is_array()) {
    if (chunk.completion_tokens < 0 && chunk.prompt_tokens < 0) {
      chunk.kind = StreamChunk::Kind::kMalformed;
      chunk.message = "event without \"choices\" or \"usage\": '" + excerpt(data) + "'";
    }
    return chunk;
  }
  for (const auto& choice : *choices) {
    if (!choice.is_object()) continue;
    if (auto finish = choice.find("finish_reason"); finish != choice.end() && !finish->is_null()) {
      chunk.finished = true;
    }
    if (api_ == ApiKind::kCompletions) {
      if (nonempty_string(choice, "text")) {
        chunk.has_content = true;
        if (keep_text) chunk.text += choice["text"].get<std::string>();
      }
    } else if (auto delta = choice.find("delta"); delta != choice.end() && delta->is_object()) {
      if (nonempty_string(*delta, "content") || nonempty_string(*delta, "reasoning_content") ||
          nonempty_string(*delta, "reasoning")) {
        chunk.has_content = true;
        if (keep_text && nonempty_string(*delta, "content")) chunk.text += (*delta)["content"].get<std::string>();
      }
    }
  }
  return chunk;
}

}  // namespace cuprobe
