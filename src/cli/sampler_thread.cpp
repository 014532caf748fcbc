#include "cli/sampler_thread.h"

#include <chrono>

namespace cuprobe {

SamplerThread::SamplerThread(std::unique_ptr<DeviceSampler> sampler) : sampler_(std::move(sampler)) {
  sampler_->start();
  thread_ = std::thread([this] {
    while (!done_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      take(sampler_->drain());
    }
  });
}

std::vector<CounterRow> SamplerThread::finish() {
  if (thread_.joinable()) {
    done_ = true;
    thread_.join();
    sampler_->stop();
    take(sampler_->drain());
  }
  std::lock_guard<std::mutex> lock(mu_);
  return rows_;
}

void SamplerThread::take(std::vector<CounterRow> rows) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& r : rows) rows_.push_back(std::move(r));
}

}  // namespace cuprobe
