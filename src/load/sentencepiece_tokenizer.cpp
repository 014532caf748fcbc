#include "load/sentencepiece_tokenizer.h"

#include "common/bounded_read.h"
#include "common/error.h"

#ifdef CUPROBE_HAVE_SENTENCEPIECE
#include <sentencepiece_processor.h>
#endif

namespace cuprobe {

#ifndef CUPROBE_HAVE_SENTENCEPIECE

std::string sentencepiece_unavailable() {
  return "reading a SentencePiece tokenizer.model needs the sentencepiece library, and this cuprobe was built without "
         "it (libsentencepiece-dev was absent at build time): install it and rebuild, or leave out --tokenizer to "
         "count with the server's /tokenize";
}

}  // namespace cuprobe

// The library's type, for the unique_ptr's deleter only: without the library no processor is ever made.
namespace sentencepiece {
class SentencePieceProcessor {};
}  // namespace sentencepiece

namespace cuprobe {

SentencePieceCounter::SentencePieceCounter() = default;
SentencePieceCounter::~SentencePieceCounter() = default;

std::unique_ptr<SentencePieceCounter> SentencePieceCounter::load(const std::string& path) {
  throw Error(path + ": " + sentencepiece_unavailable());
}

std::vector<int> SentencePieceCounter::encode(const std::string&) { throw Error(sentencepiece_unavailable()); }

#else

std::string sentencepiece_unavailable() { return ""; }

SentencePieceCounter::SentencePieceCounter() : processor_(std::make_unique<sentencepiece::SentencePieceProcessor>()) {}
SentencePieceCounter::~SentencePieceCounter() = default;

std::unique_ptr<SentencePieceCounter> SentencePieceCounter::load(const std::string& path) {
  // Read by cuprobe with a bound (issue 39): a FIFO or /dev/zero named as the model never reaches the library.
  std::string model = read_bounded_file(path, kMaxSentencePieceModelBytes);
  std::unique_ptr<SentencePieceCounter> counter(new SentencePieceCounter());
  counter->path_ = path;
  auto status = counter->processor_->LoadFromSerializedProto(model);
  if (!status.ok()) throw InputError(path, "not a SentencePiece model: " + std::string(status.message()));
  return counter;
}

std::vector<int> SentencePieceCounter::encode(const std::string& text) {
  std::vector<int> ids;
  auto status = processor_->Encode(text, &ids);
  if (!status.ok()) throw Error(path_ + ": sentencepiece cannot encode a prompt: " + std::string(status.message()));
  return ids;
}

#endif  // CUPROBE_HAVE_SENTENCEPIECE

std::int64_t SentencePieceCounter::count(const std::string& text) {
  return static_cast<std::int64_t>(encode(text).size());
}

}  // namespace cuprobe
