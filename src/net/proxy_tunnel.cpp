#include "net/proxy_tunnel.h"

#include <charconv>

#include "common/utf8.h"

namespace cuprobe {

std::string connect_request(const HttpUrl& origin, const ProxyServer& proxy) {
  return "CONNECT " + origin.authority() + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\nUser-Agent: cuprobe\r\n" +
         proxy.header_lines() + "\r\n";
}

ConnectReply::ConnectReply(const HttpUrl& origin, const ProxyServer& proxy)
    : target_(origin.authority()), proxy_(proxy.display()) {}

ConnectReply::State ConnectReply::fail(std::string why) {
  state_ = State::kFailed;
  error_ = "the proxy " + proxy_ + " " + std::move(why);
  return state_;
}

ConnectReply::State ConnectReply::feed(std::string_view data) {
  if (state_ != State::kReading) {
    if (state_ == State::kEstablished) rest_.append(data);
    return state_;
  }
  std::size_t before = buffer_.size();
  buffer_.append(data.substr(0, kMaxBytes + 4 - std::min(before, kMaxBytes + 4)));
  std::size_t end = buffer_.find("\r\n\r\n", before >= 3 ? before - 3 : 0);
  if (end == std::string::npos) {
    if (buffer_.size() > kMaxBytes) return fail("sent more than 16 KiB of headers in answer to CONNECT " + target_);
    return state_;
  }
  std::string_view line(buffer_.data(), buffer_.find("\r\n"));
  int code = 0;
  // "HTTP/1.x NNN[ reason]": three digits, then the end or a space ("2000 OK" is no 200).
  if (line.starts_with("HTTP/1.") && line.size() >= 12 && line[8] == ' ' && (line.size() == 12 || line[12] == ' ')) {
    auto [digits_end, ec] = std::from_chars(line.data() + 9, line.data() + 12, code);
    if (ec != std::errc() || digits_end != line.data() + 12) code = 0;
  }
  if (code < 100 || code > 599) return fail("answered CONNECT " + target_ + " with '" + printable_ascii(line) + "'");
  status_ = code;
  if (code < 200 || code >= 300) {
    std::string_view reason = line.size() > 13 ? line.substr(13) : std::string_view();
    return fail("answered CONNECT " + target_ + " with HTTP " + std::to_string(code) +
                (reason.empty() ? "" : " " + printable_ascii(reason)) +
                (code == 407 ? " (give credentials as http://USER:PASSWORD@HOST:PORT in the proxy variable)" : ""));
  }
  if (before + data.size() > end + 4) rest_.assign(data.substr(end + 4 - before));
  state_ = State::kEstablished;
  return state_;
}

}  // namespace cuprobe
