#include "stream_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <queue>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace cuprobe::test {
// Named, not anonymous: bench/load_stream_server_bench.cpp compiles this file into a program.
namespace stream_server_detail {

std::int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

enum class Api { kCompletions, kChat, kGenerate };

enum class Fault {
  kNone,
  kHttp500,
  kHttp400,
  kStall,
  kCloseMid,
  kMalformedJson,
  kErrorEvent,
  kBadChunk,
  kHugeHeader,
  kBadStatus,
  kNoUsage,
  kComments,
  kNoDone,
};

struct FaultName {
  const char* marker;
  Fault fault;
};

// Put one of these in a prompt to get that behaviour for the request.
constexpr FaultName kFaults[] = {
    {"fault:http_500", Fault::kHttp500},              // 500 with a JSON error body
    {"fault:http_400", Fault::kHttp400},              // 400 with a JSON error body
    {"fault:stall", Fault::kStall},                   // one token, then silence with the connection open
    {"fault:close_mid", Fault::kCloseMid},            // three tokens, then the connection closes
    {"fault:malformed_json", Fault::kMalformedJson},  // an event whose data is not JSON
    {"fault:error_event", Fault::kErrorEvent},        // {"error": {...}} in the stream, then [DONE]
    {"fault:bad_chunk", Fault::kBadChunk},            // a chunk size that is not hex
    {"fault:huge_header", Fault::kHugeHeader},        // a 200 KB response header
    {"fault:bad_status", Fault::kBadStatus},          // "HTTP/1.1 abc"
    {"fault:no_usage", Fault::kNoUsage},              // no usage chunk even when asked
    {"fault:comments", Fault::kComments},             // ": ping" comments and "data:" without a space
    {"fault:no_done", Fault::kNoDone},                // the body ends without [DONE] or finish_reason
};

constexpr std::uint64_t kListenId = 0, kTimerId = 1, kWakeId = 2;

struct Conn {
  std::uint64_t uid = 0;
  int fd = -1;
  std::string in;
  std::string out;
  bool responding = false;
  bool close_after_flush = false;
  int requests = 0;  // requests read on this connection
  Api api = Api::kCompletions;
  Fault fault = Fault::kNone;
  std::size_t served_index = 0;
  std::string id;
  std::int64_t first_due = 0, itl = 0;
  std::int64_t tokens_left = 0, tokens_sent = 0, events = 0, prompt_tokens = 0;
  bool include_usage = false;
  std::string generated;  // /generate sends the whole text so far
};

std::string json_escape(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace stream_server_detail

using namespace stream_server_detail;

struct StreamServer::Impl {
  StreamServerOptions opt;
  int listen_fd = -1, ep = -1, timer_fd = -1, wake_fd = -1;
  std::uint16_t port = 0;
  std::int64_t started_ns = 0;
  std::thread thread;
  bool stopped = false;
  std::uint64_t next_uid = 3, next_request = 0;
  std::unordered_map<std::uint64_t, std::unique_ptr<Conn>> conns;
  using Due = std::pair<std::int64_t, std::uint64_t>;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> heap;
  mutable std::mutex mu;
  std::deque<ServedRequest> served;
  std::vector<ProfileCall> profile_calls;
  std::uint64_t events_sent = 0;
  // What /metrics reports (under mu).
  std::int64_t streams_running = 0, peak_streams = 0, prompt_tokens_total = 0, generation_tokens_total = 0,
               requests_total = 0;
  std::uint64_t metrics_scrapes = 0;
  std::uint64_t connections_accepted = 0, reused_seen = 0, reused_dropped = 0;

  std::string metrics_text() const {
    std::lock_guard<std::mutex> lock(mu);
    const bool vllm = opt.metrics_engine == "vllm";
    const std::string p = vllm ? "vllm:" : "sglang:";
    const std::string labels = "{model_name=\"" + opt.model + "\",engine=\"0\"}";
    const double ttft_s = opt.ttft_us / 1e6;
    std::string t;
    auto metric = [&](const std::string& name, const char* type, const std::string& help, const std::string& sample) {
      t += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n" + sample;
    };
    auto num = [](double v) { return std::to_string(v); };
    if (vllm) {
      metric(p + "num_requests_running", "gauge", "Number of requests in model execution batches.",
             p + "num_requests_running" + labels + " " + num(static_cast<double>(streams_running)) + "\n");
      metric(p + "num_requests_waiting", "gauge", "Number of requests waiting to be processed.",
             p + "num_requests_waiting" + labels + " 0.0\n");
      metric(p + "kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.",
             p + "kv_cache_usage_perc" + labels + " " + num(static_cast<double>(streams_running) / 64.0) + "\n");
      metric(p + "num_preemptions_total", "counter", "Cumulative number of preemption from the engine.",
             p + "num_preemptions_total" + labels + " 0.0\n");
      metric(p + "prompt_tokens_total", "counter", "Number of prefill tokens processed.",
             p + "prompt_tokens_total" + labels + " " + num(static_cast<double>(prompt_tokens_total)) + "\n");
      metric(p + "generation_tokens_total", "counter", "Number of generation tokens processed.",
             p + "generation_tokens_total" + labels + " " + num(static_cast<double>(generation_tokens_total)) + "\n");
      metric(p + "prefix_cache_queries_total", "counter", "Prefix cache queries, in terms of number of queried tokens.",
             p + "prefix_cache_queries_total" + labels + " " + num(static_cast<double>(prompt_tokens_total)) + "\n");
      metric(p + "prefix_cache_hits_total", "counter", "Prefix cache hits, in terms of number of cached tokens.",
             p + "prefix_cache_hits_total" + labels + " " + num(static_cast<double>(prompt_tokens_total / 4)) + "\n");
      std::string h;
      for (double le : {0.001, 0.01, 0.1, 1.0})
        h += p + "time_to_first_token_seconds_bucket{model_name=\"" + opt.model + "\",engine=\"0\",le=\"" + num(le) +
             "\"} " + num(ttft_s <= le ? static_cast<double>(requests_total) : 0.0) + "\n";
      h += p + "time_to_first_token_seconds_bucket{model_name=\"" + opt.model + "\",engine=\"0\",le=\"+Inf\"} " +
           num(static_cast<double>(requests_total)) + "\n";
      h += p + "time_to_first_token_seconds_count" + labels + " " + num(static_cast<double>(requests_total)) + "\n";
      h += p + "time_to_first_token_seconds_sum" + labels + " " + num(static_cast<double>(requests_total) * ttft_s) +
           "\n";
      metric(p + "time_to_first_token_seconds", "histogram", "Histogram of time to first token in seconds.", h);
    } else {
      metric(p + "num_running_reqs", "gauge", "The number of running requests.",
             p + "num_running_reqs" + labels + " " + num(static_cast<double>(streams_running)) + "\n");
      metric(p + "num_queue_reqs", "gauge", "The number of requests in the waiting queue.",
             p + "num_queue_reqs" + labels + " 0\n");
      metric(p + "token_usage", "gauge", "The token usage.",
             p + "token_usage" + labels + " " + num(static_cast<double>(streams_running) / 64.0) + "\n");
      metric(p + "generation_tokens_total", "counter", "Number of generation tokens processed.",
             p + "generation_tokens_total" + labels + " " + num(static_cast<double>(generation_tokens_total)) + "\n");
    }
    // Not an engine family: read, but not reported.
    t += "# TYPE process_open_fds gauge\nprocess_open_fds 12\n";
    return t;
  }
  std::uint64_t tokenize_calls = 0;

  void add(int fd, std::uint64_t id, std::uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = id;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }

  void close_conn(Conn& c) {
    close(c.fd);
    conns.erase(c.uid);
  }

  // Sends (or queues) bytes; false when the connection is gone.
  bool write(Conn& c, const std::string& data) {
    if (!c.out.empty()) {
      c.out += data;
      return true;
    }
    std::size_t off = 0;
    while (off < data.size()) {
      ssize_t n = send(c.fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
      if (n > 0) {
        off += static_cast<std::size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && errno == EAGAIN) {
        c.out.assign(data, off);
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT;
        ev.data.u64 = c.uid;
        epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        return true;
      } else {
        close_conn(c);
        return false;
      }
    }
    return true;
  }

  // After the last bytes: close once they are out.
  void finish(Conn& c) {
    if (c.out.empty()) {
      close_conn(c);
    } else {
      c.close_after_flush = true;
    }
  }

  // The response is complete: with keep-alive the connection waits for the next
  // request (state of the last one dropped, unsent bytes kept), else it closes.
  void end_response(Conn& c, bool can_keep = true) {
    if (!opt.keep_alive || !can_keep) return finish(c);
    Conn next;
    next.uid = c.uid;
    next.fd = c.fd;
    next.out = std::move(c.out);
    next.requests = c.requests;
    next.in = std::move(c.in);
    c = std::move(next);
    if (!c.in.empty()) on_request(c);
  }

  void flush(Conn& c) {
    std::string pending;
    pending.swap(c.out);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = c.uid;
    epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
    std::uint64_t uid = c.uid;
    if (!write(c, pending)) return;
    if (conns.count(uid) && c.out.empty() && c.close_after_flush) close_conn(c);
  }

  void simple_response(Conn& c, int code, const char* reason, const std::string& body,
                       const char* type = "application/json") {
    std::string r = "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: " + type +
                    "\r\nContent-Length: " + std::to_string(body.size()) +
                    (opt.keep_alive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n") + body;
    c.responding = true;
    std::uint64_t uid = c.uid;
    if (write(c, r) && conns.count(uid)) end_response(c);
  }

  std::string frame(const std::string& payload) const {
    if (!opt.chunked) return payload;
    char head[32];
    std::snprintf(head, sizeof head, "%zx\r\n", payload.size());
    return head + payload + "\r\n";
  }

  std::string event(const Conn& c, const std::string& json) const {
    return (c.fault == Fault::kComments ? ": ping\n\ndata:" : "data: ") + json + "\n\n";
  }

  std::string token_json(const Conn& c, const std::string& text, bool last) const {
    const char* finish = last && c.fault != Fault::kNoDone ? "\"length\"" : "null";
    switch (c.api) {
      case Api::kCompletions:
        return "{\"id\":\"" + c.id + "\",\"object\":\"text_completion\",\"created\":0,\"model\":\"" + opt.model +
               "\",\"choices\":[{\"index\":0,\"text\":" + json_escape(text) +
               ",\"logprobs\":null,\"finish_reason\":" + finish + "}],\"usage\":null}";
      case Api::kChat:
        return "{\"id\":\"" + c.id + "\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"" + opt.model +
               "\",\"choices\":[{\"index\":0,\"delta\":{\"content\":" + json_escape(text) +
               "},\"logprobs\":null,\"finish_reason\":" + finish + "}]}";
      case Api::kGenerate:
        return "{\"text\":" + json_escape(c.generated) + ",\"meta_info\":{\"id\":\"" + c.id +
               "\",\"prompt_tokens\":" + std::to_string(c.prompt_tokens) +
               ",\"completion_tokens\":" + std::to_string(c.tokens_sent) +
               ",\"finish_reason\":" + (last && c.fault != Fault::kNoDone ? "{\"type\":\"length\"}" : "null") +
               "},\"index\":0}";
    }
    return "{}";
  }

  void emit(Conn& c, std::int64_t due) {
    if (c.fault == Fault::kStall && c.tokens_sent >= 1) return;  // never scheduled again
    if (c.fault == Fault::kCloseMid && c.tokens_sent >= 3) {
      close_conn(c);
      return;
    }
    std::string payload;
    if (c.events == 2 && c.fault == Fault::kMalformedJson) payload += "data: {\"choices\": [{\"text\": \"x\"\n\n";
    if (c.events == 2 && c.fault == Fault::kErrorEvent) {
      payload += "data: {\"error\":{\"message\":\"injected error\",\"type\":\"InternalServerError\",\"code\":500}}\n\n";
    }
    std::int64_t k = std::min<std::int64_t>(opt.tokens_per_event, c.tokens_left);
    std::string text;
    for (std::int64_t i = 0; i < k; ++i) text += "tok ";
    c.tokens_sent += k;
    c.tokens_left -= k;
    c.generated += text;
    bool last = c.tokens_left == 0;
    payload += event(c, token_json(c, text, last));
    if (last && c.api != Api::kGenerate && c.include_usage && c.fault != Fault::kNoUsage) {
      payload +=
          event(c, "{\"id\":\"" + c.id +
                       "\",\"object\":\"text_completion\",\"choices\":[],\"usage\":{"
                       "\"prompt_tokens\":" +
                       std::to_string(c.prompt_tokens) + ",\"completion_tokens\":" + std::to_string(c.tokens_sent) +
                       ",\"total_tokens\":" + std::to_string(c.prompt_tokens + c.tokens_sent) + "}}");
    }
    if (last && c.fault != Fault::kNoDone) payload += "data: [DONE]\n\n";
    std::string bytes = c.events == 2 && c.fault == Fault::kBadChunk ? "zz\r\n" + payload : frame(payload);
    if (last && opt.chunked) bytes += "0\r\n\r\n";
    ++c.events;
    std::int64_t ts = now_ns();
    {
      std::lock_guard<std::mutex> lock(mu);
      ++events_sent;
      generation_tokens_total += k;
      if (last) --streams_running;
      if (opt.record_events) served[c.served_index].event_ns.push_back(ts);
      served[c.served_index].completion_tokens = c.tokens_sent;
    }
    std::uint64_t uid = c.uid;
    if (!write(c, bytes) || !conns.count(uid)) return;
    if (last && c.fault != Fault::kBadChunk) {
      end_response(c, opt.chunked);
    } else if (last || (c.events == 3 && c.fault == Fault::kBadChunk)) {
      finish(c);
    } else {
      heap.push({c.first_due + c.events * c.itl, c.uid});
    }
    (void)due;
  }

  void start_stream(Conn& c, const std::string& path, const std::string& body, const std::string& head_in) {
    nlohmann::json req = nlohmann::json::parse(body, nullptr, false);
    if (req.is_discarded() || !req.is_object()) {
      simple_response(c, 400, "Bad Request", "{\"error\":{\"message\":\"invalid JSON body\"}}");
      return;
    }
    c.api = path == "/generate" ? Api::kGenerate : path == "/v1/chat/completions" ? Api::kChat : Api::kCompletions;
    std::string prompt;
    std::int64_t max_tokens = opt.default_tokens;
    bool ignore_eos = false;
    if (c.api == Api::kGenerate) {
      prompt = req.value("text", "");
      if (req.contains("sampling_params") && req["sampling_params"].is_object()) {
        max_tokens = req["sampling_params"].value("max_new_tokens", max_tokens);
        ignore_eos = req["sampling_params"].value("ignore_eos", false);
      }
    } else {
      if (c.api == Api::kChat && req.contains("messages") && req["messages"].is_array()) {
        for (const auto& m : req["messages"]) {
          if (!m.is_object() || !m.contains("content")) continue;
          if (m["content"].is_string()) prompt += m["content"].get<std::string>() + " ";
          if (m["content"].is_array()) {  // vLLM's text parts: [{"type": "text", "text": ...}]
            for (const auto& part : m["content"])
              if (part.is_object() && part.value("type", "") == "text") prompt += part.value("text", "");
            prompt += " ";
          }
        }
      } else {
        prompt = req.value("prompt", "");
      }
      max_tokens = req.value("max_completion_tokens", req.value("max_tokens", max_tokens));  // as vLLM's server
      ignore_eos = req.value("ignore_eos", false);
      c.include_usage = req.contains("stream_options") && req["stream_options"].is_object() &&
                        req["stream_options"].value("include_usage", false);
    }
    for (const auto& f : kFaults) {
      if (prompt.find(f.marker) != std::string::npos) c.fault = f.fault;
    }
    std::int64_t words = stream_server_tokens(prompt, opt.chars_per_token);
    std::uint64_t seq = next_request++;
    c.id = "cmpl-" + std::to_string(seq);
    c.prompt_tokens = words;
    c.tokens_left = std::max<std::int64_t>(1, max_tokens);
    c.itl = (opt.itl_us + static_cast<std::int64_t>(seq % 8) * opt.itl_spread_us / 7) * 1000;
    std::int64_t recv = now_ns();
    c.first_due = recv + opt.ttft_us * 1000;
    {
      std::lock_guard<std::mutex> lock(mu);
      ++streams_running;
      peak_streams = std::max(peak_streams, streams_running);
      ++requests_total;
      prompt_tokens_total += words;
      ServedRequest& s = served.emplace_back();
      s.id = c.id;
      s.path = path;
      s.recv_ns = recv;
      s.prompt_tokens = words;
      s.prompt = prompt;
      s.ignore_eos = ignore_eos;
      s.include_usage = c.include_usage;
      s.head = head_in;
      s.body = body;
      c.served_index = served.size() - 1;
    }
    c.responding = true;
    switch (c.fault) {
      case Fault::kHttp500:
        simple_response(c, 500, "Internal Server Error", "{\"error\":{\"message\":\"injected failure\",\"code\":500}}");
        return;
      case Fault::kHttp400:
        simple_response(c, 400, "Bad Request", "{\"error\":{\"message\":\"max_tokens is too large\",\"code\":400}}");
        return;
      case Fault::kBadStatus:
        if (write(c, "HTTP/1.1 abc OK\r\n\r\n")) finish(c);
        return;
      case Fault::kHugeHeader:
        if (write(c, "HTTP/1.1 200 OK\r\nX-Big: " + std::string(200 * 1024, 'a') + "\r\n\r\n")) finish(c);
        return;
      default:
        break;
    }
    std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n";
    head += opt.chunked ? "Transfer-Encoding: chunked\r\n" : "";
    head += opt.keep_alive && opt.chunked ? "\r\n" : "Connection: close\r\n\r\n";
    if (c.api == Api::kChat) {  // vLLM's first event: the role, no text
      head += frame("data: {\"id\":\"" + c.id +
                    "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                    "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n");
    }
    std::uint64_t uid = c.uid;
    if (!write(c, head) || !conns.count(uid)) return;
    heap.push({c.first_due, c.uid});
  }

  void on_request(Conn& c) {
    std::size_t end = c.in.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (c.in.size() > (1 << 20)) simple_response(c, 431, "Request Header Fields Too Large", "{}");
      return;
    }
    std::string head = c.in.substr(0, end);
    std::size_t length = 0;
    for (std::size_t pos = 0; (pos = head.find("\r\n", pos)) != std::string::npos;) {
      pos += 2;
      if (strncasecmp(head.c_str() + pos, "content-length:", 15) == 0)
        length = std::strtoul(head.c_str() + pos + 15, nullptr, 10);
    }
    if (c.in.size() < end + 4 + length) return;
    std::string body = c.in.substr(end + 4, length);
    c.in.erase(0, end + 4 + length);
    if (++c.requests > 1 && opt.close_reused_every > 0 && ++reused_seen % opt.close_reused_every == 0) {
      std::lock_guard<std::mutex> lock(mu);
      ++reused_dropped;
      close(c.fd);
      conns.erase(c.uid);  // c is gone
      return;
    }
    std::size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    std::string method = head.substr(0, sp1);
    std::string path = head.substr(sp1 + 1, sp2 - sp1 - 1);
    bool loading = now_ns() - started_ns < opt.loading_ms * 1'000'000;
    if (path == "/health") {
      if (!opt.health_endpoint) return simple_response(c, 404, "Not Found", "{\"detail\":\"Not Found\"}");
      if (loading) return simple_response(c, 503, "Service Unavailable", "", "text/plain");
      return simple_response(c, 200, "OK", "", "text/plain");
    }
    if (path == "/v1/models") {
      if (loading) return simple_response(c, 503, "Service Unavailable", "{\"error\":\"loading\"}");
      return simple_response(c, 200, "OK",
                             "{\"object\":\"list\",\"data\":[{\"id\":\"" + opt.model + "\",\"object\":\"model\"}]}");
    }
    if (path == "/metrics" && !opt.metrics_engine.empty()) {
      std::string text = metrics_text();
      {
        std::lock_guard<std::mutex> lock(mu);
        ++metrics_scrapes;
      }
      return simple_response(c, 200, "OK", text, "text/plain; version=0.0.4; charset=utf-8");
    }
    if (method == "POST" && path == "/tokenize" && opt.tokenize_endpoint) {
      nlohmann::json req = nlohmann::json::parse(body, nullptr, false);
      if (req.is_discarded() || !req.is_object() || !req.contains("prompt") || !req["prompt"].is_string()) {
        return simple_response(c, 400, "Bad Request", "{\"error\":{\"message\":\"prompt must be a string\"}}");
      }
      std::int64_t n = stream_server_tokens(req["prompt"].get<std::string>(), opt.chars_per_token);
      if (req.value("add_special_tokens", true)) ++n;  // a BOS token, as Llama's tokenizers add
      nlohmann::json tokens = nlohmann::json::array();
      for (std::int64_t i = 0; i < n; ++i) tokens.push_back(1000 + i);
      {
        std::lock_guard<std::mutex> lock(mu);
        ++tokenize_calls;
      }
      return simple_response(c, 200, "OK",
                             nlohmann::json{{"tokens", tokens}, {"count", n}, {"max_model_len", 4096}}.dump());
    }
    if (method == "POST" && (path == "/start_profile" || path == "/stop_profile")) {
      {
        std::lock_guard<std::mutex> lock(mu);
        timespec rt;
        clock_gettime(CLOCK_REALTIME, &rt);
        profile_calls.push_back(
            {path, body, now_ns(), static_cast<std::int64_t>(rt.tv_sec) * 1'000'000'000 + rt.tv_nsec});
      }
      return simple_response(c, 200, "OK", path == "/start_profile" ? "Start profiling.\n" : "Stop profiling.\n",
                             "text/plain");
    }
    if (method == "POST" && (path == "/v1/completions" || path == "/v1/chat/completions" || path == "/generate")) {
      return start_stream(c, path, body, head);
    }
    simple_response(c, 404, "Not Found", "{\"detail\":\"Not Found\"}");
  }

  void on_conn_event(std::uint64_t uid, std::uint32_t events) {
    auto it = conns.find(uid);
    if (it == conns.end()) return;
    Conn& c = *it->second;
    if (events & EPOLLOUT) {
      flush(c);
      if (!conns.count(uid)) return;
    }
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
      char buf[16384];
      ssize_t n = read(c.fd, buf, sizeof buf);
      if (n > 0) {
        c.in.append(buf, static_cast<std::size_t>(n));
        if (!c.responding) on_request(c);
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        close_conn(c);  // the client went away
      }
    }
  }

  void loop() {
    epoll_event events[256];
    bool running = true;
    while (running) {
      itimerspec spec{};
      if (!heap.empty()) {
        std::int64_t due = std::max<std::int64_t>(heap.top().first, 1);
        spec.it_value.tv_sec = due / 1'000'000'000;
        spec.it_value.tv_nsec = due % 1'000'000'000;
      }
      timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &spec, nullptr);
      int n = epoll_wait(ep, events, 256, -1);
      for (int i = 0; i < n; ++i) {
        std::uint64_t id = events[i].data.u64;
        if (id == kWakeId) {
          running = false;
        } else if (id == kTimerId) {
          std::uint64_t x;
          [[maybe_unused]] ssize_t r = read(timer_fd, &x, sizeof x);
        } else if (id == kListenId) {
          while (true) {
            int fd = accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) break;
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            {
              std::lock_guard<std::mutex> lock(mu);
              ++connections_accepted;
            }
            auto c = std::make_unique<Conn>();
            c->uid = next_uid++;
            c->fd = fd;
            add(fd, c->uid, EPOLLIN);
            conns[c->uid] = std::move(c);
          }
        } else {
          on_conn_event(id, events[i].events);
        }
      }
      std::int64_t now = now_ns();
      while (running && !heap.empty() && heap.top().first <= now) {
        auto [due, uid] = heap.top();
        heap.pop();
        auto it = conns.find(uid);
        if (it != conns.end()) emit(*it->second, due);
      }
    }
  }
};

StreamServer::StreamServer(StreamServerOptions options, std::uint16_t port) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.opt = std::move(options);
  s.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int one = 1;
  setsockopt(s.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || listen(s.listen_fd, 4096) < 0) {
    close(s.listen_fd);
    throw std::runtime_error(std::string("stream server: cannot listen: ") + std::strerror(errno));
  }
  socklen_t len = sizeof addr;
  getsockname(s.listen_fd, reinterpret_cast<sockaddr*>(&addr), &len);
  s.port = ntohs(addr.sin_port);
  s.ep = epoll_create1(EPOLL_CLOEXEC);
  s.timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  s.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  s.add(s.listen_fd, kListenId, EPOLLIN);
  s.add(s.timer_fd, kTimerId, EPOLLIN);
  s.add(s.wake_fd, kWakeId, EPOLLIN);
  s.started_ns = now_ns();
  s.thread = std::thread([&s] { s.loop(); });
}

StreamServer::~StreamServer() {
  stop();
  close(impl_->ep);
  close(impl_->timer_fd);
  close(impl_->wake_fd);
}

void StreamServer::stop() {
  Impl& s = *impl_;
  if (s.stopped) return;
  s.stopped = true;
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t r = ::write(s.wake_fd, &one, sizeof one);
  s.thread.join();
  close(s.listen_fd);
  for (auto& [uid, c] : s.conns) close(c->fd);
  s.conns.clear();
}

std::uint16_t StreamServer::port() const { return impl_->port; }

std::uint64_t StreamServer::connections_accepted() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->connections_accepted;
}

std::uint64_t StreamServer::reused_requests_dropped() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->reused_dropped;
}
std::string StreamServer::url() const { return "http://127.0.0.1:" + std::to_string(impl_->port); }

std::int64_t StreamServer::peak_streams() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->peak_streams;
}

std::vector<ServedRequest> StreamServer::served() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return {impl_->served.begin(), impl_->served.end()};
}

std::vector<ProfileCall> StreamServer::profile_calls() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->profile_calls;
}

std::uint64_t StreamServer::tokenize_calls() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->tokenize_calls;
}

std::int64_t stream_server_tokens(const std::string& text, int chars_per_token) {
  std::int64_t tokens = 0, word = 0;
  auto end_word = [&] {
    if (word > 0) tokens += chars_per_token > 0 ? (word + chars_per_token - 1) / chars_per_token : 1;
    word = 0;
  };
  for (char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\t') {
      end_word();
    } else {
      ++word;
    }
  }
  end_word();
  return tokens;
}

std::uint64_t StreamServer::events_sent() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->events_sent;
}

std::uint64_t StreamServer::metrics_scrapes() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->metrics_scrapes;
}

std::string StreamServer::metrics_text() const { return impl_->metrics_text(); }

}  // namespace cuprobe::test
