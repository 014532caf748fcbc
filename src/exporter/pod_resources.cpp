#include "exporter/pod_resources.h"

#include <memory>
#include <new>
#include <vector>

#include "common/error.h"
#include "net/grpc_unary_call.h"
#include "net/protobuf_reader.h"

namespace cuprobe {
namespace {

// Bounds on what the kubelet's reply can make us hold (issue 39: each device's entry copies its pod's names,
// so a 2 MB reply of long names cost ~4 GB): Kubernetes names are at most 253 bytes, a node holds far fewer
// GPU devices (MIG instances included) than this.
constexpr std::size_t kMaxNameBytes = 253;
constexpr std::size_t kMaxGpuDevices = 4096;

std::string_view checked_name(std::string_view name, const char* what) {
  if (name.size() > kMaxNameBytes) {
    throw Error(std::string(what) + " of " + std::to_string(name.size()) + " bytes (Kubernetes names are at most " +
                std::to_string(kMaxNameBytes) + ")");
  }
  return name;
}

// ContainerDevices{string resource_name = 1; repeated string device_ids = 2; TopologyInfo topology = 3}
// `owner` is made on the first GPU device of the container, then shared by the others.
void read_devices(std::string_view message, const PodRef& labels, std::shared_ptr<const PodRef>& owner,
                  PodOfDevice& out) {
  std::string resource;
  std::vector<std::string_view> ids;
  ProtobufReader r(message);
  while (r.next()) {
    if (r.wire_type() != ProtobufReader::kLengthDelimited) continue;
    if (r.field() == 1) resource = r.bytes();
    if (r.field() == 2) ids.push_back(r.bytes());
  }
  if (!is_gpu_resource(resource)) return;
  for (std::string_view id : ids) {
    std::string_view uuid = id.substr(0, id.find("::"));
    if (!uuid.starts_with("GPU-") && !uuid.starts_with("MIG-")) continue;
    if (uuid.size() > kMaxNameBytes) continue;
    if (out.size() >= kMaxGpuDevices && !out.contains(std::string(uuid))) {
      throw Error("more than " + std::to_string(kMaxGpuDevices) + " GPU devices listed");
    }
    if (!owner) owner = std::make_shared<const PodRef>(labels);
    out.emplace(std::string(uuid), owner);
  }
}

// ContainerResources{string name = 1; repeated ContainerDevices devices = 2; ...}
void read_container(std::string_view message, PodRef labels, PodOfDevice& out) {
  std::vector<std::string_view> devices;
  ProtobufReader r(message);
  while (r.next()) {
    if (r.wire_type() != ProtobufReader::kLengthDelimited) continue;
    if (r.field() == 1) labels.container = checked_name(r.bytes(), "a container name");
    if (r.field() == 2) devices.push_back(r.bytes());
  }
  std::shared_ptr<const PodRef> owner;
  for (std::string_view d : devices) read_devices(d, labels, owner, out);
}

// PodResources{string name = 1; string namespace = 2; repeated ContainerResources containers = 3}
void read_pod(std::string_view message, PodOfDevice& out) {
  PodRef pod;
  std::vector<std::string_view> containers;
  ProtobufReader r(message);
  while (r.next()) {
    if (r.wire_type() != ProtobufReader::kLengthDelimited) continue;
    if (r.field() == 1) pod.pod = checked_name(r.bytes(), "a pod name");
    if (r.field() == 2) pod.pod_namespace = checked_name(r.bytes(), "a namespace");
    if (r.field() == 3) containers.push_back(r.bytes());
  }
  for (std::string_view c : containers) read_container(c, pod, out);
}

}  // namespace

bool is_gpu_resource(std::string_view resource_name) {
  return resource_name == "nvidia.com/gpu" || resource_name.starts_with("nvidia.com/mig-");
}

PodOfDevice parse_pod_resources(std::string_view list_response) {
  PodOfDevice out;
  ProtobufReader r(list_response);  // ListPodResourcesResponse{repeated PodResources pod_resources = 1}
  while (r.next()) {
    if (r.field() == 1 && r.wire_type() == ProtobufReader::kLengthDelimited) read_pod(r.bytes(), out);
  }
  return out;
}

PodOfDevice list_pod_resources(const std::string& socket_path, std::int64_t timeout_ms) {
  GrpcCall call;
  call.socket_path = socket_path;
  call.method = "/v1.PodResourcesLister/List";
  call.timeout_ms = timeout_ms;
  std::string response = grpc_unary_call(call, "");
  try {
    return parse_pod_resources(response);
  } catch (const Error& e) {
    throw Error(socket_path + ": ListPodResourcesResponse: " + e.what());
  } catch (const std::bad_alloc&) {  // never out of the lookup thread
    throw Error(socket_path + ": ListPodResourcesResponse: out of memory reading " + std::to_string(response.size()) +
                " bytes");
  }
}

}  // namespace cuprobe
