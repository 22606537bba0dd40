// columnChecksum(values: Float64Array) → number: the CRC-32 of the column's bytes with every NaN
// taken as the canonical NaN (pesim/checksum.hpp), for the metadata of result files. Anything but
// a Float64Array throws a TypeError with code ENCODE_INVALID and field "values".
#pragma once

#include <napi.h>

namespace pesim::addon {

Napi::Value ColumnChecksum(const Napi::CallbackInfo& info);

}  // namespace pesim::addon
