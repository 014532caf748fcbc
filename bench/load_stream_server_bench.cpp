// The bench tests' streaming server as a program, for bench/load_client_throughput.sh:
//   load_stream_server_bench [--port P] [--ttft-us N] [--itl-us N] [--tokens-per-event N]
// Prints "PORT" on stdout once listening; runs until stdin closes or SIGTERM.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// The server is test-suite code (tests/support/); this program compiles it in
// rather than making it part of a library.
#include "../tests/support/stream_server.cpp"

int main(int argc, char** argv) {
  cuprobe::test::StreamServerOptions opt;
  opt.record_events = false;
  unsigned port = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    long long value = std::atoll(argv[i + 1]);
    if (key == "--port")
      port = static_cast<unsigned>(value);
    else if (key == "--ttft-us")
      opt.ttft_us = value;
    else if (key == "--itl-us")
      opt.itl_us = value;
    else if (key == "--tokens-per-event")
      opt.tokens_per_event = static_cast<int>(value);
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // the server thread inherits the mask
  cuprobe::test::StreamServer server(opt, static_cast<std::uint16_t>(port));
  std::printf("%u\n", server.port());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&set, &sig);
  std::fprintf(stderr, "stream server: %llu events sent\n", static_cast<unsigned long long>(server.events_sent()));
  return 0;
}
