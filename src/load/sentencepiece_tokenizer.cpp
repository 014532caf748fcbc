#include "load/sentencepiece_tokenizer.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "common/error.h"
#include "common/shared_library.h"

namespace cuprobe {
namespace {

// sentencepiece::util::Status: one pointer (null = OK). Its destructor is not
// trivial, so it is returned through a hidden pointer, as the library returns it.
struct SpmStatus {
  void* rep = nullptr;
  SpmStatus() = default;
  SpmStatus(const SpmStatus&) = delete;
  SpmStatus& operator=(const SpmStatus&) = delete;
  ~SpmStatus();
  bool ok() const { return rep == nullptr; }
  std::string message() const;
};

struct SpmLibrary {
  void (*construct)(void* self) = nullptr;
  void (*destroy)(void* self) = nullptr;
  SpmStatus (*load)(void* self, std::string_view filename) = nullptr;
  SpmStatus (*encode)(const void* self, std::string_view input, std::vector<int>* ids) = nullptr;
  void (*status_destroy)(void* status) = nullptr;
  const char* (*status_message)(const void* status) = nullptr;
  std::string why;  // "" when loaded
};

// sizeof(SentencePieceProcessor) is 88 bytes in 0.1.x (a vtable, four unique_ptrs,
// two vectors); room for later versions' members.
constexpr std::size_t kProcessorBytes = 1024;

std::string beside_binary(const char* name) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return name;
  std::string dir(exe, static_cast<std::size_t>(n));
  return dir.substr(0, dir.rfind('/') + 1) + name;
}

const SpmLibrary& library() {
  static const SpmLibrary lib = [] {
    SpmLibrary l;
    const char* env = std::getenv("CUPROBE_LIBSENTENCEPIECE");
    std::string beside = beside_binary("libsentencepiece.so.0");
    OpenedLibrary opened = env && *env ? open_library({env}, RTLD_NOW | RTLD_LOCAL)
                                       : open_library({beside.c_str(), "libsentencepiece.so.0"}, RTLD_NOW | RTLD_LOCAL);
    if (!opened) {
      l.why =
          "reading a SentencePiece tokenizer.model needs the sentencepiece library (libsentencepiece.so.0: "
          "Debian's libsentencepiece0), which could not be loaded: " +
          opened.error + "; or leave out --tokenizer to count with the server's /tokenize";
      return l;
    }
    std::string missing = resolve_symbols(
        opened, {required_symbol("_ZN13sentencepiece22SentencePieceProcessorC1Ev", l.construct),
                 required_symbol("_ZN13sentencepiece22SentencePieceProcessorD1Ev", l.destroy),
                 required_symbol("_ZN13sentencepiece22SentencePieceProcessor4LoadESt17basic_string_viewIcSt11char_"
                                 "traitsIcEE",
                                 l.load),
                 required_symbol("_ZNK13sentencepiece22SentencePieceProcessor6EncodeESt17basic_string_viewIcSt11char_"
                                 "traitsIcEEPSt6vectorIiSaIiEE",
                                 l.encode),
                 required_symbol("_ZN13sentencepiece4util6StatusD1Ev", l.status_destroy),
                 required_symbol("_ZNK13sentencepiece4util6Status13error_messageEv", l.status_message)});
    if (!missing.empty()) l.why = missing + " (a sentencepiece library of another ABI than 0.1.9x's)";
    return l;
  }();
  return lib;
}

SpmStatus::~SpmStatus() {
  if (rep) library().status_destroy(this);
}

std::string SpmStatus::message() const {
  const char* m = library().status_message(this);
  return m && *m ? m : "unknown error";
}

}  // namespace

std::string sentencepiece_unavailable() { return library().why; }

std::unique_ptr<SentencePieceCounter> SentencePieceCounter::load(const std::string& path) {
  const SpmLibrary& lib = library();
  if (!lib.why.empty()) throw Error(path + ": " + lib.why);
  if (access(path.c_str(), R_OK) != 0) throw InputError(path, "cannot open the tokenizer");
  std::unique_ptr<SentencePieceCounter> counter(new SentencePieceCounter());
  counter->path_ = path;
  counter->processor_ = std::make_unique<unsigned char[]>(kProcessorBytes);
  lib.construct(counter->processor_.get());
  SpmStatus status = lib.load(counter->processor_.get(), path);
  if (!status.ok()) throw InputError(path, "not a SentencePiece model: " + status.message());
  return counter;
}

SentencePieceCounter::~SentencePieceCounter() {
  if (processor_) library().destroy(processor_.get());
}

std::vector<int> SentencePieceCounter::encode(const std::string& text) {
  std::vector<int> ids;
  SpmStatus status = library().encode(processor_.get(), text, &ids);
  if (!status.ok()) throw Error(path_ + ": sentencepiece cannot encode a prompt: " + status.message());
  return ids;
}

std::int64_t SentencePieceCounter::count(const std::string& text) {
  return static_cast<std::int64_t>(encode(text).size());
}

}  // namespace cuprobe
