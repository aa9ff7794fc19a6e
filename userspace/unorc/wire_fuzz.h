// SPDX-License-Identifier: GPL-2.0
//
// What wire_fuzz and its seed corpus agree on: the paper's (8, 2) code with
// a short payload, so that valid datagrams stay small for the fuzzer.
#pragma once

#include "wire.h"

inline constexpr unorc::WireLimits kFuzzLimits = { 8, 2, 64 };
