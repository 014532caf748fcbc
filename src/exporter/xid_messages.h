// The message of each XID code, as dcgm-exporter labels DCGM_FI_DEV_XID_ERRORS
// (`err_code`, `err_msg`): NVIDIA's XID catalog (docs.nvidia.com/deploy/xid-errors),
// codes 0-172, in the words dcgm-exporter uses (internal/pkg/collector/xid_errors.go),
// "Unknown Error" outside the table.
#pragma once

#include <string_view>

namespace cuprobe {

std::string_view xid_message(long long code);

}  // namespace cuprobe
