// Which pod holds which GPU, from the kubelet's pod-resources API
// (k8s.io/kubelet/pkg/apis/podresources/v1, /v1.PodResourcesLister/List over
// its unix socket), as dcgm-exporter reads it: devices of the resources
// nvidia.com/gpu and nvidia.com/mig-*, whose ids are GPU-… or MIG-… UUIDs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "exporter/exporter_snapshot.h"

namespace cuprobe {

constexpr const char* kKubeletPodResourcesSocket = "/var/lib/kubelet/pod-resources/kubelet.sock";

// nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...
bool is_gpu_resource(std::string_view resource_name);

// Device UUID → pod from a ListPodResourcesResponse; throws Error on a malformed message.
// A device id with a sharing suffix ("GPU-…::3", time-slicing replicas) counts for its GPU;
// ids that are not UUIDs (an index strategy) are left out; a device listed for several
// containers keeps the first. Each container's labels are held once, shared by its devices.
PodOfDevice parse_pod_resources(std::string_view list_response);

// Asks the kubelet at `socket_path`; throws Error (one line) when it cannot be asked.
PodOfDevice list_pod_resources(const std::string& socket_path, std::int64_t timeout_ms = 5000);

}  // namespace cuprobe
